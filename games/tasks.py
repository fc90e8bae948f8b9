"""Celery tasks of the games app: each takes ids, calls one service, and is idempotent."""
