"""HTTP plumbing shared by every app's pages and API, one layer above `core` (whose refusals it
maps): the one table from a refusal's kind to its HTTP status (`web.http`), the API's strict
JSON parser with its size and nesting limits (`web.parsers`), the throttles (`web.throttling`)
and the API's error body for the schema (`web.error_shape`). Not a Django app: no models."""
