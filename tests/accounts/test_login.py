import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db
URL = reverse("login")


@pytest.fixture
def hans(django_user_model):
    return django_user_model.objects.create_user(username="hans", password="a-long-password-1")


def test_it_signs_in_and_lands_on_my_campaigns(client, hans):
    response = client.post(URL, {"username": "hans", "password": "a-long-password-1"})
    assert response.status_code == 302
    assert response["Location"] == reverse("campaigns:list")


def test_a_wrong_password_is_refused_with_a_message(client, hans):
    response = client.post(URL, {"username": "hans", "password": "nope"})
    assert response.status_code == 200
    assert "do not match" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_repeated_failures_lock_the_account_for_that_address(client, hans, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(URL, {"username": "hans", "password": "nope"})
    response = client.post(URL, {"username": "hans", "password": "a-long-password-1"})
    assert response.status_code == 429
    assert "Too many failed sign-ins" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_failures_below_the_limit_do_not_lock(client, hans, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        client.post(URL, {"username": "hans", "password": "nope"})
    response = client.post(URL, {"username": "hans", "password": "a-long-password-1"})
    assert response.status_code == 302


def test_a_lockout_of_one_address_does_not_lock_another(client, hans, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(URL, {"username": "hans", "password": "nope"}, REMOTE_ADDR="10.0.0.9")
    response = client.post(
        URL, {"username": "hans", "password": "a-long-password-1"}, REMOTE_ADDR="10.0.0.10"
    )
    assert response.status_code == 302


def test_sign_out_needs_a_post(client, hans):
    client.force_login(hans)
    assert client.get(reverse("logout")).status_code == 405
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


def test_behind_the_proxy_failures_count_against_the_real_client(client, hans, settings):
    settings.BEHIND_PROXY = True
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(
            URL,
            {"username": "hans", "password": "nope"},
            REMOTE_ADDR="127.0.0.1",
            HTTP_X_FORWARDED_FOR="203.0.113.7",
        )
    # Another player behind the same proxy is not locked out by the stranger's failures …
    response = client.post(
        URL,
        {"username": "hans", "password": "a-long-password-1"},
        REMOTE_ADDR="127.0.0.1",
        HTTP_X_FORWARDED_FOR="198.51.100.2",
    )
    assert response.status_code == 302


def test_a_forged_forwarded_for_entry_does_not_escape_the_lockout(client, hans, settings):
    settings.BEHIND_PROXY = True
    for n in range(settings.AXES_FAILURE_LIMIT):
        # The client prepends a different fake address each time; our proxy appends the real one.
        client.post(
            URL,
            {"username": "hans", "password": "nope"},
            REMOTE_ADDR="127.0.0.1",
            HTTP_X_FORWARDED_FOR=f"10.9.9.{n}, 203.0.113.7",
        )
    response = client.post(
        URL,
        {"username": "hans", "password": "a-long-password-1"},
        REMOTE_ADDR="127.0.0.1",
        HTTP_X_FORWARDED_FOR="10.1.1.1, 203.0.113.7",
    )
    assert response.status_code == 429


def test_failures_spread_over_many_usernames_lock_the_address(client, hans, settings):
    for n in range(settings.AXES_FAILURE_LIMIT):
        client.post(URL, {"username": f"guess-{n}", "password": "nope"}, REMOTE_ADDR="10.0.0.9")
    response = client.post(
        URL, {"username": "hans", "password": "a-long-password-1"}, REMOTE_ADDR="10.0.0.9"
    )
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


def test_failures_spread_over_many_usernames_leave_other_addresses_alone(client, hans, settings):
    for n in range(settings.AXES_FAILURE_LIMIT):
        client.post(URL, {"username": f"guess-{n}", "password": "nope"}, REMOTE_ADDR="10.0.0.9")
    response = client.post(
        URL, {"username": "hans", "password": "a-long-password-1"}, REMOTE_ADDR="10.0.0.10"
    )
    assert response.status_code == 302
