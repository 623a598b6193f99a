from django import forms
from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm, UserCreationForm
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.time_zones import zone_choices


class SignupForm(UserCreationForm):
    class Meta:
        model = User
        fields = ("username", "email")
        labels = {"email": _("Email (optional)")}
        help_texts = {"email": _("Only used to send you a link when you forget your password.")}


class LanguageForm(forms.Form):
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES)
    next = forms.CharField(required=False, widget=forms.HiddenInput)


class LocalizedPasswordResetForm(PasswordResetForm):
    """Writes the reset email in the language the account saved, else in the page's language."""

    def send_mail(self, subject_template_name, email_template_name, context, *args, **kwargs):
        language = getattr(context.get("user"), "language", "") or translation.get_language()
        with translation.override(language):
            super().send_mail(subject_template_name, email_template_name, context, *args, **kwargs)


class TimeZoneForm(forms.ModelForm):
    """The zone a user's times are shown in; empty is the server's."""

    class Meta:
        model = User
        fields = ("time_zone",)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        server = _("The server's (%(zone)s)") % {"zone": settings.TIME_ZONE}
        self.fields["time_zone"] = forms.ChoiceField(
            label=_("Time zone"),
            required=False,
            choices=[("", server), *zone_choices()],
            help_text=_("History, the dice log, the ledger and printed sheets show times in it."),
        )
