"""Terms gain a locale and a translation group (SPEC 10). Existing terms are in the default locale, each its own
group (its id), so every existing term keeps meaning what it meant; the columns are added with a default first and
filled after, which works the same on SQLite and PostgreSQL."""

from django.db import migrations, models
from django.db.models import F


def fill(apps, schema_editor):
    from emdash.conf import emdash_settings

    Term = apps.get_model("taxonomy", "Term")
    Term.objects.filter(locale="").update(locale=emdash_settings.default_locale)
    Term.objects.filter(translation_group="").update(translation_group=F("id"))


class Migration(migrations.Migration):
    dependencies = [
        ("taxonomy", "0002_default_taxonomies"),
    ]

    operations = [
        migrations.AddField(
            model_name="term",
            name="locale",
            field=models.CharField(default="", max_length=16),
        ),
        migrations.AddField(
            model_name="term",
            name="translation_group",
            field=models.CharField(default="", max_length=26),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="term",
            constraint=models.UniqueConstraint(
                condition=models.Q(("translation_group", ""), _negated=True),
                fields=("translation_group", "locale"),
                name="taxonomy_term_one_per_locale",
            ),
        ),
    ]
