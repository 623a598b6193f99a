from django.apps import AppConfig


class RefitConfig(AppConfig):
    name = "refit"

    def ready(self) -> None:
        # refit.turns registers the undo guard of "turn.advanced" in campaigns.history.
        import refit.turns  # noqa: F401
