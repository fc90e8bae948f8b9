"""Rate limits of the game API and the seat links, answered with 429 and ``Retry-After``.

Each limit counts one caller: a seat (a game and a seat number), a user, or for anyone else the
client's address (``NUM_PROXIES`` says which address that is behind a proxy). A club night is
thirty people behind one address, so only what has no better name is counted per address: the
token endpoint, and wrong seat secrets. The rates are ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``
(config/settings.py, from the environment); a rate of None turns its limit off. The counters are
in Django's cache, which several workers must share (``CACHE_URL``).
"""

from __future__ import annotations

import logging
import math
import time
from typing import Any

from django.core.cache import cache
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle, SimpleRateThrottle

from games.callers import SeatPrincipal

log = logging.getLogger(__name__)


def rate(scope: str) -> str | None:
    """The scope's rate as the settings have it now (DRF reads them once, at import)."""
    return api_settings.DEFAULT_THROTTLE_RATES.get(scope)


def caller_ident(request: Any) -> str:
    """Who is calling, for a limit: ``seat:<game>:<n>``, ``user:<pk>`` or ``ip:<address>``."""
    user = getattr(request, "user", None)
    if isinstance(user, SeatPrincipal):
        return f"seat:{user.game_id}:{user.seat}"
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    return f"ip:{BaseThrottle().get_ident(request)}"


class _ScopedThrottle(SimpleRateThrottle):
    """A sliding window per caller (DRF's), at the rate the settings give the scope.

    When the cache cannot be reached (Redis is down), the request is let through and a warning
    logged: a limit that cannot count must not cost a player a command."""

    def get_rate(self) -> str | None:
        return rate(self.scope)

    def allow_request(self, request: Any, view: Any) -> bool:
        try:
            return super().allow_request(request, view)
        except Exception:
            log.warning("rate limit %s not checked: the cache is unreachable", self.scope)
            return True

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": caller_ident(request)}


class TokenThrottle(_ScopedThrottle):
    """``POST /api/auth/token/`` per client address: a password guesser is slowed, a club
    signing in is not."""

    scope = "token"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        # Per address even when a session comes along: the guess is the password in the body.
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class SeatThrottle(_ScopedThrottle):
    """Every request made with a seat's secret, per seat (users and anonymous callers are not
    counted here)."""

    scope = "seat"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        ident = caller_ident(request)
        if not ident.startswith("seat:"):
            return None
        return self.cache_format % {"scope": self.scope, "ident": ident}


class CommandThrottle(_ScopedThrottle):
    """``POST /api/games/{id}/commands/`` per caller (in practice per seat: only seats may send
    commands, and DRF checks permissions first)."""

    scope = "commands"


class FailedSecrets:
    """Wrong seat secrets per client address, for ``Authorization: Seat`` and the seat links.

    Asked before a secret is checked: while an address is over the limit no secret from it is
    checked at all, so a guesser learns nothing from the answers it gets meanwhile (a right
    secret is refused too). A fixed window with an atomic increment rather than DRF's sliding
    list: concurrent failures from one guesser cannot overwrite each other's count.
    """

    scope = "seat_failures"

    def __init__(self, request: Any, scope: str | None = None, *, ident: str = "") -> None:
        """``ident``: whom to count instead of the client's address (an account)."""
        self.scope = scope or self.scope
        self.rate = rate(self.scope)
        if self.rate is None:
            return
        count, period = self.rate.split("/")
        self.limit = int(count)
        self.duration = {"s": 1, "m": 60, "h": 3600, "d": 86400}[period[0]]
        now = time.time()
        window = int(now // self.duration)
        self.retry_after = max(1, math.ceil((window + 1) * self.duration - now))
        ident = ident or BaseThrottle().get_ident(request)
        self.key = f"throttle_{self.scope}_{ident}_{window}"

    def wait(self) -> int | None:
        """Seconds until this address may try a secret again, or None when it may now."""
        if self.rate is None:
            return None
        try:
            count = cache.get(self.key, 0)
        except Exception:
            log.warning("%s not counted: the cache is unreachable", self.scope)
            return None
        return None if count < self.limit else self.retry_after

    def record(self) -> None:
        """Count one wrong secret from this address."""
        if self.rate is None:
            return
        # add() starts the count only if no other request did; incr() is atomic in Redis and
        # in local memory. A little beyond the window so the key outlives its last use.
        try:
            cache.add(self.key, 0, self.duration + 1)
            cache.incr(self.key)
        except ValueError:  # expired between the two calls: the window is over anyway
            pass
        except Exception:
            log.warning("%s not counted: the cache is unreachable", self.scope)


class FailedSignIns(FailedSecrets):
    """Wrong passwords on the sign-in page per client address, at the token endpoint's rate:
    the page must not be the way round the API's limit."""

    scope = "token"


class WrongOldPasswords:
    """Wrong old passwords on a password change, counted with the sign-in page's wrong
    passwords from the client's address (``FailedSignIns``: the form checks a password too, so
    it is no way round that limit) and apart per account, at the same rate: a session taken
    from its owner guesses from any number of addresses. Only the signed-in owner can be
    locked out of their own password change by it."""

    def __init__(self, request: Any) -> None:
        self.counts = (
            FailedSignIns(request),
            FailedSignIns(request, ident=f"account:{request.user.pk}"),
        )

    def wait(self) -> int | None:
        """Seconds until the old password may be tried again, or None when it may now."""
        waits = [wait for count in self.counts if (wait := count.wait()) is not None]
        return max(waits, default=None)

    def record(self) -> None:
        """Count one wrong old password, from this address and for this account."""
        for count in self.counts:
            count.record()
