"""The reasoner benchmark's command line on bad input: a located error and exit status 1, never
a traceback (``benchmarks/reasoner.py``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_missing_game_file_is_a_located_error(tmp_path: Path) -> None:
    missing = tmp_path / "missing.kif"
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "reasoner.py"), "--no-oracle", "--seconds", "0.1",
                           str(missing)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert f"{missing}:1:1: cannot read file" in done.stderr and "Traceback" not in done.stderr
