"""`python -m games.engine check|simulate`: the engine's command line under the name the formats
contract gives it (`shared/spec/formats.md`, "Command line"; docs/formats.md). The engine itself
is the top-level package `handfoot`; this package only keeps that published command working."""
