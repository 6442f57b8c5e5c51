"""Intervals of shares estimated from per-game sums (analyzer.stats.ratio_share_interval):
inside [0, 1] however rare the event, and right for clustered data (hands within games)."""

from __future__ import annotations

import numpy as np

from analyzer.stats import ratio_interval, ratio_share_interval


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
