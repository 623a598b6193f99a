"""What each short-game page shows, built by one function from the campaign and the viewer:
``turn.turn_page`` (the turn walker), ``roster.roster_page`` (the unit roster, its stacking
warnings, reinforcements and reconstitution), ``points.points_page`` (replacement and air
points), ``victory.victory_page`` (places and victory), ``tables.tables_page`` (the referee's
tables) and ``combat`` (the combat helpers). Each returns a dataclass whose fields are the
template's names; what the viewer may do is asked of campaigns.access's capabilities. The views
add the forms and render.
"""
