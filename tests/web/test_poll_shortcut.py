"""web.poll_shortcut: a poll Django has just answered for a reader not signed in is answered 304
before Django for half a second; anything else goes through."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import RequestFactory

from tests.factories import UserFactory
from web import poll_shortcut
from web.poll_shortcut import PollShortcut, poll_note

pytestmark = pytest.mark.django_db

PATH, QUERY = "/events/night/wall/", "fragment=1"


class Inner:
    """Django, as the shortcut sees it: counts what reaches it."""

    def __init__(self):
        self.calls = 0

    def __call__(self, environ, start_response):
        self.calls += 1
        start_response("200 OK", [("ETag", '"new"')])
        return [b"page"]


def noted(etag='"v1"', user=None, **headers):
    request = RequestFactory().get(PATH + "?" + QUERY, **headers)
    request.user = user or AnonymousUser()
    poll_note(request, etag)


def ask(app, etag='"v1"', cookie="", method="GET"):
    environ = {"REQUEST_METHOD": method, "PATH_INFO": PATH, "QUERY_STRING": QUERY,
               "HTTP_IF_NONE_MATCH": etag, "HTTP_COOKIE": cookie}
    answered = []
    body = app(environ, lambda status, headers: answered.append((status, dict(headers))))
    return answered[0][0], answered[0][1], b"".join(body)


@pytest.fixture
def app():
    from django.core.cache import cache

    cache.delete_many([poll_shortcut._key(PATH, QUERY, fetch) for fetch in ("", "fetch")])
    return PollShortcut(Inner())


def test_a_poll_just_answered_is_a_304_without_django(app):
    noted()
    status, headers, body = ask(app)
    assert status == "304 Not Modified" and body == b"" and headers["ETag"] == '"v1"'
    assert app.app.calls == 0


@pytest.mark.parametrize("question", [
    {"etag": '"v0"'},  # the reader holds another version
    {"cookie": "sessionid=abc"},  # signed in (or a session)
    {"cookie": "messages=xyz"},  # a message waiting
    {"method": "POST"},
])
def test_anything_else_goes_through_django(app, question):
    noted()
    status, _, body = ask(app, **question)
    assert status == "200 OK" and body == b"page" and app.app.calls == 1


def test_a_note_older_than_half_a_second_goes_through_django(app, monkeypatch):
    noted()
    later = poll_shortcut.time.time() + 0.6
    monkeypatch.setattr(poll_shortcut.time, "time", lambda: later)
    assert ask(app)[0] == "200 OK" and app.app.calls == 1


def test_the_fragment_and_the_page_are_noted_apart(app):
    noted(HTTP_X_REQUESTED_WITH="fetch")  # the fetch of the fragment, not the page
    assert ask(app)[0] == "200 OK"


def test_nothing_is_noted_for_a_signed_in_reader_or_when_turned_off(app, settings):
    noted(user=UserFactory())
    assert ask(app)[0] == "200 OK"
    settings.POLL_SHORTCUT_SECONDS = 0
    noted()
    assert ask(app)[0] == "200 OK" and app.app.calls == 2


def test_the_served_application_has_the_shortcut():
    from config.wsgi import application

    assert isinstance(application, PollShortcut)


@pytest.mark.django_db(transaction=True)
def test_the_served_application_answers_a_repeated_poll_itself():
    """Through the real WSGI application: the page, then its polls as live-refresh.js sends
    them, with the cookies a reader's browser keeps."""
    from django.core.cache import cache

    from config.wsgi import application
    from league.models import Event
    from tests.analytics.test_pages import build_event

    event, _ = build_event(1, status=Event.Status.RUNNING)
    inner = application.app
    calls = []
    application.app = lambda environ, start: calls.append(environ["PATH_INFO"]) or inner(environ, start)
    try:
        cookies = {}

        def get(path, query="", **headers):
            environ = {"REQUEST_METHOD": "GET", "PATH_INFO": path, "QUERY_STRING": query,
                       "SERVER_NAME": "testserver", "SERVER_PORT": "80", "wsgi.url_scheme": "http",
                       "wsgi.input": __import__("io").BytesIO(), "HTTP_HOST": "localhost",
                       "HTTP_COOKIE": "; ".join(f"{k}={v}" for k, v in cookies.items()), **headers}
            answered = []
            body = b"".join(application(environ, lambda s, h: answered.append((s, h))))
            status, headers_out = answered[0]
            for name, value in headers_out:
                if name.lower() == "set-cookie":
                    key, _, rest = value.partition("=")
                    cookies[key] = rest.split(";")[0]
            return status, dict(headers_out), body

        cache.clear()
        get(f"/events/{event.slug}/")
        fragment = f"/events/{event.slug}/standings/"
        status, headers, _ = get(fragment, HTTP_X_REQUESTED_WITH="fetch")
        assert status.startswith("200")
        etag = headers["ETag"]
        before = len(calls)
        for _ in range(3):
            status, _, _ = get(fragment, HTTP_X_REQUESTED_WITH="fetch", HTTP_IF_NONE_MATCH=etag)
            assert status.startswith("304")
        assert len(calls) == before, f"polls reached Django; cookies held: {sorted(cookies)}"
    finally:
        application.app = inner
