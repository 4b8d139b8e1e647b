"""Handicaps: a handicap per player frozen at the start of each night, and the handicapped
event and season tables beside the scratch ones (see docs/analytics.md, "Handicaps")."""
