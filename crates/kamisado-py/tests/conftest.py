"""What the tests share: the repository, and the `kamisado` binary to compare with."""

import json
import os
import subprocess
from pathlib import Path

import pytest

# crates/kamisado-py/tests -> the repository's top, where data/ is.
ROOT = Path(__file__).resolve().parents[3]


def binary() -> Path:
    """The command line to compare with: $KAMISADO_BIN, else the release build, else
    the debug build (the one `cargo test` makes)."""
    given = os.environ.get("KAMISADO_BIN")
    candidates = [Path(given)] if given else [
        ROOT / "target" / "release" / "kamisado",
        ROOT / "target" / "debug" / "kamisado",
    ]
    for path in candidates:
        path = path if path.is_absolute() else ROOT / path
        if path.is_file():
            return path
    raise RuntimeError(
        f"no kamisado binary at {', '.join(map(str, candidates))}: "
        "build it (cargo build -p kamisado-cli) or set KAMISADO_BIN"
    )


class Cli:
    """Runs the binary from the repository's top (where `data/book.kdb` is its default
    database, as for the package run from there)."""

    def __init__(self) -> None:
        self.path = binary()

    def run(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(self.path), *args],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=600,
        )

    def json(self, *args: str) -> dict:
        """`kamisado ARGS --json`, which must succeed."""
        done = self.run(*args, "--json")
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    def error(self, *args: str) -> str:
        """The one-line message of `kamisado ARGS`, which must fail with exit code 2."""
        done = self.run(*args)
        assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
        (line,) = done.stderr.strip().splitlines()
        assert line.startswith("error: ")
        return line.removeprefix("error: ")


@pytest.fixture(scope="session")
def cli() -> Cli:
    return Cli()


@pytest.fixture(autouse=True)
def at_root(monkeypatch):
    """Every test runs from the repository's top, as the command line does here."""
    monkeypatch.chdir(ROOT)


def without_times(report):
    """`report` without what differs from one run to the next (seconds, nodes, load)."""
    if isinstance(report, dict):
        return {
            k: without_times(v)
            for k, v in report.items()
            if k not in TIMES
        }
    if isinstance(report, list):
        return [without_times(v) for v in report]
    return report


TIMES = {"seconds", "nodes", "nodes_per_second", "peak_memory_bytes", "load", "table_fill"}
