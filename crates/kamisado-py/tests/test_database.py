"""Database files and the book, opened from Python: the header's counts and queries
answered from the file, as the command line reports them."""

import kamisado
from conftest import without_times


def test_the_book_has_the_counts_db_info_reports(cli):
    info = cli.json("db", "info", "data/book.kdb")
    book = kamisado.open_book()
    assert len(book) == book.records == info["records"]
    assert book.wins == info["wins"]
    assert book.exact_remoteness == info["exact_remoteness"]
    assert book.best_moves == info["best_moves"]
    assert book.description == info["description"]
    assert book.book_plies == info["book_plies"]
    assert str(book.path) == "data/book.kdb"


def test_a_query_of_an_opened_database_equals_the_command_line_with_db(cli):
    db = kamisado.Database("data/book.kdb")
    for moves in ["h1-h5", "a1-a5 d8-d3 f1-f5"]:
        expected = cli.json("query", "--db", "data/book.kdb", "--moves", moves)
        assert without_times(db.query(moves)) == without_times(expected)
        assert without_times(kamisado.query(moves, db=db)) == without_times(expected)
    # Every move of a book position is answered from the file (or by the rules: a win
    # at once), none searched.
    assert {m["source"] for m in db.query("h1-h5")["moves"]} <= {"db", "rules"}


def test_db_none_searches_instead():
    report = kamisado.query("h1-h7 c8-c4 b1-b2 h8-d4 a1-a6 g8-g4", db="none", threads=1)
    assert report["source"] == "search"
