"""Live pages: a page where one member waits for another (the Refit Phase walker, a step both
sides finish, the initiative reveal, the referee's finish) follows the campaign without a
reload. ``token.py`` the viewer's change token; ``views.py`` the poll endpoint; the
``live_poll`` template tag the element that polls it (HTMX, every 5 s while the tab is shown).
"""
