from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """A person who plays, referees or watches campaigns."""

    language = models.CharField(
        _("interface language"),
        max_length=8,
        choices=settings.LANGUAGES,
        blank=True,
        help_text=_("Empty means: follow the browser."),
    )
    # An IANA zone name ("Asia/Tokyo"); empty means the server's (settings.TIME_ZONE). Checked
    # against the zones Python knows by the form (accounts.forms.TimeZoneForm), not by choices,
    # so that a zone added to tzdata needs no migration.
    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        blank=True,
        help_text=_("Times are shown in this zone. Empty means: the server's."),
    )

    def __str__(self) -> str:
        return self.username
