from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games and results"

    def ready(self) -> None:
        from games import receivers  # noqa: F401  (connects the signal receivers)
