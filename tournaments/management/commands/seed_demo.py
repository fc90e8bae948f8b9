"""`manage.py seed_demo`: a demo club with a season of league nights played by bots through the
real services. Does nothing when the demo club exists, so `manage.py up` can run it every time.

In development (``DEBUG`` on) the first seeding prints sign-ins for the demo organiser and a
demo player, with passwords made for this database; ``--new-sign-ins`` makes and prints new ones
later (the passwords are stored only as hashes, so they cannot be shown again)."""

import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from tournaments.leagues.demo import DEMO_LEAGUE, demo_exists, demo_sign_ins, seed_demo


class Command(BaseCommand):
    help = "Seed the demo club (a league, a season of bot-played nights and score sheets) once."

    def add_arguments(self, parser):
        parser.add_argument("--nights", type=int, default=4, help="league nights (default 4)")
        parser.add_argument(
            "--new-sign-ins",
            action="store_true",
            help="development only: new passwords for the demo accounts, printed",
        )

    def handle(self, *args, nights: int, new_sign_ins: bool, **options) -> None:
        if new_sign_ins:
            if not settings.DEBUG:
                raise CommandError("demo sign-ins are for development only (DEBUG is off)")
            if not demo_exists():
                raise CommandError(f"there is no {DEMO_LEAGUE} yet: run seed_demo first")
            self._print_sign_ins()
            return
        started = time.monotonic()
        season = seed_demo(nights=nights, log=self.stdout.write)
        if season is None:
            self.stdout.write(f"The demo club ({DEMO_LEAGUE}) exists: nothing to do.")
            return
        seconds = time.monotonic() - started
        self.stdout.write(
            f"Seeded {DEMO_LEAGUE} in {seconds:.1f} s: its page is /leagues/demo/, its "
            f"standings /seasons/{season.pk}/."
        )
        if settings.DEBUG:
            self._print_sign_ins()

    def _print_sign_ins(self) -> None:
        lines = ["", "Demo sign-ins (development only), at /accounts/login/:"]
        for who, username, password in demo_sign_ins():
            lines.append(f"  {who}: user name {username}, password {password}")
        lines += [
            "Shown once: they are stored only as hashes. Change them on the site (Your "
            "password), or make new ones with `manage.py seed_demo --new-sign-ins`.",
            "",
        ]
        self.stdout.write("\n".join(lines))
