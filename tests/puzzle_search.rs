//! McCarthy's `search` and `allsol` (seed 000 "Depth First Tree Search", seed 001
//! "5. Tree search"): the iterative control program against the seed's recursive
//! definitions, on depth, order, laziness and statistics.

use std::cell::RefCell;

use gametree::search::puzzle::{search, search_with_stats};
use gametree::{PuzzleStats, all_solutions, count_solutions};

/// The seed's `search`, written recursively as McCarthy wrote it:
/// `search p ← if lose p then LOSE else if ter p then p else searchlis[successors p]`.
fn seed_search<P: Clone>(
    position: &P,
    successors: &dyn Fn(&P) -> Vec<P>,
    ter: &dyn Fn(&P) -> bool,
    lose: &dyn Fn(&P) -> bool,
) -> Option<P> {
    if lose(position) {
        None
    } else if ter(position) {
        Some(position.clone())
    } else {
        // searchlis u ← if n u then LOSE else {search a u}[λx: if x = LOSE then searchlis d u else x]
        successors(position)
            .iter()
            .find_map(|child| seed_search(child, successors, ter, lose))
    }
}

/// The seed's simple `allsol`:
/// `allsol p ← if lose p then NIL else if ter p then (p) else mapapp[successors p, allsol]`.
fn seed_allsol<P: Clone>(
    position: &P,
    successors: &dyn Fn(&P) -> Vec<P>,
    ter: &dyn Fn(&P) -> bool,
    lose: &dyn Fn(&P) -> bool,
) -> Vec<P> {
    if lose(position) {
        Vec::new()
    } else if ter(position) {
        vec![position.clone()]
    } else {
        successors(position)
            .iter()
            .flat_map(|child| seed_allsol(child, successors, ter, lose))
            .collect()
    }
}

/// A scrambled tree: positions are paths of child numbers; how many children a position
/// has, and whether it is terminal or loses, follow from a hash of the path and a seed.
fn hash(path: &[u8], seed: u64) -> u64 {
    let mut h = seed ^ 0x9E37_79B9_7F4A_7C15;
    for &step in path {
        h = (h ^ u64::from(step)).wrapping_mul(0x0100_0000_01B3);
        h ^= h >> 29;
    }
    h.wrapping_mul(0xBF58_476D_1CE4_E5B9) >> 7
}

fn scrambled_successors(seed: u64) -> impl Fn(&Vec<u8>) -> Vec<Vec<u8>> {
    move |path| {
        if path.len() >= 7 {
            return Vec::new();
        }
        let children = hash(path, seed) % 4;
        (0..children as u8)
            .map(|step| {
                let mut child = path.clone();
                child.push(step);
                child
            })
            .collect()
    }
}

fn scrambled_ter(seed: u64) -> impl Fn(&Vec<u8>) -> bool {
    move |path| hash(path, seed.wrapping_add(1)).is_multiple_of(5)
}

fn scrambled_lose(seed: u64) -> impl Fn(&Vec<u8>) -> bool {
    move |path| hash(path, seed.wrapping_add(2)).is_multiple_of(6)
}

#[test]
fn a_chain_a_million_levels_deep_is_searched_on_a_small_stack() {
    const DEPTH: u32 = 1_000_000;
    // 256 KiB of stack: a recursive search would need tens of bytes per level.
    let outcome = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| {
            search_with_stats(
                0u32,
                |&n| (n < DEPTH).then_some(n + 1),
                |&n| n == DEPTH,
                |_| false,
            )
        })
        .expect("spawn the search thread")
        .join()
        .expect("the search does not overflow its stack");
    assert_eq!(outcome.solution, Some(DEPTH));
    assert_eq!(
        outcome.stats,
        PuzzleStats {
            generated: u64::from(DEPTH) + 1,
            expanded: u64::from(DEPTH),
        }
    );
}

#[test]
fn a_chain_a_million_levels_deep_without_a_solution_is_exhausted_on_a_small_stack() {
    const DEPTH: u32 = 1_000_000;
    let (count, stats) = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| {
            let mut all = all_solutions(
                0u32,
                |&n| (n < DEPTH).then_some(n + 1),
                |_| false,
                |_| false,
            );
            (all.by_ref().count(), all.stats())
        })
        .expect("spawn the search thread")
        .join()
        .expect("the search does not overflow its stack");
    assert_eq!(count, 0);
    assert_eq!(stats.expanded, u64::from(DEPTH) + 1);
}

#[test]
fn search_and_all_solutions_agree_with_the_seeds_recursive_definitions() {
    let mut trees_with_a_solution = 0;
    for seed in 0..300 {
        let successors = scrambled_successors(seed);
        let ter = scrambled_ter(seed);
        let lose = scrambled_lose(seed);
        let expected_first = seed_search(&Vec::new(), &successors, &ter, &lose);
        let expected_all = seed_allsol(&Vec::new(), &successors, &ter, &lose);
        let first = search(Vec::new(), &successors, &ter, &lose);
        let all: Vec<Vec<u8>> = all_solutions(Vec::new(), &successors, &ter, &lose).collect();
        assert_eq!(first, expected_first, "tree {seed}");
        assert_eq!(all, expected_all, "tree {seed}");
        assert_eq!(
            count_solutions(Vec::new(), &successors, &ter, &lose),
            expected_all.len() as u64
        );
        trees_with_a_solution += usize::from(first.is_some());
    }
    // The trees are varied enough to mean something: some have solutions, some do not.
    assert!(
        (30..270).contains(&trees_with_a_solution),
        "{trees_with_a_solution}"
    );
}

#[test]
fn children_are_tried_in_the_order_successors_yields_them() {
    // Every leaf at depth 2 is terminal: all_solutions lists them depth first, left to
    // right, and search returns the leftmost.
    let successors = |word: &String| {
        let word = word.clone();
        ['x', 'y', 'z']
            .into_iter()
            .map(move |letter| format!("{word}{letter}"))
    };
    let all: Vec<String> =
        all_solutions(String::new(), successors, |w| w.len() == 2, |_| false).collect();
    assert_eq!(all, ["xx", "xy", "xz", "yx", "yy", "yz", "zx", "zy", "zz"]);
    let first = search(
        String::new(),
        successors,
        |w| w.len() == 2,
        |w| w.starts_with('x'),
    );
    assert_eq!(first.as_deref(), Some("yx"));
}

#[test]
fn a_losing_position_is_never_expanded_and_a_terminal_one_never_expanded() {
    let expanded = RefCell::new(Vec::new());
    let successors = |&n: &u32| {
        expanded.borrow_mut().push(n);
        if n < 40 {
            vec![2 * n + 1, 2 * n + 2]
        } else {
            Vec::new()
        }
    };
    // Multiples of 3 lose; multiples of 5 are terminal (15 and 30 both, but lose first).
    let lose = |&n: &u32| n > 0 && n % 3 == 0;
    let ter = |&n: &u32| n > 0 && n % 5 == 0;
    let all: Vec<u32> = all_solutions(0, successors, ter, lose).collect();
    assert!(!all.is_empty());
    assert!(all.iter().all(|n| n % 5 == 0 && n % 3 != 0));
    let expanded = expanded.into_inner();
    assert!(
        expanded.iter().all(|&n| !lose(&n) && !ter(&n)),
        "{expanded:?}"
    );
}

#[test]
fn take_k_searches_an_infinite_tree_only_as_far_as_the_kth_solution() {
    // Every position n has children 10n + 1 (terminal) and 10n + 2: the tree is infinite,
    // and the solutions in order are 1, 21, 221, ...
    let mut solutions = all_solutions(
        0u64,
        |&n| [10 * n + 1, 10 * n + 2],
        |&n| n % 10 == 1,
        |_| false,
    );
    let first: Vec<u64> = solutions.by_ref().take(5).collect();
    assert_eq!(first, [1, 21, 221, 2221, 22221]);
    // Expanded: 0, 2, 22, 222, 2222; generated: those and the five solutions.
    assert_eq!(
        solutions.stats(),
        PuzzleStats {
            generated: 10,
            expanded: 5
        }
    );
    assert_eq!(solutions.depth(), 5);
}

#[test]
fn statistics_count_every_position_looked_at_and_every_expansion() {
    // A complete binary tree of depth 3 (15 positions) where one subtree loses: the root's
    // left child 1 loses, so 1's subtree (7 positions) is never generated past 1.
    let successors = |&n: &u32| {
        if n < 7 {
            vec![2 * n + 1, 2 * n + 2]
        } else {
            vec![]
        }
    };
    let (count, stats) = {
        let mut all = all_solutions(0u32, successors, |&n| n >= 7, |&n| n == 1);
        (all.by_ref().count(), all.stats())
    };
    // Solutions: the leaves under 2, that is 11, 12, 13, 14.
    assert_eq!(count, 4);
    // Generated: 0, 1, 2, 5, 6, 11, 12, 13, 14. Expanded: 0, 2, 5, 6.
    assert_eq!(
        stats,
        PuzzleStats {
            generated: 9,
            expanded: 4
        }
    );
    let outcome = search_with_stats(0u32, successors, |&n| n >= 7, |&n| n == 1);
    assert_eq!(outcome.solution, Some(11));
    // Generated: 0, 1, 2, 5, 11. Expanded: 0, 2, 5.
    assert_eq!(
        outcome.stats,
        PuzzleStats {
            generated: 5,
            expanded: 3
        }
    );
}
