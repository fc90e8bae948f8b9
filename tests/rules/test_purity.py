"""The engine is pure: no Django, no I/O, no clock, no global random."""

import ast
import pathlib
import subprocess
import sys

RULES = pathlib.Path(__file__).resolve().parents[2] / "rules"
FORBIDDEN_MODULES = {
    "django",
    "rest_framework",
    "celery",
    "psycopg",
    "games",
    "tournaments",
    "time",
    "datetime",
    "socket",
    "os",
    "requests",
}


def test_importing_the_engine_imports_no_django():
    code = (
        "import sys, rules, rules.engine, rules.simulate, rules.views, rules.bots, rules.deck\n"
        "from rules.variants import get_variant, variant_names\n"
        "[get_variant(n) for n in variant_names()]\n"
        "outside = ('django', 'rest_framework', 'celery', 'psycopg', 'games', 'tournaments')\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in outside)\n"
        "print(bad)\n"
        "sys.exit(1 if bad else 0)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=RULES.parent
    )
    assert result.returncode == 0, result.stdout + result.stderr


def _imports(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name.split(".")[0], node.lineno
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module.split(".")[0], node.lineno


# The command-line tools beside the engine print and time themselves; nothing in the engine
# imports them (checked below).
TOOLS = {"simulate.py", "deck.py"}


def test_no_engine_module_imports_a_framework_the_clock_or_the_operating_system():
    offenders = [
        f"{path.relative_to(RULES.parent)}:{line} imports {module}"
        for path in RULES.rglob("*.py")
        if path.name not in TOOLS or path.parent != RULES
        for module, line in _imports(path)
        if module in FORBIDDEN_MODULES
    ]
    assert offenders == []


def test_no_engine_module_imports_the_command_line_tools():
    offenders = []
    for path in RULES.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module in ("rules.simulate", "rules.deck"):
                offenders.append(f"{path.name}:{node.lineno}")
    assert offenders == []


def test_the_engine_never_uses_the_global_random_generator():
    # random.Random(seed) instances are fine; module-level random.choice/shuffle/... are not.
    offenders = []
    for path in RULES.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
                and node.attr != "Random"
            ):
                offenders.append(f"{path.name}:{node.lineno} random.{node.attr}")
            if isinstance(node, ast.ImportFrom) and node.module == "random":
                offenders += [
                    f"{path.name}:{node.lineno} from random import {a.name}"
                    for a in node.names
                    if a.name != "Random"
                ]
    assert offenders == []
