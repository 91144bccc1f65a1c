"""The package answers as the board does: `kamisado serve`'s JSON API and the package
asked the same positions of all three games give the same fields with the same values.

(test_answers.py compares the package with `kamisado query --json`; the Rust test
crates/kamisado-cli/tests/serve.rs compares the board with it. This compares the two
front ends directly, so a difference between them cannot hide behind the third.)
"""

import json
import subprocess
import urllib.parse
import urllib.request

import pytest

import kamisado
from conftest import ROOT, binary, without_times
from test_answers import KAMON, MATCH_RECORDS, ROUND_ONE, SINGLE_ROUNDS


@pytest.fixture(scope="module")
def board():
    """A `kamisado serve --port 0` answering from the book the package reads by
    default (data/book.kdb from the repository's top), one search thread; its base URL."""
    server = subprocess.Popen(
        [str(binary()), "serve", "--port", "0", "--db", "data/book.kdb",
         "--threads", "1", "--hash-mb", "32", "--time-limit", "300"],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        line = server.stdout.readline()
        urls = [w for w in line.split() if w.startswith("http://")]
        assert urls, f"`kamisado serve` printed no address: {line!r}"
        yield urls[0]
    finally:
        server.kill()
        server.wait()


def ask(board: str, **params) -> dict:
    """GET /api/query with `params`, which must answer 200."""
    url = f"{board}api/query?{urllib.parse.urlencode(params)}"
    with urllib.request.urlopen(url, timeout=600) as response:
        assert response.status == 200, url
        return json.load(response)


def assert_same_answer(api: dict, package: dict) -> None:
    """Every field the package gives (less times and node counts) has the same value in
    the board's answer. The board adds fields of its own (the game, legal moves, the line
    played), which the package's reports do not have."""
    package = without_times(package)
    api = without_times(api)
    assert package, "the package answered nothing"
    for field, value in package.items():
        assert field in api, f"the board has no `{field}`"
        assert api[field] == value, f"field `{field}`: board {api[field]!r}, package {value!r}"


@pytest.mark.parametrize("moves", [moves for moves, db in SINGLE_ROUNDS if db is None])
def test_a_single_round_from_the_book_is_answered_alike(board, moves):
    package = kamisado.query(moves, threads=1, hash_mb=32)
    api = ask(board, moves=moves)
    assert api["game"] == "kamisado"
    assert_same_answer(api, package)
    assert package["moves"], "a position with moves"


# Not ROUND_ONE: at a round's end the board also values each refill choice (a round-2
# start solved live, about a minute), which the package's `query` does not.
@pytest.mark.parametrize("record", [r for r in MATCH_RECORDS if r != ROUND_ONE])
def test_a_match_position_is_answered_alike(board, record):
    package = kamisado.query(record, target=3, threads=1, hash_mb=32)
    api = ask(board, game="match", target=3, moves=record)
    assert api["game"] == "match"
    assert_same_answer(api, package)


@pytest.mark.parametrize("case", [c for c in KAMON if not c.get("value_only")], ids=str)
def test_a_kamon_position_is_answered_alike_cell_by_cell(board, case):
    layout, placed = kamisado.kamon_random(case["seed"], after=case["after"])
    moves = " ".join(placed + case.get("moves", "").split())
    package = kamisado.kamon_query(layout=layout, moves=moves, threads=1, hash_mb=32)
    api = ask(board, game="kamon", layout=layout, moves=moves)
    assert api["game"] == "kamon"
    assert package["complete"] is True
    assert package["cells"], "a position with legal cells"
    assert_same_answer(api, package)
