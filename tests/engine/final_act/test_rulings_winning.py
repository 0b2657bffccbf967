"""Rulings: "Winning" — breakthroughs, the tie rule, no tanks left, the round limit."""

from __future__ import annotations


def test_breakthrough_leaves_the_board_and_wins(fa):
    """A tank that ends a round on the enemy's last line has broken through: it leaves the board
    and counts for its side; the side with more breakthroughs wins."""
    state = fa.start([fa.unit(1, "2B", "c11", "N"), fa.unit(2, "C", "h12", "S")])
    outcome = fa.resolve(state, {"units": {"2B": {"move": "F"}}})
    after = outcome.state
    view = fa.game.view(after, None)
    assert view["breakthroughs"] == {"1": 1, "2": 0}
    assert fa.seen(after, 1, "2B")["status"] == "broke_through"
    assert fa.seen(after, 1, "2B")["at"] is None
    assert view["phase"] == "over" and view["result"]["winner"] == 1
    result = fa.game.result(after)
    assert result.ranking == ((1,), (2,)) and result.winners == (1,)
    assert fa.game.prompts(after) == {}
    assert "Alpha 2B broke through at c12!" in fa.texts(outcome)


def test_reaching_the_line_but_shot_out_there_does_not_count(fa):
    """Breakthroughs are counted at the end of the round, after fire."""
    state = fa.start(
        [fa.unit(1, "2B", "c11", "N", hits=1), fa.unit(1, "C", "a1"), fa.unit(2, "C", "f12", "W")]
    )
    after = fa.play(state, {"units": {"2B": {"move": "F"}}}, {"units": {"C": {"fire": ["c12"]}}})
    assert fa.game.view(after, None)["breakthroughs"] == {"1": 0, "2": 0}
    assert fa.game.result(after) is None


def test_equal_breakthroughs_in_one_round_play_on(fa):
    """Equal non-zero counts (both broke through in the same round) play on until one side leads."""
    state = fa.start(
        [
            fa.unit(1, "2B", "c11", "N"),
            fa.unit(1, "1", "e10", "N"),
            fa.unit(2, "2B", "h2", "S"),
            fa.unit(2, "1", "h5", "S"),
        ]
    )
    after = fa.play(state, {"units": {"2B": {"move": "F"}}}, {"units": {"2B": {"move": "F"}}})
    assert fa.game.view(after, 1)["breakthroughs"] == {"1": 1, "2": 1}
    assert fa.game.result(after) is None
    assert fa.game.view(after, 1)["phase"] == "orders"
    after = fa.play(after, {"units": {"1": {"move": "F"}}}, {"units": {"1": {"move": "F"}}})
    after = fa.play(after, {"units": {"1": {"move": "F"}}})
    assert fa.game.result(after).winners == (1,)


def test_no_tanks_left_loses(fa):
    """A side with no operational unit able to reach the enemy line (no tanks left) loses."""
    state = fa.start([fa.unit(1, "C", "f4", "N"), fa.unit(2, "2A", "f8", "S", hits=1)])
    after = fa.play(state, {"units": {"C": {"fire": ["f8"]}}})
    result = fa.game.result(after)
    assert result.ranking == ((1,), (2,))
    assert "no tanks left" in result.reason


def test_both_sides_losing_their_last_tanks_is_a_draw(fa):
    """If both sides lose their last tanks in the same round, the match is drawn."""
    state = fa.start([fa.unit(1, "C", "f4", "N", hits=1), fa.unit(2, "C", "f8", "S", hits=1)])
    after = fa.play(state, {"units": {"C": {"fire": ["f8"]}}}, {"units": {"C": {"fire": ["f4"]}}})
    result = fa.game.result(after)
    assert result.is_draw and result.ranking == ((1, 2),)
    assert result.scores == {1: 0.5, 2: 0.5}


def test_round_limit_draws(fa):
    """Round limit: an option (default 80). Reaching it without a winner draws the match."""
    units = [fa.unit(1, "C", "a1"), fa.unit(2, "C", "l12")]
    state = fa.start(units, round=2, round_limit=3)
    after = fa.play(state)
    assert fa.game.result(after) is None and fa.game.view(after, None)["round"] == 3
    after = fa.play(after)
    result = fa.game.result(after)
    assert result.is_draw and "round limit" in result.reason
    assert fa.game.validate_options({})["round_limit"] == 80
