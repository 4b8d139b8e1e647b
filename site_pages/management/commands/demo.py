from django.core.management.base import BaseCommand

from site_pages.demo import DIRECTOR_PASSWORD, DIRECTOR_USERNAME, demo_load


class Command(BaseCommand):
    help = (
        "Load the demo club (players, a league season of weekly nights, a finished tournament, "
        "results from the engine's simulator). Does nothing when the demo is already loaded."
    )

    def handle(self, *args, **options) -> None:
        demo = demo_load()
        if demo is None:
            self.stdout.write("Demo data is already loaded.")
            return
        self.stdout.write(self.style.SUCCESS(
            f"Loaded the demo club {demo.club.name} with {len(demo.players)} players. "
            f"Director login: {DIRECTOR_USERNAME} / {DIRECTOR_PASSWORD}"
        ))
