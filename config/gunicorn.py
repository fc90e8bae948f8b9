"""gunicorn's settings for the container (``gunicorn -c python:config.gunicorn config.wsgi``):
the access log to standard output, without seat secrets.

A seat's private link has its secret in the path, and gunicorn's access and error logs print
paths (the request line, the Referer); the logger below masks them, whatever the format.
"""

from gunicorn.glogging import Logger

from config.log_filters import MaskSeatSecrets


class SecretMaskingLogger(Logger):
    """gunicorn's logger with seat secrets masked in both of its logs."""

    def setup(self, cfg):
        super().setup(cfg)
        # On the loggers, not their handlers: gunicorn replaces the handlers when it reopens
        # its log files.
        for log in (self.access_log, self.error_log):
            if not any(isinstance(f, MaskSeatSecrets) for f in log.filters):
                log.addFilter(MaskSeatSecrets())


logger_class = SecretMaskingLogger
accesslog = "-"
