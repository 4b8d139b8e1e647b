"""Snapshots computed by the analytics jobs; pages read these, never recompute on request."""
