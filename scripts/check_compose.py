"""Check docker-compose.yml without docker: `python scripts/check_compose.py [FILE]`.

Docker cannot run on the machines this project is built and tested on, and installing Debian's
docker-compose (with docker, containerd and runc) only to read one YAML file cost CI a minute.
This reads the file as Compose does, then:

1. interpolates `${VAR}`, `${VAR:-default}`, `${VAR-default}`, `${VAR:?message}` and `$$` from the
   environment (a required variable that is unset fails, with Compose's message);
2. validates the result against the Compose specification's JSON Schema, as shipped in the
   docker-compose package on PyPI (downloaded once with pip into .venv/cache, never from
   anywhere else);
3. checks what the schema cannot: every `depends_on` names a service of the file, every named
   volume a service mounts is declared, no two services publish the same host port.

Exit 0 and print nothing when the file is valid; else print each problem, one a line, and exit 1.
"""

import json
import os
import re
import subprocess  # nosec B404: pip, with a fixed argument list
import sys
import zipfile
from pathlib import Path
from typing import Any

import jsonschema
import yaml

ROOT = Path(__file__).resolve().parents[1]
SCHEMA_PACKAGE = "docker-compose==1.29.2"
SCHEMA_MEMBER = "compose/config/compose_spec.json"
CACHE = ROOT / ".venv" / "cache" / "compose-schema"
VARIABLE = re.compile(r"\$(?:\$|\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?P<op>:?[-?])?(?P<arg>[^}]*)\})")


class ComposeError(Exception):
    pass


def interpolate(value: str, environ: dict[str, str]) -> str:
    def substitute(match: re.Match[str]) -> str:
        if match.group(0) == "$$":
            return "$"
        name, op, arg = match.group("name"), match.group("op"), match.group("arg")
        current = environ.get(name)
        unset_or_empty = current is None or (current == "" and op is not None and op[0] == ":")
        if op in (":-", "-"):
            return arg if unset_or_empty else str(current)
        if op in (":?", "?"):
            if unset_or_empty:
                raise ComposeError(f"required variable {name} is missing a value: {arg}")
            return str(current)
        return current or ""

    return VARIABLE.sub(substitute, value)


def interpolated(node: Any, environ: dict[str, str]) -> Any:
    if isinstance(node, dict):
        return {key: interpolated(value, environ) for key, value in node.items()}
    if isinstance(node, list):
        return [interpolated(item, environ) for item in node]
    if isinstance(node, str):
        return interpolate(node, environ)
    return node


def compose_schema() -> dict[str, Any]:
    cached = CACHE / "compose_spec.json"
    if not cached.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        subprocess.run(  # nosec B603: a fixed argument list
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
             "--disable-pip-version-check", "--dest", str(CACHE), SCHEMA_PACKAGE], check=True)
        wheel = next(CACHE.glob("docker_compose-*.whl"))
        with zipfile.ZipFile(wheel) as archive:
            cached.write_bytes(archive.read(SCHEMA_MEMBER))
    schema: dict[str, Any] = json.loads(cached.read_text())
    return schema


def schema_problems(document: dict[str, Any]) -> list[str]:
    validator = jsonschema.Draft7Validator(compose_schema())
    return [f"{'.'.join(str(p) for p in error.absolute_path) or '(top)'}: {error.message}"
            for error in sorted(validator.iter_errors(document), key=lambda e: list(e.path))]


def reference_problems(document: dict[str, Any]) -> list[str]:
    services: dict[str, Any] = document.get("services") or {}
    volumes = set(document.get("volumes") or {})
    problems, published = [], {}
    for name, service in services.items():
        depends = service.get("depends_on") or []
        for needed in depends if isinstance(depends, list) else depends.keys():
            if needed not in services:
                problems.append(f"services.{name}.depends_on: no service named {needed!r}")
        for mount in service.get("volumes") or []:
            source = mount.split(":")[0] if isinstance(mount, str) else mount.get("source", "")
            if source and not source.startswith((".", "/", "~")) and source not in volumes:
                problems.append(f"services.{name}.volumes: volume {source!r} is not declared")
        for port in service.get("ports") or []:
            host = str(port).rsplit(":", 1)[0] if ":" in str(port) else None
            if host and host in published:
                problems.append(f"services.{name}.ports: host port {host} is also {published[host]}'s")
            elif host:
                published[host] = name
    return problems


def check(path: Path, environ: dict[str, str]) -> list[str]:
    try:
        raw = yaml.safe_load(path.read_text())  # merges `<<: *anchor` as Compose does
        document = interpolated(raw, environ)
    except (yaml.YAMLError, ComposeError) as error:
        return [str(error)]
    if not isinstance(document, dict):
        return ["the file is not a mapping of services"]
    return schema_problems(document) + reference_problems(document)


def main(argv: list[str]) -> int:
    path = Path(argv[0]) if argv else ROOT / "docker-compose.yml"
    problems = check(path, dict(os.environ))
    for problem in problems:
        print(f"{path.name}: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
