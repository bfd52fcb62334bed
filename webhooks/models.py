"""Outbound webhooks and their delivery log."""

from __future__ import annotations

from django.db import models


class Webhook(models.Model):
    id = models.CharField(primary_key=True, max_length=26)
    url = models.TextField()
    events = models.JSONField(default=list)  # subset of webhooks.events.EVENTS
    secret = models.TextField()  # HMAC key; shown once, when created or rotated
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "emdash_webhook"
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return self.url


class Delivery(models.Model):
    PENDING = "pending"  # queued or waiting for its next attempt
    DELIVERED = "delivered"
    FAILED = "failed"  # gave up after the last attempt, or refused (SSRF)

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    event = models.CharField(max_length=40)
    body = models.TextField()  # the exact bytes signed and sent (UTF-8 JSON)
    status = models.CharField(max_length=12, default=PENDING)
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True)  # set while a retry waits; the worker's sweep re-queues it
    response_code = models.PositiveIntegerField(null=True)
    response_body = models.TextField(default="")  # truncated
    last_error = models.TextField(default="")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "emdash_webhook_delivery"
        ordering = ["-id"]
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="emdash_webhook_due")]

    def __str__(self) -> str:
        return f"{self.event} #{self.pk}"
