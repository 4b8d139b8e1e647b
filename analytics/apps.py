from django.apps import AppConfig


class AnalyticsConfig(AppConfig):
    name = "analytics"
    verbose_name = "Standings, ratings and statistics"

    def ready(self) -> None:
        from analytics import receivers  # noqa: F401  (connects the signal receivers)
