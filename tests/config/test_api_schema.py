"""The OpenAPI schema is generated once per process and served as drf-spectacular makes it."""

import json
from unittest import mock

import pytest
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.views import SpectacularAPIView
from rest_framework.test import APIRequestFactory

from config.api_schema import CachedSchemaView

JSON = "application/vnd.oai.openapi+json"


@pytest.fixture
def fresh_cache(monkeypatch):
    monkeypatch.setattr(CachedSchemaView, "_schemas", {})
    monkeypatch.setattr(CachedSchemaView, "_rendered", {})


@pytest.mark.django_db
def test_schema_is_generated_once_and_each_format_rendered_once(client, fresh_cache):
    with mock.patch.object(SchemaGenerator, "get_schema", autospec=True,
                           side_effect=SchemaGenerator.get_schema) as generate:
        yaml_pages = [client.get("/api/schema/") for _ in range(2)]
        json_pages = [client.get("/api/schema/", headers={"Accept": JSON}) for _ in range(2)]

    assert generate.call_count == 1
    assert yaml_pages[0]["Content-Type"] == "application/vnd.oai.openapi; charset=utf-8"
    assert yaml_pages[0].content == yaml_pages[1].content
    assert yaml_pages[0].content.startswith(b"openapi: 3.")
    assert json_pages[0]["Content-Type"] == JSON
    assert json_pages[0].content == json_pages[1].content


@pytest.mark.django_db
def test_cached_schema_is_the_one_drf_spectacular_generates(client, fresh_cache):
    request = APIRequestFactory().get("/api/schema/", HTTP_ACCEPT=JSON)
    fresh = SpectacularAPIView.as_view()(request)
    fresh.render()

    served = client.get("/api/schema/", headers={"Accept": JSON})

    assert json.loads(served.content) == json.loads(fresh.content)
    assert "/api/events/" in json.loads(served.content)["paths"]


# --- what the schema says of each operation (config.api_autoschema) ----------------------------

ERROR_REF = {"$ref": "#/components/schemas/Error"}
# Free-form on purpose: JSON Schema documents, score sheets and move logs (described by those
# JSON Schemas), house-rule overrides, and an error's machine details.
FREE_FORM = {"schemas_move_log_retrieve", "schemas_score_sheet_retrieve"}


@pytest.fixture(scope="module")
def api_schema(django_db_blocker) -> dict:
    with django_db_blocker.unblock():
        return SchemaGenerator().get_schema(request=None, public=True)


def operations(schema: dict):
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            yield path, method.upper(), operation


def test_every_operation_has_an_id_a_summary_and_json_bodies_only(api_schema):
    ids = [op["operationId"] for _, _, op in operations(api_schema)]
    assert len(ids) == len(set(ids)) > 50
    for path, method, op in operations(api_schema):
        assert op.get("summary", "").strip(), (method, path)
        body = op.get("requestBody")
        if body is not None:
            assert list(body["content"]) == ["application/json"], (method, path)


def test_every_error_response_has_the_error_shape(api_schema):
    error = api_schema["components"]["schemas"]["Error"]
    assert error["required"] == ["error"]
    body = api_schema["components"]["schemas"]["ErrorBody"]
    assert set(body["properties"]) == {"code", "message", "details"}
    for path, method, op in operations(api_schema):
        assert "503" in op["responses"], (method, path)
        for status, response in op["responses"].items():
            if int(status) >= 400:
                assert response["content"]["application/json"]["schema"] == ERROR_REF, (
                    method, path, status)
                assert response["description"], (method, path, status)


def statuses(schema: dict, path: str, method: str) -> set[int]:
    return {int(s) for s in schema["paths"][path][method.lower()]["responses"]}


@pytest.mark.parametrize(("path", "method", "expected", "absent"), [
    ("/api/events/", "GET", {200, 400, 404, 503}, {401, 403, 409, 413}),
    ("/api/clubs/{id}/members/", "GET", {200, 401, 403, 404}, {409, 413}),
    ("/api/events/", "POST", {201, 400, 401, 403, 409, 413, 415}, {404, 429}),
    ("/api/events/{id}/", "GET", {200, 404}, {400, 403}),
    ("/api/rotations/{id}/", "DELETE", {204, 401, 403, 404, 409}, {400, 413, 415}),
    ("/api/rotations/{id}/start/", "POST", {200, 401, 403, 404, 409}, {400, 415}),
    ("/api/auth/token/", "POST", {200, 400, 429}, {401, 403, 404, 409}),
    ("/api/sheets/check/", "POST", {200, 400, 413, 415, 429}, {401, 403, 409}),
    ("/api/results/{game_id}/submissions/", "POST", {200, 201, 401, 403, 404, 409, 410, 429}, {412}),
    ("/api/results/{game_id}/confirmations/", "POST", {200, 401, 403, 404, 409, 410, 429}, {412}),
    ("/api/results/{game_id}/corrections/", "POST", {201, 400, 401, 403, 404, 412, 428}, {410}),
    ("/api/clubs/{id}/members/", "GET", {200, 403, 404}, {409}),
    ("/api/standings/events/{slug}/", "GET", {200, 404}, {400, 403}),
])
def test_error_responses_follow_from_the_operation(api_schema, path, method, expected, absent):
    found = statuses(api_schema, path, method)
    assert expected <= found and not absent & found, sorted(found)


def test_429_and_503_say_when_to_retry(api_schema):
    for path, method, op in operations(api_schema):
        for status in ("429", "503"):
            if status in op["responses"]:
                assert "Retry-After" in op["responses"][status]["headers"], (method, path)


def test_anonymous_operations_need_no_credentials_in_the_schema(api_schema):
    paths = api_schema["paths"]
    assert "security" not in paths["/api/auth/token/"]["post"]
    assert "security" not in paths["/api/sheets/check/"]["post"]
    assert {} in paths["/api/events/"]["get"]["security"]
    assert {} in paths["/api/results/{game_id}/submissions/"]["post"]["security"]
    assert {} not in paths["/api/events/"]["post"]["security"]


def untyped(node, where: str = ""):
    """Places where the schema says only "some object" (or nothing at all)."""
    if not isinstance(node, dict):
        return
    if node == {} or (node.get("type") == "object" and "properties" not in node
                      and node.get("additionalProperties") in (None, {}, True)
                      and "description" not in node):
        yield where
    for key, value in node.items():
        if key == "properties":
            for name, child in value.items():
                yield from untyped(child, f"{where}.{name}")
        elif key in ("items", "additionalProperties", "schema"):
            yield from untyped(value, f"{where}.{key}")
        elif key in ("oneOf", "anyOf", "allOf"):
            for child in value:
                yield from untyped(child, where)


def test_bodies_are_typed(api_schema):
    found = []
    for name, component in api_schema["components"]["schemas"].items():
        found += untyped(component, name)
    for path, method, op in operations(api_schema):
        if op["operationId"] in FREE_FORM:
            continue
        for media in op.get("requestBody", {}).get("content", {}).values():
            found += untyped(media["schema"], f"{method} {path} request")
        for status, response in op["responses"].items():
            for media in response.get("content", {}).values():
                found += untyped(media["schema"], f"{method} {path} {status}")
    # An error's details are any machine details (e.g. messages per field).
    assert found == ["ErrorBody.details.additionalProperties"]


@pytest.mark.django_db
def test_the_api_takes_json_only(api_client):
    response = api_client.post("/api/auth/token/", {"username": "a", "password": "b"},
                               format="multipart")
    assert response.status_code == 415
    assert response.json()["error"]["code"] == "UNSUPPORTED_MEDIA_TYPE"


def test_the_schema_names_players_by_number_never_by_slug(api_schema):
    """A player's slug is made from their name, which they may hide ("Player 7"): the API's
    addresses and answers name players by number (issue 42)."""
    paths = api_schema["paths"]
    assert {"/api/ratings/players/{player_id}/",
            "/api/statistics/players/{player_id}/"} <= set(paths)
    assert not [p for p in paths if "players/{club}" in p or p.endswith("{slug}/")
                and "players" in p]
    for path in ("/api/ratings/players/{player_id}/", "/api/statistics/players/{player_id}/"):
        (parameter,) = paths[path]["get"]["parameters"]
        assert parameter["name"] == "player_id" and parameter["schema"]["type"] == "integer"
    schemas = api_schema["components"]["schemas"]
    for component, field in (("LeaderboardRow", "player"), ("PlayerRatings", "player"),
                             ("PlayerStatistics", "player"), ("PartnerStatistics", "partner"),
                             ("SeatFacts", "player")):
        assert schemas[component]["properties"][field]["type"] == "integer", component
    assert schemas["Player"]["properties"]["slug"]["nullable"] is True
