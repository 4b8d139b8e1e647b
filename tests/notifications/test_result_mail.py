"""The "your result is confirmed" mail, sent through a real SMTP server and read back."""

import pytest
from django.urls import reverse

from games import services as results
from league.models import Seat
from league.services.credentials import side_credentials_ensure
from notifications.models import Contact, SentMail
from notifications.services.mail import MailDeferred
from notifications.services.results import result_mails_send
from notifications.tasks import result_mails_task
from tests.games.factories import named_game, stockout_log

pytestmark = pytest.mark.django_db


@pytest.fixture
def confirmed_game():
    game = named_game()
    side_credentials_ensure(games=[game])
    results.submission_create(
        game=game,
        document=stockout_log(),
        entrant=results.Entrant.for_side(game, 0),
        idempotency_key="log-0",
    )
    version = game.result_versions.order_by("-number").first()
    results.result_confirm(
        game=game, version_number=version.number, entrant=results.Entrant.for_side(game, 1)
    )
    seats = list(
        Seat.objects.filter(table__game=game).select_related("player").order_by("seat_number")
    )
    for seat in seats[:3]:
        Contact.objects.create(player=seat.player, email=f"{seat.player.slug}@example.net")
    return game, seats


def test_each_player_with_an_address_gets_the_rounds_totals_and_a_dispute_link(
    smtp, confirmed_game
):
    game, seats = confirmed_game
    assert result_mails_send(game_id=game.pk) == 3
    assert sorted(m["To"] for m in smtp.messages) == sorted(
        f"{s.player.slug}@example.net" for s in seats[:3]
    )
    message = next(m for m in smtp.messages if m["To"] == f"{seats[0].player.slug}@example.net")
    assert message["Subject"].startswith("Your result at ")
    text = message.get_body(("plain",)).get_content()
    html = message.get_body(("html",)).get_content()
    assert f"Hello {seats[0].player.name}" in text and "You played for side 1." in text
    assert "Round 1:" in text and "Side 2 (" in text
    token = game.side_credentials.get(side=seats[0].side).token
    dispute = "http://league.example" + reverse("play-game", args=[token])
    assert dispute in text and f'href="{dispute}"' in html
    assert "<table" in html and "Total" in html
    # one-click unsubscribe headers (RFC 8058), the link in the mail itself
    link = message["List-Unsubscribe"].strip("<>")
    assert link.startswith("http://league.example/mail/unsubscribe/")
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert link in text
    for engine_word in ("clean_books", "side 0", "Side 0", "None"):
        assert engine_word not in text


def test_sending_again_sends_nothing_twice(smtp, confirmed_game):
    game, _ = confirmed_game
    assert result_mails_task.apply(args=[game.pk]).get() == 3
    assert result_mails_task.apply(args=[game.pk]).get() == 0  # a retried or repeated job
    assert len(smtp.messages) == 3
    assert SentMail.objects.filter(status=SentMail.Status.SENT).count() == 3


def test_a_refused_address_is_marked_and_not_tried_again(smtp, confirmed_game):
    game, seats = confirmed_game
    Contact.objects.filter(player=seats[1].player).update(email="nobody@example.org")
    assert result_mails_send(game_id=game.pk) == 2
    contact = Contact.objects.get(player=seats[1].player)
    assert contact.undeliverable_at is not None
    assert contact.undeliverable_reason == "The mail server refused this address."
    assert SentMail.objects.get(email="nobody@example.org").status == SentMail.Status.REFUSED


def test_a_mail_server_away_sends_nothing_and_the_retry_sends_it(settings, smtp, confirmed_game):
    game, _ = confirmed_game
    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": 1, "timeout": 2},
        }
    }
    with pytest.raises(MailDeferred):
        result_mails_send(game_id=game.pk)
    assert not SentMail.objects.exists()  # nothing recorded as sent
    settings.MAILERS["default"]["OPTIONS"]["port"] = smtp.port
    assert result_mails_send(game_id=game.pk) == 3


def test_one_click_unsubscribe_needs_no_login_and_stops_only_that_kind(
    client, smtp, confirmed_game
):
    game, seats = confirmed_game
    result_mails_send(game_id=game.pk)
    message = next(m for m in smtp.messages if m["To"] == f"{seats[0].player.slug}@example.net")
    path = message["List-Unsubscribe"].strip("<>").removeprefix("http://league.example")
    page = client.get(path)
    assert page.status_code == 200 and "Stop these mails" in page.content.decode()
    answer = client.post(path, {"List-Unsubscribe": "One-Click"})
    assert answer.status_code == 200 and "no longer get mail about" in answer.content.decode()
    contact = Contact.objects.get(player=seats[0].player)
    assert (contact.results, contact.reminders, contact.nights) == (False, True, True)
    assert client.post(path[:-3] + "xx/").status_code == 404


def test_the_clubs_directors_read_what_was_sent(client, smtp, confirmed_game):
    from tests.factories import MembershipFactory

    game, seats = confirmed_game
    result_mails_send(game_id=game.pk)
    club = game.table.rotation.event.club
    url = reverse("director-club-mail", args=[club.slug])
    client.force_login(MembershipFactory(club=club, role="scorer").user)
    assert client.get(url).status_code == 403
    client.force_login(MembershipFactory(club=club, role="director").user)
    page = client.get(url).content.decode()
    assert f"To {seats[0].player.name}" in page and "You played for side 1." in page
    assert "· Sent" in page


def test_confirming_a_result_mails_its_players_after_commit(
    smtp, django_capture_on_commit_callbacks
):
    game = named_game()
    side_credentials_ensure(games=[game])
    seat = Seat.objects.filter(table__game=game).select_related("player").first()
    Contact.objects.create(player=seat.player, email="first@example.net")
    with django_capture_on_commit_callbacks(execute=True):
        results.submission_create(
            game=game,
            document=stockout_log(),
            entrant=results.Entrant.for_side(game, 0),
            idempotency_key="k",
        )
    assert smtp.messages == []  # entered, not yet confirmed
    version = game.result_versions.order_by("-number").first()
    with django_capture_on_commit_callbacks(execute=True):
        results.result_confirm(
            game=game, version_number=version.number, entrant=results.Entrant.for_side(game, 1)
        )
    assert [m["To"] for m in smtp.messages] == ["first@example.net"]


def test_a_result_imported_from_the_clubs_past_is_not_mailed(smtp, confirmed_game):
    game, _ = confirmed_game
    game.result_versions.filter(status="confirmed").update(
        imported_from="2019.xlsx, sheet 1, row 4"
    )
    assert result_mails_send(game_id=game.pk) == 0
    assert smtp.messages == []


def test_the_unsubscribe_header_is_a_plain_link_a_mail_program_can_post_to(client, smtp,
                                                                           confirmed_game):
    """RFC 2369 and 8058: `List-Unsubscribe: <http...>` as written, on one line (not RFC 2047
    encoded-words, which mail programs do not read as a link), and a POST of
    `List-Unsubscribe=One-Click` to it stops the mails."""
    game, seats = confirmed_game
    result_mails_send(game_id=game.pk)
    message = next(m for m in smtp.messages if m["To"] == f"{seats[0].player.slug}@example.net")
    raw = {name.lower(): value for name, value in message.raw_items()}
    header = raw["list-unsubscribe"]
    assert "=?" not in header and "\n" not in header, header
    assert header.startswith("<http://league.example/mail/unsubscribe/") and header.endswith(">")
    assert raw["list-unsubscribe-post"] == "List-Unsubscribe=One-Click"
    link = header.strip("<>")
    answer = client.post(link, "List-Unsubscribe=One-Click",
                         content_type="application/x-www-form-urlencoded")
    assert answer.status_code == 200
    assert not Contact.objects.get(player=seats[0].player).wants(Contact.Reason.RESULT)


def test_the_result_mail_names_the_other_players_as_they_chose_and_the_reader_in_full(
        smtp, confirmed_game):
    """A mail goes to the other players of the game: a player who chose no name (or an initial)
    is named as on the public pages; each reader still sees their own full name."""
    game, seats = confirmed_game
    quiet, initial = seats[1].player, seats[2].player
    quiet.name, quiet.name_shown = "Quentin Quiet", "hidden"
    quiet.save(update_fields=["name", "name_shown"])
    initial.name, initial.name_shown = "Ida Inkster", "initial"
    initial.save(update_fields=["name", "name_shown"])
    assert result_mails_send(game_id=game.pk) == 3
    mails = {m["To"]: m.get_body(("plain",)).get_content() + m.get_body(("html",)).get_content()
             for m in smtp.messages}
    to_first = mails[f"{seats[0].player.slug}@example.net"]
    assert "Quentin" not in to_first and f"Player {quiet.pk}" in to_first
    assert "Inkster" not in to_first and "Ida I." in to_first
    to_quiet = mails[f"{quiet.slug}@example.net"]
    assert "Hello Quentin Quiet" in to_quiet and "Side 2 (Quentin Quiet & " in to_quiet
    assert "Ida I." in to_quiet and "Inkster" not in to_quiet
