"""Errors are pages of the app: in the reader's language, with a way back home."""

import pytest
from django.template.loader import get_template
from django.test import Client
from django.urls import reverse
from django.utils import translation

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.config.error_urls")]
HOME = 'href="/"'


@pytest.fixture
def visitor() -> Client:
    return Client(raise_request_exception=False)


@pytest.mark.parametrize(
    ("url", "status", "english", "japanese"),
    [
        ("/fail/403/", 403, "Not allowed", "許可されていません"),
        ("/fail/404/", 404, "Not found", "見つかりません"),
        ("/no/such/page/", 404, "Not found", "見つかりません"),
        ("/fail/500/", 500, "Something went wrong", "エラーが発生しました"),
    ],
)
@pytest.mark.parametrize("language", ["en", "ja"])
def test_an_error_is_a_page_of_the_app_in_my_language(
    visitor, url, status, english, japanese, language
):
    response = visitor.get(url, headers={"Accept-Language": language})
    assert response.status_code == status
    page = response.content.decode()
    assert (japanese if language == "ja" else english) in page
    assert f'lang="{language}"' in page
    assert HOME in page


def test_a_signed_in_player_gets_the_error_page_in_the_language_of_the_account(
    django_user_model,
):
    user = django_user_model.objects.create_user(username="ivan", language="ja")
    client = Client(raise_request_exception=False)
    client.force_login(user)
    for url in ("/fail/403/", "/fail/404/", "/fail/500/"):
        assert 'lang="ja"' in client.get(url).content.decode()


def test_the_server_error_page_renders_without_a_request_or_database(
    django_assert_num_queries,
):
    with django_assert_num_queries(0), translation.override("ja"):
        page = get_template("500.html").render()
    assert "エラーが発生しました" in page
    assert HOME in page
    assert "{%" not in page and "<link" not in page  # self-contained, no stylesheet to fetch


@pytest.mark.parametrize(
    ("language", "text"),
    [("en", "Too many failed sign-ins"), ("ja", "ログインの失敗")],
)
def test_a_sign_in_lockout_is_a_429_page_in_my_language(
    django_user_model, settings, language, text
):
    django_user_model.objects.create_user(username="hans", password="a-long-password-1")
    client = Client()
    headers = {"Accept-Language": language}
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(reverse("login"), {"username": "hans", "password": "no"}, headers=headers)
    response = client.post(
        reverse("login"), {"username": "hans", "password": "a-long-password-1"}, headers=headers
    )
    assert response.status_code == 429
    page = response.content.decode()
    assert text in page
    assert HOME in page
    assert reverse("password_reset") in page
