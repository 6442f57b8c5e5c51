#!/usr/bin/env python3
"""Check that README.md links every guide in docs/ (docs/<game>.md for each game, and the
other pages), and that every link from README.md to docs/ points at a file that exists.

The guides are not copied into the README any more: they live in docs/ only. Run:

    python scripts/readme_games.py        # exit status 1 and a list of problems if any

(tests/test_docs.py runs the same check.)
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import script_cli  # noqa: E402


def problems(root: Path = ROOT) -> list[str]:
    readme = (root / "README.md").read_text(encoding="utf-8")
    linked = set(re.findall(r"\]\((docs/[^)#\s]+)", readme))
    found = []
    for page in sorted((root / "docs").glob("*.md")):
        rel = page.relative_to(root).as_posix()
        if rel not in linked:
            found.append(f"README.md does not link {rel}")
    for rel in sorted(linked):
        if not (root / rel).is_file():
            found.append(f"README.md links {rel}, which does not exist")
    return found


def main() -> int:
    script_cli.Parser(__doc__).parse_args()
    found = problems()
    for line in found:
        print(line, file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    script_cli.run(main)
