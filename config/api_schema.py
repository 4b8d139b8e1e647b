"""The OpenAPI schema, generated once per process: it changes only with the code, and generating
it walks every view and serializer (about a second), rendering it as YAML a quarter of that.
What each operation says is decided in `config.api_autoschema`."""

from __future__ import annotations

import threading
from typing import Any, ClassVar

from django.http import HttpResponse
from django.utils import translation
from drf_spectacular.views import SpectacularAPIView
from rest_framework.request import Request


class CachedSchemaView(SpectacularAPIView):
    """drf-spectacular's schema view, keeping each rendered schema (one per API version,
    language and format asked for) for the life of the process, so a deploy makes it once."""

    _schemas: ClassVar[dict[tuple[Any, ...], dict]] = {}
    _rendered: ClassVar[dict[tuple[Any, ...], bytes | str]] = {}
    _lock: ClassVar[threading.Lock] = threading.Lock()

    def _get_schema_response(self, request: Request) -> HttpResponse:
        version = self.api_version or request.version or self._get_version_parameter(request)
        renderer, media_type = request.accepted_renderer, request.accepted_media_type
        schema_key = (version, translation.get_language(), self.serve_public)
        content: bytes | str | None = self._rendered.get((*schema_key, media_type))
        if content is None:
            # Race: two first requests at once would each spend a second generating it.
            with self._lock:
                if schema_key not in self._schemas:
                    generator = self.generator_class(
                        urlconf=self.urlconf, api_version=version, patterns=self.patterns)
                    self._schemas[schema_key] = generator.get_schema(
                        request=request, public=self.serve_public)
                content = renderer.render(self._schemas[schema_key], media_type,
                                          self.get_renderer_context())
                self._rendered[(*schema_key, media_type)] = content
        content_type = f"{media_type}; charset={renderer.charset}" if renderer.charset else media_type
        response = HttpResponse(content, content_type=content_type)
        response["Content-Disposition"] = (
            f'inline; filename="{self._get_filename(request, version)}"')
        return response
