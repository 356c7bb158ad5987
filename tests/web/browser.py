"""Real browsers and real servers for the web tests: Debian's Chromium driven by Selenium
through chromedriver, ``ggp view`` and ``ggp match`` as subprocesses on loopback ports."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("GGP_TEST_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("GGP_TEST_CHROMEDRIVER", "/usr/bin/chromedriver")
#: Chromium's flags for a closed machine: no sandbox (root), no GPU, no network of its own.
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--window-size=1280,900")


def browser() -> Iterator[Any]:
    """A Selenium driver of headless Chromium with a fresh profile; skips without them."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.skip("needs selenium (pip install -e '.[test]')")
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not Path(path).exists():
            pytest.skip(f"needs {path} (Debian package {package}; .ci/run installs it)")
    profile = tempfile.mkdtemp(prefix="ggp-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*CHROMIUM_FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def ggp_command(*args: str) -> list[str]:
    """The command line running ``ggp ARGS`` with this interpreter."""
    return [sys.executable, "-m", "ggp", *args]


class Served:
    """A ``ggp`` subprocess that serves pages, found at the address it prints."""

    def __init__(self, args: list[str], env: dict[str, str], pattern: str, stream: str = "stdout",
                 timeout: float = 90.0):
        self.logs = {name: tempfile.NamedTemporaryFile("w+", prefix=f"ggp-{name}-", suffix=".log", delete=False)
                     for name in ("stdout", "stderr")}
        self.stream = stream
        self.process = subprocess.Popen(ggp_command(*args), env=env, stdout=self.logs["stdout"],
                                        stderr=self.logs["stderr"], text=True)
        self.urls: list[str] = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.urls = re.findall(pattern, self.output(stream))
            if self.urls:
                break
            if self.process.poll() is not None:
                raise AssertionError(f"ggp {' '.join(args)} ended: {self.output('stderr')}")
            time.sleep(0.1)
        else:
            self.stop()
            raise AssertionError(f"ggp {' '.join(args)} printed no address: {self.output('stderr')}")

    @property
    def url(self) -> str:
        """The first address printed."""
        return self.urls[0]

    def output(self, stream: str = "stdout") -> str:
        """Everything the process printed so far on ``stream``."""
        return Path(self.logs[stream].name).read_text()

    def wait(self, timeout: float) -> int:
        """Wait for the process to end; its exit status."""
        return self.process.wait(timeout)

    def stop(self) -> None:
        """End the process (if it still runs) and remove its log."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for log in self.logs.values():
            log.close()
            os.unlink(log.name)
