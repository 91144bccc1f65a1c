"""Exact answers for Kamisado, its match play and Kamon.

The analysis library behind the ``kamisado`` command line, from Python. Results are
plain Python objects: dicts with the field names of the command line's ``--json``
output. Errors are :class:`Error` exceptions carrying the command line's one-line
messages. Long searches release the GIL and stop on Ctrl-C (``KeyboardInterrupt``) or
at ``time_limit`` seconds.
"""

__version__: str

class Error(Exception):
    """Every error this package raises; its message is the command line's one line."""

class InputError(Error):
    """Bad input: a position, a move, a layout, a file or an argument (where the
    command line exits with code 2)."""

class SearchError(Error):
    """A search that failed for a reason other than its input (where the command line
    exits with code 1)."""

def kamon_random(seed: int, after: int = 0) -> tuple[str, list[str]]:
    """The Kamon layout of ``seed`` and its ``after`` random placements.

    As ``kamisado kamon random --seed SEED --after AFTER``: the layout's text and the
    cells placed, in order.

    >>> layout, cells = kamisado.kamon_random(1, after=12)

    Raises :class:`InputError` if no random game of the seed reaches ``after``
    placements without ending.
    """
