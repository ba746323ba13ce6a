"""Explicit trees: every search against a pure-Python minimax on random trees, against the
command line's JSON, and the leaf counts."""

import math
import random

import pytest

import gametree
from gametree import InputError, Tree


def random_tree(rng, depth, branching=4):
    """A nested list: a leaf is an int, a position a list of children."""
    if depth == 0 or (depth < 4 and rng.random() < 0.25):
        return rng.randint(-9, 9)
    return [random_tree(rng, depth - 1, branching) for _ in range(rng.randint(1, branching))]


def sexpr(tree):
    if isinstance(tree, list):
        return "(" + " ".join(sexpr(child) for child in tree) + ")"
    return str(tree)


def python_minimax(tree, maximizing=True):
    """The reference: plain minimax, MAX at the root, players alternating."""
    if not isinstance(tree, list):
        return tree
    values = [python_minimax(child, not maximizing) for child in tree]
    return max(values) if maximizing else min(values)


def leaves_and_nodes(tree):
    if not isinstance(tree, list):
        return 1, 1
    counts = [leaves_and_nodes(child) for child in tree]
    return sum(c[0] for c in counts), 1 + sum(c[1] for c in counts)


def follow(tree, line):
    for move in line:
        tree = tree[move - 1]
    return tree


def python_alphabeta(tree, alpha, beta, maximizing=True):
    """McCarthy's fail-hard valmax, written plainly: the value clamped to [alpha, beta]."""
    if not isinstance(tree, list):
        return min(max(tree, alpha), beta)
    if maximizing:
        for child in tree:
            alpha = max(alpha, python_alphabeta(child, alpha, beta, False))
            if alpha >= beta:
                return beta
        return alpha
    for child in tree:
        beta = min(beta, python_alphabeta(child, alpha, beta, True))
        if alpha >= beta:
            return alpha
    return beta


TREES = [random_tree(random.Random(seed), 6) for seed in range(300)]


@pytest.mark.parametrize("seed", range(0, 300, 3))
def test_every_search_agrees_with_a_pure_python_minimax_on_random_trees(seed):
    nested = TREES[seed]
    if not isinstance(nested, list):
        nested = [nested]
    tree = Tree(sexpr(nested))
    value = python_minimax(nested)
    leaves, nodes = leaves_and_nodes(nested)

    found = tree.minimax()
    assert found["value"] == value
    assert (found["leaves"], found["nodes"]) == (leaves, nodes)
    assert (tree.leaf_count, tree.node_count) == (leaves, nodes)
    assert python_minimax(nested[found["move"] - 1], False) == value

    assert tree.alphabeta() == {**tree.alphabeta(), "value": value, "bound": "exact"}
    assert tree.alphabeta()["leaves"] <= leaves

    line = tree.line()
    assert line["value"] == value and line["bound"] == "exact"
    assert follow(nested, line["line"]) == value
    assert line["move"] == line["line"][0]

    proof = tree.proof(verify=True)
    assert proof["value"] == value
    assert proof["move"] == line["move"]

    assert gametree.search_to_end(tree).value == value
    assert gametree.search_to_end(tree).principal_line == line["line"]

    one_and_one = tree.mn_minimax(m=1, n=1)
    assert one_and_one["value"] == value  # 1&1 is ordinary minimaxing

    assert tree.aspiration(guess=seed % 7 - 3, width=1)["value"] == value


@pytest.mark.parametrize("seed", range(1, 300, 3))
def test_alphabeta_in_any_window_is_minimax_clamped_to_it(seed):
    nested = TREES[seed]
    if not isinstance(nested, list):
        nested = [nested]
    tree = Tree(sexpr(nested))
    value = python_minimax(nested)
    rng = random.Random(seed)
    for _ in range(4):
        alpha = rng.randint(-10, 8)
        beta = rng.randint(alpha + 1, 10)
        found = tree.alphabeta(alpha, beta)
        assert found["value"] == python_alphabeta(nested, alpha, beta)
        expected_bound = "upper" if value <= alpha else "lower" if value >= beta else "exact"
        assert found["bound"] == expected_bound
        assert tree.line(alpha, beta)["value"] == found["value"]
        assert tree.proof(alpha, beta, verify=True)["value"] == found["value"]


@pytest.mark.parametrize("seed", range(2, 300, 6))
def test_m_and_n_alphabeta_chooses_what_m_and_n_minimaxing_chooses(seed, recwarn):
    nested = TREES[seed]
    if not isinstance(nested, list):
        nested = [nested]
    tree = Tree(sexpr(nested))
    for m, n in [(1, 1), (2, 2), (3, 2), (2, 3)]:
        full = tree.mn_minimax(m=m, n=n, x=1.0, y=2.0, r=1.0, s=2.0)
        pruned = tree.mn_alphabeta(m=m, n=n, x=1.0, y=2.0, r=1.0, s=2.0)
        assert (pruned["value"], pruned["move"]) == (full["value"], full["move"])
        assert pruned["leaves"] <= full["leaves"]


def test_the_seed_tree_gives_what_the_command_line_prints_in_its_help():
    tree = Tree("((3 5) (2 9))")
    # `gametree tree proof '((3 5) (2 9))' --json`, from `gametree --help`.
    assert tree.proof() == {
        "value": 3,
        "bound": "exact",
        "move": 1,
        "pfmax": [1, [2, 5], [1, 3]],
        "pfmin": [[2, 1, 2], [1, 1, 3]],
        "leaves": 3,
        "nodes": 6,
        "cutoffs": 1,
    }
    # `echo '((3 5) (2 9))' | gametree tree alphabeta --alpha 4 --beta 10`.
    assert tree.alphabeta(4, 10) == {
        "value": 4,
        "bound": "upper",
        "leaves": 2,
        "nodes": 5,
        "cutoffs": 2,
    }
    assert "digraph" in tree.proof_dot()


@pytest.mark.parametrize(
    "algorithm, method, options",
    [
        ("minimax", "minimax", {}),
        ("alphabeta", "alphabeta", {}),
        ("line", "line", {}),
        ("proof", "proof", {}),
        ("aspiration", "aspiration", {"guess": 2, "width": 0.5}),
        ("mn-minimax", "mn_minimax", {"m": 3, "x": 1.5}),
        ("mn-alphabeta", "mn_alphabeta", {"n": 1, "s": 2.0}),
        ("alphabeta", "alphabeta", {"alpha": -1, "beta": 2}),
        ("proof", "proof", {"alpha": 0, "beta": 3}),
    ],
)
def test_each_tree_search_returns_the_json_of_the_command_line(
    cli, algorithm, method, options, recwarn
):
    for seed in (5, 17, 99):
        text = sexpr(TREES[seed]) if isinstance(TREES[seed], list) else "(1 2)"
        flags = []
        for key, value in options.items():
            flags += [f"--{key}", str(value)]
        expected = cli.json("tree", algorithm, text, *flags)
        assert getattr(Tree(text), method)(**options) == expected


@pytest.mark.parametrize(
    "text", ["((3 5)", "(3 5))", "(3 x)", "", "(1 (2 nan))", "((3 5) (2 9)) 4"]
)
def test_a_bad_tree_raises_the_command_lines_message(cli, text):
    with pytest.raises(InputError) as raised:
        Tree(text)
    if text.strip().startswith("("):
        assert str(raised.value) == cli.error("tree", "minimax", text)
    assert isinstance(raised.value, ValueError)


def dashed(message, *names):
    """The Python message with the named settings written as the command line's flags."""
    for name in names:
        message = message.replace(f"{name} ", f"--{name} ")
    return message


def test_bad_windows_and_settings_raise_the_command_lines_message_with_settings_for_flags(cli):
    tree = Tree("((3 5) (2 9))")
    with pytest.raises(InputError) as raised:
        tree.alphabeta(3, 2)
    assert dashed(str(raised.value), "alpha", "beta") == cli.error(
        "tree", "alphabeta", "((3 5) (2 9))", "--alpha", "3", "--beta", "2"
    )
    with pytest.raises(InputError) as raised:
        tree.aspiration(width=0)
    assert dashed(str(raised.value), "width") == cli.error(
        "tree", "aspiration", "((3 5) (2 9))", "--width", "0"
    )
    with pytest.raises(InputError) as raised:
        tree.mn_minimax(y=0)
    assert str(raised.value) == cli.error("tree", "mn-minimax", "((3 5) (2 9))", "--y", "0")
    with pytest.raises(InputError) as raised:
        tree.mn_minimax(m=70000)
    assert dashed(str(raised.value), "m") == cli.error(
        "tree", "mn-minimax", "((3 5) (2 9))", "--m", "70000"
    )


def test_a_non_monotone_backing_up_function_warns_as_the_command_line_does():
    with pytest.warns(UserWarning, match="not monotone"):
        Tree("((3 5) (2 9))").mn_minimax()


def test_random_trees_are_reproducible_and_searchable():
    first = Tree.random(7, branching=(2, 3), depth=(3, 5))
    assert str(first) == str(Tree.random(7, branching=(2, 3), depth=(3, 5)))
    assert first.minimax()["leaves"] == first.leaf_count
    assert 3 <= first.depth <= 5
    with pytest.raises(InputError):
        Tree.random(1, branching=(0, 2))


def test_infinite_window_ends_are_written_as_none_like_json_null():
    found = Tree("((3 5) (2 9))").aspiration(guess=0, width=1)
    assert found["windows"][0] == [-1, 1]
    assert all(isinstance(window, list) and len(window) == 2 for window in found["windows"])
    assert not any(isinstance(end, float) and math.isinf(end) for w in found["windows"] for end in w)
