"""Perimeter determination and isolation (RF 11.605–11.6066, SaP 11.605–11.6066).

Plain Python, no Django. The board (control markers, units by side and kind, water, the
non-ground pockets the players enter by hand) and each side's perimeter markers go in; out come
the map-edge markers (11.6053), every marker's legality with the reasons (11.6054, 11.6056),
the loops and Perimeter Areas, pockets, No Man's Land, isolated areas with their type A–D
(11.606), the control changes (11.6059, 11.6062), the SMC eliminated outside their perimeter,
the units starting in Ammunition Shortage (11.6061), who must or may attempt Escape, and the
hexsides each side draws on the reduced map (11.6066).

One concern per module; callers import from the module that holds what they use:

* ``board``      what goes in (``Unit``, ``Marker``, ``Board`` …) and what comes out (``Result``)
* ``markers``    map-edge markers, marker legality, the 'hexrows' and the loops they close
* ``areas``      the hexes a loop encloses and each side's Perimeter Area with its pockets
* ``isolation``  ``evaluate()``: No Man's Land, isolated areas A–D, control changes, who escapes
* ``drawing``    the hexsides each side draws on the reduced map (11.6066)
* ``escapes``    the Escape DRMs and what the Escape Table row does (11.6063–11.6065)
* ``proposal``   ``propose()``: a legal loop the players can start from

The granularity is the hex (its ground-level Location); a unit's level only matters for the
anchor and blocking rules (they look at ground level) and for the non-ground pockets of
11.6057, which the players enter by hand. Refusals and warnings are ``Reason(code, rule,
params)``; the service turns them into sentences.

Sides are passed in the order (north/west side, south/east side): RF (german, soviet), SaP
(german, russian) — 11.6058 requires the first side's area to reach a north or west map edge
and the second's a south or east edge.
"""
