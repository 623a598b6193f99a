"""Everything the scenario's end page shows, built by one function (``end_page``), and the
winner it derives (``verdict_for``), which the save reads too.

Public: the CVP each side lost as the VC count them, the recorded counts, the verdict. Secret:
each side's OB lines, offered only to those who may act for the side (its players, the
referee). A fixed number of queries, whatever the campaign's size.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as gettext_now
from django.utils.translation import gettext_lazy as _

from campaigns.access import Viewer
from campaigns.games.rules import Reason
from campaigns.models import Campaign, CampaignEvent, CvpEntry, OrbatBox, OrbatEntry, Scenario
from campaigns.periods import side_choices
from campaigns.records.cvp_counts import cvp_lines, rules_for, scenario_cvp
from campaigns.records.end_forms import EndForm, LossesForm, outcome_labels
from campaigns.records.end_state import end_missing, reads_winner
from campaigns.records.forms import scenario_label
from campaigns.records.losses import OUTCOMES, SquadTypes, squad_types
from campaigns.records.victory import EndFacts, Verdict, scenario_vc, scenario_winner
from campaigns.state import initial_ob

REASONS = {
    "dual_attack_vp": _(
        "Dual Attack: the German wins with more VP (CVP inflicted + Stone "
        "Locations gained), else the Soviet (11.6235)."
    ),
    "assault_all_stone_locations": _("The Soviet controls every Stone Location (11.6235)."),
    "assault_locations": _(
        "The attacker gained %(net)s Stone Locations net; %(needed)s needed (11.6235)."
    ),
    "assault_cvp": _(
        "The attacker inflicted %(inflicted)s CVP, at least %(ratio)s× the "
        "%(suffered)s he suffered (11.6235)."
    ),
    "assault_defender": _(
        "The attacker gained %(net)s Stone Locations net (%(needed)s needed) "
        "and inflicted %(inflicted)s CVP against %(suffered)s: the defender "
        "wins (11.6235)."
    ),
    "stone_locations_at_least": _(
        "The initial scenario's VC: at least %(count)s Stone Locations controlled."
    ),
    "net_stone_locations_gained_at_least": _(
        "The initial scenario's VC: Stone Locations gained − lost at least %(count)s."
    ),
    "initial_not_met": _("The initial scenario's VC are not met: the other side wins."),
    "map_groups_same": _("The same side wins on every map group (11.58)."),
    "map_groups_draw": _("One side wins on each map group: a draw (11.58)."),
}
# The 11.6235 reasons shown under each map group's result in RF CG I (their numbers are the
# group's own).
GROUP_REASONS = (
    "assault_all_stone_locations",
    "assault_locations",
    "assault_cvp",
    "assault_defender",
)
WHY_NOT = {
    "record_locations": _("Record the Stone Locations gained and lost first."),
    "record_counts": _(
        "Record the Stone Location counts the VC need first (controlled at the end, or gained "
        "and lost)."
    ),
    "record_attacker": _("Record the scenario's attacker first (on the scenarios page)."),
    "initial_undecided": _(
        "The initial scenario's VC name buildings, factories or hexes the "
        "app has no map data for, or a count is not recorded yet: the players "
        "judge the winner."
    ),
    "map_groups_split": _(
        "One side wins on each map group; the rules do not say how that makes one scenario "
        "result (11.58 judges the CG per map group): the players record the winner."
    ),
    "map_groups_unknown": _(
        "The VC are judged per map group (11.58), and a map group's result is not known yet."
    ),
    "no_vc": _(
        "This game has no scenario VC the app can evaluate (SaP: no per-time-frame "
        "VC; the CG VC need the map): the players record the winner, if any."
    ),
}


def has_scenario_end(campaign: Campaign) -> bool:
    """Red Factories and Slaughter at Ponyri record a scenario's end from the OB."""
    return campaign.game.period_kind in ("cg_day", "time_frame")


END_MISSING = {
    "no_scenario": _(
        "No scenario is recorded for this day yet: record it on the scenarios page, then its end "
        "(%(rule)s)."
    ),
    "no_winner": _(
        "The scenario's end is not recorded: the next Refit Phase needs its winner (11.611's "
        "battle-hardening DRM). Record the scenario's end first (%(rule)s)."
    ),
    "end_not_recorded": _("The scenario's end is not recorded. Record it first (%(rule)s)."),
}


@dataclass(frozen=True)
class EndMissing:
    """What the scenario of a phase still lacks before the phase can be finished."""

    reason: Reason
    scenario: Scenario | None

    @property
    def text(self) -> str:
        return self.reason.sentence(END_MISSING)


def end_missing_for(campaign: Campaign, index: int, sequence: int) -> EndMissing | None:
    """The scenario of CG day ``index`` (its ``sequence``-th) and why its end is not recorded
    well enough for the Refit Phase after it (``end_state.end_missing``); None when it is, or
    when the game records no scenario end. One query."""
    if not has_scenario_end(campaign):
        return None
    scenario = Scenario.objects.filter(campaign=campaign, index=index, sequence=sequence).first()
    reason = end_missing(
        exists=scenario is not None,
        winner=scenario.winner if scenario else "",
        end=scenario.end if scenario else None,
        locations=scenario.locations if scenario else None,
        needs_winner=reads_winner(campaign.game.files.get("tables", {}).get("dice_tables", [])),
    )
    return None if reason is None else EndMissing(reason, scenario)


def game_squad_types(campaign: Campaign) -> SquadTypes:
    files = campaign.game.files
    texts = [
        group.get("units", "")
        for chart in files.get("rg_charts", {}).get("sides", {}).values()
        for group in chart.get("groups", [])
    ]
    for ob in initial_ob(campaign).values():
        texts += [unit.get("text", "") for unit in ob.get("units", [])]
    return squad_types(texts)


def scenario_cvp_lost(campaign: Campaign, scenario: Scenario) -> dict[str, int]:
    """The CVP each side lost in the scenario, as its VC count them (11.6031): the entries
    linked to it, and the unlinked ones of its day when it was the day's only scenario (as the
    scenarios page counts them). Two queries."""
    same_day = Scenario.objects.filter(campaign=campaign, index=scenario.index)
    scenarios = dict(same_day.values_list("pk", "index"))
    lines = cvp_lines(campaign, index=scenario.index)
    return scenario_cvp(lines, scenarios, rules_for(campaign.module)).get(scenario.pk, {})


def verdict_for(
    campaign: Campaign,
    scenario: Scenario,
    cvp_lost: dict[str, int],
    locations: dict[str, Any] | None = None,
    end: dict[str, Any] | None = None,
) -> Verdict:
    """The winner the VC give from what the scenario's end recorded (or is about to)."""
    locations = scenario.locations if locations is None else locations
    end = scenario.end if end is None else end
    definitions = campaign.game.files.get("campaign_games", {}).get("campaign_games", {})
    definition = definitions.get(campaign.campaign_game) or {}
    vc = scenario_vc(definition, scenario.scenario_type)
    sides = campaign.game.side_keys

    def count(key: str) -> dict[str, int | None]:
        return {side: ((locations or {}).get(side) or {}).get(key) for side in sides}

    facts = EndFacts(
        cvp_lost=cvp_lost,
        gained=count("gained"),
        lost=count("lost"),
        controlled=count("controlled"),
        all_stone_locations=(end or {}).get("all_stone_locations", ""),
    )
    attacker = scenario.attacker or ("soviet" if scenario.night else "")
    return scenario_winner(
        vc, facts, sides, attacker=attacker, groups=group_facts(end or {}, cvp_lost, sides)
    )


def group_facts(
    end: dict[str, Any], cvp_lost: dict[str, int], sides: list[str]
) -> dict[str, EndFacts]:
    """RF CG I: the Stone Location counts the scenario's end recorded per map group
    (``end["map_groups"]``: {group: {side: {gained, lost, controlled}}})."""
    groups = {}
    for group, counts in (end.get("map_groups") or {}).items():

        def count(key: str, counts: dict = counts) -> dict[str, int | None]:
            return {side: ((counts or {}).get(side) or {}).get(key) for side in sides}

        # The Soviet controlling every Stone Location of the map controls every one of each
        # group; the CVP are the scenario's on the joined map (CG1; docs/rules-decisions.md).
        groups[group] = EndFacts(
            cvp_lost=cvp_lost,
            gained=count("gained"),
            lost=count("lost"),
            controlled=count("controlled"),
            all_stone_locations=end.get("all_stone_locations", ""),
        )
    return groups


MISSING_COUNTS = {
    "controlled": _(
        "Record %(side)s's Stone Locations controlled at the end: the VC count them (gained and "
        "lost do not tell how many are controlled)."
    ),
    "gained": _("Record %(side)s's Stone Locations gained and lost."),
}


def missing_counts(missing: tuple[str, ...], side_names: dict[str, str]) -> list[str]:
    """Exactly which counts the VC still need ("controlled:german" → the German's Stone
    Locations controlled at the end)."""
    texts = []
    for key in missing:
        count, _sep, side = key.partition(":")
        template = MISSING_COUNTS.get(count)
        if template is None:
            texts.append(str(WHY_NOT["record_counts"]))
            continue
        texts.append(str(template) % {"side": side_names.get(side, side)})
    return texts or [str(WHY_NOT["record_counts"])]


def verdict_words(
    verdict: Verdict, side_names: dict[str, str] | None = None, *, judged: bool = False
) -> str:
    """Why the VC give this winner, or none; per map group, each group's result first.
    ``judged``: the VC could not decide and the players recorded the winner."""
    lines = []
    names = side_names or {}
    # (``judged`` is the players' choice; each group's result is ``result``.)
    for group, result in (verdict.values.get("groups") or {}).items():
        winner = result["winner"]
        if winner:
            name = names.get(winner, winner)
            lines.append(gettext_now("%(group)s: %(side)s wins.") % {"group": group, "side": name})
            values = dict(result.get("values") or {})
            if result["reason"] in GROUP_REASONS:
                lines.append(str(REASONS[result["reason"]]) % values)
            elif result["reason"] == "dual_attack_vp":
                points = (values.get("vp") or {}).items()
                vp = ", ".join(f"{names.get(side, side)} {n}" for side, n in points)
                lines.append(gettext_now("VP: %(vp)s.") % {"vp": vp})
        else:
            why = str(WHY_NOT.get(result["reason"], result["reason"]))
            lines.append(
                gettext_now("%(group)s: not known. %(why)s") % {"group": group, "why": why}
            )
    if judged and not verdict.derived:
        text = judged_words()
    elif verdict.derived:
        text = str(REASONS.get(verdict.reason, verdict.reason))
        if "groups" not in verdict.values:
            text = text % dict(verdict.values)
    elif verdict.reason == "record_counts":
        text = " ".join(missing_counts(verdict.missing, side_names or {}))
    else:
        text = str(WHY_NOT.get(verdict.reason, verdict.reason))
    return " ".join([*lines, text])


def judged_words() -> str:
    """The words under a winner the players recorded where the VC could not decide."""
    return gettext_now(
        "The VC could not be evaluated from what was recorded, so the players' choice stands. "
        "Recording what the VC need and saving again lets the VC decide."
    )


def kept_outcomes(viewer: Viewer, scenario: Scenario) -> dict[str, list[tuple[str, str]]]:
    """The outcomes worth no CVP recorded at the scenario's end (wounded, immobilized,
    abandoned), per side, from the side's "scenario.losses" events the viewer may see and that
    are not undone. One query."""
    events = viewer.filter_visible(
        CampaignEvent.objects.filter(
            campaign=viewer.campaign,
            action="scenario.losses",
            undone_at__isnull=True,
            data__index=scenario.index,
        )
    ).order_by("id")
    labels = outcome_labels(viewer.campaign)
    kept: dict[str, list[tuple[str, str]]] = {}
    for event in events:
        data = event.data or {}
        if data.get("sequence", 1) != scenario.sequence:
            continue
        for what, key in zip(data.get("units", []), data.get("outcomes", []), strict=False):
            outcome = OUTCOMES.get(key)
            if outcome is not None and not outcome.loss:
                kept.setdefault(data.get("side", ""), []).append((what, str(labels[key])))
    return kept


@dataclass(frozen=True)
class SideLosses:
    key: str
    name: str
    form: LossesForm | None
    recorded: list[CvpEntry]
    # What else happened to its units (a wounded leader, an immobilized or abandoned AFV):
    # (what, outcome label), from the side's own records — seen by who sees the side's secrets.
    kept: list[tuple[str, str]]


# Sections a feature above this app adds to the scenario's end (refit.perimeters: the control
# record): each gets the viewer and the scenario and answers {"title", "text", "url", "link"} or
# None where it has nothing to show.
END_SECTIONS: list[Callable[[Viewer, Scenario], dict[str, str] | None]] = []


def end_page(
    viewer: Viewer,
    scenario: Scenario,
    *,
    losses_form: tuple[str, LossesForm] | None = None,
    end_form: EndForm | None = None,
) -> dict[str, Any]:
    campaign = viewer.campaign
    names = dict(side_choices(campaign))
    cvp_lost = scenario_cvp_lost(campaign, scenario)
    verdict = verdict_for(campaign, scenario, cvp_lost)
    recorded = list(CvpEntry.objects.filter(scenario=scenario).order_by("id"))
    acting = [side for side in viewer.visible_sides() if viewer.can_act_for_side(side)]
    entries = list(
        OrbatEntry.objects.filter(campaign=campaign, side__in=acting)
        .exclude(box__in=(OrbatBox.CASUALTIES, OrbatBox.FORTIFICATIONS))
        .select_related("group")
        .order_by("side", "box", "group_id", "id")
    )
    types = game_squad_types(campaign) if entries else SquadTypes(frozenset(), frozenset())
    kept = kept_outcomes(viewer, scenario)
    sides = []
    for key in campaign.game.side_keys:
        form = None
        if key in acting:
            if losses_form is not None and losses_form[0] == key:
                form = losses_form[1]
            else:
                form = LossesForm(
                    campaign=campaign,
                    entries=[entry for entry in entries if entry.side == key],
                    types=types,
                    prefix=key,
                )
        sides.append(
            SideLosses(
                key=key,
                name=names.get(key, key),
                form=form,
                recorded=[entry for entry in recorded if entry.side == key],
                kept=kept.get(key, []),
            )
        )
    can_edit = viewer.can_record
    if end_form is None and can_edit:
        end_form = EndForm(campaign=campaign, scenario=scenario)
    end = scenario.end or {}
    # The VC could not decide and the players recorded the winner: their choice stands, the
    # page no longer asks for what was left unrecorded (issue 15).
    judged = not verdict.derived and bool(scenario.winner)
    return {
        "viewer": viewer,
        "campaign": campaign,
        "scenario": scenario,
        "label": scenario_label(campaign, scenario),
        "cvp": [(names.get(key, key), cvp_lost.get(key, 0)) for key in campaign.game.side_keys],
        "verdict": verdict,
        "verdict_words": verdict_words(verdict, names, judged=judged),
        "judged": judged,
        "verdict_winner": names.get(verdict.winner or "", ""),
        "winner": names.get(scenario.winner, ""),
        "winner_differs": verdict.derived and scenario.winner != verdict.winner,
        "winner_by": end.get("winner_by", ""),
        "sides": sides,
        "can_edit": can_edit,
        "end_form": end_form if can_edit else None,
        "more": [found for hook in END_SECTIONS if (found := hook(viewer, scenario))],
    }
