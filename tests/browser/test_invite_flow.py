"""A campaign's creator invites a second player, who joins through the link."""

import re

from playwright.sync_api import Page, expect

PASSWORD = "a-long-password-123"
CAMPAIGN_NAME = "Barrikady Autumn"
TIMEOUT = 5_000


def sign_in(page: Page, base_url: str, username: str, password: str) -> None:
    """Fill the sign-in form on the current page (open it first unless we are already there)."""
    if "/accounts/login/" not in page.url:
        page.goto(base_url + "/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.locator("form.stacked button[type=submit]").click()


def test_two_players_join_a_campaign_through_an_invitation_link(
    live_server, new_page, django_user_model
):
    base = live_server.url
    django_user_model.objects.create_user(username="hans", password=PASSWORD)
    django_user_model.objects.create_user(username="ivan", password=PASSWORD)

    # 1. Hans signs in and lands on "My campaigns".
    hans = new_page()
    sign_in(hans, base, "hans", PASSWORD)
    hans.wait_for_url(base + "/", timeout=TIMEOUT)

    # 2. He switches the interface to Japanese; the choice sticks to his account.
    hans.select_option("#language-select", "ja")
    hans.locator("form.language-switch button").click()
    expect(hans.locator("html")).to_have_attribute("lang", "ja", timeout=TIMEOUT)
    hans.goto(base + "/campaigns/new/")
    expect(hans.locator("html")).to_have_attribute("lang", "ja", timeout=TIMEOUT)

    # 3. He creates a Red Factories campaign and plays the Germans.
    hans.fill("input[name=name]", CAMPAIGN_NAME)
    # Changing the game makes htmx replace #role-field with that game's roles only.
    with hans.expect_response(
        lambda r: "/campaigns/new/?game=" in r.url and r.request.method == "GET",
        timeout=TIMEOUT,
    ):
        hans.select_option("select[name=game]", "red_factories/rb-cg-1")
    role_select = hans.locator("#role-field select[name=my_role]")
    expect(role_select.locator("option[value='player:german']")).to_have_count(1, timeout=TIMEOUT)
    expect(role_select.locator("optgroup")).to_have_count(0, timeout=TIMEOUT)
    role_select.select_option("player:german")
    hans.locator("form.stacked button[type=submit]").click()
    hans.wait_for_url(re.compile(r"/campaigns/\d+/members/$"), timeout=TIMEOUT)
    campaign_path = re.search(r"/campaigns/\d+/", hans.url).group(0)

    # 4. He makes an invitation link for the Soviet side.
    invitations = hans.locator("#invitations")
    links_before = invitations.locator("input.invite-link").count()
    invitations.locator("select[name=role]").select_option("player:soviet")
    invitations.locator("form button[type=submit]").last.click()
    links = hans.locator("#invitations input.invite-link")
    expect(links).to_have_count(links_before + 1, timeout=TIMEOUT)
    invite_url = links.last.input_value()
    assert re.fullmatch(re.escape(base) + r"/join/[^/]+/", invite_url), invite_url

    # 5. Ivan, in his own browser, opens the link, signs in when asked, and joins.
    ivan = new_page(locale="en-US")
    ivan.goto(invite_url)
    ivan.wait_for_url(re.compile(r"/accounts/login/\?next="), timeout=TIMEOUT)
    sign_in(ivan, base, "ivan", PASSWORD)
    ivan.wait_for_url(invite_url, timeout=TIMEOUT)
    ivan.locator("form.stacked button[type=submit]").click()
    ivan.wait_for_url(base + campaign_path, timeout=TIMEOUT)

    # 6. Ivan sees the campaign, and on "My campaigns" he is its Soviet player.
    expect(ivan.locator("html")).to_have_attribute("lang", "en", timeout=TIMEOUT)
    expect(ivan.locator("main")).to_contain_text(CAMPAIGN_NAME, timeout=TIMEOUT)
    ivan.goto(base + "/")
    row = ivan.locator("main table tbody tr", has_text=CAMPAIGN_NAME)
    expect(row).to_have_count(1, timeout=TIMEOUT)
    expect(row).to_contain_text("Soviet player", timeout=TIMEOUT)

    # 7. Hans, still in Japanese, sees Ivan on the Soviet side of "who plays".
    hans.goto(base + campaign_path)
    expect(hans.locator("html")).to_have_attribute("lang", "ja", timeout=TIMEOUT)
    soviet_seat = hans.locator("main table tr", has_text="ソ連軍")
    expect(soviet_seat).to_have_count(1, timeout=TIMEOUT)
    expect(soviet_seat).to_contain_text("ivan", timeout=TIMEOUT)
    hans.goto(base + "/")
    expect(hans.locator("html")).to_have_attribute("lang", "ja", timeout=TIMEOUT)
    expect(hans.locator("main")).to_contain_text(CAMPAIGN_NAME, timeout=TIMEOUT)
