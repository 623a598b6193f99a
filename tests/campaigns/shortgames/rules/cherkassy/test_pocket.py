"""Cherkassy Pocket: the Stemmermann Group (3.5)."""

from campaigns.shortgames.rules.cherkassy.pocket import stemmermann_group


def test_stemmermann_group_only_shrinks():
    group = stemmermann_group({"a", "b", "c"}, relieved={"c"}, eliminated={"b"})
    assert group.members == {"a", "b"}
    assert group.on_map == {"a"}
    assert group.eliminated == {"b"}
    assert group.ever == {"a", "b", "c"}
