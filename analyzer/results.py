"""The one result type every command returns: named tables, facts, a verdict, ``to_dict``.

``simulate`` (api.Summary), ``compare`` (compare.Comparison), rule-variant studies
(compare.VariantStudy) and ``evaluate`` (evaluate.EvaluationResult) are all a
:class:`Result`: their tables are DataFrames by name, their facts a flat dict, and
``to_dict()`` is what ``--json`` prints (facts, then the verdict, then every table as a list
of records), cleaned for JSON (numpy scalars to Python, NaN and infinities to null).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np


def clean(value: Any) -> Any:
    """JSON-friendly: numpy scalars to Python, NaN and infinities to None (dicts and lists
    recursively): ``json.dumps`` would write them as NaN and Infinity, which JSON has not."""
    if isinstance(value, dict):
        return {k: clean(v) for k, v in value.items()}
    if isinstance(value, list):
        return [clean(v) for v in value]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):  # NaN, and an infinity (not JSON either)
        return None
    return value


class Result:
    """Base of every command's result; a subclass is a dataclass with a ``tables`` field."""

    tables: dict[str, Any]

    def run_facts(self) -> dict[str, Any]:
        """The run's facts (game, seed, sizes, time, ...), JSON-ready values."""
        raise NotImplementedError

    def verdict(self) -> str:
        """One line (or a few) a reader can act on; empty when there is nothing to say."""
        return ""

    def to_dict(self) -> dict[str, Any]:
        tables = {name: table.to_dict(orient="records") for name, table in self.tables.items()}
        return clean({**self.run_facts(), "verdict": self.verdict(), **tables})
