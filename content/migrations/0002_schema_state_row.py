from django.db import migrations


def create_state(apps, schema_editor):
    apps.get_model("content", "SchemaState").objects.get_or_create(pk=1, defaults={"version": 0})


class Migration(migrations.Migration):
    dependencies = [("content", "0001_initial")]
    operations = [migrations.RunPython(create_state, migrations.RunPython.noop)]
