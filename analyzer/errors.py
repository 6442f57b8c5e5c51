"""Errors a user can cause. The CLI prints them as one line and exits non-zero."""


class AnalyzerError(ValueError):
    """Bad input: unknown game/strategy/option, bad cards, impossible position, ..."""


class StrategyError(RuntimeError):
    """A strategy failed to load, compile, or returned an illegal move."""
