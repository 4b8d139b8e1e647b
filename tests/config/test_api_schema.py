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
