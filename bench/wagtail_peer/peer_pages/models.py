from django.db import models
from wagtail.api import APIField
from wagtail.fields import RichTextField
from wagtail.models import Page


class BlogPage(Page):
    """The peer's page: a title (Page's), a rich-text body and a date."""

    date = models.DateField()
    body = RichTextField()

    api_fields = [APIField("date"), APIField("body")]
