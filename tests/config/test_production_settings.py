"""Production settings: TLS and cookies on by default, every knob from the environment, bad values
named, and `manage.py check --deploy` with nothing to say."""

import os
import re
import runpy
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

ROOT = Path(settings.BASE_DIR)
SETTINGS = ROOT / "config" / "settings.py"

# Variables these tests set; any of them in the environment the tests run in is removed first.
VARIABLES = (
    "DJANGO_ENV",
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "CHAIN_SIGNING_KEY",
    "CHAIN_SIGNING_KEY_FILE",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "SECURE_SSL_REDIRECT",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "SECURE_PROXY_SSL_HEADER",
    "NUM_PROXIES",
    "CACHE_URL",
    "THROTTLE_TOKEN",
    "THROTTLE_SEAT",
    "THROTTLE_COMMANDS",
    "THROTTLE_SEAT_FAILURES",
)
PRODUCTION = {
    "DJANGO_ENV": "production",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "uno.example.org",
    "CHAIN_SIGNING_KEY": secrets.token_hex(32),
}
DEVELOPMENT = {"CHAIN_SIGNING_KEY": PRODUCTION["CHAIN_SIGNING_KEY"]}


@pytest.fixture
def load(monkeypatch):
    """``load(env)``: config/settings.py run afresh with only ``env`` of the variables above."""

    def run(env: dict[str, str]) -> dict[str, object]:
        for name in VARIABLES:
            monkeypatch.delenv(name, raising=False)
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        return runpy.run_path(str(SETTINGS))

    return run


def rate(scope):
    return lambda s: s["REST_FRAMEWORK"]["DEFAULT_THROTTLE_RATES"][scope]


def test_production_turns_on_https_hsts_secure_cookies_and_the_proxy_header(load):
    s = load(PRODUCTION)

    assert s["SECURE_SSL_REDIRECT"] is True
    assert s["SECURE_HSTS_SECONDS"] == 31536000
    assert s["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is True
    assert s["SECURE_HSTS_PRELOAD"] is True
    assert s["SESSION_COOKIE_SECURE"] is True
    assert s["CSRF_COOKIE_SECURE"] is True
    assert s["SECURE_PROXY_SSL_HEADER"] == ("HTTP_X_FORWARDED_PROTO", "https")
    assert s["REST_FRAMEWORK"]["NUM_PROXIES"] == 1
    assert s["CACHES"]["default"]["BACKEND"].endswith("LocMemCache")


def test_development_leaves_them_off(load):
    s = load(DEVELOPMENT)

    assert s["SECURE_SSL_REDIRECT"] is False
    assert s["SECURE_HSTS_SECONDS"] == 0
    assert s["SESSION_COOKIE_SECURE"] is False
    assert s["CSRF_COOKIE_SECURE"] is False
    assert s["SECURE_PROXY_SSL_HEADER"] is None
    assert s["REST_FRAMEWORK"]["NUM_PROXIES"] == 0


def test_the_rate_limits_have_defaults_in_every_environment(load):
    for env in (DEVELOPMENT, PRODUCTION):
        assert load(env)["REST_FRAMEWORK"]["DEFAULT_THROTTLE_RATES"] == {
            "token": "30/minute",
            "seat": "1200/minute",
            "commands": "600/minute",
            "seat_failures": "20/minute",
        }


@pytest.mark.parametrize(
    ("variable", "value", "setting", "expected"),
    [
        ("SECURE_HSTS_SECONDS", "3600", "SECURE_HSTS_SECONDS", 3600),
        ("SECURE_HSTS_INCLUDE_SUBDOMAINS", "0", "SECURE_HSTS_INCLUDE_SUBDOMAINS", False),
        ("SECURE_HSTS_PRELOAD", "no", "SECURE_HSTS_PRELOAD", False),
        ("SECURE_SSL_REDIRECT", "off", "SECURE_SSL_REDIRECT", False),
        ("SESSION_COOKIE_SECURE", "false", "SESSION_COOKIE_SECURE", False),
        ("CSRF_COOKIE_SECURE", "0", "CSRF_COOKIE_SECURE", False),
        (
            "SECURE_PROXY_SSL_HEADER",
            "HTTP_X_FORWARDED_SSL=on",
            "SECURE_PROXY_SSL_HEADER",
            ("HTTP_X_FORWARDED_SSL", "on"),
        ),
        ("SECURE_PROXY_SSL_HEADER", "off", "SECURE_PROXY_SSL_HEADER", None),
        ("NUM_PROXIES", "2", lambda s: s["REST_FRAMEWORK"]["NUM_PROXIES"], 2),
        ("NUM_PROXIES", "0", lambda s: s["REST_FRAMEWORK"]["NUM_PROXIES"], 0),
        ("THROTTLE_TOKEN", "5/hour", rate("token"), "5/hour"),
        ("THROTTLE_SEAT", "600/minute", rate("seat"), "600/minute"),
        ("THROTTLE_COMMANDS", "3/s", rate("commands"), "3/s"),
        ("THROTTLE_COMMANDS", "off", rate("commands"), None),
        ("THROTTLE_SEAT_FAILURES", "100/day", rate("seat_failures"), "100/day"),
        (
            "CACHE_URL",
            "redis://redis:6379/1",
            lambda s: {k: s["CACHES"]["default"].get(k) for k in ("BACKEND", "LOCATION")},
            {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": "redis://redis:6379/1",
            },
        ),
    ],
)
def test_each_variable_changes_its_setting_in_production(load, variable, value, setting, expected):
    read = setting if callable(setting) else (lambda s: s[setting])

    assert read(load(PRODUCTION)) != expected
    assert read(load({**PRODUCTION, variable: value})) == expected


@pytest.mark.parametrize(
    ("variable", "setting"),
    [
        ("SECURE_SSL_REDIRECT", "SECURE_SSL_REDIRECT"),
        ("SESSION_COOKIE_SECURE", "SESSION_COOKIE_SECURE"),
        ("CSRF_COOKIE_SECURE", "CSRF_COOKIE_SECURE"),
        ("SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_INCLUDE_SUBDOMAINS"),
        ("SECURE_HSTS_PRELOAD", "SECURE_HSTS_PRELOAD"),
    ],
)
def test_each_switch_turns_on_outside_production_too(load, variable, setting):
    assert load({**DEVELOPMENT, variable: "1"})[setting] is True


def test_the_proxy_header_outside_production_also_counts_the_proxy_for_addresses(load):
    s = load({**DEVELOPMENT, "SECURE_PROXY_SSL_HEADER": "HTTP_X_FORWARDED_PROTO"})

    assert s["SECURE_PROXY_SSL_HEADER"] == ("HTTP_X_FORWARDED_PROTO", "https")
    assert s["REST_FRAMEWORK"]["NUM_PROXIES"] == 1


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("SECURE_HSTS_SECONDS", "a year"),
        ("SECURE_HSTS_SECONDS", "-1"),
        ("SECURE_HSTS_INCLUDE_SUBDOMAINS", "always"),
        ("SECURE_HSTS_PRELOAD", "2"),
        ("SECURE_SSL_REDIRECT", "maybe"),
        ("SESSION_COOKIE_SECURE", "sure"),
        ("CSRF_COOKIE_SECURE", "y"),
        ("SECURE_PROXY_SSL_HEADER", "X-Forwarded-Proto"),
        ("SECURE_PROXY_SSL_HEADER", "HTTP_X_FORWARDED_PROTO=https=yes"),
        ("NUM_PROXIES", "one"),
        ("NUM_PROXIES", "-1"),
        ("CACHE_URL", "memcached://cache:11211"),
        ("THROTTLE_TOKEN", "fast"),
        ("THROTTLE_SEAT", "0/second"),
        ("THROTTLE_COMMANDS", "20/fortnight"),
        ("THROTTLE_SEAT_FAILURES", "5/15min"),
    ],
)
def test_a_bad_value_stops_the_start_with_a_message_naming_the_variable(load, variable, value):
    with pytest.raises(ImproperlyConfigured, match=rf"^{variable}\b"):
        load({**PRODUCTION, variable: value})


# manage.py check --deploy ----------------------------------------------------------------------


def check_deploy(**env: str) -> subprocess.CompletedProcess:
    # The browser tests' DJANGO_ALLOW_ASYNC_UNSAFE is no production setting either.
    leave_out = {*VARIABLES, "DJANGO_ALLOW_ASYNC_UNSAFE"}
    environ = {k: v for k, v in os.environ.items() if k not in leave_out}
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={**environ, **PRODUCTION, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_in_production_finds_nothing():
    result = check_deploy()

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_check_deploy_still_warns_when_production_turns_the_redirect_and_hsts_off():
    # The check above is worth something only if the same run can warn.
    result = check_deploy(SECURE_SSL_REDIRECT="0", SECURE_HSTS_SECONDS="0")

    assert result.returncode != 0
    assert "security.W004" in result.stderr + result.stdout
    assert "security.W008" in result.stderr + result.stdout


# Served over HTTP behind the proxy ------------------------------------------------------------


@pytest.fixture
def production_tls(settings):
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 31536000
    settings.SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    settings.SECURE_HSTS_PRELOAD = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")


@pytest.mark.django_db
def test_plain_http_is_redirected_to_https_and_https_gets_hsts(production_tls, client):
    redirected = client.get("/")
    secure = client.get("/", HTTP_X_FORWARDED_PROTO="https")

    assert redirected.status_code == 301
    assert redirected["Location"] == "https://testserver/"
    assert secure.status_code == 200
    assert secure["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"


@pytest.mark.django_db
def test_the_containers_health_check_is_answered_over_plain_http(production_tls, client):
    compose = (ROOT / "docker-compose.yml").read_text()
    health_url = re.search(r"urlopen\('(http://localhost:8000/[^']*)'", compose).group(1)
    path = health_url.removeprefix("http://localhost:8000")

    response = client.get(path, HTTP_HOST="localhost")

    assert response.status_code == 200, response.content
    assert response.json()["status"] == "ok"
