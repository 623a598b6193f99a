from django import forms
from django.conf import settings
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from accounts.models import User


class SignupForm(UserCreationForm):
    class Meta:
        model = User
        fields = ("username",)


class LanguageForm(forms.Form):
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES)
    next = forms.CharField(required=False, widget=forms.HiddenInput)
