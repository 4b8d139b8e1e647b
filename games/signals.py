"""What the results announce to the layers above them (which register in `AppConfig.ready()`).

`results_changed(event_id=..., game_id=...)` is sent once a transaction that changed a game's
confirmed result has committed (never for one that rolled back). The analytics app recomputes
the event's standings on it, the notifications app mails the players their result; the games app
itself imports neither.

`results_imported(club_id=..., event_ids=[...])` is sent once an import of a club's past results
has committed (its games are not announced one by one): the analytics rebuild the club once, as
bulk work, behind the live nights' jobs.
"""

from django.dispatch import Signal

results_changed = Signal()
results_imported = Signal()
