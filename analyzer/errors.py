"""Errors a user can cause. The CLI prints them as one line and exits non-zero."""


class AnalyzerError(ValueError):
    """Bad input: unknown game/strategy/option, bad cards, impossible position, ..."""


class InferenceMisfit(AnalyzerError):
    """No hidden deal that fits what the seat saw also fits the other players' earlier
    choices as the rollout strategies would make them (Pitch's bids): the position can be
    evaluated without that inference (``--no-infer``); ``review`` does so on its own."""


class StrategyError(RuntimeError):
    """A strategy failed to load, compile, or returned an illegal move."""


class StrategyTimeout(StrategyError):
    """A call of the kernels took longer than ``--timeout``: a strategy may be stuck in a loop
    (api.user_guard names the user strategies of the run)."""
