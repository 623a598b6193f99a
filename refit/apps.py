from django.apps import AppConfig


class RefitConfig(AppConfig):
    name = "refit"
