"""The shared kernel under every app: the domain's refusals (`core.errors`). Pure Python; their
mapping to HTTP is the web layer's (`web.http`)."""
