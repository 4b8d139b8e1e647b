"""Answering a reminder's link: the page names the night and the answer, one button records it
(a link opened by a mail program's preview never answers for the player). No login needed: the
link is signed for that player and night."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from core.errors import DomainError
from league.models import Attendance
from league.services.attendance import attendance_answer
from notifications.services.nights import rsvp_read
from web.throttling import page_lookup_throttled

MAX_TOKEN = 300


@require_http_methods(["GET", "HEAD", "POST"])
@page_lookup_throttled
def rsvp(request: HttpRequest, token: str) -> HttpResponse:
    found = rsvp_read(token=token) if len(token) <= MAX_TOKEN else None
    if found is None:
        raise Http404("No such link")
    event, player, answer = found
    # What the player answered so far (none until they press the button): the link's answer is
    # only what the button will send.
    given = (Attendance.objects.filter(event=event, player=player)
             .values_list("answer", flat=True).first())
    context = {
        "event": event,
        "player": player,
        "answer": Attendance.Answer(answer).label,
        "given": Attendance.Answer(given).label if given else "",
        "done": False,
        "refusal": "",
    }
    if request.method == "POST":
        try:
            attendance_answer(event=event, player=player, answer=answer)
            context["done"] = True
        except DomainError as refused:
            context["refusal"] = refused.message
    return render(
        request, "notifications/rsvp.html", context, status=409 if context["refusal"] else 200
    )
