"""OpenSpiel's games searched by gametree, checked against OpenSpiel's own minimax."""

import random

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="open_spiel is not installed (pip install open-spiel)"
)
from open_spiel.python.algorithms import minimax as spiel_minimax  # noqa: E402

import gametree  # noqa: E402
from gametree import openspiel  # noqa: E402


def every_position(game):
    """Every reachable state of a small game, once per (board, player to move)."""
    seen = {}
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        key = (str(state), state.current_player())
        if key in seen:
            continue
        seen[key] = state
        if not state.is_terminal():
            stack.extend(state.child(action) for action in state.legal_actions())
    return list(seen.values())


def spiel_value(game, state, **options):
    if state.is_terminal():
        return state.returns()[0]
    return spiel_minimax.alpha_beta_search(game, state, maximizing_player_id=0, **options)[0]


def test_every_tic_tac_toe_position_has_openspiels_minimax_value():
    game = pyspiel.load_game("tic_tac_toe")
    positions = every_position(game)
    assert len(positions) == 5478  # the reachable positions of tic-tac-toe
    for state in positions:
        expected = spiel_value(game, state)
        found = openspiel.search_to_end(state)
        assert found.value == expected, str(state)
        if not state.is_terminal():
            # The line is played out to the end with the value.
            end = state.clone()
            for action in found.principal_line:
                end.apply_action(action)
            assert end.is_terminal() and end.returns()[0] == expected
            # McCarthy's tic-tac-toe agrees in sign (it scores quick wins higher).
            squares = [int(a) + 1 for a in state.history()]
            mccarthy = gametree.TicTacToe(squares).value()
            assert (mccarthy > 0) - (mccarthy < 0) == expected


@pytest.mark.parametrize("index", range(0, 5478, 457))
def test_tic_tac_toe_proofs_solver_and_m_and_n_agree(index):
    game = pyspiel.load_game("tic_tac_toe")
    state = sorted(every_position(game), key=lambda s: s.history())[index]
    expected = spiel_value(game, state)
    assert openspiel.proof(state, verify=True)["value"] == expected
    assert openspiel.solve(state).value == expected
    assert openspiel.line(state)["value"] == expected
    assert openspiel.minimax(state)["value"] == expected
    assert openspiel.mn_minimax(state, m=1, n=1)["value"] == expected
    assert openspiel.search(state, 9).value == expected
    assert openspiel.search(state, 9, table_mib=1).value == expected


def center_weight(state):
    """A deterministic evaluation for the horizon: player 0's stones in the centre column
    less player 1's, in hundredths."""
    rows = str(state).split()
    column = len(rows[0]) // 2
    stones = [row[column] for row in rows]
    return (stones.count("x") - stones.count("o")) / 100


def random_connect_four(rng, moves):
    """A position after `moves` random moves that does not end the game."""
    game = pyspiel.load_game("connect_four")
    while True:
        state = game.new_initial_state()
        while len(state.history()) < moves and not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            return game, state


@pytest.mark.parametrize("seed", range(8))
def test_connect_four_at_small_depths_has_openspiels_depth_limited_value(seed):
    rng = random.Random(seed)
    game, state = random_connect_four(rng, rng.randint(4, 24))
    for depth in range(1, 5):
        expected = spiel_value(
            game, state, maximum_depth=depth, value_function=center_weight
        )
        found = openspiel.search(state, depth, evaluate=center_weight)
        assert found.value == pytest.approx(expected), (depth, str(state))
        assert found.depth == depth
        assert found.best_move in state.legal_actions()


@pytest.mark.parametrize("seed", range(4))
def test_connect_four_endgames_are_solved_as_gametrees_own_connect_four(seed):
    rng = random.Random(100 + seed)
    _, state = random_connect_four(rng, 30)
    solved = openspiel.solve(state)
    moves = "".join(str(action + 1) for action in state.history())
    own = gametree.ConnectFour(moves).solve()["value"]
    assert solved.value == (own > 0) - (own < 0)


def test_a_time_budget_and_m_and_n_on_connect_four():
    state = pyspiel.load_game("connect_four").new_initial_state()
    timed = openspiel.search(state, time_limit=0.3, evaluate=center_weight, table_mib=4)
    assert timed.stop == "time limit" and timed.depth >= 2
    assert timed.best_move in state.legal_actions()
    chosen = openspiel.search_m_and_n(state, 2, evaluate=center_weight, m=2, n=2, y=0.01, s=0.01)
    assert chosen.best_move in state.legal_actions()
    assert openspiel.action_strings(state, timed.principal_line[:2])[0].startswith(
        ("x", "o")
    )
    assert str(state) == str(pyspiel.load_game("connect_four").new_initial_state())


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker", "goofspiel(num_cards=3)"])
def test_games_gametree_cannot_search_are_refused_with_the_reason(name):
    state = pyspiel.load_game(name).new_initial_state()
    with pytest.raises(ValueError, match="gametree searches two-player, zero-sum"):
        openspiel.adapt(state)
