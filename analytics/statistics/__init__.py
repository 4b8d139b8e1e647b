"""Per-player and per-partnership statistics: the pure computation (`compute`), the reads of
the statistics job as DataFrames (`selectors`, with a faster path on PostgreSQL) and its writes
(`services`)."""
