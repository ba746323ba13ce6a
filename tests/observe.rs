//! The search observer (`gametree::search::observe`): what it is told is what the searches
//! do — one `enter` a position counted, one `leaf` a leaf counted, the root's `leave` the
//! search's value, and every successor of a position either searched or cut off.

use gametree::search::observe::{CutoffReason, Event, Recorder};
use gametree::{
    ExplicitTree, Exponents, Game, RandomTreeConfig, Slagle, Window, alphabeta_value,
    alphabeta_value_observed, minimax, minimax_observed, mn_alphabeta, mn_alphabeta_observed,
    mn_minimax_observed,
};
use proptest::prelude::*;

/// The positions entered, as paths from the root, in order.
fn entered_paths(recorder: &Recorder<usize, f64>) -> Vec<Vec<usize>> {
    recorder
        .events
        .iter()
        .zip(recorder.paths())
        .filter(|(event, _)| matches!(event, Event::Enter(_)))
        .map(|(_, path)| path)
        .collect()
}

/// Each position left, with how many of its successors were searched or cut off (a tree's
/// positions are entered once each, so the path names the position).
fn accounted_successors(recorder: &Recorder<usize, f64>) -> Vec<(Vec<usize>, usize)> {
    let mut accounted: std::collections::HashMap<Vec<usize>, usize> = Default::default();
    let mut left = Vec::new();
    for (event, path) in recorder.events.iter().zip(recorder.paths()) {
        match event {
            Event::Descend(_) => *accounted.entry(path).or_default() += 1,
            Event::Cutoff(moves, _) => *accounted.entry(path).or_default() += moves.len(),
            Event::Leave(_) => left.push(path),
            Event::Enter(_) | Event::Leaf(_) => {}
        }
    }
    left.into_iter()
        .map(|path| {
            let count = accounted.get(&path).copied().unwrap_or(0);
            (path, count)
        })
        .collect()
}

fn count(events: &[Event<usize, f64>], wanted: fn(&Event<usize, f64>) -> bool) -> u64 {
    events.iter().filter(|event| wanted(event)).count() as u64
}

#[test]
fn alpha_beta_on_the_smallest_cutting_tree_cuts_the_last_leaf_because_two_is_at_most_three() {
    let mut tree = ExplicitTree::parse("((3 5) (2 9))").unwrap();
    let mut recorder = Recorder::default();
    let result = alphabeta_value_observed(&mut tree, Window::full(), &mut recorder);
    assert_eq!(result.value, 3.0);
    let cutoffs: Vec<_> = recorder
        .events
        .iter()
        .filter_map(|event| match event {
            Event::Cutoff(moves, reason) => Some((moves.clone(), *reason)),
            _ => None,
        })
        .collect();
    // At MIN's second position the leaf 2 is no more than α = 3: the leaf 9 is not looked at.
    assert_eq!(
        cutoffs,
        vec![(
            vec![2],
            CutoffReason::AlphaCutoff {
                value: 2.0,
                alpha: 3.0
            }
        )]
    );
    assert_eq!(recorder.events.last(), Some(&Event::Leave(3.0)));
    let paths = entered_paths(&recorder);
    assert_eq!(
        paths,
        vec![vec![], vec![1], vec![1, 1], vec![1, 2], vec![2], vec![2, 1]]
    );
}

#[test]
fn the_windows_entered_are_the_ones_mccarthy_passes_down() {
    let mut tree = ExplicitTree::parse("((3 5) (2 9))").unwrap();
    let mut recorder = Recorder::default();
    alphabeta_value_observed(&mut tree, Window::full(), &mut recorder);
    let windows: Vec<_> = recorder
        .events
        .iter()
        .filter_map(|event| match event {
            Event::Enter(Some(window)) => Some((window.alpha, window.beta)),
            _ => None,
        })
        .collect();
    let infinity = f64::INFINITY;
    assert_eq!(
        windows,
        vec![
            (-infinity, infinity),
            (-infinity, infinity),
            (-infinity, infinity),
            (-infinity, 3.0),
            (3.0, infinity),
            (3.0, infinity),
        ]
    );
}

fn small_trees() -> impl Strategy<Value = ExplicitTree> {
    (1usize..=4, 1usize..=5, any::<u64>()).prop_map(|(branching, depth, seed)| {
        let config = RandomTreeConfig {
            branching: 1..=branching,
            depth: 1..=depth,
            values: -9..=9,
        };
        ExplicitTree::random(&config, seed)
    })
}

proptest! {
    #[test]
    fn alpha_beta_tells_each_count_and_its_value(mut tree in small_trees(), alpha in -10i32..=10, width in 1i32..=20) {
        let window = Window::new(f64::from(alpha), f64::from(alpha + width));
        let plain = alphabeta_value(&mut tree, window);
        let mut recorder = Recorder::default();
        let watched = alphabeta_value_observed(&mut tree, window, &mut recorder);
        let events = &recorder.events;
        prop_assert_eq!(watched.value, plain.value);
        prop_assert_eq!(watched.stats.nodes, plain.stats.nodes);
        prop_assert_eq!(count(events, |e| matches!(e, Event::Enter(_))), plain.stats.nodes);
        prop_assert_eq!(count(events, |e| matches!(e, Event::Leaf(_))), plain.stats.leaves);
        prop_assert_eq!(count(events, |e| matches!(e, Event::Leave(_))), plain.stats.nodes);
        prop_assert_eq!(count(events, |e| matches!(e, Event::Cutoff(..))), plain.stats.cutoffs);
        prop_assert_eq!(events.last(), Some(&Event::Leave(plain.value)));
    }

    #[test]
    fn minimax_enters_every_position_and_cuts_nothing(mut tree in small_trees()) {
        let mut recorder = Recorder::default();
        let watched = minimax_observed(&mut tree, &mut recorder);
        prop_assert_eq!(watched.value, minimax(&mut tree).value);
        prop_assert_eq!(entered_paths(&recorder).len(), tree.node_count());
        prop_assert_eq!(count(&recorder.events, |e| matches!(e, Event::Cutoff(..))), 0);
        prop_assert_eq!(recorder.events.last(), Some(&Event::Leave(watched.value)));
    }

    #[test]
    fn one_and_one_alpha_beta_enters_the_positions_alpha_beta_enters(mut tree in small_trees()) {
        // Slagle: with m = n = 1, m&n alpha-beta is ordinary alpha-beta (crate docs).
        let exponents = Exponents::new(3.0, 1.0).unwrap();
        let one_and_one = Slagle::new(1, 1, exponents, exponents).unwrap();
        let mut plain = Recorder::default();
        alphabeta_value_observed(&mut tree, Window::full(), &mut plain);
        let mut m_and_n = Recorder::default();
        let result = mn_alphabeta_observed(&mut tree, &one_and_one, &mut m_and_n);
        prop_assert_eq!(entered_paths(&m_and_n), entered_paths(&plain));
        prop_assert_eq!(result.value, mn_alphabeta(&mut tree, &one_and_one).value);
    }

    #[test]
    fn every_successor_is_searched_or_cut_off_by_m_and_n_alpha_beta(mut tree in small_trees()) {
        let exponents = Exponents::new(3.0, 1.0).unwrap();
        let two_and_two = Slagle::new(2, 2, exponents, exponents).unwrap();
        let mut recorder = Recorder::default();
        let result = mn_alphabeta_observed(&mut tree, &two_and_two, &mut recorder);
        prop_assert_eq!(count(&recorder.events, |e| matches!(e, Event::Enter(_))), result.stats.nodes);
        // Each inner position's successors: those searched plus those cut off are all of them.
        for (path, accounted) in accounted_successors(&recorder) {
            for &mv in &path {
                tree.update(mv);
            }
            let mut moves = Vec::new();
            tree.successors(&mut moves);
            tree.reset();
            prop_assert_eq!(accounted, moves.len(), "at {:?}", path);
        }
        let mut full = Recorder::default();
        let everything = mn_minimax_observed(&mut tree, &two_and_two, &mut full);
        prop_assert_eq!(entered_paths(&full).len(), tree.node_count());
        prop_assert_eq!(everything.best_move, result.best_move);
    }
}
