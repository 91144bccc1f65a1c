"""Long searches release the GIL and stop: on Ctrl-C (SIGINT) and at their time limit.

Each search here would take minutes or hours if left alone (a round start of a match
to 15 points searched with every remoteness; the empty board of a Kamon layout), so a
test that passes saw it stopped. The searches run in a child Python process, so that a
search that failed to stop is killed by the subprocess timeout instead of hanging the
suite (the timeout is a guard, not a measurement).
"""

import signal
import subprocess
import sys
import textwrap

from conftest import ROOT

# Kamisado: the start of round 2 of a 15-point match after a one-move round, with a
# Sumo on the board, every move's exact remoteness, no database.
LONG_QUERY = (
    "kamisado.query('g1-g7 h8-h6 g7-h8 left', target=15, db='none',"
    " all_remoteness=True, threads=1, hash_mb=64{extra})"
)
# Kamisado solved exactly from the start of a single round (the book's reason to be).
LONG_SOLVE = "kamisado.solve(threads=1, hash_mb=64{extra})"
# Kamon: the empty board of seed 1 (not proven in 20 minutes).
LONG_KAMON = "kamisado.kamon_solve(seed=1, threads=1, hash_mb=64{extra})"


def sigint_as_at_a_terminal() -> None:
    """Run in the child before Python starts: SIGINT back to its default action. A job
    started in the background of a non-interactive shell (`.ci/run &`, nohup) inherits
    SIGINT ignored, and Python then installs no KeyboardInterrupt handler: the child
    gets SIGINT as a person's Ctrl-C at a terminal would give it, wherever the suite runs."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run_child(body: str) -> subprocess.CompletedProcess:
    script = "import os, signal, threading, time\nimport kamisado\n" + textwrap.dedent(body)
    return subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=sigint_as_at_a_terminal,
    )


def interrupted_by_sigint(call: str) -> subprocess.CompletedProcess:
    """Runs `call` with a SIGINT sent to the process from another thread once the search
    has run for half a second; the child prints how it ended."""
    return run_child(
        f"""
        started = threading.Event()
        def interrupt():
            started.wait()
            time.sleep(0.5)
            os.kill(os.getpid(), signal.SIGINT)
        threading.Thread(target=interrupt, daemon=True).start()
        try:
            started.set()
            {call}
            print("finished")
        except KeyboardInterrupt:
            print("interrupted")
        """
    )


def test_ctrl_c_stops_a_long_query_with_keyboard_interrupt():
    done = interrupted_by_sigint(LONG_QUERY.format(extra=""))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["interrupted"]


def test_ctrl_c_stops_a_long_kamon_solve_with_keyboard_interrupt():
    done = interrupted_by_sigint(LONG_KAMON.format(extra=""))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["interrupted"]


def test_sigint_kills_a_process_that_does_not_catch_it_as_python_does():
    # No handler of its own: the interpreter ends with KeyboardInterrupt's traceback.
    done = run_child(
        f"""
        threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
        {LONG_QUERY.format(extra="")}
        """
    )
    assert done.returncode != 0
    assert "KeyboardInterrupt" in done.stderr


def test_a_time_limit_returns_the_partial_answer_and_python_runs_meanwhile():
    # While the search runs without the GIL, another Python thread counts.
    done = run_child(
        f"""
        count = 0
        stop = False
        def counter():
            global count
            while not stop:
                count += 1
                time.sleep(0.001)
        threading.Thread(target=counter, daemon=True).start()
        report = {LONG_QUERY.format(extra=", time_limit=1.0")}
        stop = True
        print(report["complete"], report["all_remoteness"], count > 10)
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "True", "True"]


def test_a_kamon_time_limit_raises_the_command_lines_time_out():
    done = run_child(
        f"""
        try:
            {LONG_KAMON.format(extra=", time_limit=0.5")}
            print("finished")
        except kamisado.TimeLimitError as e:
            print(type(e).__name__, isinstance(e, kamisado.SearchError), str(e).startswith("no answer within the time limit of 0.5 s"))
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["TimeLimitError", "True", "True"]


def test_ctrl_c_stops_a_long_solve_with_keyboard_interrupt():
    done = interrupted_by_sigint(LONG_SOLVE.format(extra=""))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["interrupted"]


def test_a_solve_time_limit_raises_the_time_out():
    done = run_child(
        f"""
        try:
            {LONG_SOLVE.format(extra=", time_limit=0.5")}
            print("finished")
        except kamisado.TimeLimitError as e:
            print(type(e).__name__, str(e).startswith("no answer within the time limit of 0.5 s"))
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["TimeLimitError", "True"]


def test_a_kamon_survey_records_a_layout_out_of_its_time_limit_unsolved():
    # The empty boards of seeds 1 and 2: neither solves in a quarter of a second.
    done = run_child(
        """
        survey = kamisado.kamon_survey(1, 2, threads=1, hash_mb=64, time_limit=0.25)
        entries = survey["runs"][0]["entries"]
        print(len(entries), all("value" not in e and e["time_limit"] == 0.25 for e in entries))
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["2", "True"]
