from django.apps import AppConfig


class SitePagesConfig(AppConfig):
    """The top layer: pages that assemble several apps (an event with its standings, a season
    with its table) and the demo data, built through every app's services."""

    name = "site_pages"
    verbose_name = "Site pages"

    def ready(self) -> None:
        from site_pages.backup_jobs import register

        register()  # the club's backup as a job
