"""Shared fixtures: the repository's root and the command line built from the same checkout.

The tests compare the bindings with the ``sgscope`` command line. Its binary is
``$SGSCOPE_BIN`` when set, else the newer of ``target/release/sgscope`` and
``target/debug/sgscope``; without one the whole run fails (build it with ``cargo build``).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import List, Optional

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _binary() -> Optional[Path]:
    if os.environ.get("SGSCOPE_BIN"):
        return Path(os.environ["SGSCOPE_BIN"])
    built = [ROOT / "target" / p / "sgscope" for p in ("release", "debug")]
    built = [p for p in built if p.is_file()]
    return max(built, key=lambda p: p.stat().st_mtime) if built else None


BINARY = _binary()


def pytest_sessionstart(session):
    if BINARY is None or not BINARY.is_file():
        pytest.exit(
            f"the sgscope binary is missing ({BINARY or 'target/{release,debug}/sgscope'}): "
            "run `cargo build` (or set SGSCOPE_BIN) before the Python tests",
            returncode=3,
        )


class Cli:
    """Runs the command line in the repository's root."""

    def run(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(BINARY), *args], cwd=ROOT, capture_output=True, text=True, timeout=600
        )

    def ok(self, *args: str) -> str:
        done = self.run(*args)
        assert done.returncode == 0, f"sgscope {' '.join(args)} failed:\n{done.stderr}"
        return done.stdout

    def json(self, *args: str):
        return json.loads(self.ok(*args, "--json"))

    def error(self, *args: str) -> str:
        done = self.run(*args)
        assert done.returncode != 0, f"sgscope {' '.join(args)} succeeded"
        return done.stderr.rstrip("\n")


@pytest.fixture(scope="session")
def cli() -> Cli:
    return Cli()


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


def example_files() -> List[Path]:
    return sorted((ROOT / "rules").glob("*.sg"))
