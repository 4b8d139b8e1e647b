"""The format versions this engine reads and writes (the `format` field of formats.md)."""

LOG_FORMAT = "hand-and-foot-log/1"
SHEET_FORMAT = "hand-and-foot-sheet/1"
