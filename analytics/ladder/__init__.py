"""The cross-club ladder: one rating pool over the games of every club that shares its players'
ratings (a director's choice, `league.models.Club.ladder_shared`), rated in the order played
across clubs with the clubs' own model (`analytics.ratings.compute.rate_games`), so the ratings
are on one scale.

- `compute`: pure; a club's games to and from JSON, the clubs' games merged in order, rated.
- `selectors`: the clubs that share, a club's games as JSON, the page's rows.
- `services`: the stored ladder replaced whole, a club's players taken off it.
- `jobs`: the computation as a job of parts (one per club) and its debounced start, with the
  hooks that start it (a club opting in or out, a club's ratings updated).
"""
