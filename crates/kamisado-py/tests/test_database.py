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


def test_the_survey_file_reads_as_the_shipped_json():
    import json

    survey = kamisado.kamon_survey_file("data/kamon-survey.json")
    raw = json.load(open("data/kamon-survey.json"))
    assert survey["format"] == raw["format"]
    assert [r["entries"] for r in survey["runs"]] == [r["entries"] for r in raw["runs"]]
    assert sum(len(r["entries"]) for r in survey["runs"]) == 320


def test_a_file_that_is_no_survey_raises_the_command_lines_message(cli, tmp_path):
    out = tmp_path / "chart.svg"
    for bad in ["data/openings.json", "data/no-such-survey.json"]:
        expected = cli.error("kamon", "survey", "plot", bad, "--out", str(out))
        try:
            kamisado.kamon_survey_file(bad)
        except kamisado.InputError as e:
            assert str(e) == expected
        else:
            raise AssertionError(f"{bad} was read as a survey")
