"""Celery tasks of the games app: each takes ids, calls one service, and is idempotent."""

from celery import shared_task

from games import bots


# acks_late: a worker that dies mid-run leaves the message to be delivered again (running it
# twice is harmless: each bot command carries the version it was chosen at).
@shared_task(ignore_result=True, acks_late=True, reject_on_worker_lost=True)
def play_bots(game_id: str) -> None:
    """The bot seats of a quick game take their turns until a person must act."""
    bots.play_bots(game_id)
