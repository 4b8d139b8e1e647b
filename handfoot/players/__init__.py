"""Computer players as a part of the engine (issue 44): one interface, `Player.choose(view,
rng) -> Move`, where the view (`SeatView`) holds only what the seat may know; the levels by
name in `LEVELS`; games between them (`table`) and duplicate matches (`duel`). docs/bots.md."""
