"""No log line of ours prints a seat secret: Django's warnings about 4xx answers and gunicorn's
access and error logs show a seat link's path with the secret masked (config/log_filters.py)."""

import datetime
import io
import logging
import re
import uuid
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.conf import settings
from gunicorn.config import Config

from config.gunicorn import SecretMaskingLogger

SECRET = "s3cr3t-seat-secret-0123456789abcdef"
ROOT = Path(settings.BASE_DIR)


@pytest.fixture
def console():
    """What the root logger's console handler writes, as a string buffer."""
    handler = next(h for h in logging.getLogger().handlers if h.name == "console")
    stream = io.StringIO()
    previous = handler.setStream(stream)
    yield stream
    handler.setStream(previous)


@pytest.mark.django_db
def test_a_wrong_seat_link_is_logged_without_its_secret(client, console):
    game_id = uuid.uuid4()

    response = client.get(f"/table/{game_id}/seat/{SECRET}/")

    assert response.status_code == 404
    assert f"Not Found: /table/{game_id}/seat/[secret]/" in console.getvalue()
    assert SECRET not in console.getvalue()


def test_runservers_request_lines_are_masked_too():
    handler = next(h for h in logging.getLogger("django.server").handlers)
    record = logging.LogRecord(
        "django.server",
        logging.INFO,
        __file__,
        1,
        '"%s" %s %s',
        (f"GET /seat/{SECRET}/", 302, 0),
        None,
    )

    assert handler.filter(record)
    assert SECRET not in record.getMessage()


def gunicorn_logger(tmp_path):
    cfg = Config()
    cfg.set("accesslog", str(tmp_path / "access.log"))
    cfg.set("errorlog", str(tmp_path / "error.log"))
    return SecretMaskingLogger(cfg)


def test_gunicorns_access_log_masks_the_secret_in_the_request_line_and_referer(tmp_path):
    logger = gunicorn_logger(tmp_path)
    path = f"/table/{uuid.uuid4()}/seat/{SECRET}/"
    environ = {
        "REQUEST_METHOD": "GET",
        "RAW_URI": path,
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "203.0.113.7",
        "HTTP_REFERER": f"https://uno.example.org{path}",
    }
    response = SimpleNamespace(status="302 Found", sent=0, headers=[])
    request = SimpleNamespace(headers=[])

    logger.access(response, request, environ, datetime.timedelta(milliseconds=3))

    line = (tmp_path / "access.log").read_text()
    assert SECRET not in line
    assert line.count("/seat/[secret]/") == 2  # the request line and the Referer
    assert '"GET /table/' in line and " 302 " in line


def test_gunicorns_error_log_masks_the_secret(tmp_path):
    logger = gunicorn_logger(tmp_path)

    logger.error("Error handling request %s", f"/table/x/seat/{SECRET}/")

    text = (tmp_path / "error.log").read_text()
    assert SECRET not in text
    assert "/table/x/seat/[secret]/" in text


@pytest.mark.parametrize("path", ["docker-compose.yml", "config/Dockerfile"])
def test_the_container_runs_gunicorn_with_the_masking_logger(path):
    text = (ROOT / path).read_text()

    commands = re.findall(r'(?:exec gunicorn|\["gunicorn")[^\n]*', text)
    assert commands
    assert all("python:config.gunicorn" in command for command in commands), commands
