"""Shared helpers: the gametree command line, when it has been built, to compare with."""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]


def _find_cli():
    """The `gametree` binary: $GAMETREE_BIN, the repository's release or debug build, or
    one on the PATH."""
    if os.environ.get("GAMETREE_BIN"):
        return os.environ["GAMETREE_BIN"]
    for profile in ("release", "debug"):
        candidate = REPOSITORY / "target" / profile / "gametree"
        if candidate.is_file():
            return str(candidate)
    return shutil.which("gametree")


class Cli:
    def __init__(self, path):
        self.path = path

    def run(self, *args):
        """Runs the command line: (exit status, stdout, stderr)."""
        done = subprocess.run(
            [self.path, "--quiet", *args], capture_output=True, text=True, timeout=120
        )
        return done.returncode, done.stdout, done.stderr

    def json(self, *args):
        """The JSON object the command prints."""
        status, out, err = self.run(*args, "--json")
        assert status == 0, err
        return json.loads(out)

    def error(self, *args):
        """The message of a refused command, without the `gametree: ` prefix."""
        status, _, err = self.run(*args)
        assert status == 2, (status, err)
        line = err.strip().splitlines()[-1]
        assert line.startswith("gametree: "), err
        return line[len("gametree: ") :]


@pytest.fixture(scope="session")
def cli():
    path = _find_cli()
    if path is None:
        pytest.skip(
            "the gametree binary is not built (cargo build --release, or set GAMETREE_BIN)"
        )
    return Cli(path)
