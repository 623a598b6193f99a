from django.apps import AppConfig


class RefitConfig(AppConfig):
    name = "refit"

    def ready(self) -> None:
        # The history sentences of the Refit Phase's actions (campaigns.history.sentences).
        import refit.fortifications.history
        import refit.perimeters.history
        import refit.purchases.history
        import refit.walker.history  # noqa: F401
