"""The API's error body, described once for the OpenAPI schema (the `Error` component): every
refusal of the API has this shape (made by `config.api_errors.exception_handler`). Views that
declare an error response themselves use `ErrorSerializer`, so every app can (web is below
every app)."""

from rest_framework import serializers


class ErrorBodySerializer(serializers.Serializer):
    """What went wrong: `code` for machines, `message` for people, `details` when there are."""

    code = serializers.CharField(
        help_text="Stable UPPER_SNAKE code to match on, e.g. INVALID, NOT_AUTHENTICATED, "
        "PERMISSION_DENIED, NOT_FOUND, SIDE_MISMATCH, STALE_VERSION, THROTTLED.")
    message = serializers.CharField(help_text="Plain words, fit to show a person as is.")
    details = serializers.DictField(
        allow_null=True,
        help_text="Machine details, e.g. a validation error's messages per field; or null.")


class ErrorSerializer(serializers.Serializer):
    """The one shape of every API refusal (the `Error` component of the schema)."""

    error = ErrorBodySerializer()
