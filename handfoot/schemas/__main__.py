"""`python -m handfoot.schemas`: rewrite the shipped JSON Schema files from RuleSet."""

from . import write_schemas

for path in write_schemas():
    print(path)
