//! Connect Four: perft against the published counts, the bitboards against a plain board,
//! the solver against plain minimax on small boards, and the first 100 positions of three
//! of Pascal Pons' benchmark files with their scores.

use gametree::SplitMix64;
use gametree::games::connect_four::{MoveErrorKind, PlayError};
use gametree::search::solver::{Outlook, Solvable};
use gametree::{ConnectFour, Game, Player, SolveOptions, Solver, minimax_value};

/// Leaf positions `depth` plies below the current one; a finished game has none below it.
fn perft<G: Game>(game: &mut G, depth: u32, moves: &mut Vec<Vec<G::Move>>) -> u64 {
    if depth == 0 {
        return 1;
    }
    if game.is_terminal() {
        return 0;
    }
    let mut buffer = moves.pop().unwrap_or_default();
    buffer.clear();
    game.successors(&mut buffer);
    let mut count = 0;
    for &mv in &buffer {
        game.update(mv);
        count += perft(game, depth - 1, moves);
        game.revert(mv);
    }
    moves.push(buffer);
    count
}

#[test]
fn perft_on_the_standard_board_matches_the_published_counts_through_depth_8() {
    // The number of move sequences of each length from the empty 7×6 board, games ending
    // at four in a row (OEIS A212693; the list).
    let expected = [1, 7, 49, 343, 2401, 16807, 117_649, 823_536, 5_673_234];
    let mut game = ConnectFour::new();
    let mut buffers = Vec::new();
    for (depth, &count) in expected.iter().enumerate() {
        let depth = u32::try_from(depth).expect("small");
        assert_eq!(
            perft(&mut game, depth, &mut buffers),
            count,
            "depth {depth}"
        );
    }
    assert_eq!(game, ConnectFour::new());
}

/// The plain board: `cells[column][row]`, rows from the bottom.
struct PlainBoard {
    width: usize,
    height: usize,
    cells: Vec<Vec<Option<Player>>>,
}

impl PlainBoard {
    fn winner(&self) -> Option<Player> {
        let directions = [(1i64, 0i64), (0, 1), (1, 1), (1, -1)];
        for column in 0..self.width as i64 {
            for row in 0..self.height as i64 {
                let Some(player) = self.cells[column as usize][row as usize] else {
                    continue;
                };
                for (dc, dr) in directions {
                    let line = (0..4).all(|step| {
                        let (c, r) = (column + dc * step, row + dr * step);
                        (0..self.width as i64).contains(&c)
                            && (0..self.height as i64).contains(&r)
                            && self.cells[c as usize][r as usize] == Some(player)
                    });
                    if line {
                        return Some(player);
                    }
                }
            }
        }
        None
    }
}

#[test]
fn the_bitboards_agree_with_a_plain_board_on_random_games_of_every_size() {
    let mut random = SplitMix64::new(2024);
    for (width, height) in [
        (7, 6),
        (6, 5),
        (5, 4),
        (4, 4),
        (8, 7),
        (9, 6),
        (3, 5),
        (1, 6),
    ] {
        for _ in 0..200 {
            let mut game = ConnectFour::with_size(width, height).expect("fits");
            let mut plain = PlainBoard {
                width: width as usize,
                height: height as usize,
                cells: vec![vec![None; height as usize]; width as usize],
            };
            let mut history = Vec::new();
            while !game.is_over() {
                let mut moves = Vec::new();
                game.successors(&mut moves);
                let mv = moves[random.index(moves.len())];
                let mover = game.to_move();
                game.update(mv);
                history.push(mv);
                let column = &mut plain.cells[usize::from(mv)];
                let row = column.iter().position(Option::is_none).expect("legal move");
                column[row] = Some(mover);
                let full = history.len() == plain.width * plain.height;
                assert_eq!(
                    game.winner(),
                    plain.winner(),
                    "{width}×{height} {history:?}"
                );
                assert_eq!(game.is_over(), plain.winner().is_some() || full);
            }
            // Taking every move back gives the empty board.
            for &mv in history.iter().rev() {
                game.revert(mv);
            }
            assert_eq!(game, ConnectFour::with_size(width, height).expect("fits"));
        }
    }
}

/// Random positions of `stones` stones on a `width`×`height` board whose game is not over.
fn random_positions(width: u32, height: u32, stones: usize, count: usize) -> Vec<ConnectFour> {
    let mut random = SplitMix64::new(u64::from(width * 100 + height) + stones as u64);
    let mut positions = Vec::new();
    while positions.len() < count {
        let mut game = ConnectFour::with_size(width, height).expect("fits");
        for _ in 0..stones {
            if game.is_over() {
                break;
            }
            let mut moves = Vec::new();
            game.successors(&mut moves);
            game.update(moves[random.index(moves.len())]);
        }
        if !game.is_over() {
            positions.push(game);
        }
    }
    positions
}

#[test]
fn the_solver_agrees_with_plain_minimax_on_small_boards() {
    let mut strong = Solver::new(SolveOptions {
        table_mib: 4,
        ..SolveOptions::default()
    });
    let mut without_etc = Solver::new(SolveOptions {
        table_mib: 4,
        enhanced_transposition_cutoffs: false,
        ..SolveOptions::default()
    });
    let mut weak = Solver::new(SolveOptions {
        table_mib: 4,
        weak: true,
        ..SolveOptions::default()
    });
    // Deep knowledge (dead stones, mirror images, successors looked at first), its table
    // never cleared: a key shared by positions of different values would show.
    let mut deep = Solver::new(SolveOptions {
        table_mib: 4,
        ..SolveOptions::default()
    });
    let mut checked = 0;
    for (width, height, stones, count) in [
        (4, 4, 6, 60),
        (4, 4, 9, 100),
        (5, 4, 10, 40),
        (5, 4, 13, 100),
        (4, 5, 11, 40),
    ] {
        for mut game in random_positions(width, height, stones, count) {
            let expected = minimax_value(&mut game);
            strong.clear();
            let solution = strong.solve(&mut game);
            assert_eq!(solution.value, expected, "{game:?}");
            let mut deep_game = game.with_deep_knowledge(true);
            assert_eq!(deep.solve(&mut deep_game).value, expected, "{game:?}");
            let mover_sign = if game.to_move() == Player::Max { 1 } else { -1 };
            assert_eq!(solution.score, mover_sign * expected);
            // Without clearing: the table's entries from earlier positions stay true.
            assert_eq!(without_etc.solve(&mut game).value, expected, "{game:?}");
            weak.clear();
            assert_eq!(weak.solve(&mut game).value, expected.signum(), "{game:?}");
            checked += 1;
        }
    }
    assert_eq!(checked, 340);
}

#[test]
fn the_small_boards_are_solved_from_the_empty_board() {
    // With perfect play: 4×4 and 5×4 are draws (John Tromp's table of solved board sizes).
    for (width, height) in [(4, 4), (5, 4)] {
        let mut game = ConnectFour::with_size(width, height).expect("fits");
        let solution = Solver::new(SolveOptions::default()).solve(&mut game);
        assert_eq!(solution.value, 0, "{width}×{height}");
    }
}

#[test]
fn analyze_gives_each_move_the_negated_score_of_its_successor() {
    let mut game = ConnectFour::with_size(4, 4).expect("fits");
    game.play_moves("231223").expect("legal");
    let mut solver = Solver::new(SolveOptions::default());
    let analysis = solver.analyze(&mut game);
    assert_eq!(analysis.len(), 4);
    let best = analysis.iter().map(|(_, solution)| solution.score).max();
    assert_eq!(best, Some(solver.solve(&mut game).score));
    for (column, solution) in analysis {
        game.update(column);
        assert_eq!(minimax_value(&mut game), solution.value);
        game.revert(column);
    }
}

#[test]
fn scores_follow_the_benchmark_convention() {
    let mut solver = Solver::new(SolveOptions::default());
    // The first player wins with the 4th stone: 22 − 4.
    let mut game = ConnectFour::from_moves("445566").expect("legal");
    assert_eq!(solver.solve(&mut game).score, 18);
    assert_eq!(solver.solve(&mut game).value, 18);
    // The second player to move cannot stop both ends of 5 6 7: lost to the 5th stone.
    let mut game = ConnectFour::from_moves("4455").expect("legal");
    game.update(5); // column 6
    assert_eq!(solver.solve(&mut game).score, -(22 - 4));
    // Four in a row already: the player to move lost to the 4th stone.
    let mut game = ConnectFour::from_moves("4455667").expect("legal");
    assert_eq!(game.value(), 18);
    assert_eq!(solver.solve(&mut game).score, -18);
}

#[test]
fn illegal_move_strings_name_the_offending_move() {
    let error = ConnectFour::from_moves("448").expect_err("no column 8");
    assert_eq!(error.index, 3);
    assert_eq!(
        error.kind,
        MoveErrorKind::Illegal(PlayError::ColumnOutOfRange {
            column: 8,
            width: 7
        })
    );
    assert_eq!(
        error.to_string(),
        "move 3 ('8'): there is no column 8: the columns are 1 to 7"
    );
    let error = ConnectFour::from_moves("1111111").expect_err("full");
    assert_eq!(error.to_string(), "move 7 ('1'): column 1 is full");
    let error = ConnectFour::from_moves("12121214").expect_err("over");
    assert_eq!(error.to_string(), "move 8 ('4'): the game is already over");
    let error = ConnectFour::from_moves("12a").expect_err("letter");
    assert_eq!(
        error.to_string(),
        "move 3 ('a'): not a column number 1 to 7"
    );
    let error = ConnectFour::from_moves("0").expect_err("zero");
    assert_eq!(error.kind, MoveErrorKind::NotAColumn { last: 7 });
    assert!(ConnectFour::with_size(8, 8).is_err());
    assert!(ConnectFour::with_size(0, 6).is_err());
    assert!(ConnectFour::with_size(2, 20).is_err());
    assert!(ConnectFour::with_size(8, 7).is_ok());
}

/// The first 100 lines of one of Pons' benchmark files (copied from
/// `shared/data/connect4/`), each solved from a cleared table.
fn solves_benchmark_excerpt(name: &str) {
    let path = format!("{}/tests/data/connect4/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("benchmark excerpt in tests/data");
    let mut solver = Solver::new(SolveOptions::default());
    let mut weak = Solver::new(SolveOptions {
        weak: true,
        ..SolveOptions::default()
    });
    let mut deep = Solver::new(SolveOptions::default());
    let mut lines = 0;
    for line in text.lines() {
        let (moves, score) = line.split_once(' ').expect("MOVES SCORE");
        let score: i32 = score.parse().expect("an integer score");
        let mut game = ConnectFour::from_moves(moves).expect("legal moves");
        solver.clear();
        assert_eq!(solver.solve(&mut game).score, score, "{name}: {moves}");
        deep.clear();
        let mut deep_game = game.with_deep_knowledge(true);
        assert_eq!(deep.solve(&mut deep_game).score, score, "{name}: {moves}");
        weak.clear();
        assert_eq!(
            weak.solve(&mut game).score,
            score.signum(),
            "{name}: {moves}"
        );
        lines += 1;
    }
    assert_eq!(lines, 100);
}

#[test]
fn the_first_100_end_game_positions_of_pons_benchmark_get_their_scores() {
    solves_benchmark_excerpt("Test_L3_R1.first100");
}

#[test]
fn the_first_100_middle_game_positions_of_pons_benchmark_get_their_scores() {
    solves_benchmark_excerpt("Test_L2_R1.first100");
}

#[test]
fn the_first_100_opening_positions_of_pons_benchmark_get_their_scores() {
    solves_benchmark_excerpt("Test_L1_R1.first100");
}

/// The outlook's interval, as scores to the player to move (`None` when it knows the value).
fn outlook_interval(game: &ConnectFour) -> (i32, i32) {
    let sign = if game.to_move() == Player::Max { 1 } else { -1 };
    match game.outlook(false) {
        Outlook::Known(value) => (sign * value, sign * value),
        Outlook::Search { lower, upper, .. } => {
            let (a, b) = (sign * lower, sign * upper);
            (a.min(b), a.max(b))
        }
    }
}

#[test]
fn the_outlook_bounds_hold_the_exact_score_of_random_positions_on_small_boards() {
    // Every bound the game proves without search (wins and losses at once, a player who
    // cannot complete a line, claimeven on boards of even height) against plain minimax.
    // The claimeven bound must decide some of them, or the test would prove nothing.
    let mut checked = 0;
    let mut tight = 0;
    for (width, height, stones, count) in [
        (4, 4, 4, 150),
        (4, 4, 8, 150),
        (5, 4, 8, 150),
        (5, 4, 12, 150),
        (6, 4, 14, 60),
        (4, 6, 12, 60),
        (4, 5, 10, 60),
    ] {
        for mut game in random_positions(width, height, stones, count) {
            let exact = minimax_value(&mut game);
            let score = if game.to_move() == Player::Max {
                exact
            } else {
                -exact
            };
            let (lower, upper) = outlook_interval(&game);
            assert!(
                lower <= score && score <= upper,
                "{game:?}: {score} not in {lower}..={upper}"
            );
            if upper == score && upper <= 0 && game.moves_played() % 2 == 0 {
                tight += 1;
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 780);
    assert!(tight > 50, "only {tight} positions bounded tightly");
}

#[test]
fn an_odd_threat_proves_the_first_players_win_before_any_search() {
    // After 5516236534775 the first player threatens d3 (the diagonal b1 c2 d3 e4): a cell
    // in an odd row with the cell below it empty. The second player, to move, cannot
    // complete a line in the cells it can claim (Allis' zugzwang control), so the outlook
    // knows that the first player wins with the stone in d3 at the latest, a score of 2,
    // before any move is searched; claimeven and Pons' bounds know nothing here (they
    // leave the second player an upper bound of at least 0). The search confirms it.
    let game = ConnectFour::from_moves("5516236534775").expect("legal");
    let (lower, upper) = outlook_interval(&game);
    assert_eq!(upper, -2, "the second player's score is at most -2");
    assert!(
        lower < upper,
        "the exact score still needs a search: {lower}..={upper}"
    );
    let mut solver = Solver::new(SolveOptions::default());
    assert_eq!(solver.solve(&mut game.clone()).score, -2);
}

#[test]
fn a_large_search_takes_on_deep_knowledge_and_keeps_the_score() {
    // An opening of Pons' Test_L1_R2 (score 4) that takes about a million positions
    // without deep knowledge: past the escalation point.
    let mut game = ConnectFour::from_moves("2416615552").expect("legal");
    assert!(!game.deep_knowledge());
    let mut solver = Solver::new(SolveOptions::default());
    let solution = solver.solve(&mut game);
    assert_eq!(solution.score, 4);
    assert!(game.deep_knowledge());
    assert!(solution.stats.nodes > gametree::games::connect_four::ESCALATION_NODES);
    // A small one does not.
    let mut game = ConnectFour::from_moves("5554224333234511764415115").expect("legal");
    assert_eq!(solver.solve(&mut game).score, 4);
    assert!(!game.deep_knowledge());
}

#[test]
fn parallel_solves_give_the_serial_scores_on_300_benchmark_positions() {
    // Every thread from the first position on (no serial start), so that the threads
    // share the table even on the small positions; two and three threads, strong and weak.
    let options = SolveOptions {
        parallel_after_nodes: 0,
        ..SolveOptions::default()
    };
    let mut solver = Solver::new(options);
    let mut checked = 0;
    for name in [
        "Test_L3_R1.first100",
        "Test_L2_R1.first100",
        "Test_L1_R1.first100",
    ] {
        let path = format!("{}/tests/data/connect4/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).expect("benchmark excerpt in tests/data");
        for (index, line) in text.lines().enumerate() {
            let (moves, score) = line.split_once(' ').expect("MOVES SCORE");
            let score: i32 = score.parse().expect("an integer score");
            let mut game = ConnectFour::from_moves(moves).expect("legal moves");
            let threads = 2 + index % 2;
            solver.set_weak(false);
            solver.clear();
            let solution = solver.solve_parallel(&mut game, threads);
            assert_eq!(
                solution.score, score,
                "{name}: {moves} on {threads} threads"
            );
            solver.set_weak(true);
            solver.clear();
            let weak = solver.solve_parallel(&mut game, threads).score;
            assert_eq!(weak, score.signum(), "{name}: {moves} weakly");
            checked += 1;
        }
    }
    assert_eq!(checked, 300);
}

#[test]
fn the_shipped_book_holds_every_position_of_up_to_six_stones_and_agrees_with_itself() {
    // (It may hold positions of seven stones too, if a deeper book is under way.)
    use gametree::games::connect_four_book::{OpeningBook, positions_up_to};
    let empty = ConnectFour::new();
    let text = include_str!("../data/connect4/book-7x6");
    let book = OpeningBook::parse(text, &empty).expect("the shipped book reads");
    let positions = positions_up_to(&empty, 6);
    assert!(positions.iter().all(|p| book.score(&p.game).is_some()));
    // The first player wins (+1: with the 21st stone); the centre opening leaves the
    // second player a loss (−1).
    assert_eq!(book.score(&empty), Some(1));
    let centre = ConnectFour::from_moves("4").expect("legal");
    assert_eq!(book.score(&centre), Some(-1));
    // Every shallower position scores the best of its successors' negated scores.
    for position in positions.iter().filter(|p| p.game.moves_played() < 6) {
        let mut game = position.game;
        let mut columns = Vec::new();
        game.successors(&mut columns);
        let best = columns
            .iter()
            .map(|&column| {
                game.update(column);
                let score = -book.score(&game).expect("every successor in the book");
                game.revert(column);
                score
            })
            .max();
        assert_eq!(best, book.score(&position.game), "{}", position.moves);
    }
    // Some of the six-stone entries solved again (a second or less each).
    let mut solver = Solver::new(SolveOptions::default());
    for position in positions
        .iter()
        .filter(|p| p.game.moves_played() == 6)
        .step_by(2000)
    {
        let mut game = position.game;
        solver.clear();
        let score = solver.solve(&mut game).score;
        assert_eq!(
            Some(score),
            book.score(&position.game),
            "{}",
            position.moves
        );
    }
}
