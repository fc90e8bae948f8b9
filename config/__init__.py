"""The Django project: settings, URLs, the Celery app, WSGI/ASGI entry points."""

# Create the Celery app whenever Django loads the project, as Celery's Django guide does, so a
# `@shared_task` in games/ or tournaments/ binds to it in the web process (and in tests), not
# to a default app with a default broker. The worker finds the same app via `celery -A config`.
# Guarded because config/dev.py bootstraps a fresh checkout before any package is installed:
# only a missing Celery is tolerated, any other import error surfaces.
try:
    from .celery import app as celery_app
except ModuleNotFoundError as exc:  # pragma: no cover - only without the project installed
    if exc.name != "celery":
        raise
    celery_app = None

__all__ = ["celery_app"]
