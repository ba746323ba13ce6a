//! The threat extension (`SearchOptions::extend_threats`, issue 20): a quiet position at
//! the horizon whose player to move is threatened (`Evaluate::is_threatened`; in checkers,
//! the player who just moved could capture) is searched one ply more, at the horizon only
//! (not inside the quiescence search) and while the line stays within twice the root's
//! depth. Alpha-beta with it must be minimax over the tree so extended; a game without
//! threats must search exactly as before.

mod common;

use common::{
    NO_DRAW_RULES, best_after_each_move, iteration_values as values, random_checkers_positions,
};
use gametree::games::checkers::{Checkers, Position};
use gametree::{Evaluate, Game, SearchOptions, iterative_deepening};

/// Minimax over the tree the extension grows, with quiescence of `quiescence` plies,
/// written out plainly: the reference. `past` counts the plies past the horizon.
fn extended_minimax(
    game: &mut Checkers,
    depth: u32,
    ply: u32,
    past: u32,
    quiescence: u32,
    root_depth: u32,
) -> i32 {
    if game.is_terminal() {
        return game.value();
    }
    let mut depth = depth;
    if depth == 0 && (past >= quiescence || game.is_quiet()) {
        if past == 0 && ply < 2 * root_depth && game.is_threatened() {
            depth = 1;
        } else {
            return game.evaluate();
        }
    }
    let extending = depth == 0;
    best_after_each_move(game, |game| {
        extended_minimax(
            game,
            depth.saturating_sub(1),
            ply + 1,
            past + u32::from(extending),
            quiescence,
            root_depth,
        )
    })
}

fn options(extend_threats: bool, quiescence_plies: u32) -> SearchOptions {
    SearchOptions {
        extend_threats,
        quiescence_plies,
        ..SearchOptions::default()
    }
}

#[test]
fn alpha_beta_with_the_extension_is_minimax_over_the_extended_tree() {
    let mut changed = 0;
    let positions = random_checkers_positions(100, 2029);
    for (index, &position) in positions.iter().enumerate() {
        let depth = 2 + u32::try_from(index % 2).expect("small");
        for quiescence in [0, 16] {
            let mut game = Checkers::from_position(position).with_rules(NO_DRAW_RULES);
            let reference = extended_minimax(&mut game, depth, 0, 0, quiescence, depth);
            let extended =
                iterative_deepening(&mut game, depth, &options(true, quiescence), |_| {});
            assert_eq!(
                extended.value,
                Some(reference),
                "{} at depth {depth}, quiescence {quiescence}",
                position.to_fen()
            );
            let plain = iterative_deepening(&mut game, depth, &options(false, quiescence), |_| {});
            changed += usize::from(plain.value != Some(reference));
        }
    }
    // The extension must change something for the comparison to say anything: on these
    // 100 positions, twice each, it changes 20 values.
    assert!(changed >= 10, "the extension changed only {changed} values");
}

#[test]
fn a_threat_is_what_the_other_side_could_capture_if_it_were_to_move() {
    // The same position with the other side to move: its captures are the threats.
    for position in random_checkers_positions(500, 2030) {
        let fen = position.to_fen();
        let flipped_fen = match fen.split_at(1) {
            ("B", rest) => format!("W{rest}"),
            ("W", rest) => format!("B{rest}"),
            _ => panic!("a FEN starts with its side to move: {fen}"),
        };
        let flipped = Position::from_fen(&flipped_fen).expect("the flipped FEN parses");
        assert_eq!(position.threatens_capture(), flipped.has_capture(), "{fen}");
    }
}

#[test]
fn without_threats_the_extension_changes_nothing() {
    // Positions where the side to move captures or is quiet and unthreatened are searched
    // position for position as before: a game whose `is_threatened` is always false
    // (every game but checkers) is never extended.
    let mut unthreatened = 0;
    for position in random_checkers_positions(300, 2031) {
        let mut game = Checkers::from_position(position).with_rules(NO_DRAW_RULES);
        // At depth 1 the root's children are at the horizon; none threatened, nothing changes.
        let mut children = Vec::new();
        game.successors(&mut children);
        let threatened = children.iter().any(|&mv| {
            game.update(mv);
            let threatened = game.is_quiet() && game.is_threatened();
            game.revert(mv);
            threatened
        });
        if threatened {
            continue;
        }
        unthreatened += 1;
        let with = iterative_deepening(&mut game, 1, &options(true, 16), |_| {});
        let without = iterative_deepening(&mut game, 1, &options(false, 16), |_| {});
        assert_eq!(values(&with), values(&without), "{}", position.to_fen());
        assert_eq!(
            with.stats.nodes,
            without.stats.nodes,
            "{}",
            position.to_fen()
        );
    }
    assert!(
        unthreatened >= 50,
        "only {unthreatened} positions without threats"
    );
}
