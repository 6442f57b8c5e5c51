"""analyzer: a Monte Carlo strategy analyzer for card games.

The Python API lives in :mod:`analyzer.api`; this package import stays light (no numba,
no pandas) so that the command line starts fast.
"""

__version__ = "0.1.0"
