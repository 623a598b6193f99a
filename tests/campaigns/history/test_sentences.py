"""The registry of history sentences: every recorded action has one, an action has only one."""

import ast
import functools
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from campaigns.history import services as history
from campaigns.history.sentences import (
    INT,
    KINDS,
    SENTENCES,
    TEXT,
    DuplicateSentence,
    Sentences,
)
from campaigns.models import CampaignEvent

ROOT = Path(__file__).resolve().parents[3]
# The packages whose services record history events.
SOURCES = ("campaigns", "refit", "rosters")
# history.record(campaign, actor, action, …) and history.record_change(campaign, actor, action, …):
# function name → position of its ``action`` parameter (None: keyword only)
RECORDERS: dict[str, int | None] = {"record": 2, "record_change": 2}


def _called_name(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _action_argument(call: ast.Call, position: int | None) -> ast.expr | None:
    for keyword in call.keywords:
        if keyword.arg == "action":
            return keyword.value
    if position is None or len(call.args) <= position:
        return None
    return call.args[position]


def _functions(tree: ast.Module) -> list[tuple[ast.FunctionDef, list[ast.Call]]]:
    """Each function of the module with the calls made in its body (nested calls included)."""
    return [
        (node, [call for call in ast.walk(node) if isinstance(call, ast.Call)])
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    ]


@functools.cache
def recorded_actions() -> tuple[frozenset[str], tuple[str, ...]]:
    """The action keys passed to the history's record functions anywhere in the sources, and
    the places that pass something this scan cannot read (they must pass a literal key, or take
    it as an ``action`` parameter from callers that do).

    A function that hands its own ``action`` parameter on to a record function records too: its
    callers' literal keys are collected as well (``edit_row``, ``_save``, ``_save_units``, …).
    """
    trees = {
        path: ast.parse(path.read_text(encoding="utf-8"))
        for package in SOURCES
        for path in sorted((ROOT / package).rglob("*.py"))
        if "migrations" not in path.parts
    }
    functions = [(path, *found) for path, tree in trees.items() for found in _functions(tree)]
    recorders = dict(RECORDERS)
    while True:
        forwarders = {}
        for _path, function, calls in functions:
            parameters = [a.arg for a in function.args.posonlyargs + function.args.args]
            keyword_only = [a.arg for a in function.args.kwonlyargs]
            if "action" not in parameters + keyword_only or function.name in recorders:
                continue
            for call in calls:
                name = _called_name(call)
                argument = _action_argument(call, recorders[name]) if name in recorders else None
                if isinstance(argument, ast.Name) and argument.id == "action":
                    forwarders[function.name] = (
                        parameters.index("action") if "action" in parameters else None
                    )
        if not forwarders:
            break
        recorders.update(forwarders)
    actions, unreadable = set(), []
    for path, tree in trees.items():
        for call in (node for node in ast.walk(tree) if isinstance(node, ast.Call)):
            name = _called_name(call)
            if name not in recorders:
                continue
            argument = _action_argument(call, recorders[name])
            if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                actions.add(argument.value)
            elif isinstance(argument, ast.Name) and argument.id == "action":
                continue  # a forwarder: its callers are read
            elif argument is not None:
                unreadable.append(f"{path.relative_to(ROOT)}:{call.lineno}")
    return frozenset(actions), tuple(unreadable)


def test_the_scan_finds_actions_recorded_directly_and_through_helpers():
    actions, _unreadable = recorded_actions()
    # history.record / record_change with a literal key …
    assert {"campaign.created", "ledger.added", "rg.purchased", "unit.arrived"} <= actions
    # … and through campaigns.state.edit_row and refit.perimeters' _save / _save_units.
    assert {"day.updated", "scenario.updated", "perimeter.recorded", "perimeter.units"} <= actions


def test_every_recorded_action_has_a_sentence_and_a_data_shape():
    actions, unreadable = recorded_actions()
    assert unreadable == (), "pass the action key as a literal where the event is recorded"
    assert sorted(actions - SENTENCES.actions()) == []
    assert sorted(action for action in actions if not SENTENCES.data_shape(action)) == []


def test_data_shapes_use_the_known_kinds():
    for action in SENTENCES.actions():
        assert set(SENTENCES.data_shape(action).values()) <= KINDS, action


def test_registering_an_action_twice_is_an_error():
    sentences = Sentences()

    @sentences.register("test.done", data={"side": TEXT})
    def first(event):
        return "first"

    with pytest.raises(DuplicateSentence, match="“test.done” is registered twice"):

        @sentences.register("test.other", "test.done", data={})
        def second(event):
            return "second"

    assert sentences.describe(CampaignEvent(action="test.done", data={})) == "first"
    assert sentences.actions() == {"test.done"}  # nothing of the refused registration is kept


@pytest.mark.django_db
def test_an_action_a_feature_registered_cannot_be_registered_again(campaign):
    event = CampaignEvent(campaign=campaign, action="ledger.added", data={"amount": 16})
    before = history.describe(event)
    with pytest.raises(DuplicateSentence, match="campaigns.roster.history._ledger_added"):
        SENTENCES.register("ledger.added", data={})(lambda event: "again")
    assert history.describe(event) == before


def test_an_unknown_data_kind_is_refused():
    with pytest.raises(ImproperlyConfigured, match="date"):
        Sentences().register("test.done", data={"when": "date"})


def test_an_unknown_action_reads_as_its_key():
    event = CampaignEvent(action="nobody.registered", data={"side": "german"})
    assert history.describe(event) == "nobody.registered"
    assert SENTENCES.data_shape("nobody.registered") == {}


def test_a_sentence_reads_the_event_it_is_given():
    sentences = Sentences()
    sentences.register("test.counted", data={"n": INT})(lambda event: f"n = {event.data['n']}")
    assert sentences.describe(CampaignEvent(action="test.counted", data={"n": 3})) == "n = 3"
