"""10-Point Pitch (docs/rules.md section 5)."""

from analyzer.games.base import PositionFlag

#: position keys ``evaluate`` takes as flags; kept here, light to import, for the CLI
POSITION_FLAGS = (PositionFlag("bids", 'Pitch: bids so far from left of the dealer, e.g. "pass,5".', "LIST"),)
