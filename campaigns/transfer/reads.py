"""``Reader`` moved to campaigns.compiled (one module for queries compiled once); kept here only
for the modules that still import it from here (campaigns/corrections/transfer.py)."""

from campaigns.compiled import Reader

__all__ = ["Reader"]
