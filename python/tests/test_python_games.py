"""Games written in Python, searched by the Rust engine through their methods."""

import functools
import random
import time

import pytest

import gametree
from gametree import MAX, MIN, InputError, Tree

from test_trees import TREES, python_minimax, sexpr


class ListTree:
    """An explicit tree as nested lists, played by a path of 1-based child indices."""

    def __init__(self, tree):
        self.tree = tree
        self.path = []

    def node(self):
        node = self.tree
        for move in self.path:
            node = node[move - 1]
        return node

    def to_move(self):
        return MAX if len(self.path) % 2 == 0 else MIN

    def moves(self):
        node = self.node()
        return list(range(1, len(node) + 1)) if isinstance(node, list) else []

    def play(self, move):
        self.path.append(move)

    def undo(self, move):
        assert self.path.pop() == move, "undo must take back the last move"

    def is_over(self):
        return not isinstance(self.node(), list)

    def value(self):
        return self.node()


class Nim:
    """Take 1 to 3 from one pile; whoever takes the last stone wins (+1 for MAX). Moves are
    (pile, count) tuples; the position's key is the sorted piles and the player."""

    def __init__(self, piles):
        self.piles = list(piles)
        self.player = 0

    def to_move(self):
        return self.player

    def moves(self):
        return [
            (pile, count)
            for pile, stones in enumerate(self.piles)
            for count in range(1, min(3, stones) + 1)
        ]

    def play(self, move):
        pile, count = move
        self.piles[pile] -= count
        self.player = 1 - self.player

    def undo(self, move):
        pile, count = move
        self.piles[pile] += count
        self.player = 1 - self.player

    def is_over(self):
        return sum(self.piles) == 0

    def value(self):
        # The player who just moved took the last stone.
        return -1 if self.player == 0 else 1

    def evaluate(self):
        return 0

    def key(self):
        return (tuple(sorted(self.piles)), self.player)


@functools.lru_cache(maxsize=None)
def nim_value(piles, player):
    """The reference, in plain Python."""
    if sum(piles) == 0:
        return -1 if player == 0 else 1
    values = []
    for pile, stones in enumerate(piles):
        for count in range(1, min(3, stones) + 1):
            after = list(piles)
            after[pile] -= count
            values.append(nim_value(tuple(sorted(after)), 1 - player))
    return max(values) if player == 0 else min(values)


@pytest.mark.parametrize("seed", range(0, 300, 10))
def test_a_python_game_is_searched_exactly_as_the_same_tree_in_rust(seed, recwarn):
    nested = TREES[seed] if isinstance(TREES[seed], list) else [TREES[seed]]
    tree = Tree(sexpr(nested))
    game = ListTree(nested)
    assert gametree.minimax(game) == tree.minimax()
    assert gametree.alphabeta(game, -3, 4) == tree.alphabeta(-3, 4)
    assert gametree.line(game) == tree.line()
    assert gametree.proof(game, verify=True) == tree.proof()
    assert gametree.mn_minimax(game, m=2, n=3) == tree.mn_minimax(m=2, n=3)
    assert gametree.mn_alphabeta(game, m=3, n=2) == tree.mn_alphabeta(m=3, n=2)
    found = gametree.search_to_end(game)
    assert found.value == python_minimax(nested)
    assert game.path == []  # every move taken back


@pytest.mark.parametrize("piles", [(3,), (4,), (1, 2), (2, 3), (1, 2, 3), (3, 3, 2), (5, 4)])
def test_nim_is_solved_and_searched_to_its_minimax_value(piles):
    expected = nim_value(tuple(sorted(piles)), 0)
    game = Nim(piles)
    solved = gametree.solve(game)
    assert solved.value == expected
    assert gametree.line(game)["value"] == expected
    assert gametree.search(game, 40).value == expected
    assert gametree.search(game, 40, table_mib=1).value == expected
    assert gametree.proof(game, verify=True)["value"] == expected
    # The line is a game: played out, it ends with the value.
    for move in solved.principal_line:
        assert move in game.moves()
        game.play(move)
    assert game.is_over() and game.value() == expected
    assert all(isinstance(move, tuple) for move in solved.principal_line)


def test_a_game_without_is_over_or_key_ends_where_it_has_no_moves():
    class Plain:
        """Nim with only the required methods and value()."""

        def __init__(self, piles):
            self.nim = Nim(piles)

        def to_move(self):
            return self.nim.to_move()

        def moves(self):
            return self.nim.moves()

        def play(self, move):
            self.nim.play(move)

        def undo(self, move):
            self.nim.undo(move)

        def value(self):
            return self.nim.value()

    for piles in [(2, 3), (1, 1, 4)]:
        expected = nim_value(tuple(sorted(piles)), 0)
        assert gametree.solve(Plain(piles)).value == expected
        assert gametree.line(Plain(piles))["value"] == expected
        assert gametree.minimax(Plain(piles)) == gametree.minimax(Nim(piles))


def test_depth_limited_searches_value_the_horizon_with_evaluate():
    game = Nim((5, 5, 5))
    shallow = gametree.search(game, 2)
    assert shallow.value == 0 and shallow.depth == 2 and shallow.stop == "depth reached"
    assert len(shallow.iterations) == 2
    assert gametree.mn_alphabeta(game, m=1, n=1, depth=2)["value"] == 0
    assert gametree.search_m_and_n(game, 2, m=1, n=1).depth == 2


def test_a_time_limit_stops_a_python_game_search():
    game = Nim((9, 9, 9, 9))
    started = time.perf_counter()
    found = gametree.search(game, time_limit=0.3)
    assert time.perf_counter() - started < 3
    assert found.stop == "time limit" and found.best_move in game.moves()
    assert game.piles == [9, 9, 9, 9]


def test_an_exception_in_a_callback_stops_the_search_and_every_move_is_taken_back():
    class Exploding(ListTree):
        def play(self, move):
            if len(self.path) == 2:
                raise RuntimeError("no third ply")
            super().play(move)

    game = Exploding([[[1, 2], [3]], [[4], 5]])
    with pytest.raises(RuntimeError, match="no third ply"):
        gametree.line(game)
    assert game.path == []
    with pytest.raises(RuntimeError, match="no third ply"):
        gametree.solve(game)
    assert game.path == []


def test_what_a_game_lacks_is_said():
    with pytest.raises(TypeError, match="needs the methods"):
        gametree.line(object())
    with pytest.raises(TypeError, match="evaluate"):
        gametree.search(ListTree([1, 2]), 2)

    class Unhashable(ListTree):
        def moves(self):
            return [[move] for move in super().moves()]

        def play(self, move):
            super().play(move[0])

        def undo(self, move):
            super().undo(move[0])

    with pytest.raises(TypeError, match="hashable"):
        gametree.line(Unhashable([1, 2]))

    class Confused(ListTree):
        def to_move(self):
            return "X"

    with pytest.raises(TypeError, match="to_move"):
        gametree.line(Confused([1, [2, 3]]))

    with pytest.raises(InputError, match="whole number"):
        gametree.solve(ListTree([0.5, [1, 2]]))
    with pytest.raises(InputError, match="NaN"):
        gametree.line(ListTree([float("nan"), 1]))


def test_random_moves_objects_come_back_as_given():
    rng = random.Random(3)
    names = {(i, j): f"{i}{j}" for i in range(3) for j in range(3)}

    class Named(ListTree):
        def moves(self):
            return [names[(len(self.path) % 3, m % 3)] + f"#{m}" for m in super().moves()]

        def play(self, move):
            super().play(int(move.split("#")[1]))

        def undo(self, move):
            super().undo(int(move.split("#")[1]))

    nested = [[rng.randint(-5, 5) for _ in range(3)] for _ in range(3)]
    found = gametree.line(Named(nested))
    assert all(isinstance(move, str) and "#" in move for move in found["line"])
    assert found["value"] == python_minimax(nested)
