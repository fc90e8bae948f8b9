"""The code stays as the house style says: ruff-clean and formatted, the engine strictly typed."""

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True)


def test_ruff_finds_nothing_to_fix():
    result = run("ruff", "check", ".", "--output-format", "concise")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_code_is_formatted():
    result = run("ruff", "format", "--check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_rules_engine_type_checks_strictly():
    result = run("mypy", "rules")
    assert result.returncode == 0, result.stdout + result.stderr
