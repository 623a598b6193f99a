"""What an RG purchase keeps of other rows, for the export file (campaigns.transfer.sections).

Buying an RG stores the ledger rows it booked on the RG (``details["ledger_entries"]``, so that
taking the purchase back removes them: refit.purchases.services.remove), and rolling for it the
rolls made (``details["received"]["rolls"]``). Both are database ids: the file names those rows
by their file ids, and an import links them to the new rows.
"""

from campaigns.models import DiceRoll, LedgerEntry, ReinforcementGroup
from campaigns.transfer.sections import EACH, register_reference


def register() -> None:
    register_reference(ReinforcementGroup, "details", ("ledger_entries", EACH), LedgerEntry)
    register_reference(ReinforcementGroup, "details", ("received", "rolls", EACH), DiceRoll)
