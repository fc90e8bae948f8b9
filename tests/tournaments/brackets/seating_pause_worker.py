"""A Celery worker that stops in the middle of seating a round, for test_worker.py to kill.

``python -m tests.tournaments.brackets.seating_pause_worker worker [celery worker options]``
starts the project's worker after hooking a pause into the seating: when a round's first table
has been written (its game created, nothing committed yet), the worker touches the file named
by ``SEATING_PAUSE_MARKER`` and sleeps ``SEATING_PAUSE_SECONDS``. Only this module reads those
two variables; the service and the settings know nothing of them.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from django.db.models.signals import post_save  # noqa: E402

from config.celery import app  # noqa: E402
from tournaments.brackets.models import Table  # noqa: E402

MARKER = Path(os.environ["SEATING_PAUSE_MARKER"])
SECONDS = float(os.environ["SEATING_PAUSE_SECONDS"])


def pause_in_the_seating(sender: type[Table], instance: Table, created: bool, **kwargs: object):
    # Only seat_next_round creates tables, inside its one transaction (recording a result
    # saves an existing table).
    if created:
        MARKER.touch()
        time.sleep(SECONDS)


post_save.connect(pause_in_the_seating, sender=Table, weak=False)

if __name__ == "__main__":
    app.worker_main(sys.argv[1:])
