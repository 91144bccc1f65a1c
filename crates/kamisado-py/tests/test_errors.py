"""Bad input raises kamisado.InputError with the command line's one-line message.

The command line names an argument as a flag (`--moves: ...`), the package as the
keyword (`moves: ...`); the rest of the line is the same.
"""

import pytest

import kamisado

# (the package's call, the command line's arguments) for the same bad input.
CASES = [
    (lambda: kamisado.query("zz"), ["query", "--moves", "zz"]),
    (lambda: kamisado.query("a1-a8"), ["query", "--moves", "a1-a8"]),
    (lambda: kamisado.query("h1-h5 left"), ["query", "--moves", "h1-h5 left"]),
    (lambda: kamisado.query("g1-g7 h8-h6 g7-h8 up", target=3),
     ["query", "--target", "3", "--moves", "g1-g7 h8-h6 g7-h8 up"]),
    (lambda: kamisado.query(position="rgnyb+p+uo/8/8 w -"),
     ["query", "--position", "rgnyb+p+uo/8/8 w -"]),
    (lambda: kamisado.query("h1-h5", db="no-such-file.kdb"),
     ["query", "--moves", "h1-h5", "--db", "no-such-file.kdb"]),
    # A file that is not a database.
    (lambda: kamisado.query("h1-h5", db="data/openings.json"),
     ["query", "--moves", "h1-h5", "--db", "data/openings.json"]),
    (lambda: kamisado.Database("data/games.txt"),
     ["query", "--moves", "h1-h5", "--db", "data/games.txt"]),
    (lambda: kamisado.solve("a1-a8"), ["solve", "--moves", "a1-a8"]),
    (lambda: kamisado.solve(position="rgnyb+p+uo/8/8 w -"),
     ["solve", "--position", "rgnyb+p+uo/8/8 w -"]),
    (lambda: kamisado.kamon_solve(layout="2c2f5b3e/4c4e"),
     ["kamon", "solve", "--layout", "2c2f5b3e/4c4e"]),
    (lambda: kamisado.kamon_solve(seed=1, after=12, moves="c2 zz"),
     ["kamon", "solve", "--seed", "1", "--after", "12", "--moves", "c2 zz"]),
    (lambda: kamisado.kamon_solve(seed=1, after=14, moves="c2"),
     ["kamon", "solve", "--seed", "1", "--after", "14", "--moves", "c2"]),
]


@pytest.mark.parametrize("call,args", CASES, ids=lambda c: " ".join(c) if isinstance(c, list) else "")
def test_bad_input_raises_input_error_with_the_command_lines_message(cli, call, args):
    expected = cli.error(*args)
    with pytest.raises(kamisado.InputError) as raised:
        call()
    message = str(raised.value)
    assert "\n" not in message
    assert expected in (message, "--" + message), (expected, message)


@pytest.mark.parametrize(
    "call",
    [
        lambda: kamisado.query("h1-h5", target=5),
        lambda: kamisado.query(position="rgnyb+p+uo/8/8/8/8/8/8/O+UY+NBPRG w - 3", target=3),
        lambda: kamisado.query("h1-h5", hash_mb=0),
        lambda: kamisado.query("h1-h5", threads=0),
        lambda: kamisado.query("h1-h5", time_limit=-1.0),
        lambda: kamisado.query("h1-h5", time_limit=float("nan")),
        lambda: kamisado.query("h1-h5", db=3),
        lambda: kamisado.solve("h1-h5", target=5),
        lambda: kamisado.solve("h1-h5", hash_mb=0),
        lambda: kamisado.solve("h1-h5", time_limit=-1.0),
        lambda: kamisado.kamon_survey(2**64 - 1, 2),
        lambda: kamisado.kamon_survey(1, 1, after=40),
        lambda: kamisado.kamon_survey(1, 1, hash_mb=0),
        lambda: kamisado.kamon_solve(),
        lambda: kamisado.kamon_solve(layout="x", seed=1),
        lambda: kamisado.kamon_solve(after=3),
    ],
)
def test_bad_arguments_raise_input_error_in_one_line(call):
    with pytest.raises(kamisado.InputError) as raised:
        call()
    assert str(raised.value) and "\n" not in str(raised.value)


def test_the_exceptions_are_one_family():
    assert issubclass(kamisado.InputError, kamisado.Error)
    assert issubclass(kamisado.SearchError, kamisado.Error)
    assert issubclass(kamisado.TimeLimitError, kamisado.SearchError)
    assert issubclass(kamisado.Error, Exception)
