import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db
URL = reverse("signup")
GOOD = {"username": "vasily", "password1": "Sniper-of-1942", "password2": "Sniper-of-1942"}


def test_it_creates_an_account_and_signs_me_in(client, django_user_model):
    response = client.post(URL, GOOD)
    assert response.status_code == 302
    assert response["Location"] == reverse("campaigns:list")
    user = django_user_model.objects.get(username="vasily")
    assert int(client.session["_auth_user_id"]) == user.pk


def test_it_returns_to_the_invitation_i_came_from(client):
    response = client.post(URL + "?next=/join/abc/", {**GOOD, "next": "/join/abc/"})
    assert response["Location"] == "/join/abc/"


def test_it_does_not_redirect_to_another_site(client):
    response = client.post(URL, {**GOOD, "next": "https://evil.example/"})
    assert response["Location"] == reverse("campaigns:list")


def test_it_remembers_the_language_i_signed_up_in(client, django_user_model):
    client.post(URL, GOOD, headers={"Accept-Language": "ja"})
    assert django_user_model.objects.get(username="vasily").language == "ja"


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({**GOOD, "password2": "different-one-1"}, "password2"),
        ({**GOOD, "password1": "123", "password2": "123"}, "password2"),
        ({**GOOD, "username": ""}, "username"),
    ],
)
def test_bad_input_is_refused_and_named(client, django_user_model, data, field):
    response = client.post(URL, data)
    assert response.status_code == 200
    assert field in response.context["form"].errors
    assert not django_user_model.objects.exists()


def test_a_taken_username_is_refused(client, django_user_model):
    django_user_model.objects.create_user(username="vasily")
    response = client.post(URL, GOOD)
    assert "username" in response.context["form"].errors
