"""Django settings for the UNO club service: one module, every knob from the environment.

With no environment at all this is a working development setup (SQLite, tasks run in-process),
so a newcomer needs nothing but Python. Production (DJANGO_ENV=production) refuses to start
without the secrets it must not guess.
"""

import os
import re
import secrets
import tempfile
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def envstr(name: str, default: str, *, choices: tuple[str, ...] = ()) -> str:
    """The variable as a string; an unset or empty variable gives the default."""
    value = os.environ.get(name, "") or default
    if choices and value not in choices:
        raise ImproperlyConfigured(f"{name}={value!r} is not one of: {', '.join(choices)}")
    return value


def envbool(name: str, default: bool) -> bool:
    """The variable as a bool (1/0, true/false, yes/no, on/off); anything else is an error."""
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={value!r} is not a boolean (use 1/0, true/false, yes/no)")


def envint(name: str, default: int, *, minimum: int | None = None) -> int:
    """The variable as an int; anything that is not a whole number (or is below ``minimum``)
    is an error."""
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not an integer") from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name}={value!r} must be at least {minimum}")
    return number


_RATE_PERIODS = {
    *("s", "sec", "second", "seconds", "m", "min", "minute", "minutes"),
    *("h", "hour", "hours", "d", "day", "days"),
}


def envrate(name: str, default: str | None) -> str | None:
    """A rate limit as ``requests/period`` (period: second, minute, hour or day), or ``off``.

    The form is DRF's throttle rate; it is checked here because DRF only reads the first letter
    of the period ("5/15min" would silently mean five a minute) and fails at the first request.
    """
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    if value in _FALSE or value == "none":
        return None
    count, _, period = value.partition("/")
    if not (count.isdigit() and int(count) > 0 and period in _RATE_PERIODS):
        raise ImproperlyConfigured(
            f"{name}={value!r} is not a rate: use requests/period, e.g. 20/minute "
            "(period: second, minute, hour or day), or off"
        )
    return value


def envheader(name: str, default: str) -> tuple[str, str] | None:
    """A request header that marks a request as secure, as Django's ``(META name, value)``:
    ``HTTP_X_FORWARDED_PROTO`` (value ``https``) or ``HTTP_X_FORWARDED_SSL=on``; ``off`` for
    none."""
    value = os.environ.get(name, "").strip() or default
    if value.lower() in _FALSE or value.lower() == "none":
        return None
    header, _, expected = value.partition("=")
    if not re.fullmatch(r"HTTP_[A-Z0-9_]+", header) or "=" in expected:
        raise ImproperlyConfigured(
            f"{name}={value!r} is not a request header as Django names it: use e.g. "
            "HTTP_X_FORWARDED_PROTO (value https) or HTTP_X_FORWARDED_SSL=on, or off"
        )
    return header, expected or "https"


def envlist(name: str, default: list[str]) -> list[str]:
    """The variable as a comma-separated list; blanks are dropped."""
    value = os.environ.get(name, "")
    if not value.strip():
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def env_secret(name: str) -> str:
    """A secret from ``NAME`` or from the file ``NAME_FILE`` names (Docker and Compose secrets)."""
    path = os.environ.get(f"{name}_FILE", "")
    if path:
        try:
            return Path(path).read_text().strip()
        except OSError as exc:
            raise ImproperlyConfigured(f"{name}_FILE={path!r} cannot be read: {exc}") from None
    return os.environ.get(name, "").strip()


def database_from_url(url: str) -> dict[str, object]:
    """Django's DATABASES entry for postgres://user:password@host:port/name?option=value
    (dj-database-url), with the prepared-statement threshold the event store relies on."""
    parts = urlsplit(url)
    if parts.scheme not in ("postgres", "postgresql") or not parts.path.lstrip("/"):
        raise ImproperlyConfigured(
            f"DATABASE_URL must look like postgres://user:password@host:port/name, got {url!r}"
        )
    # Prepared statements: only server-binding cursors use them, and of those only the event
    # store's append statement runs here (Django's cursors bind on the client). psycopg's
    # default is 5 runs; Django turns it off unless told. "?prepare_threshold=" (empty) turns
    # it off, e.g. behind a transaction-mode pooler that cannot keep prepared statements.
    # Taken out first: dj-database-url drops an empty value.
    query = parse_qsl(parts.query, keep_blank_values=True)
    threshold = dict(query).get("prepare_threshold", "5")
    rest = urlencode([(key, value) for key, value in query if key != "prepare_threshold"])
    try:
        database = dj_database_url.parse(
            urlunsplit(parts._replace(query=rest)),
            conn_max_age=envint("DATABASE_CONN_MAX_AGE", 60),
            conn_health_checks=True,
        )
    except ValueError as exc:
        raise ImproperlyConfigured(f"DATABASE_URL cannot be read ({exc}): {url!r}") from None
    try:
        prepare_threshold = int(threshold) if threshold else None
    except ValueError:
        raise ImproperlyConfigured(
            f"DATABASE_URL's prepare_threshold must be a whole number or empty, got {threshold!r}"
        ) from None
    database["OPTIONS"] = {**database.get("OPTIONS", {}), "prepare_threshold": prepare_threshold}
    return database


DJANGO_ENV = envstr("DJANGO_ENV", "development", choices=("development", "production"))
IS_PRODUCTION = DJANGO_ENV == "production"
DEBUG = envbool("DEBUG", not IS_PRODUCTION)

if IS_PRODUCTION:
    SECRET_KEY = env_secret("SECRET_KEY")
    if not SECRET_KEY:
        raise ImproperlyConfigured(
            "SECRET_KEY (or SECRET_KEY_FILE) must be set when DJANGO_ENV=production"
        )
    ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", [])
    if not ALLOWED_HOSTS:
        raise ImproperlyConfigured("ALLOWED_HOSTS must be set when DJANGO_ENV=production")
else:
    # A fixed key keeps development sessions alive across restarts; it is public, so never
    # let it near production (the branch above makes sure of that).
    SECRET_KEY = env_secret("SECRET_KEY") or "INSECURE-dev-only-key-never-in-production"
    ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])

CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", [])


def chain_signing_key() -> str:
    """The Ed25519 key (64 hex characters) that signs every command's chain head
    (games/chain.py). Production must be given one; elsewhere one is made on the first start
    and kept in CHAIN_KEY_PATH, so the signatures of a development database stay valid."""
    key = env_secret("CHAIN_SIGNING_KEY")
    if not key and IS_PRODUCTION:
        raise ImproperlyConfigured(
            "CHAIN_SIGNING_KEY (or CHAIN_SIGNING_KEY_FILE) must be set when DJANGO_ENV=production"
        )
    if not key:
        path = Path(envstr("CHAIN_KEY_PATH", str(BASE_DIR / ".chain-key")))
        try:
            key = path.read_text().strip()
        except FileNotFoundError:
            key = secrets.token_hex(32)
            path.touch(mode=0o600)
            path.write_text(key + "\n")
    try:
        if len(bytes.fromhex(key)) != 32:
            raise ValueError
    except ValueError:
        raise ImproperlyConfigured(
            "CHAIN_SIGNING_KEY must be 64 hex characters (an Ed25519 private key's 32 bytes)"
        ) from None
    return key


CHAIN_SIGNING_KEY = chain_signing_key()
# Public keys (hex) of signing keys used before, so verify_events still accepts what they signed.
CHAIN_RETIRED_KEYS = envlist("CHAIN_RETIRED_KEYS", [])

# TLS. Production assumes a proxy in front that terminates TLS, sets X-Forwarded-Proto and
# appends the client's address to X-Forwarded-For (README, "Behind a proxy"); the web server
# itself speaks plain HTTP. Each setting can be turned off on its own.
SECURE_PROXY_SSL_HEADER = envheader(
    "SECURE_PROXY_SSL_HEADER", "HTTP_X_FORWARDED_PROTO" if IS_PRODUCTION else "off"
)
SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", IS_PRODUCTION)
# The container's health check asks over plain HTTP from inside the network (docker-compose.yml).
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
# A year, the least the browsers' preload lists accept. HSTS is sent on HTTPS answers only.
SECURE_HSTS_SECONDS = envint(
    "SECURE_HSTS_SECONDS", 365 * 24 * 3600 if IS_PRODUCTION else 0, minimum=0
)
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", IS_PRODUCTION)
SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", IS_PRODUCTION)
SESSION_COOKIE_SECURE = envbool("SESSION_COOKIE_SECURE", IS_PRODUCTION)
CSRF_COOKIE_SECURE = envbool("CSRF_COOKIE_SECURE", IS_PRODUCTION)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "games",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "games.middleware.APIBodyMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "config.middleware.NotFoundPageMiddleware",
    "config.middleware.DatabaseAwayMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# The embedded default is SQLite; PostgreSQL (which the event store's triggers need) via the URL.
# DATABASE_URL, or the file DATABASE_URL_FILE names (a Docker or Compose secret). A URL without
# a password takes POSTGRES_PASSWORD, or the file POSTGRES_PASSWORD_FILE names: the same secret
# the official postgres image reads, so Compose keeps the password in one secret file (and it
# need not be URL-safe).
_database_url = env_secret("DATABASE_URL")
if _database_url:
    DATABASES = {"default": database_from_url(_database_url)}
    if not DATABASES["default"].get("PASSWORD"):
        DATABASES["default"]["PASSWORD"] = env_secret("POSTGRES_PASSWORD")
    # Behind a transaction-mode pooler (PgBouncer) a session lasts one transaction: no
    # prepared statements and no server-side cursors (QuerySet.iterator() holds one open).
    if envbool("DATABASE_TRANSACTION_POOLER", False):
        DATABASES["default"]["OPTIONS"]["prepare_threshold"] = None
        DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True
    # Under an ASGI server (the container's web service) every request runs in a thread of its
    # own, so a connection kept for the next request (DATABASE_CONN_MAX_AGE) is never reused:
    # a pool of DATABASE_POOL connections per process, shared by its requests, instead.
    _pool = envint("DATABASE_POOL", 0, minimum=0)
    if _pool:
        DATABASES["default"]["CONN_MAX_AGE"] = 0
        DATABASES["default"]["OPTIONS"]["pool"] = {"min_size": 1, "max_size": _pool}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": envstr("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            # A club night on the embedded default: many tables write at once. WAL lets
            # readers go on beside the one writer; IMMEDIATE takes the write lock when a
            # transaction begins (not half-way, where SQLite can only fail a waiting writer with
            # "database is locked"); a writer then waits up to the timeout for its turn.
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": envint("SQLITE_TIMEOUT", 20),
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
            # The tests' database is a file too, not Django's default in-memory one: the live
            # server then gives each request thread a connection of its own, as runserver does,
            # where an in-memory database would share one connection between every thread (two
            # browsers at a table at once would use it together and fail). One file a process,
            # so runs side by side do not meet; its name starts with test_ as the event log's
            # eraser for tests requires (games/testing.py).
            "TEST": {
                "NAME": envstr(
                    "SQLITE_TEST_PATH",
                    str(Path(tempfile.gettempdir()) / f"test_unoclub-{os.getpid()}.sqlite3"),
                ),
            },
        }
    }

# The rate limits' counters (games/throttles.py). Each gunicorn worker has its own local memory,
# so with several workers (docker-compose.yml runs three) CACHE_URL should name a Redis they
# share, or each worker counts on its own and a limit is reached only at that many times its rate.
_cache_url = os.environ.get("CACHE_URL", "").strip()
if _cache_url:
    if urlsplit(_cache_url).scheme not in ("redis", "rediss", "unix"):
        raise ImproperlyConfigured(
            f"CACHE_URL must look like redis://host:6379/1 (or rediss://, unix://), "
            f"got {_cache_url!r}"
        )
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": _cache_url,
            # Rate limits are all the cache serves: with Redis away, give up in half a second
            # and let the request through (games/throttles.py) rather than hang it.
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Hashed, compressed files need `collectstatic` (the container image runs it); development
    # and tests serve straight from the apps' static folders.
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if IS_PRODUCTION
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
# Outside production WhiteNoise serves straight from the apps' static folders, so development and
# tests need no collectstatic.
WHITENOISE_USE_FINDERS = not IS_PRODUCTION
WHITENOISE_AUTOREFRESH = not IS_PRODUCTION

# The table pages' live updates (docs/decisions/0010-live-updates.md): "sse", a stream of
# server-sent events fed by PostgreSQL's LISTEN/NOTIFY (one listening connection per web
# process), or in-process on the embedded SQLite default; "poll", the page asks every 1.5 s
# while it is shown (e.g. behind a transaction-mode pooler, where LISTEN cannot work).
LIVE_UPDATES = envstr("LIVE_UPDATES", "sse", choices=("sse", "poll"))
# The listening connection's own postgres:// URL (or LIVE_DATABASE_URL_FILE), where
# DATABASE_URL goes through a transaction-mode pooler that cannot hold a LISTEN: straight to
# PostgreSQL. Unset: the connection DATABASE_URL describes. A URL without a password takes the
# database's (POSTGRES_PASSWORD).
LIVE_DATABASE_URL = env_secret("LIVE_DATABASE_URL")

# Celery: with no broker configured (the embedded default) tasks run in-process, and their
# errors propagate to the caller instead of vanishing into a result nobody reads.
_broker_url = os.environ.get("CELERY_BROKER_URL", "")
CELERY_BROKER_URL = _broker_url or "memory://"
CELERY_TASK_ALWAYS_EAGER = not _broker_url
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A worker whose Redis went away reconnects for as long as it takes (every 2, 4, 6 ... seconds,
# at most 30 apart), rather than giving up after a hundred tries.
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# The sweeper (tournaments.brackets.sweeper): every SWEEP_SECONDS beat sends the two sweeps that
# make good whatever a lost or failed task left undone (a table whose game is over still
# "playing", a complete round not yet followed, a turn timer that never fired). Each sweep expires
# when the next is due, so sweeps queued while no worker ran do not pile up.
SWEEP_SECONDS = envint("SWEEP_SECONDS", 30, minimum=1)
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    "sweep-rounds": {
        "task": "tournaments.tasks.sweep_rounds",
        "schedule": float(SWEEP_SECONDS),
        "options": {"expires": float(SWEEP_SECONDS)},
    },
    "sweep-turn-timers": {
        "task": "tournaments.tasks.sweep_turn_timers",
        "schedule": float(SWEEP_SECONDS),
        "options": {"expires": float(SWEEP_SECONDS)},
    },
}
# Beat writes its schedule file after every task it sends, so the file's time says beat is alive
# (docker-compose.yml's health check for beat).
CELERY_BEAT_SYNC_EVERY = 1
# How long Redis keeps a message a worker took but never acknowledged (it died, or it holds the
# message for a countdown) before giving it to another worker. It must outlast the longest wait
# a worker holds a message for: a retry's countdown (at most 600 s, tournaments.brackets.tasks)
# and a task's run. A message held longer is handed out twice (the tasks are idempotent, so
# that costs work, not correctness); a killed worker's message waits this long, but the sweeper
# makes good its work within SWEEP_SECONDS anyway.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": envint("CELERY_VISIBILITY_TIMEOUT", 900, minimum=1)
}

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "games.api.exception_handler",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "games.auth.UserTokenAuthentication",
    ],
    # Rate limits (games/throttles.py), answered with 429 and Retry-After. The defaults are far
    # above what a person at a table, or a bot that plays as fast as the game lets it, sends;
    # a club night is many people behind one address, so only anonymous callers and failed
    # secrets are counted per address.
    "DEFAULT_THROTTLE_RATES": {
        # POST /api/auth/token/ per address: a whole club signing in within the same minute.
        "token": envrate("THROTTLE_TOKEN", "30/minute"),
        # Every request with a seat's secret, per seat: twenty a second on average over a
        # minute, so a bot that plays a whole game as fast as the server answers (a burst of a
        # few hundred requests) is never stopped, and a flood is.
        "seat": envrate("THROTTLE_SEAT", "1200/minute"),
        # Commands per seat (per user or address for anyone else): a seat sends about seventy
        # in a whole game; illegal ones count too.
        "commands": envrate("THROTTLE_COMMANDS", "600/minute"),
        # Wrong seat secrets (Authorization: Seat or a seat's link) per address; while over it,
        # no secret from that address is even checked, right or wrong.
        "seat_failures": envrate("THROTTLE_SEAT_FAILURES", "20/minute"),
    },
    # How many proxies append to X-Forwarded-For: the client's address for the limits is the one
    # the nearest of them appended. 0 ignores the header (it is the client's to forge when no
    # proxy is there to append to it); production expects one, as for SECURE_PROXY_SSL_HEADER.
    "NUM_PROXIES": envint("NUM_PROXIES", 1 if SECURE_PROXY_SSL_HEADER else 0, minimum=0),
}

# The docs pages load Swagger UI and ReDoc from drf-spectacular-sidecar's static files, so reading
# the API docs makes no request to another host (templates/drf_spectacular/redoc.html drops the
# web fonts the stock ReDoc page links to).
SPECTACULAR_SETTINGS = {
    "TITLE": "UNO club API",
    "DESCRIPTION": (
        "Leagues, tournaments and event-sourced UNO tables.\n\n"
        "**The record.** Every game is a chain of events. While a game is on, a seat sees its "
        "own cards and a log with the others' taken out; each event's `hash` and `commitment` "
        "are taken over a secret salt, so nothing a seat reads lets it test a guess at a hidden "
        "card or the seed. Every command answers with a `receipt` (version and chain head) "
        "signed by the server's Ed25519 key (`GET /api/chain/keys/`). Once the game is over the "
        "salts are published and anyone can recompute every commitment and hash and check "
        "every signature. Someone who can write to the database but lacks the signing key "
        "cannot make a rewritten chain verify. Idempotency keys belong to the caller: the same "
        "key with another command is `409 key_clash`. The referee sees everything, and undoes "
        "a finished game only by reopening it with a reason. Past a rate limit the answer is "
        "`429` with `Retry-After`."
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Swagger UI would otherwise show a badge fetched from the swagger.io validator.
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
    # Rounds and tournament tables share a status field's name with games, disputes and
    # tournaments; without a name their enum would be called after a hash (and `check --deploy`
    # warns about it).
    "ENUM_NAME_OVERRIDES": {"PlayStatusEnum": ["playing", "finished"]},
}

LOG_LEVEL = envstr("LOG_LEVEL", "INFO", choices=("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"))
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # A seat's link carries its secret in the path; Django logs the path of every 4xx answer
    # ("Not Found: /table/.../seat/<secret>/") and runserver logs every request line.
    "filters": {
        "mask_seat_secrets": {"()": "config.log_filters.MaskSeatSecrets"},
        "outage_answered_once": {"()": "config.log_filters.OutageAnsweredOnce"},
    },
    "formatters": {
        "plain": {"format": "{asctime} {levelname} {name}: {message}", "style": "{"},
        "django.server": {
            "()": "django.utils.log.ServerFormatter",
            "format": "[{server_time}] {message}",
            "style": "{",
        },
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "plain",
            "filters": ["mask_seat_secrets"],
        },
        # Django's own runserver handler, with the filter.
        "django.server": {
            "class": "logging.StreamHandler",
            "formatter": "django.server",
            "filters": ["mask_seat_secrets"],
        },
    },
    "loggers": {
        # Without Django's own handlers: in debug mode they print paths unmasked (and the same
        # lines as the root's handler); Django's records reach the root's.
        "django": {"handlers": [], "level": "INFO"},
        # A 503 is the database away, answered and logged as a warning where it is answered.
        "django.request": {"handlers": [], "filters": ["outage_answered_once"]},
        "django.server": {"handlers": ["django.server"], "level": "INFO", "propagate": False},
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
}
