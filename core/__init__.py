"""The shared kernel under every app: the domain's refusals (`core.errors`) and their one mapping
to HTTP (`core.http`). Pure Python apart from `core.http`'s page helper."""
