"""Event and season standings: the pure computation (`compute`), the reads of the standings
job (`selectors`) and its writes, the stored snapshots (`services`)."""
