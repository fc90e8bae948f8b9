"""What the settings tests share: loading config/settings.py afresh under a chosen environment."""

from __future__ import annotations

import runpy
import secrets
from pathlib import Path

import pytest
from django.conf import settings

# Variables the tests set themselves: cleared first, so the machine's own never leak in.
VARIABLES = (
    "DATABASE_URL",
    "DATABASE_URL_FILE",
    "POSTGRES_PASSWORD",
    "POSTGRES_PASSWORD_FILE",
    "DATABASE_TRANSACTION_POOLER",
    "DATABASE_POOL",
    "DATABASE_CONN_MAX_AGE",
    "LIVE_UPDATES",
    "LIVE_DATABASE_URL",
    "LIVE_DATABASE_URL_FILE",
    "DJANGO_ENV",
    "CHAIN_SIGNING_KEY_FILE",
)


@pytest.fixture
def load(monkeypatch):
    """``load(env)``: the settings module's names, read with ``env`` set (and a signing key)."""

    def run(env: dict[str, str]) -> dict[str, object]:
        for name in VARIABLES:
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("CHAIN_SIGNING_KEY", secrets.token_hex(32))
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        return runpy.run_path(str(Path(settings.BASE_DIR) / "config" / "settings.py"))

    return run
