"""Log lines without seat secrets: a seat's private link (/table/<game>/seat/<secret>/) is a
credential, so wherever a path reaches a log (Django's 4xx warnings, runserver's and gunicorn's
request lines) the secret is masked. And one line, not two, when the database is away."""

import logging
import re

# The link's route is games/urls.py's "table/<uuid:game_id>/seat/<str:secret>/"; matching any
# "/seat/<segment>" also covers a mistyped or percent-encoded one.
_SEAT_SECRET = re.compile(r"(/seat/)[^/?#\s\"']+")
MASK = "[secret]"


def mask_seat_secrets(text: str) -> str:
    """``text`` with the secret of every seat link path in it replaced by ``[secret]``."""
    return _SEAT_SECRET.sub(rf"\g<1>{MASK}", text)


class MaskSeatSecrets(logging.Filter):
    """Masks seat secrets in a record's message (a filter on the handlers, so records of every
    logger that reach them pass through it)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        masked = mask_seat_secrets(message)
        if masked != message:
            record.msg, record.args = masked, ()
        return True


class OutageAnsweredOnce(logging.Filter):
    """On Django's request logger: leaves out its "Service Unavailable" error for a 503. The
    service answers 503 only when the database did not answer, and logs that itself as a
    warning (the API's exception handler, ``DatabaseAwayMiddleware``, ``server_error``):
    an outage the service has answered is not an error to page anyone about, and each
    request it turned away is one line in the log, not a warning and an error."""

    def filter(self, record: logging.LogRecord) -> bool:
        return getattr(record, "status_code", None) != 503
