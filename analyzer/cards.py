"""Card tokens and codes, deck specs, and parsing with clear errors.

A card code is ``suit * 13 + rank`` with ranks ``0..12`` for ``2..A`` and suits ``0..3``
for ``C D H S``, so a suit is a 13-bit run of a uint64 hand mask. The jokers of 10-Point
Pitch are ``LJ = 52`` and ``HJ = 53``. Canonical tokens are rank then suit (``TH``,
``AS``); input also accepts ``10H`` and lower case.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

RANKS = "23456789TJQKA"
SUITS = "CDHS"
LOW_JOKER = 52
HIGH_JOKER = 53
JOKER_TOKENS = {LOW_JOKER: "LJ", HIGH_JOKER: "HJ"}

#: Value of each rank for Twenty-Two scoring and hand sizes: 2-10 face, J/Q/K 10, A 11.
RANK_POINTS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 11)


class CardError(ValueError):
    """A card token that is malformed, not in the game's deck, or repeated."""


def code(rank: int, suit: int) -> int:
    return suit * 13 + rank


def rank_of(card: int) -> int:
    return card % 13


#: every card code's token, by code (records write thousands of them per game)
_TOKENS = tuple(RANKS[c % 13] + SUITS[c // 13] for c in range(52)) + (JOKER_TOKENS[LOW_JOKER], JOKER_TOKENS[HIGH_JOKER])


def token(card: int) -> str:
    """Canonical token of a card code (``TH``, ``AS``, ``HJ``)."""
    if 0 <= card < len(_TOKENS):
        return _TOKENS[card]
    raise CardError(f"no card has code {card}")


def tokens(cards: Iterable[int]) -> list[str]:
    table, n = _TOKENS, len(_TOKENS)
    return [table[c] if 0 <= c < n else token(c) for c in cards]


def parse_card(text: str) -> int:
    """Parse one token; raises :class:`CardError` naming the token and what was expected."""
    raw = text.strip()
    t = raw.upper()
    if t in ("HJ", "LJ"):
        return HIGH_JOKER if t == "HJ" else LOW_JOKER
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise CardError(
            f"bad card {raw!r}: expected a rank from {RANKS} (or 10) followed by a suit "
            f"from {SUITS}, like 'TH', '10h' or 'qs' (jokers: 'HJ', 'LJ')"
        )
    return code(RANKS.index(t[0]), SUITS.index(t[1]))


def parse_cards(text: str | Sequence[str]) -> list[int]:
    """Parse space- or comma-separated tokens (or a list of tokens) into codes."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card(item) for item in items]


class Deck:
    """The cards of one game: which codes exist and how many copies of each."""

    def __init__(self, name: str, codes: Sequence[int], copies: int = 1) -> None:
        self.name = name
        self.codes = tuple(codes)
        self.copies = copies

    @property
    def size(self) -> int:
        return len(self.codes) * self.copies

    def cards(self) -> list[int]:
        """Every physical card, as codes (repeated ``copies`` times)."""
        return [c for _ in range(self.copies) for c in self.codes]

    def check(self, cards: Sequence[int], what: str = "cards") -> None:
        """Raise :class:`CardError` for a card not in this deck or used too often."""
        allowed = set(self.codes)
        counts: dict[int, int] = {}
        for c in cards:
            if c not in allowed:
                raise CardError(f"{token(c)} is not in the {self.name} deck ({what})")
            counts[c] = counts.get(c, 0) + 1
            if counts[c] > self.copies:
                times = "once" if self.copies == 1 else f"{self.copies} times"
                raise CardError(f"duplicate card {token(c)} in {what}: the {self.name} deck holds it {times}")

    def parse(self, text: str | Sequence[str], what: str = "cards") -> list[int]:
        cards = parse_cards(text)
        self.check(cards, what)
        return cards


def standard_deck(copies: int = 1) -> Deck:
    name = "52-card" if copies == 1 else f"{copies}x52-card"
    return Deck(name, range(52), copies)


def hearts2_deck() -> Deck:
    ranks = [RANKS.index(r) for r in "2468TQA"]
    return Deck("28-card hearts2", [code(r, s) for s in range(4) for r in ranks])


def pitch_deck() -> Deck:
    return Deck("54-card pitch", [*range(52), LOW_JOKER, HIGH_JOKER])
