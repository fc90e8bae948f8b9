"""docker-compose.yml, read as Compose reads it (there is no Docker here to run it): secrets only
as files, migrations once before anything uses the database, health checks for every long-lived
service, Redis that keeps its queue, beat sending the sweeps, and the scale profile behind
PgBouncer. And the settings that read what Compose hands over (*_FILE, the pooler switch)."""

from __future__ import annotations

from pathlib import Path

import yaml
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]
APP = ("migrate", "web", "worker", "beat", "web-scale", "worker-scale")
LONG_LIVED = ("postgres", "redis", "web", "worker", "beat", "web-scale", "worker-scale")


def test_secrets_are_files_never_variables():
    declared = set(COMPOSE["secrets"])
    assert declared == {"secret_key", "chain_signing_key", "postgres_password"}
    assert all("file" in spec for spec in COMPOSE["secrets"].values())
    for name in (*APP, "postgres"):
        env = SERVICES[name]["environment"]
        for plain in ("SECRET_KEY", "CHAIN_SIGNING_KEY", "POSTGRES_PASSWORD"):
            assert plain not in env, (name, plain)
        for variable, value in env.items():
            if variable.endswith("_FILE"):
                secret = value.removeprefix("/run/secrets/")
                assert secret in declared and secret in SERVICES[name]["secrets"], (name, variable)
    for name in APP:
        env = SERVICES[name]["environment"]
        assert env["SECRET_KEY_FILE"] == "/run/secrets/secret_key"
        assert env["CHAIN_SIGNING_KEY_FILE"] == "/run/secrets/chain_signing_key"
        assert env["POSTGRES_PASSWORD_FILE"] == "/run/secrets/postgres_password"
        user = env["DATABASE_URL"].removeprefix("postgres://").partition("@")[0]
        assert user == "unoclub"  # no password in the URL


def test_migrations_run_once_before_web_worker_and_beat():
    migrate = SERVICES["migrate"]
    assert migrate["restart"] == "no"
    assert migrate["command"][-2:] == ["migrate", "--noinput"]
    for name in ("web", "worker", "beat", "web-scale", "worker-scale"):
        depends = SERVICES[name]["depends_on"]
        assert depends["migrate"]["condition"] == "service_completed_successfully", name
        assert "migrate" not in str(SERVICES[name]["command"]), name


def test_every_long_lived_service_has_a_health_check():
    for name in LONG_LIVED:
        assert SERVICES[name].get("healthcheck", {}).get("test"), name
    assert "inspect ping" in " ".join(SERVICES["worker"]["healthcheck"]["test"])
    assert "celerybeat-schedule" in " ".join(SERVICES["beat"]["healthcheck"]["test"])
    assert "--schedule" in SERVICES["beat"]["command"]
    assert "/tmp/celerybeat-schedule" in SERVICES["beat"]["command"]


def test_redis_keeps_its_queue():
    redis = SERVICES["redis"]
    assert "--appendonly" in redis["command"]
    assert redis["command"][redis["command"].index("--appendonly") + 1] == "yes"
    assert any(volume.endswith(":/data") for volume in redis["volumes"])
    assert "redis-data" in COMPOSE["volumes"]


def test_beat_sends_the_sweeps_and_the_visibility_timeout_is_set():
    env = SERVICES["worker"]["environment"]
    assert env["CELERY_VISIBILITY_TIMEOUT"] == "${CELERY_VISIBILITY_TIMEOUT:-900}"
    assert env["SWEEP_SECONDS"] == "${SWEEP_SECONDS:-30}"
    tasks = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "tournaments.tasks.sweep_rounds" in tasks


def test_the_scale_profile_runs_replicas_through_pgbouncer_in_transaction_mode():
    scaled = {name for name, spec in SERVICES.items() if "scale" in spec.get("profiles", [])}
    assert scaled == {"pgbouncer", "web-scale", "worker-scale"}
    assert SERVICES["pgbouncer"]["environment"]["POOL_MODE"] == "transaction"
    for name in ("web-scale", "worker-scale"):
        spec = SERVICES[name]
        assert spec["deploy"]["replicas"] >= 2
        url = spec["environment"]["DATABASE_URL"]
        assert url.startswith("postgres://unoclub@pgbouncer:") and url.endswith(
            "?prepare_threshold="
        )
        assert spec["environment"]["DATABASE_TRANSACTION_POOLER"] == "1"
        assert "ports" not in spec


def test_the_database_password_comes_from_the_postgres_images_secret_file(load, tmp_path):
    password = tmp_path / "postgres_password"
    password.write_text("p@ss/w:rd #1\n")  # any character: it is never part of a URL
    database = load(
        {
            "DATABASE_URL": "postgres://unoclub@postgres:5432/unoclub",
            "POSTGRES_PASSWORD_FILE": str(password),
        }
    )["DATABASES"]["default"]
    assert (database["USER"], database["PASSWORD"], database["HOST"]) == (
        "unoclub",
        "p@ss/w:rd #1",
        "postgres",
    )


def test_database_url_file_and_a_password_in_the_url_wins(load, tmp_path):
    url = tmp_path / "database_url"
    url.write_text("postgres://u:inurl@db:5432/club\n")
    database = load({"DATABASE_URL_FILE": str(url), "POSTGRES_PASSWORD": "other"})["DATABASES"][
        "default"
    ]
    assert (database["NAME"], database["PASSWORD"]) == ("club", "inurl")


def test_behind_a_transaction_pooler_no_prepared_statements_and_no_server_side_cursors(load):
    database = load(
        {
            "DATABASE_URL": "postgres://u@pgbouncer:5432/club?prepare_threshold=",
            "DATABASE_TRANSACTION_POOLER": "1",
        }
    )["DATABASES"]["default"]
    assert database["OPTIONS"]["prepare_threshold"] is None
    assert database["DISABLE_SERVER_SIDE_CURSORS"] is True
