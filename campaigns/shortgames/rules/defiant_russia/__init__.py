"""Defiant Russia: the rules' numbers as pure functions over the module's data (no Django).

Every function takes the data files as plain dicts (``module.files["game"]``, ``["tables"]``,
``["turn_sequence"]``), so tests pass them in and nothing here reads a file. Rule numbers and
line references are to seed 001; the choices the seed leaves open are the AMB-n decisions
recorded in game.json and docs/rules-decisions.md.

Import from the module that holds what you need:

- ``data``: the sides, unit types and the game data's rows (turns, weather names, places).
- ``phases``: the eleven phases of 4.0 and the steps of turn_sequence.json on a given turn and
  weather: which take place, which are limited, and why not; which tables each step rolls.
- ``limits``: a side's limits of the turn (rail moves, supply range, movement, breakthrough,
  snow, air and replacement points).
- ``weather``: how the turn's weather is found (8.1, 8.2) and the first snow turn (8.3).
- ``replacements``: replacement points with each deduction, what a unit may receive, where a
  rebuilt unit appears (10.1).
- ``air``: the air points of the turn (11.7) and air raids on fleets (11.52).
- ``reinforcements``: who enters on a turn (10.2).
- ``events``: partisans (11.2), the airborne drop (11.3), shock armies (11.1), the leaders'
  casualty rolls (11.6).
- ``terrain``: the terrain effects chart as data and how terrain counts in snow (9.0, 8.3).
- ``combat``: how many dice a side of a combat rolls, every step with its rule (7.1, 9.0).
- ``victory``: the VP as they stand and the automatic victory (13.0).
- ``stacking``: the stacking warnings (6.2).
"""
