#!/usr/bin/env python3
"""Copy the per-game guides (docs/<game>.md) and docs/reports.md into README.md.

The README is the one place users read; docs/ holds the same text split by game so that
each game's guide can be edited beside its code. Run after editing a guide:

    python scripts/readme_games.py
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ORDER = ["twenty-two", "ninety-nine", "hearts2", "two-ten-jack", "pitch10", "reports"]


def demote(text: str) -> str:
    """Headings two levels down (# -> ###), so each guide nests under the README's "Games"."""
    return re.sub(r"^(#+) ", lambda m: "##" + m.group(1) + " ", text, flags=re.M)


def main() -> None:
    parts = []
    for name in ORDER:
        path = ROOT / "docs" / f"{name}.md"
        if path.is_file():
            parts.append(demote(path.read_text(encoding="utf-8").strip()) + "\n")
    readme = ROOT / "README.md"
    content = readme.read_text(encoding="utf-8")
    block = "<!-- games:start (generated from docs/ by scripts/readme_games.py) -->\n" + "\n".join(parts)
    new = re.sub(r"<!-- games:start.*?-->\n.*?(<!-- games:end -->)", lambda m: block + m.group(1), content, flags=re.S)
    readme.write_text(new, encoding="utf-8")


if __name__ == "__main__":
    main()
