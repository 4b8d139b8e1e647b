from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games and results"

    def ready(self) -> None:
        """Give the league's seating the confirmed points of a played rotation."""
        from games import selectors
        from league import hooks

        hooks.rotation_points_register(selectors.rotation_points)
        from games import receivers  # noqa: F401  (connects the league's signal receivers)
