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

    def __str__(self) -> str:
        return self.username
