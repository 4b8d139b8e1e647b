from django.apps import AppConfig


class AnalyticsConfig(AppConfig):
    name = "analytics"
    verbose_name = "Standings, ratings and statistics"

    def ready(self) -> None:
        """Recompute an event's standings when its results change (announced after commit by
        the games app, which does not import the analytics)."""
        from games.signals import results_changed

        results_changed.connect(_recompute_event, dispatch_uid="analytics.recompute_event")
        from analytics import receivers  # noqa: F401  (connects the league's signal receivers)
        from analytics.jobs import register

        register()  # the what-if jobs
        from analytics.ratings.backtests import register as register_backtest

        register_backtest()
        from analytics.ladder.jobs import register as register_ladder

        register_ladder()  # the cross-club ladder's job and the hooks that start it


def _recompute_event(sender: object, *, event_id: int, **kwargs: object) -> None:
    from analytics import tasks

    tasks.enqueue_event_recompute_after_commit(event_id)
