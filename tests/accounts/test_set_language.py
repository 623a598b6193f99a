import pytest
from django.conf import settings
from django.urls import reverse

pytestmark = pytest.mark.django_db
URL = reverse("set_language")


@pytest.fixture
def hans(django_user_model):
    return django_user_model.objects.create_user(username="hans")


def test_it_switches_to_japanese_and_remembers_it_on_the_account(client, hans):
    client.force_login(hans)
    response = client.post(URL, {"language": "ja", "next": "/campaigns/new/"})
    assert response.status_code == 302
    assert response["Location"] == "/campaigns/new/"
    hans.refresh_from_db()
    assert hans.language == "ja"
    page = client.get(reverse("campaigns:create"))
    assert '<html lang="ja">' in page.content.decode()
    assert "新規キャンペーン" in page.content.decode()


def test_the_account_language_follows_me_to_another_browser(client, hans):
    hans.language = "ja"
    hans.save()
    client.force_login(hans)
    html = client.get("/", headers={"Accept-Language": "en"}).content.decode()
    assert '<html lang="ja">' in html


def test_without_a_choice_the_browser_language_is_used(client, hans):
    client.force_login(hans)
    html = client.get("/", headers={"Accept-Language": "ja,en;q=0.5"}).content.decode()
    assert '<html lang="ja">' in html
    html = client.get("/", headers={"Accept-Language": "en-GB"}).content.decode()
    assert '<html lang="en">' in html


def test_an_anonymous_visitor_switches_by_cookie(client):
    response = client.post(URL, {"language": "ja", "next": "/accounts/login/"})
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ja"
    assert '<html lang="ja">' in client.get(reverse("login")).content.decode()


def test_an_unknown_language_changes_nothing(client, hans):
    client.force_login(hans)
    client.post(URL, {"language": "de"})
    hans.refresh_from_db()
    assert hans.language == ""


def test_it_never_redirects_to_another_site(client):
    response = client.post(URL, {"language": "en", "next": "https://evil.example/"})
    assert response["Location"] == "/"


def test_get_is_not_allowed(client):
    assert client.get(URL).status_code == 405


def test_each_language_is_named_in_itself_so_anyone_can_find_theirs(client, hans):
    hans.language = "ja"
    hans.save()
    client.force_login(hans)
    html = client.get("/").content.decode()
    assert '<option value="en" lang="en" >English</option>' in html
    assert "日本語</option>" in html
