"""Every URL of the app, asked by the five personas and by an anonymous visitor.

The URL patterns are found at run time (tests/url_world.py walks Django's resolver), so a URL
added later without its rows in EXPECTED fails here, by name. Each pattern has two rows: what
a GET answers and what a POST of an empty form answers, for each persona: the German player
(the campaign's creator), the Soviet player, the referee, the observer, the outsider (signed
in, not a member) and an anonymous visitor. The URL arguments are real objects; side-secret
ones belong to the German side, so the Soviet player and the observer must not find them.

Besides the status: no answer is a 500, and no page answered to the Soviet player, the
observer, the outsider or a visitor shows the text written into the German secrets.
"""

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

from tests.conftest import PERSONAS
from tests.url_world import GERMAN_SECRET, Pattern, World, build_world, url_for, url_patterns

pytestmark = pytest.mark.django_db

CLIENTS = (*PERSONAS, "anonymous")
METHODS = ("GET", "POST")
MAY_SEE_GERMAN_SECRETS = {"german", "referee"}
LOGIN = "login"  # a redirect to the sign-in page; "302" is a redirect anywhere else
ANSWERS = {"200", "302", "400", "403", "404", "405", LOGIN}

# A view that does not take a method answers 405 to everyone. A POST is an empty form.
# FINDING marks a row with a cell whose answer today is not the one it should be.
TABLE = """
# pattern                               german   soviet   referee  observer outsider anonymous

# Accounts: public pages; a signed-in visitor is sent on (logout and a second sign-in).
login                              GET  302      302      302      302      302      200
login                              POST 302      302      302      302      302      200
logout                             GET  405      405      405      405      405      405
logout                             POST login    login    login    login    login    login
signup                             GET  302      302      302      302      302      200
signup                             POST 302      302      302      302      302      200
set_language                       GET  405      405      405      405      405      405
set_language                       POST 302      302      302      302      302      302
# Password change (signed in; an empty form is shown again with its errors) and reset by email
# (anyone; the reset link in the world is not a valid one, so its page says so).
password_change                    GET  200      200      200      200      200      login
password_change                    POST 200      200      200      200      200      login
password_change_done               GET  200      200      200      200      200      login
password_change_done               POST 405      405      405      405      405      login
# The time zone times are shown in (an empty form is valid: the server's zone).
time_zone                          GET  200      200      200      200      200      login
time_zone                          POST 302      302      302      302      302      login
password_reset                     GET  200      200      200      200      200      200
password_reset                     POST 200      200      200      200      200      200
password_reset_done                GET  200      200      200      200      200      200
password_reset_done                POST 405      405      405      405      405      405
password_reset_confirm             GET  200      200      200      200      200      200
password_reset_confirm             POST 200      200      200      200      200      200
password_reset_complete            GET  200      200      200      200      200      200
password_reset_complete            POST 405      405      405      405      405      405

# The Refit Phase walker (RB CG I's first RePh; 11.619 RG purchase, a secret step;
# refit:chit on 11.623 Initiative). Only the referee finishes a RePh that has one.
refit:overview                     GET  200      200      200      200      404      login
refit:overview                     POST 405      405      405      405      405      405
refit:finish                       GET  405      405      405      405      405      405
refit:finish                       POST 403      403      302      403      404      login
refit:step                         GET  200      404      200      404      404      login
refit:step                         POST 405      405      405      405      405      405
refit:mark                         GET  405      405      405      405      405      405
refit:mark                         POST 200      404      200      404      404      login
refit:unmark                       GET  405      405      405      405      405      405
refit:unmark                       POST 302      404      302      404      404      login
refit:roll                         GET  405      405      405      405      405      405
refit:roll                         POST 302      404      302      404      404      login
refit:harden                       GET  405      405      405      405      405      405
refit:harden                       POST 302      404      302      404      404      login
refit:undo_effects                 GET  405      405      405      405      405      405
refit:undo_effects                 POST 302      404      302      404      404      login
refit:chit                         GET  405      405      405      405      405      405
refit:chit                         POST 302      404      302      404      404      login

# RG and fortification purchases: secret to the side and the referee (404 for the rest).
purchases:page                     GET  200      404      200      404      404      login
purchases:page                     POST 405      405      405      405      405      405
purchases:buy                      GET  405      405      405      405      405      405
purchases:buy                      POST 302      404      302      404      404      login
purchases:remove                   GET  405      405      405      405      405      405
purchases:remove                   POST 302      404      302      404      404      login
purchases:receive                  GET  405      405      405      405      405      405
purchases:receive                  POST 302      404      302      404      404      login
# SaP's time-frame arrivals and the German Armor Reserve: the world's campaign is RB CG I, which has
# neither (404 to everyone); their five personas are in tests/refit/walker and tests/refit/reserve.
refit:arrivals                     GET  404      404      404      404      404      login
refit:arrivals                     POST 404      404      404      404      404      login
refit:armor_leaders                GET  405      405      405      405      405      405
refit:armor_leaders                POST 404      404      404      404      404      login
refit:arrivals_place               GET  405      405      405      405      405      405
refit:arrivals_place               POST 404      404      404      404      404      login
reserve:page                       GET  404      404      404      404      404      login
reserve:page                       POST 405      405      405      405      405      405
reserve:enter                      GET  405      405      405      405      405      405
reserve:enter                      POST 404      404      404      404      404      login
reserve:back                       GET  405      405      405      405      405      405
reserve:back                       POST 404      404      404      404      404      login
reserve:join                       GET  405      405      405      405      405      405
reserve:join                       POST 404      404      404      404      404      login
purchases:receive_all              GET  405      405      405      405      405      405
purchases:receive_all              POST 302      404      302      404      404      login
purchases:record                   GET  200      404      200      404      404      login
purchases:record                   POST 405      405      405      405      405      405
purchases:rg_notes                 GET  405      405      405      405      405      405
purchases:rg_notes                 POST 302      404      302      404      404      login
fortifications:page                GET  200      404      200      404      404      login
fortifications:page                POST 405      405      405      405      405      405
fortifications:buy                 GET  405      405      405      405      405      405
fortifications:buy                 POST 302      404      302      404      404      login
fortifications:remove              GET  405      405      405      405      405      405
fortifications:remove              POST 302      404      302      404      404      login
fortifications:location            GET  405      405      405      405      405      405
fortifications:location            POST 302      404      302      404      404      login

# Printable sheets: the German CG Roster is secret; the perimeter map is public.
rosters:index                      GET  200      200      200      200      404      login
rosters:index                      POST 405      405      405      405      405      405
rosters:perimeter_map              GET  200      200      200      200      404      login
rosters:perimeter_map              POST 405      405      405      405      405      405
rosters:pdf                        GET  200      404      200      404      404      login
rosters:pdf                        POST 405      405      405      405      405      405
rosters:page                       GET  200      404      200      404      404      login
rosters:page                       POST 405      405      405      405      405      405
# The after-action report: every member reads it, each only what they may see of it.
report:page                        GET  200      200      200      200      404      login
report:page                        POST 405      405      405      405      405      405
report:pdf                         GET  200      200      200      200      404      login
report:pdf                         POST 405      405      405      405      405      405

# Perimeters: the map is public, players and referee change it (observers 403); a side's
# units, markers and pockets are its own player's and the referee's (403 for the others).
perimeters:page                    GET  200      200      200      200      404      login
perimeters:page                    POST 405      405      405      405      405      405
perimeters:control                 GET  405      405      405      405      405      405
perimeters:control                 POST 302      302      302      403      404      login
perimeters:preview_control         GET  405      405      405      405      405      405
perimeters:preview_control         POST 200      200      200      403      404      login
perimeters:water                   GET  405      405      405      405      405      405
perimeters:water                   POST 302      302      302      403      404      login
perimeters:fires                   GET  405      405      405      405      405      405
perimeters:fires                   POST 302      302      302      403      404      login
perimeters:record                  GET  405      405      405      405      405      405
perimeters:record                  POST 302      302      302      403      404      login
perimeters:units                   GET  405      405      405      405      405      405
perimeters:units                   POST 302      403      302      403      404      login
perimeters:declare                 GET  405      405      405      405      405      405
perimeters:declare                 POST 302      403      302      403      404      login
perimeters:add_marker              GET  405      405      405      405      405      405
perimeters:add_marker              POST 302      403      302      403      404      login
perimeters:remove_marker           GET  405      405      405      405      405      405
perimeters:remove_marker           POST 302      403      302      403      404      login
perimeters:propose                 GET  405      405      405      405      405      405
perimeters:propose                 POST 302      403      302      403      404      login
perimeters:add_pocket              GET  405      405      405      405      405      405
perimeters:add_pocket              POST 302      403      302      403      404      login
perimeters:remove_pocket           GET  405      405      405      405      405      405
perimeters:remove_pocket           POST 302      403      302      403      404      login
perimeters:escape                  GET  405      405      405      405      405      405
perimeters:escape                  POST 302      403      302      403      404      login
# The world has no escape roll: the German player and the referee find none either.
perimeters:escape_ob               GET  404      404      404      404      404      login
perimeters:escape_ob               POST 404      404      404      404      404      login
# The scenario end's control record: public; players and the referee record.
perimeters:scenario_control        GET  200      200      200      200      404      login
perimeters:scenario_control        POST 405      405      405      405      405      405
perimeters:scenario_control_change GET  405      405      405      405      405      405
perimeters:scenario_control_change POST 302      302      302      403      404      login
perimeters:scenario_control_take_back GET  405      405      405      405      405      405
perimeters:scenario_control_take_back POST 302      302      302      403      404      login

# Short games (Cherkassy Pocket; shortgames:arrive in Defiant Russia): no secrets, members
# read everything; a side's player and the referee act for it; the referee's own forms.
shortgames:turn                    GET  200      200      200      200      404      login
shortgames:turn                    POST 405      405      405      405      405      405
shortgames:start                   GET  405      405      405      405      405      405
shortgames:start                   POST 302      302      302      403      404      login
shortgames:advance                 GET  405      405      405      405      405      405
shortgames:advance                 POST 302      302      302      403      404      login
shortgames:weather                 GET  405      405      405      405      405      405
shortgames:weather                 POST 403      403      302      403      404      login
shortgames:mark                    GET  405      405      405      405      405      405
shortgames:mark                    POST 302      403      302      403      404      login
shortgames:unmark                  GET  405      405      405      405      405      405
shortgames:unmark                  POST 302      403      302      403      404      login
shortgames:roll                    GET  405      405      405      405      405      405
shortgames:roll                    POST 302      403      302      403      404      login
shortgames:units                   GET  200      200      200      200      404      login
shortgames:units                   POST 405      405      405      405      405      405
shortgames:units_file              GET  200      200      200      200      404      login
shortgames:units_file              POST 405      405      405      405      405      405
shortgames:upload                  GET  405      405      405      405      405      405
shortgames:upload                  POST 400      400      400      403      404      login
shortgames:unit                    GET  200      200      200      200      404      login
shortgames:unit                    POST 400      403      400      403      404      login
shortgames:unit_remove             GET  405      405      405      405      405      405
shortgames:unit_remove             POST 302      403      302      403      404      login
shortgames:arrive                  GET  405      405      405      405      405      405
shortgames:arrive                  POST 302      403      302      403      404      login
shortgames:reconstitute            GET  405      405      405      405      405      405
shortgames:reconstitute            POST 302      403      302      403      404      login
shortgames:add_unit                GET  405      405      405      405      405      405
shortgames:add_unit                POST 400      403      400      403      404      login
shortgames:quick_entry             GET  405      405      405      405      405      405
shortgames:quick_entry             POST 400      403      400      403      404      login
shortgames:points                  GET  200      200      200      200      404      login
shortgames:points                  POST 405      405      405      405      405      405
shortgames:points_change           GET  405      405      405      405      405      405
# Who may book points is checked before the form is read: observers 403, players and the
# referee are told the empty form was incomplete.
shortgames:points_change           POST 302      302      302      403      404      login
shortgames:victory                 GET  200      200      200      200      404      login
shortgames:victory                 POST 405      405      405      405      405      405
shortgames:control                 GET  405      405      405      405      405      405
shortgames:control                 POST 302      302      302      403      404      login
shortgames:pocket                  GET  405      405      405      405      405      405
shortgames:pocket                  POST 302      302      302      403      404      login
shortgames:condition               GET  405      405      405      405      405      405
shortgames:condition               POST 302      302      302      403      404      login
shortgames:tables                  GET  200      200      200      200      404      login
# The referee's empty form is refused with its errors, naming the fields.
shortgames:tables                  POST 403      403      400      403      404      login
shortgames:tables_file             GET  200      200      200      200      404      login
shortgames:tables_file             POST 405      405      405      405      405      405
# Only the referee loads a tables file; an empty form is refused naming the file.
shortgames:tables_upload           GET  405      405      405      405      405      405
shortgames:tables_upload           POST 403      403      400      403      404      login
shortgames:combat                  GET  200      200      200      200      404      login
# A roll is refused before the form is read to whoever may not roll for its side (the first
# side, German, when the form names none): the observer and the Soviet player 403; the German
# player and the referee are told to choose the units.
shortgames:combat                  POST 400      403      400      403      404      login

# Campaigns, members, invitations (the creator manages them), history.
campaigns:list                     GET  200      200      200      200      200      login
campaigns:list                     POST 405      405      405      405      405      405
campaigns:create                   GET  200      200      200      200      200      login
campaigns:create                   POST 200      200      200      200      200      login
campaigns:detail                   GET  200      200      200      200      404      login
campaigns:detail                   POST 405      405      405      405      405      405
campaigns:members                  GET  200      200      200      200      404      login
campaigns:members                  POST 405      405      405      405      405      405
campaigns:member_role              GET  405      405      405      405      405      405
campaigns:member_role              POST 302      403      403      403      404      login
campaigns:member_remove            GET  405      405      405      405      405      405
# Agreeing to / turning down a pending seat: the world's Soviet seat is open, so nobody may.
campaigns:member_agree             GET  405      405      405      405      405      405
campaigns:member_agree             POST 403      403      403      403      404      login
campaigns:member_decline           GET  405      405      405      405      405      405
campaigns:member_decline           POST 403      403      403      403      404      login
campaigns:member_remove            POST 302      403      403      403      404      login
# Leaving: every member but the creator (who manages the members); a page to confirm, then a POST.
campaigns:leave                    GET  403      200      200      200      404      login
campaigns:leave                    POST 403      302      302      302      404      login
campaigns:invitation_create        GET  405      405      405      405      405      405
campaigns:invitation_create        POST 302      403      403      403      404      login
campaigns:invitation_revoke        GET  405      405      405      405      405      405
campaigns:invitation_revoke        POST 302      403      403      403      404      login
# The live poll: every member asks for their own change token.
campaigns:live                     GET  200      200      200      200      404      login
campaigns:live                     POST 405      405      405      405      405      405
campaigns:history                  GET  200      200      200      200      404      login
# The campaign's end: every member reads it; the referee alone reveals (the world's CG is not
# over: refused with a message, back to the page), the players of a refereed campaign may not.
campaigns:reveal                   GET  200      200      200      200      404      login
campaigns:reveal                   POST 405      405      405      405      405      405
campaigns:reveal_do                GET  405      405      405      405      405      405
campaigns:reveal_do                POST 403      403      302      403      404      login
# Corrections agreed between the players: the world's campaign has a referee, so every member
# reads the page (it says the referee corrects) and nobody may ask or answer.
campaigns:corrections              GET  200      200      200      200      404      login
campaigns:corrections              POST 405      405      405      405      405      405
campaigns:correction_void          GET  405      405      405      405      405      405
campaigns:correction_void          POST 403      403      403      403      404      login
campaigns:correction_adjust        GET  405      405      405      405      405      405
campaigns:correction_adjust        POST 403      403      403      403      404      login
campaigns:correction_undo          GET  405      405      405      405      405      405
campaigns:correction_undo          POST 403      403      403      403      404      login
campaigns:correction_answer        GET  405      405      405      405      405      405
campaigns:correction_answer        POST 403      403      403      403      404      login
campaigns:history                  POST 405      405      405      405      405      405
campaigns:undo                     GET  405      405      405      405      405      405
# Undo the German purchase (a German secret): the German player and the referee.
campaigns:undo                     POST 302      404      302      404      404      login

# A side's secret sheets: CG Roster, CPP/FPP ledger, order of battle.
campaigns:roster                   GET  200      404      200      404      404      login
campaigns:roster                   POST 405      405      405      405      405      405
campaigns:side_day                 GET  200      404      200      404      404      login
campaigns:side_day                 POST 200      404      200      404      404      login
campaigns:ledger                   GET  200      404      200      404      404      login
campaigns:ledger                   POST 200      404      200      404      404      login
campaigns:orbat                    GET  200      404      200      404      404      login
campaigns:orbat                    POST 200      404      200      404      404      login
campaigns:orbat_move               GET  405      405      405      405      405      405
campaigns:orbat_move               POST 302      404      302      404      404      login
campaigns:orbat_entry              GET  405      405      405      405      405      405
campaigns:orbat_entry              POST 400      404      400      404      404      login
campaigns:orbat_remove             GET  405      405      405      405      405      405
campaigns:orbat_remove             POST 302      404      302      404      404      login
campaigns:orbat_rg_status          GET  405      405      405      405      405      405
campaigns:orbat_rg_status          POST 302      404      302      404      404      login
# The Historical DRM chart: each player reads their own side's column, the referee both and
# alone saves (an empty form is refused with its error); an observer sees no side's roster.
campaigns:histdrm                  GET  200      200      200      404      404      login
campaigns:histdrm                  POST 403      403      200      404      404      login

# Public records: players and referee keep them, observers read them.
campaigns:calendar                 GET  200      200      200      200      404      login
campaigns:calendar                 POST 405      405      405      405      405      405
campaigns:day                      GET  200      200      200      200      404      login
campaigns:day                      POST 200      200      200      403      404      login
campaigns:scenarios                GET  200      200      200      200      404      login
campaigns:scenarios                POST 200      200      200      403      404      login
campaigns:scenario                 GET  200      200      200      200      404      login
campaigns:scenario                 POST 200      200      200      403      404      login
campaigns:scenario_end             GET  200      200      200      200      404      login
campaigns:scenario_end             POST 200      200      200      403      404      login
campaigns:scenario_losses          GET  405      405      405      405      405      405
campaigns:scenario_losses          POST 200      404      200      404      404      login
campaigns:cvp                      GET  200      200      200      200      404      login
campaigns:cvp                      POST 200      200      200      403      404      login
# CG victory: public facts for every member; the referee (alone, as he has the campaign's
# calls) enters the Stone Location totals (an empty form misses its versions) and the CVP table.
campaigns:cg_victory               GET  200      200      200      200      404      login
campaigns:cg_victory               POST 403      403      200      403      404      login
campaigns:cvp_table                GET  405      405      405      405      405      405
campaigns:cvp_table                POST 403      403      302      403      404      login

# Dice (the roll is a German secret), export, import, invitation links, the game browser.
campaigns:dice_log                 GET  200      200      200      200      404      login
campaigns:dice_log                 POST 405      405      405      405      405      405
campaigns:void_roll                GET  405      405      405      405      405      405
# Verifying the dice: every member checks the rolls they may see.
campaigns:dice_verify              GET  200      200      200      200      404      login
campaigns:dice_verify              POST 405      405      405      405      405      405
# Only the referee voids; the German player sees his roll but may not (403).
campaigns:void_roll                POST 403      404      200      404      404      login
campaigns:export                   GET  200      200      200      200      404      login
campaigns:export                   POST 405      405      405      405      405      405
campaigns:import                   GET  200      200      200      200      200      login
campaigns:import                   POST 200      200      200      200      200      login
# An invitation link: anyone signed in may read it and join; a member keeps their role.
campaigns:join                     GET  200      200      200      200      200      login
campaigns:join                     POST 302      302      302      302      302      login
# The web manifest: the app's name in the reader's language, for everyone.
manifest                           GET  200      200      200      200      200      200
manifest                           POST 405      405      405      405      405      405
campaigns:games                    GET  200      200      200      200      200      200
campaigns:games                    POST 405      405      405      405      405      405
campaigns:game                     GET  200      200      200      200      200      200
campaigns:game                     POST 405      405      405      405      405      405
campaigns:game_section             GET  200      200      200      200      200      200
campaigns:game_section             POST 405      405      405      405      405      405
"""


def _parse(table: str) -> dict[tuple[str, str], tuple[str, ...]]:
    expected: dict[tuple[str, str], tuple[str, ...]] = {}
    for line in table.splitlines():
        cells = line.partition("#")[0].split()
        if not cells:
            continue
        name, method, *answers = cells
        assert method in METHODS and len(answers) == len(CLIENTS), line
        assert set(answers) <= ANSWERS, line
        assert (name, method) not in expected, f"two rows for {name} {method}"
        expected[name, method] = tuple(answers)
    return expected


EXPECTED = _parse(TABLE)
PATTERNS = url_patterns()


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """Built once for the module; every test runs in its own savepoint inside this transaction
    (pytest-django's), so what a POST changes is gone before the next test."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield build_world()
        transaction.set_rollback(True)


def _client(world: World, who: str) -> Client:
    client = Client()
    if who != "anonymous":
        client.force_login(world.people[who])
    return client


def test_every_url_pattern_has_a_name_and_both_rows():
    unnamed = [pattern.route for pattern in PATTERNS if not pattern.name]
    assert not unnamed, f"URL patterns without a name: {unnamed}"
    missing = [
        f"{pattern.name} {method}"
        for pattern in PATTERNS
        for method in METHODS
        if (pattern.name, method) not in EXPECTED
    ]
    assert not missing, f"URL patterns with no expectation in {__name__}.TABLE: {missing}"
    names = {pattern.name for pattern in PATTERNS}
    stale = sorted({name for name, _method in EXPECTED if name not in names})
    assert not stale, f"rows for URL patterns that no longer exist: {stale}"


def _cases():
    for pattern in PATTERNS:
        for who in CLIENTS:
            for method in METHODS:
                yield pytest.param(
                    pattern, who, method, id=f"{pattern.name or pattern.route}-{who}-{method}"
                )


def body(response) -> bytes:
    """The answer's bytes, a streamed one (the export) read to its end."""
    return b"".join(response.streaming_content) if response.streaming else response.content


@pytest.mark.parametrize(("pattern", "who", "method"), list(_cases()))
def test_the_answer(world: World, pattern: Pattern, who: str, method: str):
    row = EXPECTED.get((pattern.name, method))
    if row is None:
        pytest.fail(f"{pattern.name or pattern.route} has no {method} row in TABLE: add one")
    expected = row[CLIENTS.index(who)]
    client = _client(world, who)
    url = url_for(world, pattern)
    response = client.get(url) if method == "GET" else client.post(url, {})
    status = response.status_code
    assert status != 500, f"{method} {url} as {who}"
    if expected == LOGIN:
        assert status == 302 and response.url.startswith(reverse("login")), (status, url)
    else:
        assert status == int(expected), f"{method} {url} as {who}: {status}, not {expected}"
        if status == 302:
            assert not response.url.startswith(reverse("login")), response.url
    if who not in MAY_SEE_GERMAN_SECRETS:
        assert GERMAN_SECRET.encode() not in body(response), f"{who} reads a German secret"
    if who != "anonymous" and status == 200:
        assert _is_private(response), f"{method} {url} as {who}: {response.get('Cache-Control')}"


def _is_private(response) -> bool:
    """Cache-Control says: for this browser only, and not even kept on its disk."""
    directives = {
        part.strip().partition("=")[0] for part in response.get("Cache-Control", "").split(",")
    }
    return {"private", "no-store"} <= directives


@pytest.mark.parametrize(
    "name",
    [
        "campaigns:ledger",
        "campaigns:dice_log",
        "campaigns:export",
        "perimeters:page",
    ],
)
@pytest.mark.parametrize("who", sorted(MAY_SEE_GERMAN_SECRETS))
def test_the_german_secret_is_on_the_pages_of_those_who_may_see_it(
    world: World, name: str, who: str
):
    """The check above could fail: these pages show the German secret to those who may see it."""
    pattern = next(pattern for pattern in PATTERNS if pattern.name == name)
    response = _client(world, who).get(url_for(world, pattern))
    assert GERMAN_SECRET.encode() in body(response)


@pytest.mark.parametrize("name", ["campaigns:games", "campaigns:game", "campaigns:game_section"])
def test_the_public_game_browser_stays_cacheable_for_visitors(world: World, name: str):
    """Only what a signed-in user is shown is private; the game data is the same for everyone."""
    pattern = next(pattern for pattern in PATTERNS if pattern.name == name)
    anonymous = _client(world, "anonymous").get(url_for(world, pattern))
    assert anonymous.status_code == 200
    assert not _is_private(anonymous)
    signed_in = _client(world, "observer").get(url_for(world, pattern))
    assert _is_private(signed_in)


def _referee_pages() -> list[Pattern]:
    referee = CLIENTS.index("referee")
    return [
        pattern
        for pattern in PATTERNS
        if EXPECTED.get((pattern.name, "GET"), ("",) * len(CLIENTS))[referee] == "200"
    ]


def test_the_referee_has_pages_to_ask_for():
    assert len(_referee_pages()) > 40


@pytest.mark.parametrize("pattern", _referee_pages(), ids=lambda pattern: pattern.name)
def test_head_answers_what_get_answers(world: World, pattern: Pattern):
    """Uptime monitors and link checkers ask with HEAD: wherever GET answers, HEAD does too,
    with the same status and no body."""
    client = _client(world, "referee")
    url = url_for(world, pattern)
    get = client.get(url)
    head = client.head(url)
    assert head.status_code == get.status_code == 200, f"HEAD {url}: {head.status_code}"
    assert not head.streaming and head.content == b""


# Field names of the app's forms, each given a value no form accepts (or one a form might
# accept, for the second payload): whoever is refused an empty form is refused these the same
# way, so no view reads, validates or answers about a form before it checks who may send it.
FORM_FIELDS = """
action afv air_points amount arrival_edge arrival_turn artillery_used attack attackers becomes
belt box breakthrough burning ca_drm capacity captured_afv chit_revealed condition controller
count current cut_off cvp data defenders defense detonating_unit ec elr elr_san_revealed
encircled entry exited_uncontrolled factors formation formed from front full game hex hexes
hexes_confirmed hist_drm hs_equivalents in_pocket index initiative_chit instead item key kind
label leader_drm leaders level lines location locations lost manual map_group marked_n members
met moon move_quantity msl my_role name nationality nca_drm night no_cvp note notes
observer_location options origin out_of_supply override_reason overrule paste phase placement
pp_over_ipc pre_registered_hexes quantity reason rebook reconstituted reduced remove reph rg
role san seen selected sequence setup shifts side size slot state status status_note statuses
step steps stuka_two_cpp table target terrain text trench turn turns_played under_construction
unit unit_type units version via water weather what wind with_state wounded
""".split()  # noqa: SIM905 (a list literal would take a line per name)
INVALID_FORMS = {
    "nonsense": {field: "not-a-value-!" for field in FORM_FIELDS},
    "numbers": {field: "-1" for field in FORM_FIELDS},
    "plausible": {**{field: "1" for field in FORM_FIELDS}, "side": "german", "role": "referee"},
}


def _refusals():
    for pattern in PATTERNS:
        row = EXPECTED.get((pattern.name, "POST"))
        for who in PERSONAS:
            if row and row[CLIENTS.index(who)] in {"403", "404"}:
                for form in INVALID_FORMS:
                    yield pytest.param(pattern, who, form, id=f"{pattern.name}-{who}-{form}")


def test_the_observer_is_refused_every_campaign_form():
    refused = {p.name for p, who, _form in (c.values for c in _refusals()) if who == "observer"}
    posted = {name for name, method in EXPECTED if method == "POST"}
    open_to_all = {
        name
        for name in posted
        if EXPECTED[name, "POST"][CLIENTS.index("outsider")] not in {"404", "405"}
    }
    takes_posts = {name for name in posted if EXPECTED[name, "POST"][0] != "405"}
    # Forms about the member's own seat, which every member (the observer too) may send.
    own_seat = {"campaigns:leave"}
    assert takes_posts - open_to_all - refused - own_seat == set()


@pytest.mark.parametrize(("pattern", "who", "form"), list(_refusals()))
def test_authorization_comes_before_validation(world: World, pattern: Pattern, who: str, form):
    """An invalid form from someone refused an empty one is refused (403/404), not validated
    (200/400 with errors, or 302 with an error message)."""
    url = url_for(world, pattern)
    response = _client(world, who).post(url, INVALID_FORMS[form])
    assert response.status_code in {403, 404}, f"POST {url} as {who}: {response.status_code}"
