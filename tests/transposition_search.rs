//! The depth-limited searches with a transposition table against the same searches without
//! one, at fixed depth, where they must agree (`Reuse::SameDepth`, a key that identifies
//! the value, no window-dependent `ter`): random checkers positions with the draw rules
//! off, random game graphs with transpositions at equal and unequal depths, and seed
//! 002's tic-tac-toe.

mod common;

use common::{NO_DRAW_RULES, random_checkers_positions};
use gametree::SplitMix64;
use gametree::games::checkers::{Checkers, Position, WIN_VALUE};
use gametree::{
    Bound, Evaluate, Game, Player, PositionKey, Reuse, SearchOptions, SimpleTicTacToe, StopReason,
    TableSearch, TranspositionTable, Window, depth_limited_aspiration,
    depth_limited_aspiration_with_table, depth_limited_line, depth_limited_line_with_table,
    depth_limited_value, depth_limited_value_with_table, iterative_deepening,
    iterative_deepening_with_table,
};
use proptest::prelude::*;

#[test]
fn checkers_values_with_and_without_the_table_agree_on_three_hundred_random_positions() {
    let mut table = TranspositionTable::with_mib(8);
    // One table for every position and search: values are stored relative to the
    // position, so entries from other roots are as good as this root's.
    let mut search = TableSearch::new(&mut table)
        .with_reuse(Reuse::SameDepth)
        .with_distance(Checkers::distance_adjustment());
    let mut rng = SplitMix64::new(5);
    let (mut nodes_with, mut nodes_without) = (0, 0);
    for (index, position) in random_checkers_positions(300, 11).into_iter().enumerate() {
        let mut game = Checkers::from_position(position).with_rules(NO_DRAW_RULES);
        let depth = 1 + (index % 6) as u32;
        let guess = game.evaluate();
        let narrow = 1 + rng.below(40) as i32;
        for window in [
            Window::full(),
            Window::new(guess - narrow, guess + narrow),
            Window::new(guess, guess + 1),
        ] {
            let without = depth_limited_value(&mut game, depth, window);
            let with = depth_limited_value_with_table(&mut game, depth, window, &mut search);
            assert_eq!(
                (with.value, with.bound),
                (without.value, without.bound),
                "{} depth {depth} window {window:?}",
                position.to_fen()
            );
            nodes_with += with.stats.nodes;
            nodes_without += without.stats.nodes;
        }
        assert_eq!(game.position(), &position, "the game is given back");
    }
    assert!(search.stats.cutoffs > 0);
    assert!(
        nodes_with < nodes_without,
        "{nodes_with} vs {nodes_without}"
    );
}

/// `count` endings of one to three pieces a side on random squares, some of them kings,
/// with a legal move: wins and losses within a few plies are common.
fn random_checkers_endings(count: usize, seed: u64) -> Vec<Position> {
    let mut rng = SplitMix64::new(seed);
    let mut positions = Vec::new();
    while positions.len() < count {
        let mut pieces = [0u32; 2];
        let mut kings = 0u32;
        for side in &mut pieces {
            for _ in 0..1 + rng.below(3) {
                let square = 1u32 << rng.below(32);
                *side |= square;
                if rng.below(2) == 0 {
                    kings |= square;
                }
            }
        }
        let color = if rng.below(2) == 0 {
            gametree::games::checkers::Color::Black
        } else {
            gametree::games::checkers::Color::White
        };
        if let Ok(position) = Position::from_bitboards(pieces[0], pieces[1], kings, color)
            && position.has_legal_move()
        {
            positions.push(position);
        }
    }
    positions
}

#[test]
fn checkers_wins_scored_by_distance_agree_with_and_without_the_table_from_root_to_root() {
    // One table for a search of an ending and then for searches of each position after
    // its moves, as in a game: the second searches meet positions stored one ply further
    // from the first root, and wins are scored by their distance from the root.
    let mut table = TranspositionTable::with_mib(8);
    let mut search = TableSearch::new(&mut table)
        .with_reuse(Reuse::SameDepth)
        .with_distance(Checkers::distance_adjustment());
    let mut decided = 0;
    let mut moves = Vec::new();
    for (index, position) in random_checkers_endings(150, 41).into_iter().enumerate() {
        let depth = 4 + (index % 5) as u32;
        let mut game = Checkers::from_position(position).with_rules(NO_DRAW_RULES);
        let without = depth_limited_value(&mut game, depth, Window::full());
        let with = depth_limited_value_with_table(&mut game, depth, Window::full(), &mut search);
        assert_eq!(
            with.value,
            without.value,
            "{} depth {depth}",
            position.to_fen()
        );
        moves.clear();
        position.legal_moves(&mut moves);
        for &mv in &moves {
            let next = position.play(mv);
            let mut game = Checkers::from_position(next).with_rules(NO_DRAW_RULES);
            let without = depth_limited_value(&mut game, depth - 1, Window::full());
            let with =
                depth_limited_value_with_table(&mut game, depth - 1, Window::full(), &mut search);
            assert_eq!(
                with.value,
                without.value,
                "{} after {mv}, depth {}",
                position.to_fen(),
                depth - 1
            );
            if without.value.abs() > WIN_VALUE / 2 {
                decided += 1;
            }
        }
    }
    // The test means something: many of these positions are won or lost within the
    // horizon.
    assert!(decided > 50, "{decided}");
}

#[test]
fn checkers_lines_with_the_table_have_the_same_value_and_a_best_first_move() {
    let mut table = TranspositionTable::with_mib(8);
    let mut search = TableSearch::new(&mut table)
        .with_reuse(Reuse::SameDepth)
        .with_distance(Checkers::distance_adjustment());
    for (index, position) in random_checkers_positions(200, 23).into_iter().enumerate() {
        let mut game = Checkers::from_position(position).with_rules(NO_DRAW_RULES);
        let depth = 2 + (index % 5) as u32;
        let without = depth_limited_line(&mut game, depth, Window::full());
        let with = depth_limited_line_with_table(&mut game, depth, Window::full(), &mut search);
        assert_eq!(with.value, without.value, "{}", position.to_fen());
        assert_eq!(with.bound, Bound::Exact);
        // The line is complete and legal, and its first move is worth the value: the
        // child searched one ply less (plies still counted from this root) gives it.
        let first = *with.principal_line.first().expect("a line");
        let mut replay = position;
        for &mv in &with.principal_line {
            let mut legal = Vec::new();
            replay.legal_moves(&mut legal);
            assert!(legal.contains(&mv), "{}", position.to_fen());
            replay = replay.play(mv);
        }
        game.update(first);
        let child = depth_limited_value(&mut game, depth - 1, Window::full());
        game.revert(first);
        assert_eq!(
            child.value,
            with.value,
            "{} first move {first}",
            position.to_fen()
        );
    }
}

/// Whether deepening with a table gave the values of deepening without one: the same
/// values at every depth both searched. One may stop before the other because an
/// iteration reached no horizon (`StopReason::TreeExhausted`): the orderings differ, so
/// one search may meet a horizon the other pruned away, and with a table an iteration an
/// entry cut short never counts as exhausted. Every deeper iteration of the other must
/// then find the exhausted iteration's value, which is final.
fn same_iterations(
    with: &[i32],
    without: &[i32],
    stop_with: StopReason,
    stop_without: StopReason,
) -> bool {
    let common = with.len().min(without.len());
    let (shorter, longer, stop) = if with.len() < without.len() {
        (with, without, stop_with)
    } else {
        (without, with, stop_without)
    };
    with[..common] == without[..common]
        && (with.len() == without.len()
            || (stop == StopReason::TreeExhausted
                && longer[common..]
                    .iter()
                    .all(|value| Some(value) == shorter.last())))
}

#[test]
fn checkers_iterative_deepening_and_aspiration_agree_with_and_without_the_table() {
    for (index, position) in random_checkers_positions(60, 37).into_iter().enumerate() {
        let mut table = TranspositionTable::with_mib(2);
        let mut search = TableSearch::new(&mut table)
            .with_reuse(Reuse::SameDepth)
            .with_distance(Checkers::distance_adjustment());
        let mut game = Checkers::from_position(position).with_rules(NO_DRAW_RULES);
        let depth = 3 + (index % 5) as u32;
        let options = SearchOptions::default();
        let values = |result: &gametree::DeepeningResult<_, i32>| {
            result
                .iterations
                .iter()
                .map(|iteration| iteration.value)
                .collect::<Vec<_>>()
        };
        let without = iterative_deepening(&mut game, depth, &options, |_| {});
        let with = iterative_deepening_with_table(&mut game, depth, &options, &mut search, |_| {});
        assert!(
            same_iterations(&values(&with), &values(&without), with.stop, without.stop),
            "{}",
            position.to_fen()
        );

        let guess = game.evaluate();
        let plain = depth_limited_aspiration(&mut game, depth, guess, 10);
        let tabled = depth_limited_aspiration_with_table(&mut game, depth, guess, 10, &mut search);
        assert_eq!(tabled.value, plain.value, "{}", position.to_fen());
        assert_eq!(plain.value, *values(&without).last().expect("iterations"));
    }
}

#[test]
fn the_table_saves_most_of_the_work_at_depth_ten_from_the_start() {
    let mut game = Checkers::new().with_rules(NO_DRAW_RULES);
    let mut table = TranspositionTable::with_mib(16);
    let mut search = TableSearch::new(&mut table)
        .with_reuse(Reuse::SameDepth)
        .with_distance(Checkers::distance_adjustment());
    // With killers, which send the search without a table through many more positions
    // (measured: about half of them saved).
    let options = SearchOptions {
        use_killers: true,
        ..SearchOptions::default()
    };
    let without = iterative_deepening(&mut game, 10, &options, |_| {});
    let with = iterative_deepening_with_table(&mut game, 10, &options, &mut search, |_| {});
    assert_eq!(with.value, without.value);
    assert!(
        with.stats.nodes * 2 < without.stats.nodes,
        "{} vs {}",
        with.stats.nodes,
        without.stats.nodes
    );
    // With the default ordering (the principal line first) the search without a table
    // is already lean: the table, reused at the same depth only, still saves some
    // (measured: 31,260 positions against 33,648).
    let options = SearchOptions::default();
    let without = iterative_deepening(&mut game, 10, &options, |_| {});
    table.clear();
    let mut search = TableSearch::new(&mut table)
        .with_reuse(Reuse::SameDepth)
        .with_distance(Checkers::distance_adjustment());
    let with = iterative_deepening_with_table(&mut game, 10, &options, &mut search, |_| {});
    assert_eq!(with.value, without.value);
    assert!(with.stats.nodes < without.stats.nodes);
}

/// A layered game graph: positions of layer L (MAX to move when L is even) have moves to
/// layer L + 1 and, sometimes, L + 3, so positions are reached along many paths and at
/// different distances from the root. The key is the position's index.
#[derive(Clone, Debug)]
struct Graph {
    children: Vec<Vec<usize>>,
    values: Vec<i32>,
    layer_of: Vec<usize>,
    path: Vec<usize>,
}

impl Graph {
    fn generate(seed: u64, layers: usize, width: usize, max_branching: u64) -> Graph {
        let mut rng = SplitMix64::new(seed);
        let count = layers * width;
        let mut children = vec![Vec::new(); count];
        let mut values = Vec::with_capacity(count);
        let mut layer_of = Vec::with_capacity(count);
        for (node, moves) in children.iter_mut().enumerate() {
            let layer = node / width;
            layer_of.push(layer);
            values.push(rng.below(17) as i32 - 8);
            if layer + 1 >= layers || (node > 0 && rng.below(8) == 0) {
                continue;
            }
            for _ in 0..1 + rng.below(max_branching) {
                let skip = if layer + 3 < layers && rng.below(4) == 0 {
                    3
                } else {
                    1
                };
                let child = (layer + skip) * width + rng.below(width as u64) as usize;
                if !moves.contains(&child) {
                    moves.push(child);
                }
            }
        }
        Graph {
            children,
            values,
            layer_of,
            path: vec![0],
        }
    }

    fn current(&self) -> usize {
        *self.path.last().expect("the root is on the path")
    }
}

impl Game for Graph {
    type Move = usize;
    type Value = i32;
    fn to_move(&self) -> Player {
        if self.layer_of[self.current()].is_multiple_of(2) {
            Player::Max
        } else {
            Player::Min
        }
    }
    fn successors(&self, moves: &mut Vec<usize>) {
        moves.extend(self.children[self.current()].iter().copied());
    }
    fn is_terminal(&self) -> bool {
        self.children[self.current()].is_empty()
    }
    fn value(&self) -> i32 {
        self.values[self.current()]
    }
    fn update(&mut self, mv: usize) {
        self.path.push(mv);
    }
    fn revert(&mut self, _mv: usize) {
        self.path.pop();
    }
}

impl Evaluate for Graph {
    fn evaluate(&self) -> i32 {
        self.values[self.current()]
    }
}

impl PositionKey for Graph {
    fn hash_key(&self) -> u64 {
        self.current() as u64
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 256,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn on_random_graphs_the_table_changes_no_value_at_fixed_depth(
        seed in any::<u64>(),
        depth in 1u32..9,
        alpha in -10i32..6,
        width in 1i32..12,
    ) {
        let mut graph = Graph::generate(seed, 10, 6, 4);
        let mut table = TranspositionTable::with_buckets(64);
        let mut search = TableSearch::new(&mut table).with_reuse(Reuse::SameDepth);
        for window in [Window::full(), Window::new(alpha, alpha + width)] {
            let without = depth_limited_value(&mut graph, depth, window);
            let with = depth_limited_value_with_table(&mut graph, depth, window, &mut search);
            prop_assert_eq!(with.value, without.value);
            let line_without = depth_limited_line(&mut graph, depth, window);
            let line_with = depth_limited_line_with_table(&mut graph, depth, window, &mut search);
            prop_assert_eq!(line_with.value, line_without.value);
        }
        let options = SearchOptions::default();
        let without = iterative_deepening(&mut graph, depth, &options, |_| {});
        let with = iterative_deepening_with_table(&mut graph, depth, &options, &mut search, |_| {});
        let values = |result: &gametree::DeepeningResult<usize, i32>| {
            result.iterations.iter().map(|iteration| iteration.value).collect::<Vec<_>>()
        };
        prop_assert!(
            same_iterations(&values(&with), &values(&without), with.stop, without.stop),
            "{:?} {:?}",
            values(&with),
            values(&without)
        );
        prop_assert_eq!(graph.path.len(), 1);
    }
}

/// Seed 002's tic-tac-toe with a Zobrist key kept move by move.
struct KeyedTicTacToe {
    game: SimpleTicTacToe,
    key: u64,
}

/// The key of `player` on `square` (1–9).
fn square_key(player: Player, square: usize) -> u64 {
    let index = square as u64 + if player == Player::Max { 0 } else { 16 };
    SplitMix64::new(index).next_u64()
}

impl Game for KeyedTicTacToe {
    type Move = <SimpleTicTacToe as Game>::Move;
    type Value = i32;
    fn to_move(&self) -> Player {
        self.game.to_move()
    }
    fn successors(&self, moves: &mut Vec<Self::Move>) {
        self.game.successors(moves);
    }
    fn is_terminal(&self) -> bool {
        self.game.is_terminal()
    }
    fn value(&self) -> i32 {
        self.game.value()
    }
    fn update(&mut self, mv: Self::Move) {
        self.key ^= square_key(self.game.to_move(), usize::from(mv));
        self.game.update(mv);
    }
    fn revert(&mut self, mv: Self::Move) {
        self.game.revert(mv);
        self.key ^= square_key(self.game.to_move(), usize::from(mv));
    }
}

impl Evaluate for KeyedTicTacToe {
    fn evaluate(&self) -> i32 {
        self.game.evaluate()
    }
}

impl PositionKey for KeyedTicTacToe {
    fn hash_key(&self) -> u64 {
        self.key
    }
}

#[test]
fn tic_tac_toe_values_with_and_without_the_table_agree_at_every_depth_and_both_reuses() {
    let mut keyed = KeyedTicTacToe {
        game: SimpleTicTacToe::new(),
        key: 0,
    };
    for reuse in [Reuse::SameDepth, Reuse::OrderingOnly] {
        let mut table = TranspositionTable::with_mib(1);
        let mut search = TableSearch::new(&mut table).with_reuse(reuse);
        for depth in 1..=9 {
            let without = depth_limited_value(&mut keyed, depth, Window::full());
            let with =
                depth_limited_value_with_table(&mut keyed, depth, Window::full(), &mut search);
            assert_eq!(with.value, without.value, "{reuse:?} depth {depth}");
            if reuse == Reuse::SameDepth && depth >= 5 {
                assert!(with.stats.nodes < without.stats.nodes, "depth {depth}");
            }
        }
    }
    // Nine plies see every game to its end, so entries from any depth hold exact values:
    // reusing deeper entries changes nothing either.
    let mut table = TranspositionTable::with_mib(1);
    let mut search = TableSearch::new(&mut table).with_reuse(Reuse::AtLeastDepth);
    let options = SearchOptions::default();
    let with = iterative_deepening_with_table(&mut keyed, 9, &options, &mut search, |_| {});
    assert_eq!(with.value, Some(0));
    assert_eq!(keyed.key, 0);
}
