"""The web service serves the ASGI application (the table's live updates hold a stream open per
page): gunicorn with uvicorn's worker in Compose, seat secrets masked in uvicorn's log lines too,
a pool of connections per process and the listening connection's own URL past PgBouncer."""

from __future__ import annotations

import json
import logging
import re
import secrets
from pathlib import Path

import pytest
import yaml
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from gunicorn.config import Config

from config.gunicorn import SecretMaskingLogger

ROOT = Path(settings.BASE_DIR)
SERVICES = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]


@pytest.mark.parametrize("name", ["web", "web-scale"])
def test_the_web_services_run_the_asgi_application_with_uvicorns_worker(name):
    command = SERVICES[name]["command"]
    assert command[:3] == ["gunicorn", "-c", "python:config.gunicorn"]
    assert "config.asgi:application" in command
    assert command[command.index("-k") + 1] == "uvicorn_worker.UvicornWorker"


def test_the_image_run_on_its_own_serves_the_asgi_application_too():
    """``docker run`` without compose takes the image's CMD: it must not fall back to the WSGI
    application, which would hold a worker for every open table page."""
    cmd = re.search(r"^CMD (\[.*\])$", (ROOT / "config" / "Dockerfile").read_text(), re.M)
    assert cmd, "the Dockerfile has no CMD line"
    command = json.loads(cmd.group(1))
    assert command[:3] == ["gunicorn", "-c", "python:config.gunicorn"]
    assert "config.asgi:application" in command
    assert command[command.index("-k") + 1] == "uvicorn_worker.UvicornWorker"


def test_behind_pgbouncer_the_listening_connection_goes_straight_to_postgresql():
    env = SERVICES["web-scale"]["environment"]
    assert "pgbouncer" in env["DATABASE_URL"]
    assert env["LIVE_DATABASE_URL"].startswith("postgres://unoclub@postgres:5432/")
    assert int(SERVICES["web"]["environment"]["DATABASE_POOL"]) >= 1


def test_uvicorns_request_lines_are_masked_too(tmp_path):
    cfg = Config()
    cfg.set("accesslog", str(tmp_path / "access.log"))
    SecretMaskingLogger(cfg)
    secret = secrets.token_urlsafe(24)
    record = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5000", "GET", f"/table/x/seat/{secret}/", "1.1", 302),
        None,
    )
    assert logging.getLogger("uvicorn.access").filter(record)
    assert secret not in record.getMessage()
    assert "/table/x/seat/[secret]/" in record.getMessage()


def test_a_pool_per_process_replaces_connections_kept_between_requests(load):
    database = load({"DATABASE_URL": "postgres://u@db:5432/club", "DATABASE_POOL": "8"})[
        "DATABASES"
    ]["default"]
    assert database["CONN_MAX_AGE"] == 0
    assert database["OPTIONS"]["pool"] == {"min_size": 1, "max_size": 8}
    plain = load({"DATABASE_URL": "postgres://u@db:5432/club"})["DATABASES"]["default"]
    assert "pool" not in plain["OPTIONS"] and plain["CONN_MAX_AGE"] == 60


def test_live_updates_settings_and_a_bad_value_named(load, tmp_path):
    assert load({})["LIVE_UPDATES"] == "sse"
    assert load({"LIVE_UPDATES": "poll"})["LIVE_UPDATES"] == "poll"
    url = tmp_path / "live_url"
    url.write_text("postgres://unoclub@postgres:5432/unoclub\n")
    assert load({"LIVE_DATABASE_URL_FILE": str(url)})["LIVE_DATABASE_URL"] == (
        "postgres://unoclub@postgres:5432/unoclub"
    )
    with pytest.raises(ImproperlyConfigured, match="LIVE_UPDATES"):
        load({"LIVE_UPDATES": "websocket"})
    with pytest.raises(ImproperlyConfigured, match="DATABASE_POOL"):
        load({"DATABASE_URL": "postgres://u@db:5432/club", "DATABASE_POOL": "many"})
