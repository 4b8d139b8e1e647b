"""Forms of the director pages, one module per page family. They check the shape of what was
typed; the league rules are checked by `league.services`, whose refusals the views show next to
the form. Services never import forms: the rule helpers they use are in `league.house_rules`."""

from league.forms.clubs import ClubForm, ClubTimeZoneForm, LeagueForm, MemberForm, SeasonForm
from league.forms.events import TIE_BREAK_CHOICES, TIE_BREAK_SLOTS, EventForm, StatusForm
from league.forms.house_rules import HouseRulesForm
from league.forms.room import DealerForm, EntrantForm, SwapForm
from league.forms.seating import ExpectedNamesForm, PlanChoiceForm, WishForm

__all__ = [
    "TIE_BREAK_CHOICES", "TIE_BREAK_SLOTS", "ClubForm", "ClubTimeZoneForm", "DealerForm", "EntrantForm", "EventForm",
    "HouseRulesForm", "LeagueForm", "MemberForm", "SeasonForm", "StatusForm", "SwapForm",
    "ExpectedNamesForm", "PlanChoiceForm", "WishForm",
]
