from django.db import migrations

from taxonomy.defaults import create_defaults


def forwards(apps, schema_editor):
    create_defaults(apps.get_model("taxonomy", "TaxonomyDefinition"), schema_editor.connection.alias)


class Migration(migrations.Migration):
    dependencies = [("taxonomy", "0001_initial")]
    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
