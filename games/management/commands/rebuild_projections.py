"""`manage.py rebuild_projections`: empty every projection and rebuild it from the event log,
in global order, with a progress bar on stderr."""

import time

from django.core.management.base import BaseCommand, OutputWrapper

from games import projections, rebuild


def _plain(text: str) -> str:
    return text


class ProgressBar:
    """A one-line progress bar, redrawn at most ten times a second, on a command's stderr."""

    def __init__(self, label: str, stream: OutputWrapper, width: int = 30) -> None:
        self.label, self.stream, self.width = label, stream, width
        self.drawn_at = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - self.drawn_at < 0.1:
            return
        self.drawn_at = now
        filled = self.width * done // total if total else self.width
        bar = "#" * filled + "." * (self.width - filled)
        ending = "\n" if done >= total else ""
        line = f"\r{self.label} [{bar}] {done}/{total} events"
        self.stream.write(line, style_func=_plain, ending=ending)  # not in stderr's error red
        self.stream.flush()


class Command(BaseCommand):
    help = "Rebuild every projection (table views, standings, ...) from the event log."

    def handle(self, *args, **options) -> None:
        names = ", ".join(type(p).__name__ for p in projections.registered())
        bar = ProgressBar("rebuilding", self.stderr)
        started = time.monotonic()
        count = rebuild.rebuild(progress=bar)
        if count == 0:
            bar(0, 0)
        seconds = time.monotonic() - started
        self.stdout.write(f"rebuilt {names} from {count} events in {seconds:.1f} s")
