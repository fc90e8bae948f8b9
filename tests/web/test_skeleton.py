"""The skeleton end to end: pages, health check, API docs, and settings that fail loudly."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.exceptions import ImproperlyConfigured
from django.db import connection

from config.settings import database_from_url, envbool, envint

BASE_DIR = Path(settings.BASE_DIR)
URL_IN_ATTRIBUTE = re.compile(r"""(?:src|href)\s*=\s*["']([^"']+)["']""")


def static_urls(html: str) -> list[str]:
    """The static files a page references."""
    return [url for url in URL_IN_ATTRIBUTE.findall(html) if url.startswith(settings.STATIC_URL)]


def test_home_page_loads_the_vendored_htmx(client):
    response = client.get("/")

    assert response.status_code == 200
    assert '<script src="/static/vendor/htmx/htmx.min.js" defer></script>' in response.text
    assert "leagues" in response.text and "tournaments" in response.text


@pytest.mark.django_db
def test_only_someone_who_may_use_the_admin_is_shown_the_way_to_it(client):
    from django.contrib.auth import get_user_model

    assert 'href="/admin/"' not in client.get("/").text  # signed out
    people = get_user_model().objects
    client.force_login(people.create_user("olga", password="pw-olga-123"))  # an organiser
    assert 'href="/admin/"' not in client.get("/").text
    client.force_login(people.create_user("root", password="pw-root-123", is_staff=True))
    html = client.get("/").text
    assert html.count('href="/admin/"') == 2  # the site's links and the home page's


def test_vendored_htmx_is_version_2():
    htmx = finders.find("vendor/htmx/htmx.min.js")

    assert htmx, "htmx.min.js is not among the static files"
    assert 'version:"2.' in Path(htmx).read_text()


def test_pages_set_the_csrf_header_for_htmx(client):
    response = client.get("/")

    assert re.search(r"""<body hx-headers='\{"X-CSRFToken": "[^"]+"\}'>""", response.text)


@pytest.mark.django_db
def test_healthz_reports_the_database(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": connection.vendor}


def test_api_schema_is_an_openapi_document(client):
    response = client.get("/api/schema/", {"format": "json"})

    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    assert schema["info"]["title"] == "UNO club API"
    assert schema["info"]["version"] == "1"


@pytest.mark.parametrize("url", ["/", "/api/docs/", "/api/redoc/"])
def test_pages_load_nothing_from_another_host(client, url):
    response = client.get(url)

    assert response.status_code == 200
    html = response.text
    assert not re.search(r"https?://", html), "the page names another host"
    assert not re.search(r"""["']//""", html), "the page has a protocol-relative URL"
    assets = static_urls(html)
    assert assets, "expected the page to use local static files"
    for asset in assets:
        asset_response = client.get(asset)
        assert asset_response.status_code == 200, f"{asset} is referenced but not served"
        assert b"".join(asset_response.streaming_content), f"{asset} is empty"


def _django_setup(**environ: str) -> subprocess.CompletedProcess[str]:
    """Start Django in a fresh interpreter with the given environment over a clean one."""
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in {"SECRET_KEY", "ALLOWED_HOSTS", "DEBUG", "DJANGO_ENV", "CHAIN_SIGNING_KEY"}
    }
    env.update(DJANGO_SETTINGS_MODULE="config.settings", **environ)
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_refuses_to_start_without_a_secret_key():
    result = _django_setup(DJANGO_ENV="production", ALLOWED_HOSTS="uno.example")

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "SECRET_KEY" in result.stderr


def test_production_refuses_to_start_without_allowed_hosts():
    result = _django_setup(DJANGO_ENV="production", SECRET_KEY="s3cret-for-this-test")

    assert result.returncode != 0
    assert "ALLOWED_HOSTS" in result.stderr


def test_production_refuses_to_start_without_the_chain_signing_key():
    result = _django_setup(
        DJANGO_ENV="production", SECRET_KEY="s3cret-for-this-test", ALLOWED_HOSTS="uno.example"
    )

    assert result.returncode != 0
    assert "CHAIN_SIGNING_KEY" in result.stderr


def test_production_starts_with_its_secrets_set():
    result = _django_setup(
        DJANGO_ENV="production",
        SECRET_KEY="s3cret-for-this-test",
        ALLOWED_HOSTS="uno.example",
        CHAIN_SIGNING_KEY="ab" * 32,
    )

    assert result.returncode == 0, result.stderr


def test_production_takes_the_chain_signing_key_from_a_file(tmp_path):
    key_file = tmp_path / "chain-key"
    key_file.write_text("cd" * 32 + "\n")
    result = _django_setup(
        DJANGO_ENV="production",
        SECRET_KEY="s3cret-for-this-test",
        ALLOWED_HOSTS="uno.example",
        CHAIN_SIGNING_KEY_FILE=str(key_file),
    )

    assert result.returncode == 0, result.stderr


def test_a_chain_signing_key_that_is_not_64_hex_characters_is_refused():
    result = _django_setup(
        DJANGO_ENV="production",
        SECRET_KEY="s3cret-for-this-test",
        ALLOWED_HOSTS="uno.example",
        CHAIN_SIGNING_KEY="not-a-key",
    )

    assert result.returncode != 0
    assert "CHAIN_SIGNING_KEY must be 64 hex characters" in result.stderr


def test_envint_rejects_a_bad_value_naming_the_variable(monkeypatch):
    monkeypatch.setenv("UNOCLUB_TEST_NUMBER", "twelve")

    with pytest.raises(ImproperlyConfigured, match="UNOCLUB_TEST_NUMBER"):
        envint("UNOCLUB_TEST_NUMBER", 3)


def test_envint_and_envbool_read_good_values_and_defaults(monkeypatch):
    monkeypatch.setenv("UNOCLUB_TEST_NUMBER", "12")
    monkeypatch.setenv("UNOCLUB_TEST_FLAG", "off")
    monkeypatch.delenv("UNOCLUB_TEST_UNSET", raising=False)

    assert envint("UNOCLUB_TEST_NUMBER", 3) == 12
    assert envbool("UNOCLUB_TEST_FLAG", True) is False
    assert envbool("UNOCLUB_TEST_UNSET", True) is True


def test_envbool_rejects_a_bad_value_naming_the_variable(monkeypatch):
    monkeypatch.setenv("UNOCLUB_TEST_FLAG", "maybe")

    with pytest.raises(ImproperlyConfigured, match="UNOCLUB_TEST_FLAG"):
        envbool("UNOCLUB_TEST_FLAG", False)


def test_database_url_is_parsed_into_a_postgresql_database():
    database = database_from_url("postgres://ann:p%40ss@db.example:6543/uno?sslmode=require")

    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert (database["NAME"], database["USER"], database["PASSWORD"]) == ("uno", "ann", "p@ss")
    assert (database["HOST"], database["PORT"]) == ("db.example", 6543)
    assert database["OPTIONS"] == {"sslmode": "require", "prepare_threshold": 5}


def test_prepared_statements_can_be_tuned_or_turned_off_in_the_database_url():
    # On by default (the event store's append statement is prepared); off for poolers.
    assert database_from_url("postgres://h/uno?prepare_threshold=2")["OPTIONS"] == {
        "prepare_threshold": 2
    }
    assert database_from_url("postgres://h/uno?prepare_threshold=")["OPTIONS"] == {
        "prepare_threshold": None
    }
    with pytest.raises(ImproperlyConfigured, match="prepare_threshold"):
        database_from_url("postgres://h/uno?prepare_threshold=often")


def test_database_url_of_another_kind_is_rejected_naming_the_variable():
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL"):
        database_from_url("mysql://ann@db.example/uno")
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL"):
        database_from_url("postgres://ann@db.example:port/uno")


def test_shared_tasks_bind_to_the_project_celery_app():
    from celery import shared_task

    from config.celery import app

    @shared_task
    def ping() -> str:
        return "pong"

    assert ping.app is app
    assert app.main == "unoclub"
    assert app.conf.task_always_eager is not bool(os.environ.get("CELERY_BROKER_URL"))


def test_the_embedded_default_makes_a_chain_key_on_first_start_and_keeps_it(tmp_path):
    path = tmp_path / "chain-key"

    first = _django_setup(CHAIN_KEY_PATH=str(path))
    made = path.read_text().strip()
    second = _django_setup(CHAIN_KEY_PATH=str(path))

    assert first.returncode == second.returncode == 0, first.stderr + second.stderr
    assert len(bytes.fromhex(made)) == 32
    assert path.stat().st_mode & 0o777 == 0o600
    assert path.read_text().strip() == made


def test_production_takes_the_secret_key_from_a_file(tmp_path):
    key_file = tmp_path / "secret-key"
    key_file.write_text("from-a-file\n")
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup(); from django.conf import settings;"
            " print(settings.SECRET_KEY)",
        ],
        cwd=BASE_DIR,
        env={
            **{k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG"}},
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DJANGO_ENV": "production",
            "ALLOWED_HOSTS": "uno.example",
            "CHAIN_SIGNING_KEY": "ab" * 32,
            "SECRET_KEY_FILE": str(key_file),
        },
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "from-a-file"
