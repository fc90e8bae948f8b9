"""The admin shows games, their seats and their log, and changes none of the log."""

import pytest
from django.contrib.admin.sites import site
from django.urls import reverse

from games import services
from games.models import Event, Game


@pytest.fixture
def game(make_game, play):
    made = make_game()
    play(made, commands=3)
    services.open_dispute(game_id=made.pk, version=6, claim="too many cards", by="seat:1")
    return made


def test_the_admin_pages_of_a_game_its_events_and_disputes_open(admin_client, game):
    pages = [
        reverse("admin:games_game_changelist"),
        reverse("admin:games_game_change", args=[game.pk]),
        reverse("admin:games_event_changelist") + f"?game__id__exact={game.pk}",
        reverse("admin:games_event_change", args=[Event.objects.filter(game=game).first().pk]),
        reverse("admin:games_dispute_changelist"),
    ]
    for page in pages:
        assert admin_client.get(page).status_code == 200, page

    change = admin_client.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    assert "Ann" in change and f"the {Game.objects.get(pk=game.pk).version} events" in change


def test_nobody_may_add_change_or_delete_an_event_in_the_admin(rf, admin_user, game):
    request = rf.get("/")
    request.user = admin_user
    event_admin = site._registry[Event]
    event = Event.objects.filter(game=game).first()

    assert event_admin.has_view_permission(request, event)
    assert not event_admin.has_add_permission(request)
    assert not event_admin.has_change_permission(request, event)
    assert not event_admin.has_delete_permission(request, event)


def test_a_game_cannot_be_added_or_deleted_in_the_admin(admin_client, game):
    assert admin_client.get(reverse("admin:games_game_add")).status_code == 403
    assert admin_client.get(reverse("admin:games_game_delete", args=[game.pk])).status_code == 403
    response = admin_client.post(
        reverse("admin:games_event_delete", args=[Event.objects.filter(game=game).first().pk]),
        {"post": "yes"},
    )
    assert response.status_code == 403
    assert Event.objects.filter(game=game).count() == Game.objects.get(pk=game.pk).version
