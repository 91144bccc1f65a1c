"""The package answers as the command line does: the same fields, the same values.

Each test asks the package and `kamisado ... --json` (run by subprocess) the same
question and compares the whole reports, less what differs from run to run (times,
node counts, the load).
"""

import json

import pytest

import kamisado
from conftest import without_times

# Single rounds: from the book (data/book.kdb, the default database from the repository's
# top), searched live (--db none), and finished by the rules.
SINGLE_ROUNDS = [
    ("a1-a5 d8-d3", None),
    ("h1-h5", None),
    ("h1-h7 c8-c4 b1-b2 h8-d4 a1-a6 g8-g4", "none"),
    ("h1-h7 c8-c4 b1-b2", "none"),
    # Black's tower reaches the goal row: the rules answer.
    ("a1-g7 h8-h7 f1-f7 e8-e7 g1-a7 c1-c7 d8-d7 b1-b7 h1-h6 c7-d8", "none"),
]

# Rounds of a Standard match (to 3 points): round 1 won by a tower that becomes a Sumo,
# round 2 after the refill, a Sumo that may push, and the match over.
ROUND_ONE = "g1-g7 h8-h6 g7-h8"
PUSH_POSSIBLE = "g1-g7 h8-h6 g7-h8 left d8-d5 g1-a7 g8-g6 d1-a4 f8-e7 h1-f3 b8-f4"
MATCH_RECORDS = [
    ROUND_ONE,
    PUSH_POSSIBLE,
    PUSH_POSSIBLE + " f3-f4",
    "g1-g7 h8-h6 g7-h8 left a8-a3 h1-c6 b8-f4 c6-a8",
]
# The position of PUSH_POSSIBLE as a match position's text.
PUSH_POSITION = "n1b1p2g/O3y3/6r1/3u4/Y4o2/5B+2/8/NGR1PU2 b b 3"

# Kamon: seeds after random placements that solve in moments, a layout given as text,
# and placements played from a seed's position.
KAMON = [
    dict(seed=1, after=14),
    dict(seed=3, after=12),
    dict(seed=2, after=16, value_only=True),
    dict(seed=1, after=14, moves="a3 d5"),
]


def search_args(threads=1, hash_mb=32):
    return ["--threads", str(threads), "--hash-mb", str(hash_mb)]


@pytest.mark.parametrize("moves,db", SINGLE_ROUNDS)
def test_query_of_a_single_round_equals_the_command_line(cli, moves, db):
    args = ["query", "--moves", moves, *search_args()]
    if db is not None:
        args += ["--db", db]
    expected = cli.json(*args)
    got = kamisado.query(moves, db=db, threads=1, hash_mb=32)
    assert without_times(got) == without_times(expected)
    assert got["complete"] is True
    assert got["moves"] or got["source"] == "rules"


def test_query_of_a_position_text_and_every_remoteness_equals_the_command_line(cli):
    position = "ob1pyrg1/7O/8/8/2un4/8/1G6/N1RYPUB1 b n"  # after h1-h7 c8-c4 b1-b2 h8-d4
    expected = cli.json(
        "query", "--position", position, "--db", "none", "--all-remoteness", *search_args()
    )
    got = kamisado.query(
        position=position, db="none", all_remoteness=True, threads=1, hash_mb=32
    )
    assert without_times(got) == without_times(expected)
    assert got["all_remoteness"] is True
    assert all(m["remoteness"] is not None for m in got["moves"])


@pytest.mark.parametrize("record", MATCH_RECORDS)
def test_query_of_a_match_equals_the_command_line(cli, record):
    expected = cli.json("query", "--target", "3", "--moves", record, *search_args())
    got = kamisado.query(record, target=3, threads=1, hash_mb=32)
    assert without_times(got) == without_times(expected)
    assert got["target"] == 3


def test_query_of_a_match_position_text_equals_the_command_line(cli):
    expected = cli.json("query", "--position", PUSH_POSITION, *search_args())
    got = kamisado.query(position=PUSH_POSITION, threads=1, hash_mb=32)
    assert without_times(got) == without_times(expected)
    assert any(m["move"] == "f3-f4" for m in got["moves"])


# Solved exactly by search alone: single rounds (a win in 9 and in 15 moves), a match
# round with a Sumo that may push, and a finished round of a match (the rules' answer).
SOLVE = [
    ("h1-h7 c8-c4 b1-b2 h8-d4 a1-a6 g8-g4", None),
    ("a1-a5 d8-d3", None),
    (PUSH_POSSIBLE, 3),
    (ROUND_ONE, 3),
]


@pytest.mark.parametrize("moves,target", SOLVE)
def test_solve_equals_the_command_line(cli, moves, target):
    args = ["solve", "--moves", moves, *search_args()]
    if target is not None:
        args += ["--target", str(target)]
    expected = cli.json(*args)
    got = kamisado.solve(moves, target=target, threads=1, hash_mb=32)
    assert without_times(got) == without_times(expected)
    assert len(got["pv"]) == got["remoteness"]
    assert not got["pv"] or got["pv"][0] in got["best"]


def test_solve_of_a_position_text_equals_the_command_line_and_query(cli):
    expected = cli.json("solve", "--position", PUSH_POSITION, *search_args())
    got = kamisado.solve(position=PUSH_POSITION, threads=1, hash_mb=32)
    assert without_times(got) == without_times(expected)
    queried = kamisado.query(position=PUSH_POSITION, db="none", threads=1, hash_mb=32)
    assert (got["value"], got["remoteness"]) == (queried["value"], queried["remoteness"])
    assert sorted(got["best"]) == sorted(queried["best"])


@pytest.mark.parametrize("case", KAMON, ids=lambda c: " ".join(f"{k}={v}" for k, v in c.items()))
def test_kamon_solve_equals_the_command_line(cli, case):
    args = ["kamon", "solve", "--seed", str(case["seed"]), "--after", str(case["after"])]
    if "moves" in case:
        args += ["--moves", case["moves"]]
    if case.get("value_only"):
        args += ["--value-only"]
    expected = cli.json(*args, *search_args())
    got = kamisado.kamon_solve(**case, threads=1, hash_mb=32)
    assert without_times(got) == without_times(expected)
    assert got["value"] in ("win", "draw", "loss")


def test_kamon_solve_of_a_layout_text_equals_the_command_line(cli):
    layout, cells = kamisado.kamon_random(3)
    expected = cli.json(
        "kamon", "solve", "--layout", layout, "--moves", " ".join(
            kamisado.kamon_random(3, after=12)[1]
        ), *search_args()
    )
    got = kamisado.kamon_solve(
        layout=layout, moves=" ".join(kamisado.kamon_random(3, after=12)[1]),
        threads=1, hash_mb=32,
    )
    assert cells == []
    assert without_times(got) == without_times(expected)


@pytest.mark.parametrize("seed,after", [(1, 0), (1, 12), (7, 20)])
def test_kamon_random_equals_the_command_line(cli, seed, after):
    expected = cli.json("kamon", "random", "--seed", str(seed), "--after", str(after))
    layout, cells = kamisado.kamon_random(seed, after=after)
    assert layout == expected["layout"]
    assert cells == expected["moves"]
    assert len(cells) == after


@pytest.mark.parametrize("seed,after", [(1, 14), (3, 12)])
def test_kamon_query_has_kamon_solves_answer_and_every_cell(cli, seed, after):
    solved = cli.json("kamon", "solve", "--seed", str(seed), "--after", str(after), *search_args())
    got = kamisado.kamon_query(seed, after=after, threads=1, hash_mb=32)
    for field in ["layout", "moves", "to_move", "value", "winner", "remoteness", "best", "pv", "ends_by"]:
        assert got[field] == solved[field], field
    assert got["complete"] is True and got["pv_complete"] is True
    assert sorted(c["cell"] for c in got["cells"]) == sorted(got["legal_cells"])
    best = [c for c in got["cells"] if c["best"]]
    assert sorted(c["cell"] for c in best) == sorted(solved["best"])
    assert all((c["value"], c["remoteness"]) == (solved["value"], solved["remoteness"]) for c in best)
    # Each cell's value is kamon solve's of the position after it, for the placer.
    flip = {"win": "loss", "loss": "win", "draw": "draw"}
    for c in got["cells"][:3]:
        after_it = cli.json(
            "kamon", "solve", "--seed", str(seed), "--after", str(after),
            "--moves", c["cell"], *search_args(),
        )
        same_player = after_it["to_move"] == got["to_move"]
        value = after_it["value"] if same_player else flip[after_it["value"]]
        assert value == c["value"]
        assert after_it.get("remoteness", 0) + 1 == c["remoteness"]


@pytest.mark.parametrize("value_only", [False, True])
def test_kamon_survey_equals_the_file_the_command_line_writes(cli, tmp_path, value_only):
    out = tmp_path / "survey.json"
    args = ["kamon", "survey", "--seed", "5", "--layouts", "3", "--after", "14",
            "--out", str(out), "--quiet", *search_args()]
    if value_only:
        args.append("--value-only")
    done = cli.run(*args)
    assert done.returncode == 0, done.stderr
    # The file as written (its summary too; the reader recomputes none).
    expected = json.loads(out.read_text())
    got = kamisado.kamon_survey(5, 3, after=14, value_only=value_only, threads=1, hash_mb=32)
    assert without_times(got) == without_times(expected)
    read = kamisado.kamon_survey_file(out)["runs"][0]["entries"]
    assert without_times(read) == without_times(got["runs"][0]["entries"])
    (run,) = got["runs"]
    assert [e["seed"] for e in run["entries"]] == [5, 6, 7]
    assert all(e["value"] in ("win", "draw", "loss") for e in run["entries"])
    # Each layout's value is kamon solve's.
    first = run["entries"][0]
    solved = kamisado.kamon_solve(seed=5, after=14, value_only=True, threads=1, hash_mb=32)
    assert first["value"] == solved["value"]


def test_a_kamon_value_alone_searches_on_one_thread_as_on_the_command_line(cli):
    for extra, kwargs in [(["--value-only"], dict(value_only=True)), ([], {})]:
        expected = cli.json("kamon", "solve", "--seed", "1", "--after", "16", *extra)
        got = kamisado.kamon_solve(seed=1, after=16, **kwargs)
        assert got["threads"] == expected["threads"]
    assert kamisado.kamon_solve(seed=1, after=16, value_only=True)["threads"] == 1
    assert kamisado.kamon_solve(seed=1, after=16, value_only=True, threads=2)["threads"] == 2
