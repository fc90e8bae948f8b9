"""Fixtures of the tournament tests that start real processes (workers, beat, web servers)."""

from .processes import processes  # noqa: F401 (a fixture, shared by the real-service tests)
