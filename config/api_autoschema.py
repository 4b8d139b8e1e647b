"""What the OpenAPI schema says of each operation (the API's `DEFAULT_SCHEMA_CLASS`): summaries
and error responses, in one place rather than on every view."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, Literal, cast

import drf_spectacular.openapi
from django.contrib.auth.models import AnonymousUser
from drf_spectacular.plumbing import get_doc
from drf_spectacular.utils import OpenApiResponse
from rest_framework import mixins
from rest_framework.permissions import AllowAny
from rest_framework.request import Request

from web.error_shape import ErrorSerializer

SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}

ERROR_DESCRIPTIONS = {
    400: "The request is not valid (a field, a filter, a header or the document); `details` "
    "says which.",
    401: "No credentials, or a bad token (NOT_AUTHENTICATED, AUTHENTICATION_FAILED): send "
    "`Authorization: Token <key>` (see `auth_token_create`).",
    403: "This caller may not do this (signed in, but not a director of this club, or the "
    "wrong table link).",
    404: "No such object, or it is not visible to this caller.",
    409: "The current state does not allow it: already done, not yet possible, a duplicate.",
    410: "The event does not take table entries now (EVENT_NOT_RUNNING).",
    412: "The If-Match revision is not the result's current one (STALE_VERSION): reload, retry.",
    413: "The request body is too large (BODY_TOO_LARGE).",
    415: "The request body is not JSON (send Content-Type: application/json).",
    428: "If-Match is missing (PRECONDITION_REQUIRED).",
    429: "Too many requests from this client (THROTTLED, or LOCKED_OUT after failed sign-ins); "
    "wait Retry-After seconds.",
    503: "The database is not reachable for a moment; nothing was stored. Retry after "
    "Retry-After seconds.",
}
RETRY_AFTER = {
    "Retry-After": {"schema": {"type": "integer"}, "description": "Seconds to wait."},
}


class AutoSchema(drf_spectacular.openapi.AutoSchema):
    """drf-spectacular's AutoSchema, plus in one place for every operation:

    - a `summary` (the view's own, else its docstring's first sentence, else made from the action
      and the model: "List events", "Create a player" ...);
    - the error responses that apply, all with the one `Error` shape (`web.error_shape`),
      derived from what the operation is: a JSON body (400, 413, 415), path parameters or
      pages (404), query filters (400), a write behind a permission (401, 403, 409), throttles
      (429), a table-link token (410, 429), If-Match (400, 412, 428); and 503 everywhere.

    An operation that declares a status itself (`extend_schema(responses=...)`) keeps its own.
    """

    def get_summary(self) -> str | None:
        action = getattr(self.view, "action", None) or self.method.lower()
        doc = get_doc(getattr(self.view, action, None))
        if action in STANDARD_ACTIONS and not _is_action_doc(doc):
            noun = _model_noun(self.view)
            if noun is not None:
                return STANDARD_ACTIONS[action](*noun)
        return _first_sentence(doc or get_doc(self.view.__class__)) or (
            self.get_operation_id().replace("_", " ").capitalize())

    def get_auth(self) -> list[dict[str, list[str]]]:
        """The security requirements, as the permissions decide: none at all where anyone may
        call and credentials change nothing (the token, check and JSON Schema endpoints); `{}`
        (anonymous) added where the permissions let an anonymous caller in: reads of the open
        viewsets, and the table entry endpoints with the side's `X-Entry-Token` (a header
        parameter of theirs)."""
        if all(isinstance(p, AllowAny) for p in self.view.get_permissions()):
            return []
        auth = super().get_auth()
        if auth and {} not in auth and self._anonymous_allowed():
            auth.append({})
        return auth

    def _anonymous_allowed(self) -> bool:
        headers = {p["name"]: "?" for p in self._get_parameters() if p["in"] == "header"}
        # What the permissions read of a request, for an anonymous caller: a stand-in, no request.
        request = cast(Request, SimpleNamespace(method=self.method, user=AnonymousUser(),
                                                headers=headers))
        return all(p.has_permission(request, self.view) for p in self.view.get_permissions())

    def _get_response_bodies(
        self, direction: Literal["request", "response"] = "response"
    ) -> dict[str, Any]:
        responses = super()._get_response_bodies(direction)
        for status_code in sorted(self.error_statuses()):
            code = str(status_code)
            if code in responses:
                continue
            response = self._get_response_for_code(
                OpenApiResponse(ErrorSerializer, description=ERROR_DESCRIPTIONS[status_code]),
                code, direction=direction)
            if status_code in (429, 503):
                response["headers"] = {**response.get("headers", {}), **RETRY_AFTER}
            responses[code] = response
        return responses

    def error_statuses(self) -> set[int]:
        """The error statuses this operation can answer (see the class docstring)."""
        parameters = self._get_parameters()
        query = {p["name"] for p in parameters if p["in"] == "query"}
        headers = {p["name"] for p in parameters if p["in"] == "header"}
        unsafe = self.method not in SAFE_METHODS
        has_body = bool(self._get_request_body())
        guarded = any(
            not isinstance(p, AllowAny) for p in self.view.get_permissions())
        statuses = {503}
        if has_body:
            statuses |= {400, 413, 415}
        if query - {"page"}:
            statuses.add(400)
        if "{" in self.path or "page" in query:
            statuses.add(404)
        if unsafe and guarded:
            statuses |= {401, 403, 409}
        if self.view.get_throttles():
            statuses.add(429)
        if "X-Entry-Token" in headers:
            statuses |= {410, 429}
        if "If-Match" in headers:
            statuses |= {400, 412, 428}
        return statuses


def _first_sentence(doc: str) -> str:
    """The docstring's first sentence (of its first paragraph), on one line, without the stop."""
    paragraph = " ".join(doc.split("\n\n", 1)[0].split())
    return paragraph.split(". ", 1)[0].rstrip(".")


def _is_action_doc(doc: str) -> bool:
    """A standard action whose method was written out with its own docstring."""
    return bool(doc) and doc not in STANDARD_DOCS


def _model_noun(view: Any) -> tuple[str, str] | None:
    """(singular, plural) of the model a viewset serves."""
    queryset = getattr(view, "queryset", None)
    model = queryset.model if queryset is not None else None
    if model is None:
        serializer_class = getattr(view, "serializer_class", None)
        model = getattr(getattr(serializer_class, "Meta", None), "model", None)
    if model is None:
        return None
    return str(model._meta.verbose_name), str(model._meta.verbose_name_plural)


def _article(noun: str) -> str:
    return f"an {noun}" if noun[:1] in "aeiou" else f"a {noun}"


STANDARD_ACTIONS = {
    "list": lambda one, many: f"List {many}",
    "retrieve": lambda one, many: f"Get {_article(one)}",
    "create": lambda one, many: f"Create {_article(one)}",
    "update": lambda one, many: f"Replace {_article(one)}",
    "partial_update": lambda one, many: f"Update {_article(one)}",
    "destroy": lambda one, many: f"Delete {_article(one)}",
}
# DRF's mixins' own docstrings (none today) are not an operation's summary.
STANDARD_DOCS = {
    get_doc(getattr(mixin, name, None))
    for mixin in (mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                  mixins.UpdateModelMixin, mixins.DestroyModelMixin)
    for name in STANDARD_ACTIONS
} - {""}
