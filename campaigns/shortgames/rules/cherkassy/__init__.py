"""Cherkassy Pocket: the rules' numbers as pure functions over the module's data (no Django).

The translation we have (seed 002) lacks the weather table, the weather printed on the Turn
Record Track, the CRT, the terrain chart and every order of battle. They are the referee slots
of game.json (``referee_slots``); a function that needs one says which and why instead of
guessing. ``referee_tables`` everywhere is {slot id: the data the referee entered, or None}.

Import from the module that holds what you need:

- ``data``: the sides, unit types and boxes, ``CpState``, the scenarios and the referee slots'
  data.
- ``turn_sequence``: the steps of the turn sequence (5.2) on a given turn of a scenario, and which
  of a step's tables are rolled.
- ``referee``: the referee slots still empty, each with what it stops.
- ``weather``: how the turn's weather is found (5.3).
- ``air``: the air points per activation segment (11.16).
- ``breakdown``: the Soviet tank breakdown roll and its outcome (10.3).
- ``reinforcements``: the reinforcement queue, the north edge and the 24th Panzer (9.0).
- ``pocket``: the Stemmermann Group (3.5).
- ``losses``: where an eliminated unit goes and German reconstitution (11.10, 12.1).
- ``combat``: odds, columns and shifts, the referee's terrain chart and CRT (11.6–11.12).
- ``victory``: the scenario's Soviet VP as they stand.
- ``stacking``: the stacking warnings (8.0).
"""
