from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games and results"

    def ready(self) -> None:
        """Register the games' job kinds; give the league's seating the confirmed points of a
        played rotation, and the event history the undo of a withdrawn (or restored) result
        entry."""
        from games import jobs, selectors
        from games.services import history, history_undo, table_clocks, withdrawal
        from league import hooks

        jobs.register()
        hooks.rotation_points_register(selectors.rotation_points)
        hooks.undo_register(action=withdrawal.WITHDRAW_ACTION, undo=withdrawal.undo_withdraw,
                            applies=withdrawal.withdraw_undo_applies)
        hooks.undo_register(action=withdrawal.RESTORE_ACTION, undo=withdrawal.undo_restore,
                            applies=withdrawal.restore_undo_applies)
        hooks.undo_register(action=history.ENTER_ACTION, undo=history_undo.undo_entry,
                            applies=history_undo.entry_undo_applies)
        hooks.undo_register(action="rotation_start", undo=history_undo.undo_rotation_start,
                            applies=history_undo.rotation_start_undo_applies)
        hooks.undo_register(action=table_clocks.EXTRA_TIME_ACTION, undo=table_clocks.extra_time_undo,
                            applies=table_clocks.extra_time_undo_applies)
        from games import receivers  # noqa: F401  (connects the league's signal receivers)
