"""Term slugs unique per taxonomy and locale (SPEC 10, as in EmDash): a French "news" may sit beside an English one.

The new constraint is added before the old one goes, so no moment allows a duplicate; every existing row already
satisfies it (it is the old one widened by the locale). On SQLite both steps rebuild the table, on PostgreSQL they
are an index build and a drop: the same outcome, existing data kept."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("taxonomy", "0003_term_translations"),
    ]

    operations = [
        migrations.AddConstraint(
            model_name="term",
            constraint=models.UniqueConstraint(
                fields=("taxonomy", "slug", "locale"), name="taxonomy_term_unique_slug_locale"
            ),
        ),
        migrations.RemoveConstraint(
            model_name="term",
            name="taxonomy_term_unique_slug",
        ),
    ]
