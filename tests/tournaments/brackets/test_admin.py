"""The tournament admin: everything shown, nothing edited by hand, the services as actions."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tournaments.brackets import directing, services
from tournaments.brackets.models import Round, Ruling, Tournament

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


def test_the_rulings_say_whom_each_is_against(client, tournament, staff):
    from tournaments.brackets import directing
    from tournaments.brackets.models import Table

    services.start_tournament(tournament_id=tournament.pk)
    table = Table.objects.filter(round__number=1).first()
    directing.award_against(
        tournament_id=tournament.pk,
        round_number=1,
        table_number=table.number,
        kind="forfeit",
        player=table.players[1],
        reason="went home",
        by=staff,
    )

    page = client.get(reverse("admin:tournaments_tournament_change", args=[tournament.pk]))

    assert page.status_code == 200
    html = page.content.decode()
    cell = html[html.index('<td class="field-against">') :]
    assert f"<p>{table.players[1]}</p>" in cell[: cell.index("</td>")]
    number = html[html.index('<td class="field-sequence">') :]
    assert "<p>1</p>" in number[: number.index("</td>")]  # its number in the signed chain


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


def test_a_tournaments_settings_are_not_edited_in_the_admin(client, tournament):
    page = client.get(reverse("admin:tournaments_tournament_change", args=[tournament.pk]))
    assert b'name="table_size"' not in page.content


def test_adding_a_tournament_in_the_admin_uses_the_sites_form_and_service(client, staff):
    url = reverse("admin:tournaments_tournament_add")
    page = client.get(url)
    assert page.status_code == 200
    assert b'name="table_size"' in page.content and b'href="/tournaments/new/"' in page.content
    body = {
        "name": "Admin Cup",
        "format": "elimination",
        "table_size": "3",
        "advance": "1",
        "rounds": "1",
        "variant": "classic",
        "scoring": "none",
        "target": "500",
        "seeding": "manual",
        "players": "Ann\nBob\nCid",
    }
    bad = client.post(url, {**body, "advance": "3"})
    assert bad.status_code == 400 and b"at most 2 with tables of 3" in bad.content
    assert not Tournament.objects.filter(name="Admin Cup").exists()
    answer = client.post(url, body)
    added = Tournament.objects.get(name="Admin Cup")
    assert answer.status_code == 302
    assert answer["Location"] == reverse("admin:tournaments_tournament_change", args=[added.pk])
    assert added.organiser == staff and added.table_size == 3
    assert list(added.entries.values_list("player", flat=True)) == ["Ann", "Bob", "Cid"]


def test_a_started_tournament_is_not_deleted_in_the_admin_and_the_page_says_so(
    client, staff, tournament
):
    # Its rounds are never deleted here, and its rulings never at all (the database refuses,
    # and they protect the tournament): the admin answers in words, with nothing deleted.
    services.start_tournament(tournament_id=tournament.pk)
    directing.call_time(
        tournament_id=tournament.pk, round_number=1, table_number=1, reason="time", by=staff
    )
    url = reverse("admin:tournaments_tournament_delete", args=[tournament.pk])

    page = client.get(url)
    answer = client.post(url, {"post": "yes"})
    listed = client.post(
        reverse("admin:tournaments_tournament_changelist"),
        {"action": "delete_selected", "_selected_action": [tournament.pk], "post": "yes"},
    )

    for response in (page, answer, listed):
        assert response.status_code == 200
        assert b"Cannot delete tournament" in response.content
    assert Tournament.objects.filter(pk=tournament.pk).exists()
    assert Ruling.objects.filter(tournament=tournament).count() == 1


def test_a_tournament_without_rulings_is_still_deleted_in_the_admin(client, tournament):
    url = reverse("admin:tournaments_tournament_delete", args=[tournament.pk])

    answer = client.post(url, {"post": "yes"})

    assert answer.status_code == 302
    assert not Tournament.objects.filter(pk=tournament.pk).exists()
