"""What the results announce to the layers above them (which register in `AppConfig.ready()`).

`results_changed(event_id=...)` is sent once a transaction that changed an event's confirmed
results has committed (never for one that rolled back). The analytics app recomputes the event's
standings on it; the games app itself never imports the analytics.
"""

from django.dispatch import Signal

results_changed = Signal()
