"""Celery tasks of the games app: each takes ids, calls one service, and is idempotent."""

from celery import shared_task

from games import bots


@shared_task(ignore_result=True)
def play_bots(game_id: str) -> None:
    """The bot seats of a quick game take their turns until a person must act."""
    bots.play_bots(game_id)
