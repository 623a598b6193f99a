"""Everything a campaign remembers. One module per part; imported here for Django."""

from campaigns.models.campaign import Campaign, CampaignEvent, Invitation, Membership, Role
from campaigns.models.correction import Correction
from campaigns.models.dice import DiceCommitment, DiceRoll, RollTotal
from campaigns.models.dr_record import DrCombatRecord
from campaigns.models.fortification import FortificationPurchase
from campaigns.models.refit import RefitPhase, StepProgress
from campaigns.models.short_game import (
    ControlPoint,
    GameUnit,
    PointEntry,
    PointKind,
    RefereeTable,
    ShortGame,
    TurnMark,
    TurnVictoryPoints,
    UnitLoss,
    UnitState,
)
from campaigns.models.state import (
    CampaignDay,
    CvpEntry,
    CvpPhase,
    LedgerEntry,
    LedgerKind,
    LedgerTotal,
    OrbatBox,
    OrbatEntry,
    ReinforcementGroup,
    RgStatus,
    RgTotal,
    Scenario,
    ScenarioType,
    SideDay,
)
from campaigns.models.victory import CvpValue, StoneLocationTotal

__all__ = [
    "Campaign",
    "CampaignDay",
    "CampaignEvent",
    "ControlPoint",
    "Correction",
    "CvpEntry",
    "CvpPhase",
    "CvpValue",
    "DiceCommitment",
    "DiceRoll",
    "RollTotal",
    "DrCombatRecord",
    "FortificationPurchase",
    "GameUnit",
    "Invitation",
    "LedgerEntry",
    "LedgerKind",
    "LedgerTotal",
    "Membership",
    "OrbatBox",
    "OrbatEntry",
    "PointEntry",
    "PointKind",
    "RefereeTable",
    "RefitPhase",
    "ReinforcementGroup",
    "RgStatus",
    "RgTotal",
    "Role",
    "Scenario",
    "ScenarioType",
    "ShortGame",
    "SideDay",
    "StepProgress",
    "StoneLocationTotal",
    "TurnMark",
    "TurnVictoryPoints",
    "UnitLoss",
    "UnitState",
]
