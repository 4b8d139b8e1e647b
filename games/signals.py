"""What the results announce to the layers above them (which register in `AppConfig.ready()`).

`results_changed(event_id=..., game_id=...)` is sent once a transaction that changed a game's
confirmed result has committed (never for one that rolled back). The analytics app recomputes
the event's standings on it, the notifications app mails the players their result; the games app
itself imports neither.
"""

from django.dispatch import Signal

results_changed = Signal()
