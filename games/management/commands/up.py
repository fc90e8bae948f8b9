"""`manage.py up`: migrate, seed the demo league when a seed_demo command exists, then serve."""

import os

from django.core.management import call_command, get_commands
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Migrate, seed the demo league (when available) and run the development server."

    def add_arguments(self, parser):
        parser.add_argument(
            "--addrport", default="127.0.0.1:8000", help="where to serve (default 127.0.0.1:8000)"
        )

    def handle(self, *args, addrport: str, **options) -> None:
        # runserver's autoreloader re-runs this whole command in a child process (RUN_MAIN=true)
        # and again after every code change; migrating and seeding once, here, is enough.
        if os.environ.get("RUN_MAIN") != "true":
            call_command("migrate", interactive=False, verbosity=options["verbosity"])
            if "seed_demo" in get_commands():
                call_command("seed_demo")
            else:
                self.stdout.write("No seed_demo command yet: skipping the demo league.")
            host = addrport if ":" in addrport else f"127.0.0.1:{addrport}"
            self.stdout.write(
                f"The site: http://{host}/ (sign in at http://{host}/accounts/login/)"
            )
        call_command("runserver", addrport)
