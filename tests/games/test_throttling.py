"""Rate limits: past its rate a caller gets 429 with Retry-After, counted per seat for seats, per
address for the token endpoint and for wrong seat secrets, per address with the sign-in page's
and per account for wrong old passwords on a password change (games/throttles.py)."""

import uuid
from unittest import mock

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from tests.games.api_support import create_game, seat_client, seats, url, user_client

pytestmark = pytest.mark.django_db

SCOPES = ("token", "seat", "commands", "seat_failures")


@pytest.fixture
def rates(settings):
    """``rates(scope="n/period", ...)``: these limits on, the others off, every count at zero."""

    def turn_on(**given):
        assert set(given) <= set(SCOPES)
        throttle_rates = {**dict.fromkeys(SCOPES), **given}
        settings.REST_FRAMEWORK = {
            **settings.REST_FRAMEWORK,
            "DEFAULT_THROTTLE_RATES": throttle_rates,
        }

    cache.clear()
    yield turn_on
    cache.clear()


def assert_throttled(response, within: int = 60):
    assert response.status_code == 429, response.content
    assert 1 <= int(response["Retry-After"]) <= within
    if response["Content-Type"].startswith("application/json"):
        assert response.json()["error"] == "throttled"


def token_request(client, password="wrong"):
    return client.post("/api/auth/token/", {"username": "ann", "password": password}, format="json")


def off_turn_seats(game):
    """Seat numbers the game is not waiting for (their commands are illegal, so nothing is
    appended however often they are sent)."""
    detail = seats(game)[0].get(url(game))
    assert detail.status_code == 200, detail.content
    pending = detail.json()["pending"]["seat"]
    return [n for n in range(len(game["seats"])) if n != pending]


# The token endpoint -----------------------------------------------------------------------------


def test_the_token_endpoint_answers_429_with_retry_after_past_its_rate(rates):
    rates(token="3/minute")
    client = APIClient()

    answers = [token_request(client).status_code for _ in range(3)]

    assert answers == [400, 400, 400]
    assert_throttled(token_request(client))


def test_the_token_limit_counts_each_address_apart(rates):
    rates(token="2/minute")
    guesser = APIClient(REMOTE_ADDR="203.0.113.7")
    for _ in range(2):
        token_request(guesser)
    assert_throttled(token_request(guesser))

    assert token_request(APIClient(REMOTE_ADDR="203.0.113.8")).status_code == 400


def test_behind_a_proxy_the_address_is_the_one_the_proxy_appended(rates, settings):
    rates(token="2/minute")
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    proxy = {"REMOTE_ADDR": "10.0.0.1"}
    for forged in ("1.1.1.1", "2.2.2.2"):
        # The client forges a first entry; the proxy appends the address it really came from.
        token_request(APIClient(**proxy, HTTP_X_FORWARDED_FOR=f"{forged}, 203.0.113.7"))

    forging_again = APIClient(**proxy, HTTP_X_FORWARDED_FOR="3.3.3.3, 203.0.113.7")
    assert_throttled(token_request(forging_again))
    neighbour = APIClient(**proxy, HTTP_X_FORWARDED_FOR="203.0.113.8")
    assert token_request(neighbour).status_code == 400


def test_without_a_proxy_a_forged_forwarded_for_header_changes_nothing(rates, settings):
    rates(token="2/minute")
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 0}
    for n in range(2):
        token_request(APIClient(REMOTE_ADDR="203.0.113.7", HTTP_X_FORWARDED_FOR=f"1.1.1.{n}"))

    forged = APIClient(REMOTE_ADDR="203.0.113.7", HTTP_X_FORWARDED_FOR="1.1.1.9")
    assert_throttled(token_request(forged))


# Seats ------------------------------------------------------------------------------------------


def test_a_seats_requests_are_limited_and_another_seat_is_not_slowed_by_it(rates):
    referee = user_client()
    game = create_game(referee)
    ann, bob, _ = seats(game)
    rates(seat="3/minute")

    answers = [ann.get(url(game)).status_code for _ in range(3)]

    assert answers == [200, 200, 200]
    assert_throttled(ann.get(url(game)))
    assert_throttled(ann.get(url(game, "events/")))
    assert bob.get(url(game)).status_code == 200
    # Users are not seats: the referee is not counted here.
    assert all(referee.get(url(game)).status_code == 200 for _ in range(5))


def test_a_seats_commands_are_limited_per_seat(rates):
    game = create_game(user_client())
    first, second = off_turn_seats(game)
    clients = seats(game)
    rates(commands="2/minute")

    answers = [
        clients[first].post(url(game, "commands/"), {"type": "draw"}, format="json").status_code
        for _ in range(2)
    ]

    assert answers == [409, 409]  # not their turn: counted all the same
    assert_throttled(clients[first].post(url(game, "commands/"), {"type": "draw"}, format="json"))
    assert clients[first].get(url(game)).status_code == 200  # reading is another limit
    other = clients[second].post(url(game, "commands/"), {"type": "draw"}, format="json")
    assert other.status_code == 409


# Wrong seat secrets -----------------------------------------------------------------------------


def test_wrong_seat_secrets_are_limited_per_address_and_then_no_secret_is_checked(rates):
    game = create_game(user_client())
    right = game["seats"][0]["secret"]
    rates(seat_failures="3/minute")

    def attempt(secret, address="203.0.113.7"):
        client = APIClient(REMOTE_ADDR=address)
        client.credentials(HTTP_AUTHORIZATION=f"Seat {secret}")
        return client.get(url(game))

    answers = [attempt(f"guess-{n}").status_code for n in range(3)]

    assert answers == [403, 403, 403]
    assert_throttled(attempt("guess-3"))
    # Even the right secret is not checked from there: the answer tells a guesser nothing.
    assert_throttled(attempt(right))
    assert attempt(right, address="203.0.113.8").status_code == 200
    assert attempt("guess-4", address="203.0.113.8").status_code == 403


def test_right_seat_secrets_are_not_counted_as_failures(rates):
    game = create_game(user_client())
    ann = seats(game)[0]
    rates(seat_failures="2/minute")

    assert [ann.get(url(game)).status_code for _ in range(5)] == [200] * 5


def test_a_secret_tried_on_a_game_that_does_not_exist_counts_as_wrong(rates):
    rates(seat_failures="2/minute")
    client = seat_client("anything")
    missing = url(str(uuid.uuid4()))

    assert [client.get(missing).status_code for _ in range(2)] == [404, 404]
    assert_throttled(client.get(missing))


# The seat's private link ------------------------------------------------------------------------


def link(game, secret):
    return f"/table/{game['id']}/seat/{secret}/"


def assert_kept_private(response):
    assert response["Cache-Control"] == "no-store"
    assert response["Referrer-Policy"] == "no-referrer"


def test_every_answer_to_a_seat_link_is_kept_out_of_caches_and_referers(rates, client):
    game = create_game(user_client())
    rates(seat_failures="1/minute")

    good = client.get(link(game, game["seats"][0]["secret"]))
    wrong = client.get(link(game, "guess"))
    throttled = client.get(link(game, "guess"))

    assert good.status_code == 302
    assert wrong.status_code == 404
    assert_throttled(throttled)
    for response in (good, wrong, throttled):
        assert_kept_private(response)


def test_wrong_seat_links_are_limited_per_address_with_the_api_secrets(rates, client):
    game = create_game(user_client())
    right = game["seats"][1]["secret"]
    rates(seat_failures="3/minute")
    assert seat_client("guess-0").get(url(game)).status_code == 403

    answers = [client.get(link(game, f"guess-{n}")).status_code for n in (1, 2)]

    assert answers == [404, 404]
    assert_throttled(client.get(link(game, right)))
    assert "table_seats" not in client.session
    elsewhere = APIClient(REMOTE_ADDR="203.0.113.8").get(link(game, right))
    assert elsewhere.status_code == 302


# When the cache is away -------------------------------------------------------------------------


@pytest.fixture
def unreachable_cache(settings):
    """The rate limits' cache pointed at a Redis that is not there (as when Redis goes down);
    Django makes its caches anew when the setting changes."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }


def test_with_the_cache_unreachable_commands_and_secrets_still_work(settings, unreachable_cache):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": dict.fromkeys(SCOPES, "5/minute"),
    }
    referee = user_client()
    game = create_game(referee)
    clients = seats(game)
    view = clients[0].get(url(game)).json()
    seat = view["pending"]["seat"]
    legal = clients[seat].get(url(game)).json()["legal"]

    sent = clients[seat].post(url(game, "commands/"), legal[0], format="json")
    wrong = seat_client("not-a-secret").get(url(game))
    token = token_request(APIClient())

    assert sent.status_code == 201, sent.content
    assert wrong.status_code == 403
    assert token.status_code == 400


# The sign-in page ---------------------------------------------------------------------------------


def test_the_sign_in_page_limits_wrong_passwords_per_address(rates, client, django_user_model):
    rates(token="3/minute")
    django_user_model.objects.create_user("ann", password="the-right-one-2026")
    form = {"username": "ann", "password": "wrong"}

    answers = [client.post("/accounts/login/", form) for _ in range(3)]
    refused = client.post("/accounts/login/", {**form, "password": "the-right-one-2026"})

    assert [a.status_code for a in answers] == [200, 200, 200]
    assert_throttled(refused)
    assert "Too many wrong passwords" in refused.content.decode()
    assert "_auth_user_id" not in client.session


def test_past_the_limit_the_sign_in_page_checks_no_password(rates, client, django_user_model):
    # Refused without working out the password's hash: a guesser past the limit costs the
    # server nothing, and learns nothing.
    rates(token="2/minute")
    django_user_model.objects.create_user("cleo", password="the-right-one-2026")
    for _ in range(2):
        client.post("/accounts/login/", {"username": "cleo", "password": "wrong"})

    with mock.patch("django.contrib.auth.forms.authenticate") as authenticate:
        refused = client.post(
            "/accounts/login/", {"username": "cleo", "password": "the-right-one-2026"}
        )

    assert_throttled(refused)
    assert not authenticate.called
    assert "Too many wrong passwords from here" in refused.content.decode()


def test_a_right_password_on_the_sign_in_page_is_not_counted(rates, client, django_user_model):
    rates(token="2/minute")
    django_user_model.objects.create_user("bob", password="the-right-one-2026")

    for _ in range(3):
        signed_in = client.post(
            "/accounts/login/", {"username": "bob", "password": "the-right-one-2026"}
        )
        assert signed_in.status_code == 302
        client.logout()


def test_the_admin_sign_in_counts_wrong_passwords_with_the_sign_in_page(
    rates, client, django_user_model
):
    # The admin's own sign-in checks passwords too: no way round the page's limit.
    rates(token="3/minute")
    django_user_model.objects.create_user("olga", password="the-right-one-2026", is_staff=True)
    form = {"username": "olga", "password": "wrong", "next": "/admin/"}

    answers = [client.post("/admin/login/", form) for _ in range(2)]
    answers.append(client.post("/accounts/login/", form))
    refused = client.post("/admin/login/", {**form, "password": "the-right-one-2026"})

    assert [a.status_code for a in answers] == [200, 200, 200]
    assert_throttled(refused)
    assert "_auth_user_id" not in client.session


def test_a_right_password_on_the_admin_sign_in_is_not_counted(rates, client, django_user_model):
    rates(token="2/minute")
    django_user_model.objects.create_user("olga", password="the-right-one-2026", is_staff=True)
    form = {"username": "olga", "password": "the-right-one-2026", "next": "/admin/"}

    for _ in range(3):
        assert client.post("/admin/login/", form).status_code == 302
        client.logout()


# Changing one's password ----------------------------------------------------------------------


def change_password(client, old, new="a-new-one-for-2027"):
    form = {"old_password": old, "new_password1": new, "new_password2": new}
    return client.post("/accounts/password/", form)


def test_the_password_change_limits_wrong_old_passwords_with_the_sign_in_page(
    rates, client, django_user_model
):
    """The form checks a password, so it counts with the sign-in page's wrong passwords from
    the address: past the limit even the right old password is refused, and nothing changes."""
    rates(token="3/minute")
    ann = django_user_model.objects.create_user("ann", password="the-right-one-2026")
    client.post("/accounts/login/", {"username": "ann", "password": "wrong"})
    client.force_login(ann)

    answers = [change_password(client, "wrong") for _ in range(2)]
    refused = change_password(client, "the-right-one-2026")

    assert [a.status_code for a in answers] == [200, 200]
    assert all("old password was entered incorrectly" in a.content.decode() for a in answers)
    assert_throttled(refused)
    page = refused.content.decode()
    assert "Too many wrong passwords: try again in" in page
    assert "Your password was not changed." in page
    assert 'role="alert"' in page
    ann.refresh_from_db()
    assert ann.check_password("the-right-one-2026")
    # And the sign-in page is over the limit from here too.
    client.logout()
    assert_throttled(
        client.post("/accounts/login/", {"username": "ann", "password": "the-right-one-2026"})
    )


def test_the_password_change_limits_wrong_old_passwords_per_account_from_any_address(
    rates, client, django_user_model
):
    """A session taken from its owner guesses from address after address: the account's own
    count stops it, and the owner's other accounts' neighbours are not slowed by it."""
    rates(token="3/minute")
    ann = django_user_model.objects.create_user("ann", password="the-right-one-2026")
    bob = django_user_model.objects.create_user("bob", password="bobs-own-one-2026")
    client.force_login(ann)
    for n in range(3):
        wrong = client.post(
            "/accounts/password/",
            {"old_password": "wrong", "new_password1": "x", "new_password2": "x"},
            REMOTE_ADDR=f"203.0.113.{n}",
        )
        assert wrong.status_code == 200
    refused = client.post(
        "/accounts/password/",
        {
            "old_password": "the-right-one-2026",
            "new_password1": "a-new-one-for-2027",
            "new_password2": "a-new-one-for-2027",
        },
        REMOTE_ADDR="203.0.113.99",
    )
    assert_throttled(refused)
    ann.refresh_from_db()
    assert ann.check_password("the-right-one-2026")

    client.force_login(bob)  # another account, from the same addresses: not slowed
    changed = client.post(
        "/accounts/password/",
        {
            "old_password": "bobs-own-one-2026",
            "new_password1": "a-new-one-for-2027",
            "new_password2": "a-new-one-for-2027",
        },
        REMOTE_ADDR="203.0.113.98",
    )
    assert changed.status_code == 302
    bob.refresh_from_db()
    assert bob.check_password("a-new-one-for-2027")


def test_a_right_old_password_or_a_new_one_refused_is_not_counted(rates, client, django_user_model):
    rates(token="2/minute")
    ann = django_user_model.objects.create_user("ann", password="the-right-one-2026")
    client.force_login(ann)
    for _ in range(3):  # the new passwords do not match: the form comes back, nothing counted
        mismatch = client.post(
            "/accounts/password/",
            {
                "old_password": "the-right-one-2026",
                "new_password1": "a-new-one-for-2027",
                "new_password2": "another-one-2027",
            },
        )
        assert mismatch.status_code == 200
    assert change_password(client, "the-right-one-2026").status_code == 302
    client.force_login(ann)
    assert change_password(client, "a-new-one-for-2027", new="a-third-one-2028").status_code == 302


def test_the_admins_password_change_counts_wrong_old_passwords_with_the_others(
    rates, client, django_user_model
):
    rates(token="3/minute")
    olga = django_user_model.objects.create_user(
        "olga", password="the-right-one-2026", is_staff=True
    )
    client.force_login(olga)
    change_password(client, "wrong")
    form = {"old_password": "wrong", "new_password1": "x", "new_password2": "x"}
    assert client.post("/admin/password_change/", form).status_code == 200
    change_password(client, "wrong")
    refused = client.post(
        "/admin/password_change/",
        {
            "old_password": "the-right-one-2026",
            "new_password1": "a-new-one-for-2027",
            "new_password2": "a-new-one-for-2027",
        },
    )
    assert_throttled(refused)
    olga.refresh_from_db()
    assert olga.check_password("the-right-one-2026")
    # Below the limit it still changes the password, and goes to the admin's own done page.
    cache.clear()
    changed = client.post(
        "/admin/password_change/",
        {
            "old_password": "the-right-one-2026",
            "new_password1": "a-new-one-for-2027",
            "new_password2": "a-new-one-for-2027",
        },
    )
    assert changed.status_code == 302 and changed["Location"] == "/admin/password_change/done/"


def test_the_admins_password_change_is_for_staff_only(client, django_user_model):
    ann = django_user_model.objects.create_user("ann", password="the-right-one-2026")
    client.force_login(ann)
    answer = client.post(
        "/admin/password_change/",
        {
            "old_password": "the-right-one-2026",
            "new_password1": "a-new-one-for-2027",
            "new_password2": "a-new-one-for-2027",
        },
    )
    assert answer.status_code == 302 and answer["Location"].startswith("/admin/login/")
    ann.refresh_from_db()
    assert ann.check_password("the-right-one-2026")
