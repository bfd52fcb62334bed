"""The public ``emdash-cli`` client exists from install on (device grant and refresh)."""

from django.db import migrations

CLI = {
    "client_id": "emdash-cli",
    "name": "EmDash CLI",
    "redirect_uris": [],
    "grant_types": ["refresh_token", "urn:ietf:params:oauth:grant-type:device_code"],
}


def create_cli_client(apps, schema_editor):
    OAuthClient = apps.get_model("emdash_oauth", "OAuthClient")
    OAuthClient.objects.update_or_create(client_id=CLI["client_id"], defaults=CLI)


def remove_cli_client(apps, schema_editor):
    apps.get_model("emdash_oauth", "OAuthClient").objects.filter(client_id=CLI["client_id"]).delete()


class Migration(migrations.Migration):
    dependencies = [("emdash_oauth", "0001_initial")]

    operations = [migrations.RunPython(create_cli_client, remove_cli_client)]
