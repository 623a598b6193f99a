"""Rules as plain Python over plain data: no Django, no database, no HTTP.

Each module restates one rule (or one table) and is unit-tested against the rules' wording and
examples in tests/refit/.
"""
