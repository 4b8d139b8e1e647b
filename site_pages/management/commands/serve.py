"""`make run`'s server: the development server with the database migrated and the demo loaded
first (once, in the process that watches for changes, not again in each reloaded child), and a
short banner that ends with the address and the demo's sign-in."""

import os

from django.contrib.staticfiles.management.commands.runserver import Command as RunserverCommand
from django.core.management import call_command
from django.core.management.base import CommandParser
from django.utils import autoreload

from site_pages.demo import DIRECTOR_PASSWORD, DIRECTOR_USERNAME


class Command(RunserverCommand):
    # Set by runserver's handle() before the server binds (Django's stubs do not declare them).
    addr: str
    _raw_ipv6: bool
    help = ("Serve the site for development (as runserver); with --demo, migrate and load the demo "
            "club first.")

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument("--demo", action="store_true",
                            help="Migrate the database and load the demo club before serving.")

    def handle(self, *args: object, **options: object) -> None:
        self.demo = bool(options["demo"])
        reloaded_child = os.environ.get(autoreload.DJANGO_AUTORELOAD_ENV) == "true"
        if self.demo and not reloaded_child:
            call_command("migrate", interactive=False, verbosity=0)
            call_command("demo", stdout=self.stdout, stderr=self.stderr)
        super().handle(*args, **options)

    def inner_run(self, *args: object, **options: object) -> None:
        # The checks still run; only their "no issues" chatter is left out of the banner.
        if not options["skip_checks"]:
            self.check(display_num_errors=False)
        super().inner_run(*args, **{**options, "skip_checks": True})

    def on_bind(self, server_port: int) -> None:
        address = f"[{self.addr}]" if self._raw_ipv6 else self.addr
        url = f"{self.protocol}://{address}:{server_port}/"
        lines = ["", f"  Hand and Foot League is running at {url}"]
        if self.demo:
            lines.append(f"  Demo director login: {DIRECTOR_USERNAME} / {DIRECTOR_PASSWORD}"
                         f"   (admin: {url}admin/)")
        lines += ["  Quit with CONTROL-C.", ""]
        self.stdout.write("\n".join(lines))
