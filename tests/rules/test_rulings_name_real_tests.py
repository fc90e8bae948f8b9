"""docs/RULINGS.md names, for every ruling, the tests that hold it: each must be a test of the
file it names (``file.py::test_name``, and ``::test_name`` for another test of the same
file), so a ruling is never left held by a test that was renamed or removed."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = re.compile(r"`((?:[\w/]*/)?test_\w+\.py)?::(test_\w+)")


def named_tests() -> list[tuple[str, str]]:
    """Each (file name, test name) the rulings name, in order."""
    text = (ROOT / "docs" / "RULINGS.md").read_text()
    out = []
    current = None
    for file, test in REFERENCE.findall(text):
        if file:
            current = Path(file).name
        assert current is not None, f"::{test} names no file before it"
        out.append((current, test))
    return out


def test_every_test_a_ruling_names_is_defined_in_the_file_it_names():
    files: dict[str, str] = {}
    for path in (ROOT / "tests").rglob("test_*.py"):
        files[path.name] = files.get(path.name, "") + path.read_text()
    named = named_tests()
    missing = [
        f"{file}::{test}"
        for file, test in named
        if not re.search(rf"^(async )?def {test}\(", files.get(file, ""), re.M)
    ]
    assert len(named) > 300  # (the rulings of all five rule sets)
    assert not missing, missing
