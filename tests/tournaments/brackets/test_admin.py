"""The tournament admin: everything shown, nothing edited by hand, the services as actions."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tournaments.brackets import services
from tournaments.brackets.models import Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client):
    user = get_user_model().objects.create_superuser("boss", "boss@example.org", "pw")
    client.force_login(user)
    return user


@pytest.fixture
def tournament(staff):
    return services.create_tournament(
        name="Winter Open",
        organiser=staff,
        format="elimination",
        table_size=4,
        advance=2,
        players=[f"P{i}" for i in range(8)],
        scoring="none",
    )


def test_the_tournament_pages_show_entries_rounds_and_tables(client, tournament):
    services.start_tournament(tournament_id=tournament.pk)
    page = client.get(reverse("admin:tournaments_tournament_change", args=[tournament.pk]))
    assert page.status_code == 200
    assert b"P7" in page.content and b"elimination" in page.content
    rnd = Round.objects.get(tournament=tournament, number=1)
    round_page = client.get(reverse("admin:tournaments_round_change", args=[rnd.pk]))
    assert round_page.status_code == 200
    assert round_page.content.count(b"P0") >= 1


def test_the_start_action_seats_round_one_through_the_service(client, tournament):
    url = reverse("admin:tournaments_tournament_changelist")
    response = client.post(
        url, {"action": "start", "_selected_action": [tournament.pk]}, follow=True
    )
    assert b"round 1 seated" in response.content
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.RUNNING


def test_seating_the_next_round_early_does_nothing_and_says_so(client, tournament):
    services.start_tournament(tournament_id=tournament.pk)
    url = reverse("admin:tournaments_tournament_changelist")
    data = {"action": "seat_next_round", "_selected_action": [tournament.pk]}
    response = client.post(url, data, follow=True)
    assert b"nothing to seat yet" in response.content
    assert Round.objects.filter(tournament=tournament).count() == 1


def test_a_tournament_is_not_added_or_its_settings_edited_in_the_admin(client, tournament):
    assert client.get(reverse("admin:tournaments_tournament_add")).status_code == 403
    page = client.get(reverse("admin:tournaments_tournament_change", args=[tournament.pk]))
    assert b'name="table_size"' not in page.content
