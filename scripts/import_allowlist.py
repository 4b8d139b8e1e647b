"""An import-linter contract that lists what a package *may* import (an allowlist).

import-linter's own contracts forbid named modules; a new top-level package of the project would
slip past such a list. This one refuses every import leaving the package that is not the standard
library or one of the packages named in `allowed_modules`.

Used by `[tool.importlinter]` in pyproject.toml for the rules engine (`handfoot`).
"""

from __future__ import annotations

import sys

import grimp
from importlinter import Contract, ContractCheck, fields, output


class AllowlistContract(Contract):
    """`source_modules` import only themselves, the standard library and `allowed_modules`."""

    type_name = "allowlist"

    source_modules = fields.ListField(subfield=fields.StringField())
    allowed_modules = fields.ListField(subfield=fields.StringField(), required=False)

    def check(self, graph: grimp.ImportGraph, verbose: bool) -> ContractCheck:
        sources: list[str] = list(self.source_modules)  # type: ignore[arg-type]  # fields are descriptors
        allowed = set(sources) | set(self.allowed_modules or [])  # type: ignore[arg-type]  # as above
        allowed |= set(sys.stdlib_module_names)
        offending: list[dict[str, object]] = []
        for source in sources:
            for importer in sorted(graph.find_descendants(source) | {source}):
                for imported in sorted(graph.find_modules_directly_imported_by(importer)):
                    if imported.split(".")[0] in allowed:
                        continue
                    lines = graph.get_import_details(importer=importer, imported=imported)
                    offending.append({
                        "importer": importer,
                        "imported": imported,
                        "lines": [detail["line_number"] for detail in lines],
                    })
        output.verbose_print(verbose, f"{len(offending)} imports outside the allowlist.")
        return ContractCheck(kept=not offending, metadata={"offending": offending})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for item in check.metadata["offending"]:
            lines = ", ".join(f"l.{n}" for n in item["lines"])
            output.print_error(f"{item['importer']} -> {item['imported']} ({lines})", bold=False)
            output.new_line()
        output.print("Only the standard library and the allowed packages may be imported here.")
