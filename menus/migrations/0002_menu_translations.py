"""Menus gain a locale and a translation group, items a translation group (SPEC 10); a menu's name becomes unique
per locale. Existing menus are in the default locale, each its own group; the columns are added with a default and
filled after, the same on SQLite and PostgreSQL."""

from django.db import migrations, models
from django.db.models import F


def fill(apps, schema_editor):
    from emdash.conf import emdash_settings

    Menu = apps.get_model("menus", "Menu")
    MenuItem = apps.get_model("menus", "MenuItem")
    Menu.objects.filter(locale="").update(locale=emdash_settings.default_locale)
    for menu in Menu.objects.filter(translation_group=""):  # menus are few; ids are integers
        Menu.objects.filter(pk=menu.pk).update(translation_group=str(menu.pk))
    MenuItem.objects.filter(translation_group="").update(translation_group=F("id"))


class Migration(migrations.Migration):
    dependencies = [
        ("menus", "0001_initial"),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="menu",
            options={"ordering": ["name", "locale"]},
        ),
        migrations.AddField(
            model_name="menu",
            name="locale",
            field=models.CharField(default="", max_length=16),
        ),
        migrations.AddField(
            model_name="menu",
            name="translation_group",
            field=models.CharField(default="", max_length=26),
        ),
        migrations.AddField(
            model_name="menuitem",
            name="translation_group",
            field=models.CharField(default="", max_length=26),
        ),
        migrations.AlterField(
            model_name="menu",
            name="name",
            field=models.CharField(max_length=63),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="menu",
            constraint=models.UniqueConstraint(fields=("name", "locale"), name="menus_menu_unique_name_per_locale"),
        ),
        migrations.AddConstraint(
            model_name="menu",
            constraint=models.UniqueConstraint(
                condition=models.Q(("translation_group", ""), _negated=True),
                fields=("translation_group", "locale"),
                name="menus_menu_one_per_locale",
            ),
        ),
    ]
