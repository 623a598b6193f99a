from django.apps import AppConfig


class RefitConfig(AppConfig):
    name = "refit"

    def ready(self) -> None:
        # The history sentences of the Refit Phase's actions (campaigns.history.sentences), and
        # the purchases' undo guards: an undo re-checks what buying or taking back checked
        # (campaigns.history.services.UNDO_GUARDS).
        import refit.fortifications.history
        import refit.fortifications.undo
        import refit.perimeters.history
        import refit.purchases.history
        import refit.purchases.undo
        import refit.reserve.history
        import refit.walker.history
        import refit.walker.ob_history  # noqa: F401

        # The Refit Phase's sections of the export file (campaigns.transfer.sections), in the
        # order they are read: the perimeters name the RePhs, their units the perimeters.
        from refit.perimeters import transfer as perimeters
        from refit.purchases import transfer as purchases
        from refit.walker import transfer as walker

        walker.register()
        # The tables whose results land on OB lines, among the walker's effects.
        from refit.walker import ob_results

        ob_results.register()
        perimeters.register()
        purchases.register()

        # What the walker's services ask of the features above them before a step is marked
        # or a table rolled (refit.walker.strictness): the RG rolls still to make, the
        # booby-trap level.
        from refit.fortifications import services as fortification_services
        from refit.purchases import receipt

        receipt.register()
        fortification_services.register()

        # SaP's arrivals: designations are taken back only while their placement is not made
        # (an undo guard); a dug-in AFV's line keeps its mark (CG7.23, campaigns.orbat.services).
        from refit.walker import arrivals

        arrivals.register()

        # SaP's German Armor Reserve: its 48 AFVs on a new campaign, its rows in the export.
        from campaigns.state import NEW_CAMPAIGN_HOOKS
        from refit.reserve import services as reserve
        from refit.reserve import transfer as reserve_transfer

        if reserve.create_pool not in NEW_CAMPAIGN_HOOKS:
            NEW_CAMPAIGN_HOOKS.append(reserve.create_pool)
        reserve_transfer.register()

        # The scenario end's control record (refit.perimeters.scenario_control).
        from campaigns.records.end import END_SECTIONS
        from refit.perimeters import scenario_control

        if scenario_control.end_section not in END_SECTIONS:
            END_SECTIONS.append(scenario_control.end_section)
