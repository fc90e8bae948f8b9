"""`manage.py seed_demo`: a demo club with a season of league nights played by bots through the
real services. Does nothing when the demo club exists, so `manage.py up` can run it every time."""

import time

from django.core.management.base import BaseCommand

from tournaments.leagues.demo import DEMO_LEAGUE, seed_demo


class Command(BaseCommand):
    help = "Seed the demo club (a league, a season of bot-played nights and score sheets) once."

    def add_arguments(self, parser):
        parser.add_argument("--nights", type=int, default=4, help="league nights (default 4)")

    def handle(self, *args, nights: int, **options) -> None:
        started = time.monotonic()
        season = seed_demo(nights=nights, log=self.stdout.write)
        if season is None:
            self.stdout.write(f"The demo club ({DEMO_LEAGUE}) exists: nothing to do.")
            return
        seconds = time.monotonic() - started
        self.stdout.write(
            f"Seeded {DEMO_LEAGUE} in {seconds:.1f} s: standings at "
            f"/api/seasons/{season.pk}/standings/"
        )
