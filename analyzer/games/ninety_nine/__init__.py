"""Ninety-Nine (docs/rules.md section 2)."""

from analyzer.games.base import PositionFlag

#: position keys ``evaluate`` takes as flags; kept here, light to import, for the CLI
POSITION_FLAGS = (PositionFlag("total", "Ninety-Nine: the pile total.", "N"),
                  PositionFlag("chips", "Ninety-Nine: chips per seat, e.g. 3,1,2.", "LIST"))
