"""Documents the company keeps beside the project (``../shared``: the rulebooks, the public
API's promise) are not part of it: a test that reads one is skipped, saying so, in a clone
without them, and fails instead where REQUIRE_SHARED=1 (CI, which has them)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2] / "shared"


def need(path: Path, what: str) -> None:
    """Skip the calling test, or fail it under REQUIRE_SHARED=1, when ``path`` is missing."""
    if path.is_file():
        return
    missing = f"{what} is not beside the project (../shared/{path.relative_to(SHARED)})"
    if os.environ.get("REQUIRE_SHARED") == "1":
        pytest.fail(f"REQUIRE_SHARED=1: {missing}")
    pytest.skip(missing)
