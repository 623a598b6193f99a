from django.apps import AppConfig


class RefitConfig(AppConfig):
    name = "refit"

    def ready(self) -> None:
        # The history sentences of the Refit Phase's actions (campaigns.history.sentences).
        import refit.fortifications.history
        import refit.perimeters.history
        import refit.purchases.history
        import refit.walker.history  # noqa: F401

        # The Refit Phase's sections of the export file (campaigns.transfer.sections), in the
        # order they are read: the perimeters name the RePhs, their units the perimeters.
        from refit.perimeters import transfer as perimeters
        from refit.purchases import transfer as purchases
        from refit.walker import transfer as walker

        walker.register()
        perimeters.register()
        purchases.register()
