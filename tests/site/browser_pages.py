"""The pages every browser-wide check opens (public and director pages, with the data they need)
and the checks of a page besides axe-core: no console errors, no failed requests, a label on
every form control, one h1. test_browser_axe.py opens each page on a 360 px phone and a desktop
and runs them all."""

import datetime

from games import services as results
from games.models import Submission
from handfoot.simulate import simulate_game
from league import services as league
from league.models import Event, Game
from site_pages.demo import sheets_from_report
from tests.games.factories import sheet
from tests.site.demo import next_pending_game, side_entry_url

# Form controls without a name a screen reader could read out: no <label for>, no wrapping
# label, no aria-label / aria-labelledby.
UNLABELLED = """() => [...document.querySelectorAll('input:not([type=hidden]), select, textarea')]
  .filter(el => !(el.labels && el.labels.length) && !el.getAttribute('aria-label')
                && !el.getAttribute('aria-labelledby'))
  .map(el => el.outerHTML.slice(0, 120))"""
OVERFLOW = "document.documentElement.scrollWidth - document.documentElement.clientWidth"
# The narrowest phone a club's scorer brings.
SMALL_PHONE = {"width": 360, "height": 780}


def public_pages(demo) -> dict[str, str]:
    club, league, season = demo.club, demo.season.league, demo.season
    a, b = demo.players[0], demo.players[1]
    return {
        "home": "/",
        "club": f"/clubs/{club.slug}/",
        "league": f"/clubs/{club.slug}/leagues/{league.slug}/",
        "season": f"/clubs/{club.slug}/leagues/{league.slug}/seasons/{season.slug}/",
        "event": demo.event.get_absolute_url(),
        "event standings": f"/events/{demo.event.slug}/standings/",
        "season standings": f"/seasons/{season.pk}/standings/",
        "player": a.get_absolute_url(),
        "partnership": f"/clubs/{club.slug}/partnerships/{a.pk}/{b.pk}/",
        "head to head": f"/head-to-head/?club={club.slug}&a={a.pk}&b={b.pk}",
        "leaderboard": "/leaderboard/",
        "ladder": "/ladder/",
        "ratings accuracy": f"/clubs/{club.slug}/ratings/how-well-they-predict/",
        "play": "/play/",
        "table entry": side_entry_url(next_pending_game(demo.event), 0),
        # a confirmed result at its side's link: the result with its "Dispute this result" form
        "confirmed result": side_entry_url(confirmed_game(demo), 1),
        "replay": f"/games/{logged_game(demo).pk}/replay/",
        "login": "/accounts/login/",
    }


def confirmed_game(demo) -> Game:
    """A game of the running night confirmed most recently: its dispute window is open."""
    return (Game.objects.filter(table__rotation__event=demo.event, status=Game.Status.CONFIRMED)
            .order_by("-result_versions__confirmed_at").first())


def logged_game(demo) -> Game:
    """A played game of the running night entered from a move log (the demo logs table 1)."""
    return (Game.objects.filter(table__rotation__event=demo.event,
                                submissions__kind=Submission.Kind.LOG)
            .order_by("pk").first())


def log_disputed_game(demo) -> Game:
    """A game of the running rotation that side 1 entered from a move log and side 2 typed with
    one figure wrong: its dispute view shows what the log says and settles by it."""
    game = next_pending_game(demo.event)
    table = results.game_table(game=game)
    log = simulate_game(rules=table.rules_spec, players=len(table.players), seed=11,
                        first_dealer=table.first_dealer)
    log["seats"] = table.players
    submission, _ = results.submission_create(game=game, document=log,
                                              entrant=results.Entrant.for_side(game, 0),
                                              idempotency_key=f"axe-log-{game.pk}")
    sheets = sheets_from_report(submission.report)
    sheets[0]["sides"][0]["table_points"] += 5
    for n, document in enumerate(sheets):
        results.submission_create(game=game, document=document,
                                  entrant=results.Entrant.for_side(game, 1),
                                  idempotency_key=f"axe-log-{game.pk}-{n}")
    game.refresh_from_db()
    assert game.status == Game.Status.DISPUTED
    return game


def disputed_game(demo) -> Game:
    """A game of the running rotation whose two sides typed round 1 differently."""
    game = next_pending_game(demo.event)
    for side, table_points in ((0, 555), (1, 560)):
        for n in (1, 2, 3, 4):
            results.submission_create(
                game=game, document=sheet(n, table_points=table_points if n == 1 else 555),
                entrant=results.Entrant.for_side(game, side), idempotency_key=f"axe-{side}-{n}")
    game.refresh_from_db()
    assert game.status == Game.Status.DISPUTED
    return game


def draft_event(demo) -> Event:
    """A second night of the club with a house rule, its eight entrants checked in and rotation
    1 seated as a draft; one more entrant with a long name withdrew before playing (the
    entrants table's widest row)."""
    event = league.event_create(club=demo.club, name="Friday Social", seed=7,
                                kind=Event.Kind.LEAGUE_NIGHT,
                                date=datetime.date.today() + datetime.timedelta(days=3))
    event = league.event_update(event=event, rules_overrides={"going_out_bonus": 250})
    league.event_set_status(event=event, status=Event.Status.REGISTRATION)
    for player in demo.players[:8]:
        league.registration_check_in(registration=league.registration_add(event=event, player=player))
    leaver = league.player_create(club=demo.club, name="Katherine Coleman Goble Johnson")
    league.registration_withdraw(registration=league.registration_add(event=event, player=leaver))
    event = league.event_set_status(event=event, status=Event.Status.RUNNING)
    league.rotation_generate(event=event)
    return event


def import_job_page(demo) -> str:
    """The page of a finished import of a small spreadsheet of past nights into the demo club."""
    from django.contrib.auth import get_user_model

    from games.jobs import results_import_job
    from games.services import imports
    from tests.games import import_helpers

    director = get_user_model().objects.get(username=demo.director_username)
    data = import_helpers.sheet_per_night(import_helpers.past_nights())
    token = imports.upload_keep(club=demo.club, file_name="past.xlsx", data=data)
    job = results_import_job(club=demo.club, token=token, user=director, season="",
                             day_first=None, choices={})
    return f"/director/clubs/{demo.club.slug}/import/{job.pk}/"


def director_pages(demo, dispute: Game, draft: Event, log_dispute: Game | None = None,
                   import_job: str | None = None) -> dict[str, str]:
    slug, club = demo.event.slug, demo.club.slug
    player = demo.players[0]
    logged = {"dispute with a move log": f"/director/games/{log_dispute.pk}/"} if log_dispute else {}
    return {
        "director home": "/director/",
        "invitations": "/director/invitations/",
        "director club": f"/director/clubs/{club}/",
        "players": f"/director/clubs/{club}/players/",
        "import past results": f"/director/clubs/{club}/import/",
        **({"importing past results": import_job} if import_job else {}),
        "director player": f"/director/clubs/{club}/players/{player.slug}/",
        "create event": "/director/events/new/",
        "director event": f"/director/events/{slug}/",
        "event settings": f"/director/events/{slug}/edit/",
        "registrations and seating draft": f"/director/events/{draft.slug}/",
        "house rules": f"/director/events/{draft.slug}/house-rules/",
        "seating wishes": f"/director/events/{draft.slug}/wishes/",
        "prepared seatings": f"/director/events/{draft.slug}/plans/",
        "history": f"/director/events/{slug}/history/",
        "results": f"/director/events/{slug}/results/",
        "import move logs": f"/director/events/{slug}/logs/",
        "dispute": f"/director/games/{dispute.pk}/",
        **logged,
        "table cards": f"/events/{slug}/table-cards/",
        "side's code": f"/events/{slug}/table-cards/{dispute.table.rotation.number}/"
                       f"{dispute.table.number}/side/1/",
        "event what-if": f"/events/{slug}/what-if/",
        "season what-if": f"/seasons/{demo.season.pk}/what-if/",
    }


def watch(page, problems: list[str], current: dict[str, str]) -> None:
    """Record what goes wrong while pages load: console errors, script errors, failed requests
    and error answers, each under the name of the page open at the time (`current["name"]`)."""
    page.on("console", lambda message: message.type == "error" and problems.append(
        f"{current['name']}: console error {message.text}"))
    page.on("pageerror", lambda error: problems.append(f"{current['name']}: script error {error}"))
    # A request the browser itself cancels (a favicon still loading when the next page is
    # opened) is not a fault of the page; any other failure is.
    page.on("requestfailed", lambda request: request.failure != "net::ERR_ABORTED" and
            problems.append(f"{current['name']}: request failed {request.url} ({request.failure})"))
    page.on("response", lambda response: response.status >= 400 and problems.append(
        f"{current['name']}: {response.status} {response.url}"))


def form_problems(page, name: str) -> list[str]:
    """A label on every form control, and one h1."""
    problems = [f"{name}: no label for {html}" for html in page.evaluate(UNLABELLED)]
    if (headings := page.locator("h1").count()) != 1:
        problems.append(f"{name}: {headings} h1 headings")
    return problems
