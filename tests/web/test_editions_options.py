"""Edition options set from the new-game page: the chosen edition's fields reach the game as
its rules take them, and a bad option is refused in players' words, nothing created."""

import pytest

from games.models import Game

pytestmark = pytest.mark.django_db


def post(client, **fields):
    form = {"variant": "veto", "bots": "2", "player": "Tess", "scoring": "none", "mode": "bots"}
    form.update(fields)
    return client.post("/play/", form)


def test_veto_options_set_from_the_page_reach_the_game(client):
    response = post(client, veto_cards="2", veto_rule_1="joke", veto_own_2="Sing a song")

    assert response.status_code == 302
    game = Game.objects.get()
    started = game.events.get(version=1).data
    assert started["options"] == {"customizable": ["joke", "text:Sing a song"]}


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"veto_own_1": "x" * 201}, "Your house rule for card 1 is too long: at most 200"),
        ({"veto_rule_1": "joke", "veto_own_1": "Hop"}, "Card 1: choose a house rule from the"),
        ({"veto_cards": "1", "veto_rule_2": "joke"}, "The deck has 1 Wild Customizable card:"),
        ({"veto_cards": "9"}, "A deck has 0 to 3 Wild Customizable cards."),
        ({"veto_rule_3": "dance"}, "House rule of card 3: choose one from the list."),
        ({"veto_own_2": "   "}, None),  # blank words: a plain wild, no error
    ],
)
def test_a_bad_veto_option_is_refused_in_players_words(client, fields, words):
    response = post(client, **fields)

    if words is None:
        assert response.status_code == 302
        return
    assert response.status_code == 400
    assert words in response.text
    assert not Game.objects.exists()
    assert "options.customizable" not in response.text


def test_another_editions_options_are_not_read(client):
    response = post(client, variant="classic", veto_cards="9", veto_own_1="x" * 500)

    assert response.status_code == 302
    assert Game.objects.get().events.get(version=1).data["options"] == {}
