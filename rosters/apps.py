from django.apps import AppConfig


class RostersConfig(AppConfig):
    name = "rosters"
