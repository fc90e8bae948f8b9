"""Seating as pure functions: balanced table sizes, the seed snake, Swiss tables that avoid
repeat opponents, byes and who advances (no database)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.brackets import pairing


def names(n):
    return [f"P{i:02d}" for i in range(1, n + 1)]


@pytest.mark.parametrize(
    ("players", "size", "expected"),
    [
        (10, 4, [4, 3, 3]),
        (8, 4, [4, 4]),
        (9, 4, [3, 3, 3]),
        (5, 4, [3, 2]),
        (4, 10, [4]),
        (7, 2, [2, 2, 2]),
        (2, 2, [2]),
        (1, 4, []),
        (0, 4, []),
        (21, 10, [7, 7, 7]),
    ],
)
def test_sizes_are_balanced_and_few(players, size, expected):
    assert pairing.sizes(players, size) == expected


def test_sizes_refuse_a_table_of_one_or_eleven():
    with pytest.raises(ValueError):
        pairing.sizes(5, 1)
    with pytest.raises(ValueError):
        pairing.sizes(5, 11)


@given(st.integers(0, 200), st.integers(2, 10))
def test_sizes_seat_everyone_but_an_unavoidable_bye(players, size):
    got = pairing.sizes(players, size)
    assert all(2 <= s <= size for s in got)
    assert not got or max(got) - min(got) <= 1
    bye = players - sum(got)
    # A bye only when it cannot be avoided: a field of one, or an odd field at tables of two.
    assert bye == (1 if players == 1 or (size == 2 and players % 2) else 0)
    if players >= 2:
        assert len(got) == -(-players // size) or size == 2


def test_snake_spreads_the_seeds():
    tables = pairing.snake(names(8), [4, 4])
    assert tables == [["P01", "P04", "P05", "P08"], ["P02", "P03", "P06", "P07"]]


def test_snake_skips_full_tables():
    tables = pairing.snake(names(10), [4, 3, 3])
    assert [len(t) for t in tables] == [4, 3, 3]
    assert tables[0][:2] == ["P01", "P06"]
    assert sorted(sum(tables, [])) == names(10)


@given(st.integers(2, 60), st.integers(2, 10))
def test_snake_seats_everyone_once(players, size):
    field = names(players)
    table_sizes = pairing.sizes(players, size)
    field = field[: sum(table_sizes)]
    tables = pairing.snake(field, table_sizes)
    assert [len(t) for t in tables] == table_sizes
    assert sorted(p for t in tables for p in t) == field
    # The top seeds sit at different tables.
    tops = field[: len(tables)]
    assert sorted(t[0] for t in tables) == tops


def test_swiss_groups_by_standing_when_nobody_has_met():
    tables = pairing.swiss(names(8), [4, 4], {})
    assert tables == [names(8)[:4], names(8)[4:]]


def test_swiss_avoids_repeat_opponents():
    met = {}
    for table in (names(3), names(6)[3:], names(9)[6:]):
        for p in table:
            met[p] = set(table) - {p}
    tables = pairing.swiss(names(9), [3, 3, 3], met)
    assert all(pairing.repeats(t, met) == 0 for t in tables)
    assert tables[0] == ["P01", "P04", "P07"]  # the leader, with the best who are new to them


@st.composite
def swiss_cases(draw):
    n = draw(st.integers(2, 24))
    size = draw(st.integers(2, 6))
    field = names(n)
    table_sizes = pairing.sizes(n, size)
    field = field[: sum(table_sizes)]
    met: dict[str, set[str]] = {p: set() for p in field}
    for _ in range(draw(st.integers(0, 3))):  # some earlier rounds, at random tables
        order = draw(st.permutations(field))
        start = 0
        for s in table_sizes:
            table = order[start : start + s]
            start += s
            for p in table:
                met[p].update(set(table) - {p})
    return field, table_sizes, met


@given(swiss_cases())
def test_swiss_seats_everyone_once_at_the_sizes(case):
    field, table_sizes, met = case
    tables = pairing.swiss(field, table_sizes, met)
    assert [len(t) for t in tables] == table_sizes
    assert sorted(p for t in tables for p in t) == sorted(field)
    # Repeats are never worse than plain standing order.
    plain, start = [], 0
    for s in table_sizes:
        plain.append(field[start : start + s])
        start += s
    assert sum(pairing.repeats(t, met) for t in tables) <= sum(
        pairing.repeats(t, met) for t in plain
    )


@given(st.integers(2, 24), st.integers(2, 6))
def test_swiss_first_round_has_no_repeats_and_the_leader_at_table_one(n, size):
    table_sizes = pairing.sizes(n, size)
    field = names(n)[: sum(table_sizes)]
    tables = pairing.swiss(field, table_sizes, {})
    assert tables[0][0] == "P01"
    assert all(pairing.repeats(t, {}) == 0 for t in tables)


def test_bye_goes_to_the_lowest_standing_player_without_one():
    assert pairing.bye(names(5), []) == "P05"
    assert pairing.bye(names(5), ["P05", "P04"]) == "P03"
    assert pairing.bye(names(2), ["P01", "P02"]) == "P02"


def test_advancing_never_takes_a_whole_table():
    assert pairing.advancing(["A", "B", "C", "D"], 2) == ["A", "B"]
    assert pairing.advancing(["A", "B"], 2) == ["A"]
    assert pairing.advancing(["A", "B", "C"], 1) == ["A"]
