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
        return _confirm_page(request, token)
    done = contact_unsubscribe(token=token)
    if done is None:
        raise Http404("No such link")
    contact, reason = done
    return render(
        request,
        "notifications/unsubscribed.html",
        {"player": contact.player, "what": Contact.Reason(reason).label},
    )


def _confirm_page(request: HttpRequest, token: str) -> HttpResponse:
    found = unsubscribe_read(token=token)
    if found is None:
        raise Http404("No such link")
    contact, reason = found
    return render(
        request,
        "notifications/unsubscribe.html",
        {"player": contact.player, "what": Contact.Reason(reason).label},
    )
