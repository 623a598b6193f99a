"""The dice log's rows written in Python (campaigns.dice.html) are the markup the page's row
loop drew with the ``roll-row`` partial, to the byte: ``TEMPLATE`` is that loop as
templates/campaigns/dice/log.html had it, drawn for rows of every branch (voided with and without
a user and modifiers, notes, step names, counters, text needing escapes) and every viewer's
actions (void, ask the other side, none), in English and Japanese."""

from datetime import UTC, datetime
from types import SimpleNamespace

import pytest
from django.template import engines
from django.utils import dateformat, translation
from django.utils.formats import get_format
from django.utils.timezone import template_localtime

from campaigns.dice.html import roll_rows

TEMPLATE = (  # fmt: skip
    "{% load i18n %}{% for row in rows %}"
    '\n    \n    <tr id="roll-{{ row.oid }}">\n      <td><time datetime="{{ row.when_iso }}">{{ '
    "row.when }}</time></td>\n      <td>{{ row.day }}</td>\n      <td>{{ row.step }}{% if row.s"
    'tep_name %} <span class="muted">{{ row.step_name }}</span>{% endif %}{% if row.note %}<b'
    'r>{{ row.note }}{% endif %}</td>\n      <td>{{ row.table_name|default:"—" }}</td>\n      <'
    'td>{{ row.side|default:"—" }}<br><span class="muted">{{ row.scope }}</span></td>\n      <'
    'td>{{ row.rolled_by|default:"—" }}</td>\n      <td>{% if row.voided %}<s>{{ row.kind }} {'
    '{ row.faces }}</s>{% else %}{{ row.kind }} {{ row.faces }}{% endif %}<br><span class="mu'
    'ted check-{{ row.check }}">{% if row.counter is not None %}#{{ row.counter }} {% endif %'
    '}{{ row.check_words }}</span></td>\n      <td class="num">{% if row.voided %}<s>{{ row.or'
    "iginal }}</s>{% else %}{{ row.original }}{% endif %}</td>\n      <td>{% if row.modifiers "
    '%}<ul class="modifiers">{% for sign, reason in row.modifiers %}<li>{% if row.voided %}<s'
    ">{{ sign }} {{ reason }}</s>{% else %}{{ sign }} {{ reason }}{% endif %}</li>{% endfor %"
    '}</ul>{% else %}<span class="muted">—</span>{% endif %}</td>\n      <td class="num">{% if'
    " row.voided %}<s>{{ row.final }}</s>{% else %}<strong>{{ row.final }}</strong>{% endif %"
    '}</td>\n      <td>{% if row.voided %}<del>{{ row.result|default:"—" }}</del>{% else %}{{ '
    'row.result|default:"—" }}{% endif %}</td>\n      <td class="actions">\n        {% if singl'
    'e_row %}{% include "_messages.html" %}{% endif %}\n        {% if row.voided %}\n          '
    '<strong>{% translate "Void" %}</strong>\n          <span class="muted">{% blocktranslate '
    'with who=row.voided_by|default:"—" when=row.roll.voided_at|date:"SHORT_DATETIME_FORMAT" '
    "%}by {{ who }}, {{ when }}{% endblocktranslate %}</span>:\n          {{ row.roll.void_rea"
    "son }}\n        {% elif can_void %}\n          <details{% if void_form and void_roll_id =="
    ' row.pk %} open{% endif %}>\n            <summary>{% translate "Void…" %}</summary>\n     '
    '       <form method="post" action="{{ row.void_url }}" class="inline"\n                  '
    'hx-post="{{ row.void_url }}" hx-target="closest tr" hx-swap="outerHTML">\n              {'
    '% csrf_token %}\n              <input type="hidden" name="next" value="{{ next }}">\n     '
    '         <label for="id_void{{ row.oid }}_reason">{% translate "Why is the roll void?" %'
    '}</label>\n              <input type="text" name="reason" id="id_void{{ row.oid }}_reason'
    '" maxlength="200" required{% if void_form and void_roll_id == row.pk %} value="{{ void_f'
    'orm.reason.value|default:\'\' }}" aria-invalid="true"{% endif %}>\n              {% if void'
    "_form and void_roll_id == row.pk %}{{ void_form.reason.errors }}{% endif %}\n            "
    '  <button type="submit" class="danger">{% translate "Void the roll" %}</button>\n        '
    "    </form>\n          </details>\n        {% elif viewer.can_ask_correction %}\n          "
    '<a class="ask-correction" href="{{ corrections_url }}?roll={{ row.oid }}#ask-correction"'
    '>{% translate "Ask the other side to void it" %}</a>\n        {% else %}\n          <span '
    'class="muted">—</span>\n        {% endif %}\n      </td>\n    </tr>\n    \n  '
    "{% endfor %}"
)


def short_time(moment):
    return dateformat.format(template_localtime(moment), get_format("SHORT_DATETIME_FORMAT"))


def row(**given):
    values = dict(
        oid="Zx9",
        pk=9,
        when_iso="2026-11-28T10:00:00+01:00",
        when="11/28/2026 10 a.m.",
        day="Day 3 (14 Oct)",
        step="3.1",
        step_name="",
        note="",
        table_name="Weather",
        side="German",
        scope="Public",
        rolled_by="german",
        kind="DR",
        faces="3 + 4",
        check="pending",
        counter=12,
        check_words="pending",
        original=7,
        modifiers=[],
        final=7,
        result="Clear",
        voided=False,
        voided_by="",
        void_url="/campaigns/1/dice/Zx9/void/",
        roll=SimpleNamespace(voided_at=None, void_reason=""),
    )
    values.update(given)
    return SimpleNamespace(**values)


VOIDED = SimpleNamespace(
    voided_at=datetime(2026, 11, 28, 9, 5, tzinfo=UTC), void_reason="typo <b>&</b>"
)
ROWS = [
    row(),
    row(
        oid="a1",
        step_name="Weather <dr>",
        note="for “H41” & co",
        counter=None,
        modifiers=[("+1", "night"), ("-2", "<smoke>")],
    ),
    row(oid="a2", table_name="", side="", rolled_by="", result="", counter=1234, check="mismatch"),
    row(
        oid="a3",
        voided=True,
        voided_by="referee",
        roll=VOIDED,
        modifiers=[("+1", "night")],
        result="Rain",
    ),
    row(oid="a4", voided=True, voided_by="", roll=VOIDED, result=""),
]


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize(
    "can_void,can_ask", [(True, False), (False, True), (False, False), (True, True)]
)
def test_the_rows_are_the_partials_rows(language, can_void, can_ask):
    template = engines["django"].from_string(TEMPLATE)
    next_url, corrections = "/campaigns/1/dice/?page=2&side=x", "/campaigns/1/corrections/"
    with translation.override(language):
        expected = template.render(
            {
                "rows": ROWS,
                "can_void": can_void,
                "viewer": {"can_ask_correction": can_ask},
                "next": next_url,
                "corrections_url": corrections,
                "csrf_token": "tok-1",
                "single_row": False,
                "void_form": None,
            }
        )
        written = roll_rows(
            ROWS,
            can_void=can_void,
            can_ask=can_ask,
            next_url=next_url,
            corrections_url=corrections,
            csrf_token="tok-1",
            short_time=short_time,
        )
    assert "roll-a4" in expected
    assert written == expected


def test_no_rows_write_nothing():
    assert (
        roll_rows(
            [],
            can_void=True,
            can_ask=False,
            next_url="",
            corrections_url="",
            csrf_token="",
            short_time=str,
        )
        == ""
    )


# The statistics' and commitments' loops as templates/campaigns/dice/log.html had them (each
# between the ``<tbody>`` line and the ``</tbody>`` line), now written by stats_rows and
# commitment_rows.
STATS_TEMPLATE = (  # fmt: skip
    '{% load i18n %}{% for group in stats %}\n      <tr>\n        <th scope="row">{{ group.l'
    'abel }}</th>\n        <td class="num">{{ group.dr_count }}</td>\n        <td class="num">{'
    "% if group.dr_average is None %}—{% else %}{{ group.dr_average|floatformat:2 }}{% endif %"
    '}</td>\n        <td class="num">{{ group.DR_count }}</td>\n        <td class="num">{% if gr'
    "oup.DR_average is None %}—{% else %}{{ group.DR_average|floatformat:2 }}{% endif %}</td>"
    '\n        {% for count in group.distribution %}<td class="num">{{ count }}</td>{% endfor'
    " %}\n      </tr>\n    {% endfor %}"
)
COMMITMENTS_TEMPLATE = (  # fmt: skip
    "{% load i18n %}{% for day, commitment, seed, scope in commitments %}\n      <tr><td>{{ da"
    'y }}</td><td>{{ scope }}</td><td><code class="hash">{{ commitment.seed_hash }}</code></t'
    'd><td>{% if seed %}<code class="hash">{{ seed }}</code>{% else %}<span class="muted">{% '
    'translate "shown when the phase is over" %}</span>{% endif %}</td></tr>\n    {% endfor %}'
)


def stats():
    from campaigns.dice.views import DiceStats

    empty = DiceStats("Public <rolls> & co")
    some = DiceStats("Rolls for German")
    for kind, original, count in (("DR", 7, 3), ("DR", 2, 1), ("dr", 3, 2), ("dr", 6, 1)):
        some.add(kind, original, count)
    many = DiceStats("All rolls shown")
    many.add("DR", 12, 12345)  # a count with thousands
    many.add("DR", 5, 1)
    many.add("dr", 1, 2)
    return [empty, some, many]


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_statistics_and_commitments_are_the_templates(language):
    from campaigns.dice.html import commitment_rows, stats_rows

    commitments = [
        ("Day 1 (14 Oct)", SimpleNamespace(seed_hash="ab<12>"), "", "German only"),
        ("Day 2 & 3", SimpleNamespace(seed_hash="cd34"), "seed&<5>", "public"),
    ]
    with translation.override(language):
        expected_stats = engines["django"].from_string(STATS_TEMPLATE).render({"stats": stats()})
        written_stats = stats_rows(stats())
        expected = engines["django"].from_string(COMMITMENTS_TEMPLATE)
        expected_commitments = expected.render({"commitments": commitments})
        written_commitments = commitment_rows(commitments)
    assert "12345" in expected_stats and "5.75" in expected_stats and "—" in expected_stats
    assert written_stats == expected_stats
    assert "seed&amp;&lt;5&gt;" in expected_commitments
    assert written_commitments == expected_commitments
    assert stats_rows([]) == "" and commitment_rows([]) == ""
