"""config/dev.py, the bootstrap behind the README's two commands."""

import ast
import subprocess
import sys
from pathlib import Path

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
