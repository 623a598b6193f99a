"""The short games' pages (Defiant Russia, Cherkassy Pocket), one module per page family:
``turn`` (the turn walker: start, mark, unmark, roll, weather, advance), ``units`` (the unit
roster: add, quick entry, data file, one unit, remove, arrive, reconstitute), ``points``
(replacement and air points), ``victory`` (places, the ring, victory conditions), ``tables``
(the referee's tables, Cherkassy Pocket) and ``combat`` (the combat helpers of both games);
``common`` holds what several share.

Thin views: a campaigns.access getter first — ``member`` to read (outsiders 404), ``side_actor``
or ``require_side_actor`` with ``secret=False`` to act for a side (its players and the referee;
403 for the other members), ``recorder`` for game-wide changes (not observers), ``overruler``
for what the referee alone writes; a form that names its side is refused to observers before it
is read (``common.side_player_or_referee``). Who may act is always checked before the form is
read. Nothing in these games is hidden, so every member reads every page. Each page is one
dataclass from campaigns.shortgames.pages; changes go through campaigns.shortgames.services and
the turn modules (turn_marks, turn_rolls, turn_points…); every form carries the turn or the
row version it was shown for.
The turn page answers HTMX with its ``#turn`` partial.
"""
