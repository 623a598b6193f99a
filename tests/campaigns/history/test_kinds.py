"""The kinds of change the history filters by (campaigns.history.kinds)."""

from django.utils import translation

from campaigns.history.kinds import KINDS, family, kinds_of, registered_kinds
from campaigns.history.sentences import SENTENCES


def test_every_registered_action_has_a_named_kind():
    """A feature that records a new family of actions names its kind here, in both languages."""
    named = {name for kind in KINDS for name in kind.families}
    unnamed = sorted({family(action) for action in SENTENCES.actions()} - named)
    assert unnamed == []


def test_each_family_belongs_to_one_kind():
    families = [name for kind in KINDS for name in kind.families]
    assert len(families) == len(set(families))
    assert len({kind.key for kind in KINDS}) == len(KINDS)


def test_every_kind_offered_has_a_registered_action():
    offered = {kind.key for kind in registered_kinds()}
    assert offered == {kind.key for kind in KINDS}


def test_a_family_no_kind_names_is_offered_under_its_own_key():
    kinds = kinds_of(["rg.purchased", "house_rule.applied", "cvp.added"])
    assert [kind.key for kind in kinds] == ["cvp", "purchases", "house_rule"]
    assert kinds[-1].label == "house_rule"
    assert kinds[-1].families == ("house_rule",)


def test_a_kind_matches_whole_families_only():
    (units,) = [kind for kind in KINDS if kind.key == "units"]
    # "unit." and "units.", not "unitary." — the dot is part of the prefix.
    assert str(units.actions()).count("action__startswith") == 4
    assert ("action__startswith", "unit.") in units.actions().children


def test_the_kinds_read_in_japanese():
    with translation.override("ja"):
        labels = {kind.key: str(kind.label) for kind in KINDS}
    assert labels["purchases"] == "購入"
    assert all(labels[kind.key] != str(kind.label) for kind in KINDS if kind.key != "cvp")
