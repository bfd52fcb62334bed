# SPEC 9.3: audit rows carry the whole provenance of a call (emdash.models.Provenance). ``client_id`` always held
# the calling program's name (MCP clientInfo or User-Agent), not an OAuth client id: it is renamed ``client``
# (existing rows keep their values) and the OAuth client gets columns of its own.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("audit", "0001_initial"),
    ]

    operations = [
        migrations.RenameField(model_name="auditlog", old_name="client_id", new_name="client"),
        migrations.AddField(
            model_name="auditlog",
            name="token_name",
            field=models.CharField(blank=True, default="", max_length=200),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="auditlog",
            name="oauth_client_id",
            field=models.CharField(blank=True, default="", max_length=200),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="auditlog",
            name="oauth_client_name",
            field=models.CharField(blank=True, default="", max_length=200),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="auditlog",
            name="client_version",
            field=models.CharField(blank=True, default="", max_length=50),
            preserve_default=False,
        ),
        migrations.AddIndex(
            model_name="auditlog",
            index=models.Index(fields=["token_ref", "created_at"], name="audit_token_time_idx"),
        ),
        migrations.AddIndex(
            model_name="auditlog",
            index=models.Index(fields=["oauth_client_id", "created_at"], name="audit_oauth_client_time_idx"),
        ),
    ]
