"""Accounts look after themselves: a signed-in player changes their password, a forgetful one
asks for a reset link by email."""

import re

import pytest
from django.core import mail
from django.urls import reverse

pytestmark = pytest.mark.django_db
OLD = "a-long-password-1"
NEW = "Another-long-one-42"


@pytest.fixture
def hans(django_user_model):
    return django_user_model.objects.create_user(
        username="hans", email="hans@example.org", password=OLD
    )


def _signs_in(client, password: str) -> bool:
    client.logout()
    response = client.post(reverse("login"), {"username": "hans", "password": password})
    return response.status_code == 302 and "_auth_user_id" in client.session


def test_the_header_links_to_change_password_when_signed_in(client, hans):
    client.force_login(hans)
    page = client.get(reverse("campaigns:list")).content.decode()
    assert reverse("password_change") in page


def test_the_sign_in_page_links_to_the_reset(client):
    page = client.get(reverse("login")).content.decode()
    assert reverse("password_reset") in page
    assert "Forgot your password?" in page


def test_a_visitor_is_sent_to_sign_in_for_a_password_change(client):
    response = client.get(reverse("password_change"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_changing_the_password_keeps_me_signed_in_and_the_old_one_stops_working(client, hans):
    client.force_login(hans)
    response = client.post(
        reverse("password_change"),
        {"old_password": OLD, "new_password1": NEW, "new_password2": NEW},
    )
    assert response.status_code == 302
    assert response.url == reverse("password_change_done")
    assert client.get(reverse("password_change_done")).status_code == 200  # still signed in
    assert not _signs_in(client, OLD)
    assert _signs_in(client, NEW)


def test_a_wrong_old_password_changes_nothing(client, hans):
    client.force_login(hans)
    response = client.post(
        reverse("password_change"),
        {"old_password": "not-it", "new_password1": NEW, "new_password2": NEW},
    )
    assert response.status_code == 200
    assert "old_password" in response.context["form"].errors
    assert _signs_in(client, OLD)


def _reset_link(message) -> str:
    match = re.search(r"https?://[^/\s]+(/accounts/reset/\S+/)", message.body)
    assert match, message.body
    return match.group(1)


def test_a_reset_sends_one_email_with_a_link_that_sets_a_new_password(client, hans):
    response = client.post(reverse("password_reset"), {"email": "HANS@example.org"})
    assert response.status_code == 302
    assert response.url == reverse("password_reset_done")
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["hans@example.org"]
    assert '"hans"' in message.body

    page = client.get(_reset_link(message), follow=True)
    assert page.status_code == 200
    assert page.context["validlink"] is True
    response = client.post(page.redirect_chain[-1][0], {"new_password1": NEW, "new_password2": NEW})
    assert response.url == reverse("password_reset_complete")
    assert _signs_in(client, NEW)
    assert not _signs_in(client, OLD)


def test_a_reset_link_works_once(client, hans):
    client.post(reverse("password_reset"), {"email": "hans@example.org"})
    page = client.get(_reset_link(mail.outbox[0]), follow=True)
    url = page.redirect_chain[-1][0]
    client.post(url, {"new_password1": NEW, "new_password2": NEW})
    again = client.get(_reset_link(mail.outbox[0]), follow=True)
    assert again.context["validlink"] is False
    assert "no longer works" in again.content.decode()


def test_the_email_is_in_the_language_the_account_saved(client, hans):
    hans.language = "ja"
    hans.save()
    client.post(reverse("password_reset"), {"email": "hans@example.org"})
    message = mail.outbox[0]
    assert "新しいパスワード" in message.subject
    assert "このリンク" in message.body


def test_without_a_saved_language_the_email_follows_the_page(client, hans):
    client.post(
        reverse("password_reset"), {"email": "hans@example.org"}, headers={"Accept-Language": "ja"}
    )
    assert "新しいパスワード" in mail.outbox[0].subject
    client.post(reverse("password_reset"), {"email": "hans@example.org"})
    assert "Choose a new password" in mail.outbox[1].subject


def test_an_unknown_email_gets_the_same_answer_and_no_email(client, hans):
    known = client.post(reverse("password_reset"), {"email": "hans@example.org"}, follow=True)
    unknown = client.post(reverse("password_reset"), {"email": "nobody@example.org"}, follow=True)
    assert len(mail.outbox) == 1
    assert unknown.redirect_chain == known.redirect_chain
    assert unknown.status_code == known.status_code == 200
    # The same page, the CSRF tokens (masked anew on every response) aside.
    assert _without_tokens(unknown.content) == _without_tokens(known.content)


def _without_tokens(content: bytes) -> str:
    return re.sub(r"[A-Za-z0-9]{64}", "TOKEN", content.decode())


def test_signing_up_with_an_email_makes_the_account_resettable(client, django_user_model):
    client.post(
        reverse("signup"),
        {
            "username": "vasily",
            "email": "vasily@example.org",
            "password1": "Sniper-of-1942",
            "password2": "Sniper-of-1942",
        },
    )
    assert django_user_model.objects.get(username="vasily").email == "vasily@example.org"
    client.logout()
    client.post(reverse("password_reset"), {"email": "vasily@example.org"})
    assert mail.outbox[0].to == ["vasily@example.org"]


def test_the_admin_can_still_set_a_password(admin_client, hans):
    url = reverse("admin:auth_user_password_change", args=[hans.pk])
    response = admin_client.post(url, {"password1": NEW, "password2": NEW})
    assert response.status_code == 302
    hans.refresh_from_db()
    assert hans.check_password(NEW)
