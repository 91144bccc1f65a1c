"""Exact answers for Kamisado, its match play and Kamon.

The analysis library behind the ``kamisado`` command line and its browser board, from
Python. Results are plain Python objects: dicts with exactly the fields of the command
line's ``--json`` output (``kamisado query --json``, ``kamisado solve --json``,
``kamisado kamon solve --json``).
Errors are :class:`Error` exceptions carrying the command line's one-line messages.
Long searches release the GIL and stop on Ctrl-C (``KeyboardInterrupt``) or at
``time_limit`` seconds. The arguments have the command line's bounds, checked by the
same code: ``time_limit`` from 0.001 to 1e9 seconds, ``threads`` from 1 to 1024,
``hash_mb`` (MiB) from 1 to 1048576, ``target`` 1, 3, 7 or 15.

>>> import kamisado
>>> report = kamisado.query("a1-a5 d8-d3")          # from the book, data/book.kdb
>>> report["value"], report["remoteness"], report["best"]
>>> kamisado.query("g1-g7 h8-h6 g7-h8 left", target=3, time_limit=10)
>>> kamisado.kamon_solve(seed=1, after=12)["pv"]

A database given as ``db=None`` (the default) is the opening book ``data/book.kdb`` if
the current directory has one, as for the command line; ``db="none"`` searches
without a database.
"""

import os
from typing import Any, Optional, Union

__version__: str

PathLike = Union[str, "os.PathLike[str]"]

class Error(Exception):
    """Every error this package raises; its message is the command line's one line."""

class InputError(Error):
    """Bad input: a position, a move, a layout, a file or an argument (where the
    command line exits with code 2)."""

class SearchError(Error):
    """A search that failed for a reason other than its input (where the command line
    exits with code 1)."""

class TimeLimitError(SearchError):
    """A search with no answer within its time limit (``solve``, ``kamon_solve``; a search that
    has a partial answer, ``query`` and ``kamon_query``, returns it instead)."""

def query(
    moves: Optional[str] = None,
    *,
    position: Optional[str] = None,
    target: Optional[int] = None,
    db: Union[PathLike, "Database", None] = None,
    all_remoteness: bool = False,
    time_limit: Optional[float] = None,
    threads: Optional[int] = None,
    hash_mb: int = 128,
) -> dict[str, Any]:
    """A Kamisado position and every move: ``kamisado query --json``.

    The position is ``position`` (position text, see the README's *Position text*) or
    the start of a single round (of a match to ``target`` points: 1, 3, 7 or 15), then
    ``moves`` played from it (a match record in a match: ``left``/``right`` refills).
    Answers come from the rules, the database ``db`` and a live search, each move
    naming its ``source``.

    Fields: ``position``, ``to_move``, ``active``, ``value``, ``remoteness``,
    ``best``, ``source``, ``moves`` (best first: ``move``, ``value``,
    ``remoteness`` or its bounds ``remoteness_at_least``/``remoteness_at_most``,
    ``source``), ``all_remoteness``, ``complete``, ``seconds``; in a match
    ``target``, ``round``, ``score`` and the refill fields; for a finished round
    ``winner`` and ``reason``.

    ``all_remoteness`` asks every move's exact remoteness, not only the best moves'.
    At ``time_limit`` the search stops and the report says what it reached
    (``complete`` is False). ``threads`` defaults to every core; ``hash_mb`` bounds
    the search's table.

    Raises :class:`InputError` for bad input (the command line's message, the
    argument named by its keyword: ``moves: ...``), :class:`SearchError` if the
    search fails, ``KeyboardInterrupt`` on Ctrl-C.
    """

def solve(
    moves: Optional[str] = None,
    *,
    position: Optional[str] = None,
    target: Optional[int] = None,
    time_limit: Optional[float] = None,
    threads: Optional[int] = None,
    hash_mb: int = 128,
) -> dict[str, Any]:
    """A Kamisado position solved exactly by search alone: ``kamisado solve --json``.

    The position is read as for :func:`query` (``position`` text, or the start of a
    single round or of a match to ``target`` points, then ``moves``); no database is
    asked. Fields: ``position``, ``to_move``, ``active``, ``value`` (win or loss of
    the round being played, for the side to move), ``remoteness`` (moves to the
    round's end under perfect play), ``best`` (every best move), ``pv`` (a perfect
    line to the round's end), for a finished round ``winner`` and ``reason``, in a
    match ``target``, ``round``, ``score`` and the refill fields, and ``stats`` (the
    search's ``nodes``, ``seconds``, ``threads``, ``hash_mb``, ...).

    >>> kamisado.solve("h1-h7 c8-c4 b1-b2 h8-d4 a1-a6 g8-g4")["pv"]

    Raises :class:`TimeLimitError` (with the nodes searched) if ``time_limit`` passes
    first (an exact answer has no partial form), :class:`InputError` for bad input,
    :class:`SearchError` if the search fails, ``KeyboardInterrupt`` on Ctrl-C.
    """

class Database:
    """A database file of solved positions, opened and checked (every record of a file
    up to 16 MiB; the header and block checksums of a larger one).

    >>> book = kamisado.Database("data/book.kdb")
    >>> len(book), book.book_plies
    >>> book.query("h1-h5")["source"]
    'db'

    Raises :class:`InputError` naming the file if it cannot be read or fails a check.
    """

    def __init__(self, path: PathLike) -> None: ...
    @property
    def path(self) -> "os.PathLike[str]":
        """The file's path, as given."""
    @property
    def description(self) -> str:
        """What was solved to make the file."""
    @property
    def records(self) -> int:
        """The number of positions stored."""
    @property
    def wins(self) -> int:
        """Positions whose side to move wins (the others lose)."""
    @property
    def exact_remoteness(self) -> int:
        """Positions stored with their exact remoteness."""
    @property
    def best_moves(self) -> int:
        """Positions stored with a best move."""
    @property
    def book_plies(self) -> Optional[int]:
        """For an opening book, the moves whose every position it holds; else None."""
    def __len__(self) -> int: ...
    def query(
        self,
        moves: Optional[str] = None,
        *,
        position: Optional[str] = None,
        target: Optional[int] = None,
        all_remoteness: bool = False,
        time_limit: Optional[float] = None,
        threads: Optional[int] = None,
        hash_mb: int = 128,
    ) -> dict[str, Any]:
        """:func:`query` answered from this database first."""

def open_book() -> Database:
    """The opening book the repository ships, ``data/book.kdb`` (from the
    repository's top): every position of its first moves with its value, remoteness and
    best move."""

def kamon_random(seed: int, after: int = 0) -> tuple[str, list[str]]:
    """The Kamon layout of ``seed`` and its ``after`` random placements.

    As ``kamisado kamon random --seed SEED --after AFTER``: the layout's text and the
    cells placed, in order.

    >>> layout, cells = kamisado.kamon_random(1, after=12)

    Raises :class:`InputError` if no random game of the seed reaches ``after``
    placements without ending.
    """

def kamon_solve(
    seed: Optional[int] = None,
    *,
    layout: Optional[str] = None,
    after: Optional[int] = None,
    moves: Optional[str] = None,
    value_only: bool = False,
    time_limit: Optional[float] = None,
    threads: Optional[int] = None,
    hash_mb: int = 128,
) -> dict[str, Any]:
    """A Kamon position solved exactly: ``kamisado kamon solve --json``.

    The position is the layout ``layout`` (text) or of ``seed`` after its ``after``
    random placements, then the placements ``moves`` (``"c2 d4"``). Fields:
    ``layout``, ``moves``, ``to_move``, ``value`` (win, draw or loss for the side to
    move), ``winner``, ``remoteness``, ``best``, ``pv``, ``ends_by`` and the search's
    statistics (``nodes``, ``seconds``, ...). ``value_only`` gives the value alone
    (proof-number search), much faster; it runs on one thread unless ``threads`` says
    otherwise (more threads cost it more nodes than they save), the full solve on every
    core.

    Raises :class:`TimeLimitError` (the command line's message) if ``time_limit``
    passes first, :class:`InputError` for bad input, ``KeyboardInterrupt`` on Ctrl-C.
    """

def kamon_query(
    seed: Optional[int] = None,
    *,
    layout: Optional[str] = None,
    after: Optional[int] = None,
    moves: Optional[str] = None,
    time_limit: Optional[float] = None,
    threads: Optional[int] = None,
    hash_mb: int = 128,
) -> dict[str, Any]:
    """A Kamon position and every legal cell, as the browser board answers it.

    The fields of :func:`kamon_solve`, then ``complete``, ``pv_complete``, ``end``,
    ``legal_cells`` and ``cells`` (best first: ``cell``, ``value`` and
    ``remoteness`` for the player placing there, ``best``). At ``time_limit`` the
    cells answered so far are returned (``complete`` False, no value).
    """

def kamon_survey(
    seed: int,
    layouts: int,
    *,
    after: int = 0,
    value_only: bool = False,
    time_limit: Optional[float] = None,
    threads: Optional[int] = None,
    hash_mb: int = 128,
) -> dict[str, Any]:
    """A small Kamon survey run here: ``kamisado kamon survey --seed SEED --layouts N
    --after AFTER --out FILE``, returning what it writes to ``FILE`` (the fields of
    :func:`kamon_survey_file`, the run's ``summary`` included).

    Layout i is the random layout of seed ``seed + i`` after its ``after`` random
    placements, solved with a fresh solver of ``hash_mb`` MiB (``value_only``: the
    values alone, much faster, on one thread unless ``threads`` says otherwise). Each layout gets its own ``time_limit``; one out of it
    is recorded unsolved (no ``value``), as on the command line. Survey late positions
    (``after`` 12 or more): a layout's empty board takes far longer than a session.

    >>> survey = kamisado.kamon_survey(1, 5, after=14)
    >>> [e["value"] for e in survey["runs"][0]["entries"]]

    Raises :class:`InputError` for bad input (a seed whose random game ends before
    ``after`` placements), ``KeyboardInterrupt`` on Ctrl-C (the layouts solved so far
    are lost: for long surveys use the command line, which resumes its file).
    """

def kamon_survey_file(path: PathLike) -> dict[str, Any]:
    """A Kamon survey file (``kamisado kamon survey --out``, ``data/kamon-survey.json``)
    read and checked by the analysis library's definition of it: ``format``,
    ``description`` and ``runs``, each with ``seed``, ``after``, ``summary`` and
    ``entries`` (one per layout solved: ``seed``, ``layout``, ``moves``, ``value``,
    ``winner``, ``remoteness``, ``pv``, ``ends_by``, ``first_moves``, ``nodes``, ...).

    Raises :class:`InputError` naming the file and what is wrong with it.
    """
