"""What the league announces to the layers above it (which connect in `AppConfig.ready()`), so
the league never imports them.

- `player_merged(club=..., source_id=..., target_id=...)`: sent inside a merge's transaction,
  after every league row of `source` has moved to `target`; the results move their own rows, the
  analytics recompute the club once the merge commits.
- `standings_settings_changed(event_id=...)`: sent after commit when an event's scoring,
  tie-breaks or sit-out rule changed; the analytics recompute its standings.
- `player_name_changed(player_id=...)`: sent inside the transaction that renamed a player or
  changed how their name shows in public; the analytics redraw the club's stored standings.
- `league_settings_changed(club_id=..., league_id=...)`: sent after commit when a league's
  settings changed (whom a substitute's result counts for, the cap): the analytics recompute
  the club's standings, ratings and statistics.
- `player_depersonalised(player_id=...)`: sent inside the transaction that removed a person's
  name and account from a player (their account deleted); the layers above remove what they
  keep about the person (contact details, mail).
- `night_started(event_id=...)`: sent after commit when an event starts (goes running); the
  analytics freeze the night's handicaps.
- `rotation_started(rotation_id=...)`: sent after commit when a draft rotation is started
  (seated for play); the notifications mail the seat calls.
- `divisions_changed(season_id=...)`: sent after commit when a season's divisions or their
  players changed; the analytics redraw the season's division tables.
- `club_ladder_changed(club_id=..., shared=...)`: sent inside the transaction that turned a
  club's sharing on the cross-club ladder on or off; the analytics take an opted-out club's
  players off the ladder in that transaction and recompute the ladder after commit.
"""

from django.dispatch import Signal

player_merged = Signal()
standings_settings_changed = Signal()
league_settings_changed = Signal()
player_depersonalised = Signal()
player_name_changed = Signal()
night_started = Signal()
divisions_changed = Signal()
rotation_started = Signal()
club_ladder_changed = Signal()
