"""The history page's sentence for each action, registered by the feature that records it.

A feature keeps its sentences in its own ``history.py`` and registers each one for the action
keys it renders, with the shape of the event data the sentence reads::

    @sentence("rg.purchased", data={"side": TEXT, "index": INT, "rg": TEXT, "cpp": INT})
    def _rg_purchased(event: CampaignEvent) -> str:
        ...

Those modules are imported when the apps are ready (``CampaignsConfig.ready``,
``RefitConfig.ready``), so the registry is complete before the first page is drawn; an action
registered twice stops the start-up. The data shapes are what an import checks an event's data
against (``campaigns.transfer.services``): a value of another type would break the sentence.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

from django.core.exceptions import ImproperlyConfigured

if TYPE_CHECKING:
    from campaigns.models import CampaignEvent

# The kinds of value a sentence reads from an event's data.
TEXT, INT, TEXTS, INTS = "text", "int", "texts", "ints"
KINDS = frozenset({TEXT, INT, TEXTS, INTS})

Render = Callable[["CampaignEvent"], str]


class DuplicateSentence(ImproperlyConfigured):
    """Two features registered a sentence for the same action."""


@dataclass(frozen=True)
class Sentence:
    render: Render
    # data key → kind (TEXT, INT, TEXTS or INTS) of every key the sentence reads
    data: Mapping[str, str]


class Sentences:
    """Action key → its sentence. One instance (``SENTENCES``) serves the whole project."""

    def __init__(self) -> None:
        self._by_action: dict[str, Sentence] = {}

    def register(self, *actions: str, data: Mapping[str, str]) -> Callable[[Render], Render]:
        """Decorator: ``render(event)`` writes the sentence of each of ``actions``."""
        if not actions:
            raise ImproperlyConfigured("A sentence needs at least one action key.")
        wrong = {key: kind for key, kind in data.items() if kind not in KINDS}
        if wrong:
            raise ImproperlyConfigured(
                f"Unknown data kinds for {', '.join(actions)}: {wrong} (use {sorted(KINDS)})."
            )
        shape = MappingProxyType(dict(data))

        def add(render: Render) -> Render:
            for action in actions:
                existing = self._by_action.get(action)
                if existing is not None:
                    raise DuplicateSentence(
                        f"The history sentence of “{action}” is registered twice: by "
                        f"{_name(existing.render)} and by {_name(render)}."
                    )
            for action in actions:
                self._by_action[action] = Sentence(render, shape)
            return render

        return add

    def describe(self, event: CampaignEvent) -> str:
        """The event's sentence in the active language; an unknown action reads as its key."""
        registered = self._by_action.get(event.action)
        return event.action if registered is None else registered.render(event)

    def data_shape(self, action: str) -> Mapping[str, str]:
        """What the action's sentence reads from the data: key → kind (nothing if unknown)."""
        registered = self._by_action.get(action)
        return registered.data if registered is not None else MappingProxyType({})

    def actions(self) -> frozenset[str]:
        return frozenset(self._by_action)


def _name(render: Render) -> str:
    return f"{render.__module__}.{render.__qualname__}"


SENTENCES = Sentences()
sentence = SENTENCES.register
