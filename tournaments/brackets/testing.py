"""Test support: emptying a *test* database's tournament rulings, which are append-only
(migration tournaments/0009) as the games' log is, before Django's flush after a transactional
test, which their triggers would refuse while any is recorded. tests/tournaments/conftest.py
and tests/web/conftest.py call it after every transactional test, beside
``games.testing.erase_event_log_for_tests``."""

from games.testing import erase_append_only_rows_for_tests


def erase_rulings_for_tests() -> None:
    """Delete every tournament ruling, briefly lifting the append-only triggers. Test
    databases only."""
    erase_append_only_rows_for_tests("tournaments_ruling")
