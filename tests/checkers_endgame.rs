//! Checkers endgame databases: every value agrees with its successors' (the retrograde
//! equation), with every win or loss a search proves, and the search converts a won ending.

mod common;

use gametree::Game;
use gametree::games::checkers::endgame::{CheckersEndgame, EndgameBoard, EndgameValue};
use gametree::games::checkers::{Color, Position};
use gametree::search::retrograde::Endgame;

fn black_score(value: EndgameValue) -> i32 {
    match value {
        EndgameValue::BlackWins => 1,
        EndgameValue::Draw => 0,
        EndgameValue::WhiteWins => -1,
    }
}

/// Every position the databases hold, each once (holes left out), with its slice.
fn every_position(board: &mut EndgameBoard) -> Vec<Position> {
    let mut positions = Vec::new();
    for slice in 0..board.slice_count() {
        for index in 0..board.slice_len(slice) {
            board.set_position(slice, index);
            if board.position_index(board.slice_count()) == Some((slice, index)) {
                positions.push(*board.position());
            }
        }
    }
    positions
}

#[test]
fn every_value_is_the_best_of_its_successors() {
    let endgame = CheckersEndgame::build(3, 2, |_| {}).expect("the 3-piece databases");
    let mut board = EndgameBoard::new(3);
    let positions = every_position(&mut board);
    // 202,280 numbers up to 3 pieces (docs/checkers.md), 1.4% of them holes.
    assert!(positions.len() > 100_000, "{}", positions.len());
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    let mut moves = Vec::new();
    for position in &positions {
        let value = endgame.probe(position).expect("every position is held");
        let mover_sign = match position.side_to_move() {
            Color::Black => 1,
            Color::White => -1,
        };
        moves.clear();
        position.legal_moves(&mut moves);
        let best = moves
            .iter()
            .map(|&mv| {
                let next = position.play(mv);
                if !next.has_legal_move() {
                    1 // the mover wins: the other side cannot move
                } else {
                    let child = endgame.probe(&next).expect("a successor is held");
                    mover_sign * black_score(child)
                }
            })
            .max();
        // No move at all: a loss.
        let expected = best.unwrap_or(-1);
        assert_eq!(
            mover_sign * black_score(value),
            expected,
            "{}",
            position.to_fen()
        );
        match mover_sign * black_score(value) {
            1 => wins += 1,
            0 => draws += 1,
            _ => losses += 1,
        }
    }
    assert!(
        wins > 1000 && draws > 1000 && losses > 1000,
        "{wins} {draws} {losses}"
    );
}

#[test]
fn every_win_or_loss_a_search_proves_is_the_databases() {
    // A floor, not a measurement: thousands of decided positions among every 7th.
    search_proofs_agree(3, 7, 1000);
}

/// The same on the 4-piece databases (about a minute to build unoptimised).
#[test]
#[ignore = "builds the 4-piece databases: run by hand"]
fn every_win_or_loss_a_search_proves_is_the_4_piece_databases() {
    search_proofs_agree(4, 97, 5000);
}

/// Every `step`-th position of the databases of up to `pieces`: a depth-limited search's
/// proven win or loss is the databases' value; at least `least_proofs` of them.
fn search_proofs_agree(pieces: usize, step: usize, least_proofs: usize) {
    let endgame = CheckersEndgame::build(pieces, 2, |_| {}).expect("the databases");
    let mut board = EndgameBoard::new(pieces);
    let positions = every_position(&mut board);
    let mut proved = 0;
    for position in positions.iter().step_by(step) {
        let mut game = board.at(*position);
        // Depth-limited minimax to 7 plies with unknown leaves worth 0: a ±1 is a proof.
        let value = depth_limited(&mut game, 7, -2, 2);
        let held = black_score(endgame.probe(position).expect("held"));
        if value != 0 {
            proved += 1;
            assert_eq!(value, held, "{}", position.to_fen());
        }
    }
    assert!(proved >= least_proofs, "{proved} proofs");
}

/// Alpha-beta over the databases' board: ±1 at the end of the game, 0 at the depth.
fn depth_limited(game: &mut EndgameBoard, depth: u32, mut alpha: i32, mut beta: i32) -> i32 {
    if game.is_terminal() {
        return game.value();
    }
    if depth == 0 {
        return 0;
    }
    let mut moves = Vec::new();
    game.successors(&mut moves);
    let maximizing = game.to_move() == gametree::Player::Max;
    let mut best = if maximizing { -2 } else { 2 };
    for mv in moves {
        game.update(mv);
        let value = depth_limited(game, depth - 1, alpha, beta);
        game.revert(mv);
        if maximizing {
            best = best.max(value);
            alpha = alpha.max(value);
        } else {
            best = best.min(value);
            beta = beta.min(value);
        }
        if alpha >= beta {
            break;
        }
    }
    best
}

/// Plays `position` out, both sides searching `depth` plies with the databases, until the
/// game ends or `most_plies` have passed; the result.
fn play_out(
    position: &str,
    endgame: &CheckersEndgame,
    depth: u32,
    most_plies: usize,
) -> Option<gametree::games::checkers::GameResult> {
    use gametree::games::checkers::Checkers;
    let position = Position::from_fen(position).expect("valid");
    let mut game = Checkers::from_position(position).with_endgame(endgame.clone());
    let mut table = gametree::TranspositionTable::with_mib(4);
    for _ in 0..most_plies {
        if let Some(result) = game.result() {
            return Some(result);
        }
        game.mark_root();
        let mv = gametree::Search::new(&mut game)
            .quiescence(16)
            .table(&mut table)
            .depth(depth)
            .run()
            .best_move
            .expect("a move");
        game.update(mv);
    }
    game.result()
}

#[test]
fn two_kings_drive_a_lone_king_out_of_the_double_corner_and_win() {
    use gametree::games::checkers::GameResult;
    let endgame = CheckersEndgame::build(3, 2, |_| {}).expect("the databases");
    // White's king shelters in the double corner (1/5); Black's kings are far off. The
    // 40-move rule would draw after 80 quiet plies: the win must come sooner.
    for (position, winner) in [
        ("B:WK1:BK28,K32", GameResult::BlackWins),
        ("W:WK32,K27:BK5", GameResult::WhiteWins),
        ("B:WK5:BK30,K31", GameResult::BlackWins),
    ] {
        let start = Position::from_fen(position).expect("valid");
        let held = endgame.probe(&start).expect("held");
        assert_ne!(held, EndgameValue::Draw, "{position}");
        assert_eq!(
            play_out(position, &endgame, 8, 120),
            Some(winner),
            "{position}"
        );
    }
}

/// `checkers endgame --output FILE` saves the slices done to `FILE.partial` as it goes, and
/// a rerun resumes from there: the databases are those built at once, and the checkpoint
/// is removed when they are written. A checkpoint that is not one stops the run (exit 2).
#[test]
fn an_endgame_build_resumes_from_its_checkpoint() {
    use gametree::search::retrograde::{EndgameError, EndgameTable};
    let scratch = |name: &str| {
        std::env::temp_dir().join(format!("gametree-endgame-{name}-{}", std::process::id()))
    };
    let partial = |path: &std::path::Path| {
        let mut name = path.as_os_str().to_owned();
        name.push(".partial");
        std::path::PathBuf::from(name)
    };
    let build_to = |path: &std::path::Path| {
        common::gametree(&[
            "checkers",
            "endgame",
            "--pieces",
            "3",
            "--output",
            &path.to_string_lossy(),
        ])
    };
    let at_once = scratch("at-once.bin");
    let output = build_to(&at_once);
    assert!(output.status.success(), "{}", common::stderr(&output));
    assert!(!common::stdout(&output).contains("resumed"));
    assert!(!partial(&at_once).exists(), "the checkpoint is removed");
    // A build stopped after 4 of the 9 slices, its checkpoint where the CLI looks for it.
    let resumed = scratch("resumed.bin");
    let stopped = CheckersEndgame::resume(
        3,
        2,
        None,
        |_| {},
        |table| {
            if table.slices() < 4 {
                return Ok(());
            }
            let file = std::fs::File::create(partial(&resumed))?;
            table.write_to(file)?;
            Err(EndgameError::Format("stopped".into()))
        },
    );
    assert!(stopped.is_err());
    let output = build_to(&resumed);
    assert!(output.status.success(), "{}", common::stderr(&output));
    assert!(
        common::stdout(&output).contains(&format!(
            "resumed   4 slices from {}",
            partial(&resumed).display()
        )),
        "{}",
        common::stdout(&output)
    );
    assert_eq!(
        std::fs::read(&resumed).expect("written"),
        std::fs::read(&at_once).expect("written")
    );
    assert!(!partial(&resumed).exists(), "the checkpoint is removed");
    // Not a checkpoint, and a checkpoint of the 2-piece databases: refused, one line.
    let wrong = scratch("wrong.bin");
    std::fs::write(partial(&wrong), "not a table\n").expect("written");
    let output = build_to(&wrong);
    assert_eq!(output.status.code(), Some(2));
    assert!(common::stderr(&output).contains("the checkpoint of an earlier build"));
    assert!(common::stderr(&output).contains("first line is wrong"));
    let board = EndgameBoard::new(2);
    let two = EndgameTable::build_parallel(&board, board.slice_count(), 1, |_| {}).expect("built");
    two.write_to(std::fs::File::create(partial(&wrong)).expect("created"))
        .expect("written");
    let output = build_to(&wrong);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        common::stderr(&output).contains("pieces=2"),
        "{}",
        common::stderr(&output)
    );
    for path in [&at_once, &resumed, &wrong] {
        let _ = std::fs::remove_file(path);
    }
    let _ = std::fs::remove_file(partial(&wrong));
}

/// Minimax to `depth` plies over the game as the search sees it with the databases: the
/// game's value where it is over; below a root the databases do not hold, their value
/// where they hold the position (`Evaluate::known_value`); the evaluation at the depth.
fn minimax_with_known_values(
    game: &mut gametree::games::checkers::Checkers,
    depth: u32,
    root_held: bool,
    at_root: bool,
) -> i32 {
    use gametree::Evaluate;
    if game.is_terminal() {
        return game.value();
    }
    if !at_root
        && !root_held
        && let Some(value) = game.known_value()
    {
        return value;
    }
    if depth == 0 {
        return game.evaluate();
    }
    let mut moves = Vec::new();
    game.successors(&mut moves);
    let player = game.to_move();
    let values = moves.into_iter().map(|mv| {
        game.update(mv);
        let value = minimax_with_known_values(game, depth - 1, root_held, false);
        game.revert(mv);
        value
    });
    match player {
        gametree::Player::Max => values.max(),
        gametree::Player::Min => values.min(),
    }
    .expect("a game not over has a move")
}

/// Below a root the databases do not hold, a position they hold ends its branch with their
/// value; from a root they hold, the search looks past them to its depth (to choose the
/// move that converts a win). Either way the depth-limited search's value is minimax's
/// over the game so seen, on random positions of three and four pieces with the 3-piece
/// databases.
#[test]
fn positions_the_databases_hold_end_the_search_below_a_root_they_do_not_hold() {
    use gametree::games::checkers::Checkers;
    use gametree::{Evaluate, Window};
    let endgame = CheckersEndgame::build(3, 2, |_| {}).expect("the databases");
    let mut random = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = |bound: u64| {
        random ^= random << 13;
        random ^= random >> 7;
        random ^= random << 17;
        random % bound
    };
    // 120 positions, at least 30 of each kind, at depth 4: enough branches that end in the
    // databases (a capture within four plies) for the two sides to differ when the rule is
    // broken, and a full minimax of each stays a few milliseconds. The seed is arbitrary.
    let (mut held_roots, mut other_roots) = (0, 0);
    while held_roots + other_roots < 120 {
        let pieces = 3 + next(2) as usize;
        let mut squares = Vec::new();
        while squares.len() < pieces {
            let square = 1 + next(32);
            if !squares.contains(&square) {
                squares.push(square);
            }
        }
        // The first piece Black's, the second White's, the rest either; a man on its own
        // crowning row is made a king.
        let (mut black, mut white) = (Vec::new(), Vec::new());
        for (place, &square) in squares.iter().enumerate() {
            let is_black = place == 0 || (place > 1 && next(2) == 0);
            let crowned = (is_black && square > 28) || (!is_black && square <= 4);
            let piece = if crowned || next(3) == 0 {
                format!("K{square}")
            } else {
                square.to_string()
            };
            if is_black { &mut black } else { &mut white }.push(piece);
        }
        let side = if next(2) == 0 { "B" } else { "W" };
        let fen = format!("{side}:W{}:B{}", white.join(","), black.join(","));
        let position = Position::from_fen(&fen).expect("a valid position");
        let mut game = Checkers::from_position(position).with_endgame(endgame.clone());
        if game.is_terminal() {
            continue;
        }
        let root_held = game.known_value().is_some();
        assert_eq!(root_held, pieces == 3, "{fen}");
        if root_held {
            held_roots += 1;
        } else {
            other_roots += 1;
        }
        let depth = 4;
        let searched = gametree::depth_limited_value(&mut game, depth, Window::full());
        let expected = minimax_with_known_values(&mut game, depth, root_held, true);
        assert_eq!(searched.value, expected, "{fen}");
    }
    assert!(
        held_roots >= 30 && other_roots >= 30,
        "{held_roots} held, {other_roots} not"
    );

    // Black's king must take White's man into a 3-piece ending: the search reads its value
    // and stops there, two positions in all, however deep it may look.
    let position = Position::from_fen("B:W18,K32:BK14,K4").expect("valid");
    let mut game = Checkers::from_position(position).with_endgame(endgame.clone());
    assert_eq!(game.known_value(), None);
    let result = gametree::Search::new(&mut game).depth(12).run();
    assert_eq!(result.stats.nodes, 2);
    let mv = result.best_move.expect("a move");
    game.update(mv);
    assert_eq!(result.value, game.known_value());
    assert!(result.value > Some(gametree::games::checkers::ENDGAME_WIN_VALUE));
}
