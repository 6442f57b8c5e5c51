"""Errors a user can cause. The CLI prints them as one line and exits non-zero."""


class AnalyzerError(ValueError):
    """Bad input: unknown game/strategy/option, bad cards, impossible position, ..."""


class StrategyError(RuntimeError):
    """A strategy failed to load, compile, or returned an illegal move."""


class StrategyTimeout(StrategyError):
    """A call of the kernels took longer than ``--timeout``: a strategy may be stuck in a loop
    (api.user_guard names the user strategies of the run)."""
