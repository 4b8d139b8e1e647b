"""The tie-breaks an event may order its standings by (pure Python, no Django).

One list for the event settings (`Event.TIE_BREAKS`, checked by the event services and offered
by the forms) and for the standings computation (`analytics.standings.compute`), which stays pure.
"""

TIE_BREAKS: tuple[str, ...] = (
    "match_points",
    "total_points",
    "point_difference",
    "head_to_head",
    "opponents_strength",
    "wins",
    "fewest_held_points",
)
