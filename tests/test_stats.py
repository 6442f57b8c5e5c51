"""Intervals of shares estimated from per-game sums (analyzer.stats.ratio_share_interval):
inside [0, 1] however rare the event, and right for clustered data (hands within games)."""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest

from analyzer.stats import ratio_interval, ratio_share_interval, sign_flip_p_value


def _sums(events: np.ndarray, hands: np.ndarray) -> tuple[float, float, float, float, float, int]:
    """The sums the Accumulator keeps for a pair of per-game columns."""
    return (float(events.sum()), float(hands.sum()), float((events ** 2).sum()), float((hands ** 2).sum()),
            float((events * hands).sum()), events.size)


def _games(rng: np.random.Generator, n_games: int, rate: float) -> tuple[np.ndarray, np.ndarray]:
    """Games of 3 to 12 hands; each game has its own propensity (Beta around ``rate``), so
    the hands of one game are correlated, as a strategy's hands are."""
    hands = rng.integers(3, 13, n_games)
    propensity = rng.beta(0.5, 0.5 * (1 - rate) / rate, n_games)  # intra-game correlation 1/11
    return rng.binomial(hands, propensity), hands


def test_a_rare_share_has_an_interval_inside_zero_one_where_the_delta_one_is_not():
    events = np.zeros(400, dtype=np.int64)
    events[7] = 1  # one moon in 400 games
    hands = np.full(400, 8)
    r, lo, hi = ratio_share_interval(*_sums(events, hands))
    _, delta_lo, _ = ratio_interval(*_sums(events, hands))
    assert delta_lo < 0  # what the summary showed before
    assert r == 1 / 3200 and 0.0 <= lo < r < hi < 0.01


def test_share_intervals_cover_the_true_share_of_clustered_data():
    """Coverage over 600 replications of 150 games (true share 0.05, clustered): a 95%
    interval covers 91.9%-97.7% of the time by 3.5 binomial SEs; the naive interval that
    treats hands as independent covers clearly less, so the test can tell them apart."""
    rng = np.random.default_rng(20261201)
    rate = 0.05
    covered = naive = 0
    for _ in range(600):
        events, hands = _games(rng, 150, rate)
        _, lo, hi = ratio_share_interval(*_sums(events, hands))
        covered += lo <= rate <= hi
        p = events.sum() / hands.sum()
        half = 1.96 * np.sqrt(p * (1 - p) / hands.sum())
        naive += p - half <= rate <= p + half
    assert 0.919 <= covered / 600 <= 0.977, covered / 600
    assert naive / 600 < covered / 600 - 0.05, (naive / 600, covered / 600)


def test_a_share_of_everything_or_nothing_stays_in_bounds():
    hands = np.full(50, 6)
    for events in (np.zeros(50), hands.copy()):
        r, lo, hi = ratio_share_interval(*_sums(events, hands))
        assert 0.0 <= lo <= r <= hi <= 1.0


def brute_sign_flip(values, center):
    """The sign-flip p-value by enumerating every sign vector (independent of the DP)."""
    d = [v - center for v in values]
    observed = abs(sum(d))
    hits = sum(abs(sum(s * x for s, x in zip(signs, d))) >= observed - 1e-12
               for signs in itertools.product((-1, 1), repeat=len(d)))
    return hits / 2 ** len(d)


def test_the_sign_flip_test_equals_the_enumeration_of_every_sign():
    rnd = random.Random(4)
    grid = [0, 1 / 6, 1 / 4, 1 / 3, 1 / 2, 2 / 3, 3 / 4, 5 / 6, 1]  # shares of wins, 2 to 4 seatings
    for n in range(1, 13):
        for _ in range(6):
            values = [rnd.choice(grid) for _ in range(n)]
            assert abs(sign_flip_p_value(values, 0.5) - brute_sign_flip(values, 0.5)) < 1e-12, values


def test_the_sign_flip_test_is_the_sign_test_on_equal_steps_and_grows_with_doubt():
    assert sign_flip_p_value([1.0] * 10, 0.5) == 2.0 ** -9  # every deal to one side
    assert sign_flip_p_value([0.5] * 10, 0.5) == 1.0  # no deal to either side
    # 7 games of 8 won on 4 deals is less sure than 8 of 8 (a normal test gave p = 0.003)
    assert sign_flip_p_value([1, 1, 1, 0.5], 0.5) == 0.25 > sign_flip_p_value([1, 1, 1, 1], 0.5) == 0.125
    assert sign_flip_p_value([1] * 8 + [0.5] * 2, 0.5) > sign_flip_p_value([1] * 10, 0.5)
    assert sign_flip_p_value([0.1234567], 0.5) is None  # on no grid: the caller's normal test


def test_one_value_has_no_interval_not_one_of_zero_width():
    from analyzer.stats import mean_interval

    mean, lo, hi = mean_interval(20.0, 400.0, 1)
    assert mean == 20.0 and math.isnan(lo) and math.isnan(hi)
    # two values (1 and 2): Student's t with 1 degree of freedom, 12.706 standard errors
    t1 = 12.706204736174704  # a t table's t(0.975, 1) = tan(0.475 pi)
    assert math.isclose(t1, math.tan(0.475 * math.pi), rel_tol=1e-12)
    assert mean_interval(3.0, 5.0, 2) == pytest.approx((1.5, 1.5 - t1 * 0.5, 1.5 + t1 * 0.5), rel=1e-12)


def test_intervals_from_few_groups_use_students_t():
    """From 3 games a normal-quantile interval covers about 65% (a simulation of the audit);
    every interval whose variance comes from n groups uses t with n - 1 degrees of freedom
    (``t95``), Z95 in the limit, and a proportion's Wilson interval the effective size shrunk
    by (z / t)^2 (Korn and Graubard)."""
    from scipy import stats as scipy_stats

    from analyzer.stats import Moments, Z95, mean_interval, proportion_interval, t95

    for df in (1, 2, 5, 29, 1000):
        assert t95(df) == pytest.approx(scipy_stats.t.ppf(0.975, df), rel=1e-12)
    assert t95(float("inf")) == Z95 and math.isnan(t95(0))
    x = np.array([1.0, 4.0, 2.0, 7.0])
    mean, lo, hi = mean_interval(float(x.sum()), float((x * x).sum()), 4)
    assert hi - mean == pytest.approx(scipy_stats.t.ppf(0.975, 3) * x.std(ddof=1) / 2, rel=1e-12)
    # a share of wins over 5 deals, Wilson at the effective size times (z / t(4))^2
    shares = np.array([0.25, 0.5, 1.0, 0.75, 0.5])
    m = Moments()
    m.add(shares)
    p, var = shares.mean(), shares.var(ddof=1) / 5
    n_eff = p * (1 - p) / var * (Z95 / scipy_stats.t.ppf(0.975, 4)) ** 2
    assert m.proportion()[1:] == pytest.approx(_wilson_by_hand(p * n_eff, n_eff), rel=1e-12)
    assert proportion_interval(p, var, 5) == pytest.approx(_wilson_by_hand(p * p * (1 - p) / var, p * (1 - p) / var))


def _wilson_by_hand(k: float, n: float, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson's score interval, k successes of n, from its textbook formula."""
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


def test_shares_without_spread_on_a_sample_get_the_plain_draws_interval_not_zero_width():
    # compare's per-deal shares: 2 deals of one win each gave 0.500 [0.500, 0.500] (so did
    # 48% of 2-deal comparisons of equal strategies, 3% of 10-deal ones)
    from analyzer.stats import Moments, share_interval

    for values, k in (([0.5] * 10, 5), ([0.75] * 4, 3), ([0.5, 0.5], 1)):
        m = Moments()
        m.add(np.array(values))
        for mean, lo, hi in (m.proportion(), share_interval(values)):
            want_lo, want_hi = _wilson_by_hand(k, len(values))
            assert mean == k / len(values) and lo < mean < hi
            assert abs(lo - want_lo) < 1e-12 and abs(hi - want_hi) < 1e-12, (values, lo, hi)


def test_a_clustered_share_of_nothing_or_everything_counts_games_not_hands():
    # 0 moons (or every hand a moon) in 400 games of 8 hands: nothing says the hands of a game
    # are independent, so the interval is Wilson at the 400 games (textbook formula), not at
    # the 3,200 hands (upper end 0.0012 where 400 games give 0.0095)
    hands = np.full(400, 8)
    for events, k in ((np.zeros(400), 0), (hands.copy(), 400)):
        r, lo, hi = ratio_share_interval(*_sums(events, hands))
        want_lo, want_hi = _wilson_by_hand(k, 400)
        assert r == k / 400 and abs(lo - max(want_lo, 0.0)) < 1e-12 and abs(hi - min(want_hi, 1.0)) < 1e-12
    # games of unequal sizes (1 and 9 hands): Kish's effective number of games, (sum m)^2 / sum m^2
    hands = np.array([1, 9] * 100)
    r, lo, hi = ratio_share_interval(*_sums(np.zeros(200), hands))
    games = 1000.0 ** 2 / (100 * 1 + 100 * 81)
    assert abs(games - 121.95) < 0.01 and abs(hi - _wilson_by_hand(0, games)[1]) < 1e-12


def test_moments_on_a_grid_sum_exactly_whatever_the_grouping():
    """compare's shares are multiples of 1/(winners x seatings): with that scale the sums are
    exact integers, so chunks cut anywhere and merged give the same bits (float sums gave
    0.9226625000000004 for 0.9226625 with other chunk sizes), the correctly rounded quotients
    of the exact sums."""
    from fractions import Fraction

    from analyzer.stats import Moments

    rng = np.random.default_rng(3)
    draws = rng.integers(0, 13, 5000)
    values = draws / 12   # a share of wins on a grid of 1/12
    twelfths = [Fraction(int(k), 12) for k in draws]   # the same values as exact fractions
    exact, exact_sq = sum(twelfths), sum(f * f for f in twelfths)
    results = set()
    for cuts in ([5000], [1, 4999], [777, 1000, 3223], [2500, 2500], [13] * 384 + [8]):
        whole, start = Moments(scale=12), 0
        for size in cuts:
            part = Moments(scale=12)
            part.add(values[start:start + size])
            whole.merge(part.state())
            start += size
        assert whole.n == 5000
        results.add((whole.s, whole.sq, whole.interval()))
    assert len(results) == 1
    [(s, sq, _)] = results
    assert s == float(exact) and sq == float(exact_sq)   # the correctly rounded exact sums
    try:
        Moments(scale=12).add(np.array([0.1]))
    except ValueError:   # not on the grid: a wrong scale is a bug, not a rounding
        pass
    else:
        raise AssertionError("0.1 taken for a multiple of 1/12")
