"""What every test needs: fast password hashing, no rate limits, and the PostgreSQL-only test
mechanism.

Tests marked `@pytest.mark.postgres` need PostgreSQL (the event store relies on its triggers and
JSONB) and are skipped on SQLite. CI sets REQUIRE_POSTGRES=1: then the run fails unless it ran on
PostgreSQL and at least one postgres test passed, so a green CI proves those tests really ran.
"""

import contextlib
import os

import pytest

REQUIRE_POSTGRES = os.environ.get("REQUIRE_POSTGRES") == "1"
SKIP_REASON = "needs PostgreSQL (set DATABASE_URL)"

_postgres_passed = 0
_postgres_problem = ""


def _database_vendor() -> str:
    from django.db import connection

    return connection.vendor


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _no_rate_limits(settings):
    # The suite sends thousands of requests from one address; tests/games/test_throttling.py
    # sets the rates it tests.
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": dict.fromkeys(rates),
    }


def pytest_collection_modifyitems(config, items):
    if _database_vendor() == "postgresql":
        return
    skip = pytest.mark.skip(reason=SKIP_REASON)
    for item in items:
        if item.get_closest_marker("postgres"):
            item.add_marker(skip)


def pytest_runtest_logreport(report):
    global _postgres_passed
    if report.when == "call" and report.passed and "postgres" in report.keywords:
        _postgres_passed += 1


def _remove_sqlite_test_files_left():
    """SQLite's write-ahead log files of the tests' database file (config/settings.py), which
    Django's teardown deletes without them."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    name = str(database.get("TEST", {}).get("NAME") or "")
    if database["ENGINE"].endswith("sqlite3") and name and not os.path.exists(name):
        for suffix in ("-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                os.remove(name + suffix)


def pytest_sessionfinish(session, exitstatus):
    global _postgres_problem
    _remove_sqlite_test_files_left()
    if not REQUIRE_POSTGRES:
        return
    vendor = _database_vendor()
    if vendor != "postgresql":
        _postgres_problem = f"the tests ran on {vendor}, not PostgreSQL: set DATABASE_URL"
    elif _postgres_passed == 0:
        _postgres_problem = "no @pytest.mark.postgres test passed"
    if _postgres_problem and session.exitstatus in (
        pytest.ExitCode.OK,
        pytest.ExitCode.NO_TESTS_COLLECTED,
    ):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter):
    if not REQUIRE_POSTGRES:
        return
    if _postgres_problem:
        terminalreporter.write_sep("=", f"REQUIRE_POSTGRES=1 FAILED: {_postgres_problem}", red=True)
    else:
        terminalreporter.write_line(
            f"REQUIRE_POSTGRES=1: {_postgres_passed} PostgreSQL test(s) passed on PostgreSQL."
        )
