"""The per-game links and codes of before each side had its own (issue 24): gone, with the
side that took them. After games 0003, which still reads them to give old games side links."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0007_membership_invitation"),
        ("games", "0003_side_credentials_for_existing_games"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="sidecredential",
            name="sidecredential_old_link_one_side",
        ),
        migrations.RemoveField(
            model_name="game",
            name="entry_code",
        ),
        migrations.RemoveField(
            model_name="game",
            name="entry_token",
        ),
        migrations.RemoveField(
            model_name="sidecredential",
            name="takes_old_link",
        ),
    ]
