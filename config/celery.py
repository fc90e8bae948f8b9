"""The Celery app; its settings are Django's CELERY_* settings (see config/settings.py)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("unoclub")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
