"""The processes a real-service test starts (Celery workers and beat, web servers): each logs
to a file of the test's, is stopped when the test ends, and its log's end is printed (pytest
shows it when the test fails)."""

from __future__ import annotations

import signal
import subprocess
from pathlib import Path

import pytest


class Processes:
    def __init__(self, logs: Path) -> None:
        self.logs = logs
        self.started: list[subprocess.Popen] = []

    def start(self, name: str, command: list[str], env: dict[str, str], cwd: Path):
        log = open(self.logs / f"{name}.log", "w")  # noqa: SIM115 - closed with the process
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT)
        self.started.append(process)
        return process

    def stop_all(self) -> None:
        for process in self.started:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        for log in sorted(self.logs.glob("*.log")):
            print(f"--- {log.stem}\n{log.read_text()[-6000:]}")


@pytest.fixture
def processes(tmp_path):
    started = Processes(tmp_path)
    yield started
    started.stop_all()
