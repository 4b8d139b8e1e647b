"""On PostgreSQL, a submission's document and report (a move log is some 50 KB of JSON) are
compressed with lz4 instead of the default pglz: storing a move log costs about half as much of
the database's time (issue 25, bulk import). Rows stored before keep pglz; both are read alike.
A server built without lz4 keeps pglz. Nothing changes on SQLite."""

from django.db import migrations

COLUMNS = ("document", "report")


def lz4_forwards(apps, schema_editor):
    _set(schema_editor, "lz4")


def lz4_backwards(apps, schema_editor):
    _set(schema_editor, "pglz")


def _set(schema_editor, method):
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    changes = ", ".join(f"ALTER COLUMN {column} SET COMPRESSION {method}" for column in COLUMNS)
    with connection.cursor() as cursor:
        cursor.execute("SAVEPOINT lz4")
        try:
            cursor.execute(f"ALTER TABLE games_submission {changes}")
        except Exception:  # this server has no lz4: pglz stays
            cursor.execute("ROLLBACK TO SAVEPOINT lz4")
        else:
            cursor.execute("RELEASE SAVEPOINT lz4")


class Migration(migrations.Migration):
    dependencies = [("games", "0005_totals_only_and_imports")]

    # Not elidable: a new database needs the compression too (the squashed migration keeps it).
    operations = [migrations.RunPython(lz4_forwards, lz4_backwards)]
