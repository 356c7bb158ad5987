"""docs/spiel.md's five lines of Python run and print what they say."""

from __future__ import annotations

import re
import subprocess
import sys

import tests.spiel.support  # noqa: F401  (skips without OpenSpiel)
from tests.conftest import ROOT


def test_five_lines() -> None:
    text = (ROOT / "docs" / "spiel.md").read_text()
    block = re.search(r"## Five lines of Python\n\n```python\n(.*?)```", text, re.S)
    assert block is not None
    code = block.group(1)
    assert len(code.strip().splitlines()) == 5
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert abs(float(done.stdout) - 0.0003) < 0.0001
