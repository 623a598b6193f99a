"""Public records: the campaign calendar (``calendar``), the scenarios played (``scenarios``) and
the CVP tally (``cvp``).

All three are public: every member sees them (observers too), outsiders get 404. Any player of
either side or the referee may record and edit them (``Viewer.can_record``); observers read
only (403 on POST). Nothing here reads a side's secrets (CPP, FPP, purchases, ELR/SAN): only
CampaignDay, Scenario and CvpEntry. Changes go through campaigns.records.services; CVP sums are
derived from the CVP entries by campaigns.records.cvp_counts, never stored.
"""
