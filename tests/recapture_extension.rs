//! The recapture extension (`SearchOptions::extend_recaptures`, issue 20): a position that
//! is not quiet, reached from one that was not quiet either (in checkers, a capture
//! answering a capture), costs no ply, while the line stays within twice the root's depth.
//! Alpha-beta with it must be minimax over the tree so extended, and the extension must
//! see exchanges to their end that a plain search of the same depth cuts in the middle.

mod common;

use common::best_after_each_move;
use gametree::{
    Checkers, Evaluate, Game, SearchOptions, SplitMix64, iterative_deepening, play_random_moves,
};

/// Minimax over the tree the extension grows, written out plainly: the reference.
fn extended_minimax(
    game: &mut Checkers,
    depth: u32,
    ply: u32,
    parent_not_quiet: bool,
    root_depth: u32,
) -> i32 {
    if game.is_terminal() {
        return game.value();
    }
    if depth == 0 {
        return game.evaluate();
    }
    let not_quiet = !game.is_quiet();
    let extend = not_quiet && parent_not_quiet && ply + depth < 2 * root_depth;
    let child_depth = if extend { depth } else { depth - 1 };
    best_after_each_move(game, |game| {
        extended_minimax(game, child_depth, ply + 1, not_quiet, root_depth)
    })
}

fn searched_value(game: &mut Checkers, depth: u32, extend_recaptures: bool) -> i32 {
    let options = SearchOptions {
        extend_recaptures,
        ..SearchOptions::default()
    };
    iterative_deepening(game, depth, &options, |_| {})
        .value
        .expect("the search completes")
}

#[test]
fn alpha_beta_with_the_extension_is_minimax_over_the_extended_tree() {
    let mut rng = SplitMix64::new(2011);
    let (mut compared, mut changed) = (0, 0);
    while compared < 60 {
        let mut game = Checkers::new();
        // Random games from the start reach the middle game, where exchanges abound.
        play_random_moves(&mut game, 8 + compared % 16, &mut rng);
        if game.is_terminal() {
            continue;
        }
        let depth = 3 + u32::try_from(compared % 2).expect("small");
        let reference = extended_minimax(&mut game, depth, 0, false, depth);
        assert_eq!(
            searched_value(&mut game, depth, true),
            reference,
            "{} at depth {depth}",
            game.position().to_fen()
        );
        if searched_value(&mut game, depth, false) != reference {
            changed += 1;
        }
        compared += 1;
    }
    // The extension must change something for the comparison to say anything: on these 60
    // positions it changes the value of 35.
    assert!(
        changed >= 20,
        "the extension changed {changed} of 60 values"
    );
}

#[test]
fn an_exchange_is_seen_to_its_end_within_the_depth() {
    // Black to move: 15x22 is forced (White's men on 29 and 31 stop it going on), and
    // White must recapture, 25x18 or 26x17. At depth 2 a plain search stops there, the
    // exchange half seen from Black's side; with the extension the recapture costs no ply,
    // so the search also sees Black's reply to it.
    let mut game = Checkers::from_position(
        gametree::games::checkers::Position::from_fen("B:W18,25,26,29,31:B1,2,15")
            .expect("valid FEN"),
    );
    assert!(!game.is_quiet(), "Black must capture");
    let plain = iterative_deepening(&mut game, 2, &SearchOptions::default(), |_| {});
    let extended = iterative_deepening(
        &mut game,
        2,
        &SearchOptions {
            extend_recaptures: true,
            ..SearchOptions::default()
        },
        |_| {},
    );
    // The extended line is longer than the plain one: the recapture did not use a ply.
    assert!(
        extended.principal_line.len() > plain.principal_line.len(),
        "plain {:?}, extended {:?}",
        plain.principal_line,
        extended.principal_line
    );
    assert!(extended.stats.nodes > plain.stats.nodes);
}
