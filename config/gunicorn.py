"""gunicorn's settings for the container: the access log to standard output, without seat
secrets. The web service runs the ASGI application with uvicorn's worker (the table's live
updates hold a stream open per page: docs/decisions/0010-live-updates.md):

    gunicorn -c python:config.gunicorn config.asgi:application -k uvicorn_worker.UvicornWorker

A seat's private link has its secret in the path, and gunicorn's access and error logs print
paths (the request line, the Referer), as do uvicorn's, which its worker sends to gunicorn's
handlers; the logger below masks them in all four, whatever the format.
"""

import logging

from gunicorn.glogging import Logger

from config.log_filters import MaskSeatSecrets


class SecretMaskingLogger(Logger):
    """gunicorn's logger with seat secrets masked in both of its logs."""

    def setup(self, cfg):
        super().setup(cfg)
        # On the loggers, not their handlers: gunicorn replaces the handlers when it reopens
        # its log files.
        uvicorn = (logging.getLogger("uvicorn.access"), logging.getLogger("uvicorn.error"))
        for log in (self.access_log, self.error_log, *uvicorn):
            if not any(isinstance(f, MaskSeatSecrets) for f in log.filters):
                log.addFilter(MaskSeatSecrets())


logger_class = SecretMaskingLogger
accesslog = "-"
