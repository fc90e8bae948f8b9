"""Celery tasks of the tournaments app: each takes ids, calls one service, and is idempotent."""
