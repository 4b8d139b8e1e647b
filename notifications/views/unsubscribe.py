"""One-click unsubscribe from a mail's link, without signing in (RFC 8058: mail programs POST
`List-Unsubscribe=One-Click` to the link in the `List-Unsubscribe` header)."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from notifications.models import Contact
from notifications.services.mail import contact_unsubscribe, unsubscribe_read
from web.throttling import page_lookup_throttled

MAX_TOKEN = 300


@csrf_exempt  # the signed token is the credential; a mail program posts without a session
@require_http_methods(["GET", "HEAD", "POST"])
@page_lookup_throttled
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    if len(token) > MAX_TOKEN:
        raise Http404("No such link")
    if request.method != "POST":
        return _page(request, "notifications/unsubscribe.html", unsubscribe_read(token=token))
    return _page(request, "notifications/unsubscribed.html", contact_unsubscribe(token=token))


def _page(request: HttpRequest, template: str, found: tuple[Contact, str] | None) -> HttpResponse:
    """The page asking to unsubscribe or saying it is done: whose link it is and from what
    (a link that is not one of ours: 404)."""
    if found is None:
        raise Http404("No such link")
    contact, reason = found
    return render(
        request,
        template,
        {"player": contact.player, "what": Contact.Reason(reason).label},
    )
