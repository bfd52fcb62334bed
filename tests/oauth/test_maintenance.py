"""Pruning expired OAuth rows keeps what still matters (live tokens, rotated refresh tokens until expiry)."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from accounts.oauth import tokens
from accounts.oauth.models import AccessToken, OAuthClient, RefreshToken
from tests.factories import make_user


@pytest.mark.django_db
def test_prune_deletes_expired_rows_and_keeps_live_and_rotated_ones():
    client = OAuthClient.objects.get(client_id="emdash-cli")
    user = make_user()
    resource = "http://testserver/_emdash/api/mcp"
    tokens.issue_pair(client=client, user=user, scopes=["content:read"], resource=resource)
    old = tokens.issue_pair(client=client, user=user, scopes=["content:read"], resource=resource)
    long_ago = timezone.now() - timedelta(days=2)
    AccessToken.objects.filter(token_hash=tokens.hash_token(old["access_token"])).update(expires_at=long_ago)
    RefreshToken.objects.filter(token_hash=tokens.hash_token(old["refresh_token"])).update(state="rotated")
    out = StringIO()
    call_command("emdash_oauth_prune", stdout=out)
    assert "access tokens: 1 deleted" in out.getvalue()
    assert AccessToken.objects.count() == 1
    assert RefreshToken.objects.count() == 2  # the rotated one still detects reuse until it expires
