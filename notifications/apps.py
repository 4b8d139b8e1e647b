from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Mail and calendars"

    def ready(self) -> None:
        from games.signals import results_changed
        from league.signals import player_depersonalised, rotation_started
        from notifications import receivers

        results_changed.connect(
            receivers.mail_confirmed_result, dispatch_uid="notifications.mail_confirmed_result"
        )
        rotation_started.connect(
            receivers.mail_seat_calls, dispatch_uid="notifications.mail_seat_calls"
        )
        player_depersonalised.connect(
            receivers.forget_contact, dispatch_uid="notifications.forget_contact"
        )
