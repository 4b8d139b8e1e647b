from django.apps import AppConfig


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = "League"

    def ready(self) -> None:
        from league import jobs  # the prepared seatings are a job kind (docs/jobs.md)

        jobs.register()
        from league.services import no_shows  # noqa: F401  (registers the no-show's undo)
