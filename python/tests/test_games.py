"""The games written in Rust: tic-tac-toe, checkers, Connect Four, Kalah; the figures the
command line prints, its error messages, and the generic searches on each."""

import pytest

import gametree
from gametree import Checkers, ConnectFour, InputError, Kalah, Player, TicTacToe


# Tic-tac-toe ------------------------------------------------------------------------


def test_tic_tac_toe_prints_the_seeds_line_and_proof():
    # From `gametree ttt --help`: `ttt line --moves 2,1` prints (0 5 10 6 4 7 3 11).
    assert TicTacToe("2,1").line_text() == "(0 5 10 6 4 7 3 11)"
    assert TicTacToe([2, 1]).line() == {"value": 0, "line": [5, 8, 6, 4, 7, 3, 9]}
    assert TicTacToe("3,1").proof_text().startswith("(3 (11 (6 7 (5 10 3)))")
    assert TicTacToe("3,1").value() == 3


@pytest.mark.parametrize("moves", ["", "5", "3,1", "2,1", "1,5,9", "5,1,9,3"])
def test_tic_tac_toe_returns_the_json_of_the_command_line(cli, moves):
    for command in ("value", "line", "proof"):
        expected = cli.json("ttt", command, "--moves", moves, "--count")
        game = TicTacToe(moves)
        found = {"value": game.value()} if command == "value" else getattr(game, command)()
        assert {**found, "count": game.count} == expected
    status, out, _ = cli.run("ttt", "proof", "--moves", moves)
    assert out.strip() == TicTacToe(moves).proof_text()


@pytest.mark.parametrize("moves", ["5,5", "1,2,x", "0", "1,4,2,5,3,6"])
def test_tic_tac_toe_refuses_bad_moves_with_the_command_lines_message(cli, moves):
    with pytest.raises(InputError) as raised:
        TicTacToe(moves)
    assert "--" + str(raised.value) == cli.error("ttt", "value", "--moves", moves)


def test_tic_tac_toe_under_every_generic_search():
    game = TicTacToe("1,5")
    value = game.value()
    assert gametree.minimax(game)["value"] == value
    assert gametree.line(game)["value"] == value
    assert gametree.proof(game, verify=True)["value"] == value
    assert gametree.search_to_end(game).value == value
    assert game.moves == [1, 5] and game.to_move == Player.MAX and game.mark_to_move == "X"
    with pytest.raises(TypeError, match="needs an evaluation"):
        gametree.search(game, 3)
    with pytest.raises(TypeError, match="solver"):
        gametree.solve(game)
    game.play(9)
    assert game.to_move == Player.MIN
    assert TicTacToe("1,4,2,5,3").ending == "X"


# Checkers ---------------------------------------------------------------------------

EXAMPLE_FEN = "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29"


def test_checkers_perft_counts_the_published_figures():
    game = Checkers()
    # The counts of the legal-move tree from the start (`gametree checkers perft --help`).
    assert [game.perft(depth) for depth in range(7)] == [1, 7, 49, 302, 1469, 7361, 36768]
    assert game.perft(9) == 3963680
    assert Checkers(EXAMPLE_FEN).perft_divide(2) == {
        "16-19": 6,
        "22-26": 8,
        "25-30": 8,
        "22-17": 8,
        "25-21": 8,
    }


def test_checkers_best_move_is_the_command_lines(cli):
    # `gametree checkers best --depth 6`: best move 10-15, value 0 (with quiescence, as
    # both search by default); without it, 12-16 and -12.
    found = Checkers().best(depth=6)
    assert (found.best_move, found.value, found.depth) == ("10-15", 0, 6)
    plain = Checkers().best(depth=6, quiescence=0)
    assert (plain.best_move, plain.value) == ("12-16", -12)
    with pytest.raises(InputError, match="quiescence"):
        Checkers().best(depth=2, quiescence=65)
    expected = cli.json("checkers", "best", "--fen", "W:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29", "--depth", "4")
    found = Checkers("W:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29").best(depth=4)
    assert found.best_move == expected["best_move"]
    assert found.value == expected["value"]
    assert found.principal_line == expected["principal_line"]
    assert [it["value"] for it in found.iterations] == [
        it["value"] for it in expected["iterations"]
    ]


def test_checkers_m_and_n_and_time_limits():
    found = Checkers().best(depth=3, algorithm="m-and-n")
    assert found.best_move in Checkers().moves()
    timed = Checkers().best(time=0.2)
    assert timed.best_move in Checkers().moves()
    assert timed.stop in ("time limit", "depth reached")
    with pytest.raises(InputError, match="apply to"):
        Checkers().best(depth=3, m=3)
    with pytest.raises(InputError, match="not both"):
        Checkers().best(depth=3, time=1.0)


@pytest.mark.parametrize("fen", ["X:W1:B2", "B:W1,1:B2", "B:W33:B1", "nonsense"])
def test_checkers_refuses_bad_fen_with_the_command_lines_message(cli, fen):
    with pytest.raises(InputError) as raised:
        Checkers(fen)
    assert str(raised.value) == cli.error("checkers", "perft", "1", "--fen", fen)


def test_checkers_plays_moves_and_reads_pdn():
    game = Checkers()
    assert game.side_to_move == "B" and game.to_move == Player.MAX
    game.play("11-15")
    assert game.side_to_move == "W"
    with pytest.raises(InputError, match="illegal move"):
        game.play("11-15")
    games = Checkers.from_pdn('[Event "test"]\n1. 11-15 23-19 2. 8-11 *\n')
    assert len(games) == 1 and games[0].side_to_move == "W"
    assert games[0].fen == "W:W19,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,9,10,11,12,15"
    assert gametree.search(games[0], 4, table_mib=1).best_move in games[0].moves()
    with pytest.raises(TypeError, match="solver"):
        gametree.solve(game)


# Connect Four -----------------------------------------------------------------------


def test_connect_four_analyzes_and_solves_as_the_command_line(cli):
    # `gametree connect4 analyze 5554224333234511764415115`: -8 -8 -8 -8 - 4 -8
    assert ConnectFour("5554224333234511764415115").analyze() == [-8, -8, -8, -8, None, 4, -8]
    # `gametree connect4 analyze --width 5 --height 4 --json`: scores [-1, 0, 0, 0, -1]
    assert ConnectFour("", width=5, height=4).analyze() == [-1, 0, 0, 0, -1]
    line = "5554224333234511764415115"
    expected = cli.json("connect4", "analyze", line)
    assert ConnectFour(line).analyze() == expected["scores"]
    solved = ConnectFour("52753311433677442422121").solve()
    assert (solved["moves"], solved["score"]) == ("52753311433677442422121", 8)
    assert solved["value"] == -solved["score"]  # 23 stones played: the second player is to move


def test_connect_four_solve_gives_a_line_that_wins():
    game = ConnectFour("445566")
    found = gametree.solve(game)
    assert (found.value, found.best_move, found.principal_line) == (18, 3, [3])
    weak = ConnectFour("445566").solve(weak=True)
    assert weak["score"] == 1
    budget = gametree.solve(ConnectFour(""), max_nodes=100)
    assert budget.value is None and budget.stop == "node budget" and budget.best_move is not None


@pytest.mark.parametrize("moves", ["4444444", "8", "12x", "4455667"])
def test_connect_four_refuses_what_the_command_line_refuses(cli, moves):
    with pytest.raises(InputError) as raised:
        ConnectFour(moves).analyze()
    assert str(raised.value) == cli.error("connect4", "analyze", moves)


def test_connect_four_refuses_a_board_too_big(cli):
    with pytest.raises(InputError) as raised:
        ConnectFour("", width=9, height=9)
    assert str(raised.value) == cli.error("connect4", "analyze", "--width", "9", "--height", "9", "")


# Kalah ------------------------------------------------------------------------------


def test_kalah_gives_the_command_lines_figures(cli):
    # From `gametree kalah --help`.
    assert Kalah(houses=3, seeds=2).analyze() == [-8, 4, 0]
    assert Kalah().perft(3) == 185
    solved = Kalah(houses=2, seeds=2).solve()
    expected = cli.json("kalah", "solve", "--houses", "2", "--seeds", "2")
    for key in ("position", "rules", "value", "best_moves", "nodes"):
        assert solved[key] == expected[key]
    assert solved["value"] == -2 and solved["best_moves"] == [2]
    standard = Kalah(houses=3, seeds=3, rules="standard", moves=[1])
    assert standard.analyze() == cli.json(
        "kalah", "analyze", "--houses", "3", "--seeds", "3", "--rules", "standard", "--moves", "1"
    )["values"]


def test_kalah_under_the_generic_searches():
    game = Kalah(houses=3, seeds=2)
    solved = gametree.solve(game)
    assert solved.value == Kalah(houses=3, seeds=2).solve()["value"]
    assert gametree.search_to_end(game).value == solved.value
    deep = gametree.search(game, 40, table_mib=4)
    assert deep.value == solved.value and deep.stop == "tree exhausted"
    assert gametree.search_m_and_n(game, 3, m=1, n=1).best_move in (1, 2, 3)


@pytest.mark.parametrize(
    "options, flags",
    [
        ({"moves": "1,9"}, ["--moves", "1,9"]),
        ({"moves": "1,x"}, ["--moves", "1,x"]),
        ({"position": "1,2,S"}, ["--position", "1,2,S"]),
        ({"position": "4,4,0,4,4,0,Q"}, ["--position", "4,4,0,4,4,0,Q"]),
        ({"houses": 7}, ["--houses", "7"]),
    ],
)
def test_kalah_refuses_what_the_command_line_refuses(cli, options, flags):
    with pytest.raises(InputError) as raised:
        Kalah(**{"houses": 3, "seeds": 3, **options})
    # The command line refuses --houses/--seeds beside --position (the position says both),
    # so a position is given to it alone.
    board = [] if "position" in options else ["--houses", str(options.get("houses", 3)), "--seeds", "3"]
    expected = cli.error("kalah", "solve", *board, *[f for f in flags if f not in ("--houses", "7")])
    message = str(raised.value)
    assert expected in (message, "--" + message)


# The GIL ----------------------------------------------------------------------------


def test_a_rust_search_lets_other_python_threads_run():
    import threading
    import time

    def spin_for(seconds_or_event):
        """Counts loop turns until the event is set; returns (turns, seconds)."""
        turns = 0
        started = time.perf_counter()
        while not seconds_or_event.is_set():
            turns += 1
        return turns, time.perf_counter() - started

    results = []

    def count(event):
        results.append(spin_for(event))

    # The rate of a spinning thread alone.
    alone = threading.Event()
    thread = threading.Thread(target=count, args=(alone,))
    thread.start()
    time.sleep(0.2)
    alone.set()
    thread.join()
    rate = results[-1][0] / results[-1][1]

    # The same thread while the main thread is inside a search written in Rust.
    during = threading.Event()
    thread = threading.Thread(target=count, args=(during,))
    thread.start()
    started = time.perf_counter()
    Checkers().perft(10)
    elapsed = time.perf_counter() - started
    during.set()
    thread.join()
    turns = results[-1][0]
    # Had the search held the GIL, the spinning thread would have run at most one switch
    # interval (5 ms) of it: a few per cent of its turns.
    assert turns > 0.2 * rate * elapsed, (turns, rate, elapsed)
