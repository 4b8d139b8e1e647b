"""Issue 22 finding 11 (b) and issue 23: a name typed without its ø is the same name, and a line
pasted twice is told to the director on the page, in words, instead of merged silently."""

import pytest
from django.urls import reverse

from league.models import Event, Player
from league.names import name_key, names_parse_report, pairs_parse_report
from tests.factories import EventFactory, MembershipFactory, PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    return EventFactory(club=MembershipFactory(role="director").club,
                        status=Event.Status.REGISTRATION)


@pytest.fixture
def director_client(client, event):
    client.force_login(event.club.memberships.get().user)
    return client


@pytest.mark.parametrize("typed,known", [
    ("Sørensen", "Sorensen"), ("SØRENSEN", "sorensen"), ("Æbeltoft", "Aebeltoft"),
    ("Łukasz Wróbel", "Lukasz Wrobel"), ("Þór Ólafsson", "Thor Olafsson"), ("Straße", "Strasse"),
])
def test_latin_letters_without_an_accent_to_drop_match_their_plain_spelling(typed, known):
    assert name_key(typed) == name_key(known)


def test_names_in_other_scripts_are_never_matched_by_sound():
    assert name_key("王") != name_key("汪")  # both "Wang" when read aloud


def test_a_pasted_sorensen_is_the_club_s_sorensen_without_a_question(director_client, event):
    sorensen = PlayerFactory(club=event.club, name="Sorensen")
    url = reverse("director-registration-paste", args=[event.slug])

    page = director_client.post(url, {"names": "Sørensen"}, follow=True)

    assert "Check the names" not in page.text
    assert list(event.registrations.values_list("player", flat=True)) == [sorensen.pk]
    assert Player.objects.filter(club=event.club).count() == 1


def test_a_line_pasted_twice_is_reported_on_the_page_and_entered_once(director_client, event):
    url = reverse("director-registration-paste", args=[event.slug])

    page = director_client.post(url, {"names": "Ada Lovelace\nAlan Turing\nAda Lovelace"},
                                follow=True)

    assert "\u201cAda Lovelace\u201d is on lines 1 and 3: entered once." in page.text
    assert "Entered 2 players" in page.text
    assert event.registrations.count() == 2


def test_two_spellings_of_one_name_are_reported_as_one(director_client, event):
    url = reverse("director-registration-paste", args=[event.slug])

    page = director_client.post(url, {"names": "Sørensen\nGrace Hopper\nSorensen"}, follow=True)

    assert ("\u201cSørensen\u201d and \u201cSorensen\u201d (lines 1 and 3) are the same name: "
            "entered once, as \u201cSørensen\u201d.") in page.text
    assert sorted(event.registrations.values_list("player__name", flat=True)) == [
        "Grace Hopper", "Sørensen"]


def test_a_repeat_is_also_told_when_close_names_are_asked_about(director_client, event):
    PlayerFactory(club=event.club, name="Grace Hopper")
    url = reverse("director-registration-paste", args=[event.slug])

    review = director_client.post(url, {"names": "Grace Hoper\nAda Lovelace\nada lovelace"})

    assert "Check the names" in review.text
    assert "are the same name: entered once" in review.text


def test_a_partnership_pasted_twice_in_either_order_is_reported():
    pairs, repeats = pairs_parse_report("Ann Lee & Bob Ray\nCy Dee & Di Eck\nBob Ray and Ann Lee")
    assert pairs == [("Ann Lee", "Bob Ray"), ("Cy Dee", "Di Eck")]
    assert [r.words() for r in repeats] == [
        "\u201cAnn Lee & Bob Ray\u201d and \u201cBob Ray & Ann Lee\u201d (lines 1 and 3) are the "
        "same partnership: entered once, as \u201cAnn Lee & Bob Ray\u201d."]


def test_a_name_twice_on_one_line_is_reported_with_its_line():
    names, repeats = names_parse_report("Ada, Bob\nCy; Cy")
    assert names == ["Ada", "Bob", "Cy"]
    assert [r.words() for r in repeats] == ["\u201cCy\u201d is twice on line 2: entered once."]
