"""config/dev.py, the bootstrap behind the README's two commands."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

DEV_PY = Path(settings.BASE_DIR) / "config" / "dev.py"


def test_it_stays_valid_python_3_8():
    # It has to start under whatever old python3 a machine has, before any venv exists.
    ast.parse(DEV_PY.read_text(), filename=str(DEV_PY), feature_version=(3, 8))


def test_it_imports_nothing_but_the_standard_library():
    tree = ast.parse(DEV_PY.read_text())
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    } | {node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}

    assert imported <= sys.stdlib_module_names


def test_it_explains_its_usage_when_given_no_command():
    result = subprocess.run(
        [sys.executable, str(DEV_PY)], capture_output=True, text=True, timeout=60
    )

    assert result.returncode == 2
    assert "usage: python3 config/dev.py run" in result.stderr


def _load_dev():
    import importlib.util

    spec = importlib.util.spec_from_file_location("dev_under_test", DEV_PY)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_test_step_installs_chromium_with_apt_get_as_root(monkeypatch, capsys):
    dev = _load_dev()
    calls = []
    monkeypatch.setattr(dev.os.path, "exists", lambda path: False)
    monkeypatch.setattr(dev.os, "geteuid", lambda: 0)
    monkeypatch.setattr(dev.shutil, "which", lambda name: "/usr/bin/" + name)
    monkeypatch.setattr(dev.subprocess, "call", lambda command: calls.append(command) or 0)

    dev.ensure_chromium()

    assert calls == [["apt-get", "install", "-y", "chromium"]]
    assert "apt-get install -y chromium" in capsys.readouterr().out


def test_the_test_step_updates_the_package_lists_when_the_install_fails(monkeypatch):
    dev = _load_dev()
    calls = []
    results = iter([100, 0, 0])
    monkeypatch.setattr(dev.os.path, "exists", lambda path: False)
    monkeypatch.setattr(dev.os, "geteuid", lambda: 0)
    monkeypatch.setattr(dev.shutil, "which", lambda name: "/usr/bin/" + name)
    monkeypatch.setattr(
        dev.subprocess, "call", lambda command: calls.append(command) or next(results)
    )

    dev.ensure_chromium()

    assert calls == [
        ["apt-get", "install", "-y", "chromium"],
        ["apt-get", "update"],
        ["apt-get", "install", "-y", "chromium"],
    ]


def test_without_root_it_says_how_to_install_chromium(monkeypatch, capsys):
    dev = _load_dev()
    monkeypatch.setattr(dev.os.path, "exists", lambda path: False)
    monkeypatch.setattr(dev.os, "geteuid", lambda: 1000)
    monkeypatch.setattr(
        dev.subprocess, "call", lambda command: pytest.fail(f"ran {command} without root")
    )

    dev.ensure_chromium()

    assert "apt-get install -y chromium" in capsys.readouterr().out


def test_an_installed_chromium_is_left_alone(monkeypatch):
    dev = _load_dev()
    monkeypatch.setattr(dev.os.path, "exists", lambda path: path == dev.CHROMIUM)
    monkeypatch.setattr(dev.subprocess, "call", lambda command: pytest.fail(f"ran {command}"))

    dev.ensure_chromium()
