//! Instant Insanity (seed 000 "Depth First Tree Search", seed 001 "5. Tree search"): the
//! seed's answer, and the tree searches and the graph method against brute force over
//! every tuple of orientations.

use gametree::SplitMix64;
use gametree::puzzles::instant_insanity::{
    FIRST_CUBE_ORIENTATIONS, PUZZ1, Puzzle, Repr, Tower, count_solutions, face_cycles, solutions,
    solve, solve_by_graph,
};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

/// Seed 000, end of "Depth First Tree Search", and seed 001 likewise:
/// `search[p0] = ((G W R B) (R W G B) (B R G W) (W B G R))`.
const SEED_ANSWER: &str = "((G W R B) (R W G B) (B R G W) (W B G R))";

#[test]
fn both_representations_find_the_seeds_answer_to_its_puzzle() {
    // The puzzle is the seed's puzz1: ((G B B W R G) (G G B G W R) (G W W R B R) (G G R B W W)).
    assert_eq!(PUZZ1, ["GBBWRG", "GGBGWR", "GWWRBR", "GGRBWW"]);
    let puzzle = Puzzle::classic();
    for repr in [Repr::List, Repr::Bits] {
        let outcome = solve(&puzzle, repr);
        let tower = outcome.solution.expect("the seed's puzzle has a solution");
        assert_eq!(tower.to_string(), SEED_ANSWER, "{repr:?}");
    }
}

#[test]
fn the_orientations_are_the_seeds_cycles_construction() {
    // puzz2 ← cycles[(2 3 4 5)] * cycles[(2 5 4 3)] * cycles[(1 2 6 4)]
    //       * cycles[(1 4 6 2)] * cycles[(1 3 6 5)] * cycles[(1 5 6 3)]   (seed 000)
    let cycles = face_cycles();
    let heads: Vec<[u8; 4]> = cycles.iter().step_by(4).copied().collect();
    assert_eq!(
        heads,
        [
            [2, 3, 4, 5],
            [2, 5, 4, 3],
            [1, 2, 6, 4],
            [1, 4, 6, 2],
            [1, 3, 6, 5],
            [1, 5, 6, 3]
        ]
    );
    assert_eq!(cycles[5], [5, 4, 3, 2]);
    // "the first, ninth, and seventeenth" orientations of the first cube (seed 000).
    assert_eq!(FIRST_CUBE_ORIENTATIONS, [0, 8, 16]);
    let puzzle = Puzzle::classic();
    let first: Vec<[char; 4]> = FIRST_CUBE_ORIENTATIONS
        .iter()
        .map(|&i| puzzle.cube_orientations(0)[i])
        .collect();
    assert_eq!(puzzle.searched_orientations(0), first);
    assert_eq!(puzzle.searched_orientations(1).len(), 24);
}

#[test]
fn the_seeds_puzzle_has_three_solutions_by_brute_force_and_by_search() {
    let puzzle = Puzzle::classic();
    let brute = brute_force(&puzzle);
    assert_eq!(brute.reduced, 3);
    assert_eq!(brute.full, 24);
    for repr in [Repr::List, Repr::Bits] {
        assert_eq!(count_solutions(&puzzle, repr).0, 3);
    }
}

/// Solutions counted by trying every tuple of orientations, one per cube, with no pruning.
struct BruteForce {
    /// Tuples over all 24 orientations of every cube.
    full: u64,
    /// Tuples with the first cube in one of [`FIRST_CUBE_ORIENTATIONS`].
    reduced: u64,
}

fn brute_force(puzzle: &Puzzle) -> BruteForce {
    let n = puzzle.cube_count();
    // Each orientation as four one-bit colour masks.
    let colour_bit = |c: char| 1u32 << (c as u32 - 'A' as u32);
    let orientations: Vec<Vec<[u32; 4]>> = (0..n)
        .map(|cube| {
            puzzle
                .cube_orientations(cube)
                .iter()
                .map(|cycle| cycle.map(colour_bit))
                .collect()
        })
        .collect();
    let mut choice = vec![0usize; n];
    let (mut full, mut reduced) = (0, 0);
    loop {
        let mut used = [0u32; 4];
        let mut fits = true;
        for (cube, &orientation) in choice.iter().enumerate() {
            for (face, &bit) in orientations[cube][orientation].iter().enumerate() {
                fits &= used[face] & bit == 0;
                used[face] |= bit;
            }
        }
        if fits {
            full += 1;
            reduced += u64::from(FIRST_CUBE_ORIENTATIONS.contains(&choice[0]));
        }
        // The next tuple, as an odometer in base 24.
        let Some(cube) = (0..n).find(|&cube| choice[cube] < 23) else {
            break;
        };
        choice[cube] += 1;
        for earlier in &mut choice[..cube] {
            *earlier = 0;
        }
    }
    BruteForce { full, reduced }
}

/// A random puzzle of `n` cubes over the colours A, B, ...; when `solvable`, built around
/// a solution (each tower face a random permutation of the colours) and then each cube
/// stood in a random orientation, otherwise painted at random. `None` when the random
/// paint misses a colour.
fn random_puzzle(n: usize, solvable: bool, seed: u64) -> Option<(Vec<String>, Puzzle)> {
    let mut rng = SplitMix64::new(seed);
    let letter = |colour: usize| char::from(b'A' + colour as u8);
    let cubes: Vec<String> = if solvable {
        let faces: Vec<Vec<usize>> = (0..4)
            .map(|_| {
                let mut permutation: Vec<usize> = (0..n).collect();
                rng.shuffle(&mut permutation);
                permutation
            })
            .collect();
        let cycles = face_cycles();
        (0..n)
            .map(|cube| {
                // Painted standing upright: top, sides in order, bottom.
                let upright = [
                    rng.index(n),
                    faces[0][cube],
                    faces[1][cube],
                    faces[2][cube],
                    faces[3][cube],
                    rng.index(n),
                ];
                // Described from a random orientation: the faces that orientation shows
                // on its sides become the sides; the remaining pair is top and bottom.
                let cycle = cycles[rng.index(24)];
                let rest: Vec<u8> = (1..=6).filter(|face| !cycle.contains(face)).collect();
                let (top, bottom) = if rng.index(2) == 0 {
                    (rest[0], rest[1])
                } else {
                    (rest[1], rest[0])
                };
                [top, cycle[0], cycle[1], cycle[2], cycle[3], bottom]
                    .iter()
                    .map(|&face| letter(upright[usize::from(face) - 1]))
                    .collect()
            })
            .collect()
    } else {
        (0..n)
            .map(|_| (0..6).map(|_| letter(rng.index(n))).collect())
            .collect()
    };
    let puzzle = Puzzle::new(&cubes).ok()?;
    Some((cubes, puzzle))
}

/// Whether `tower` is a solution made of `puzzle`'s cubes: every face shows distinct
/// colours, and each cube (oldest last in the faces) shows the sides of one of its
/// orientations.
fn is_a_solution_of(puzzle: &Puzzle, tower: &Tower) -> bool {
    let n = puzzle.cube_count();
    tower.faces_are_distinct()
        && tower.faces().iter().all(|face| face.len() == n)
        && (0..n).all(|cube| {
            let sides: [char; 4] = std::array::from_fn(|face| tower.faces()[face][n - 1 - cube]);
            puzzle.cube_orientations(cube).contains(&sides)
        })
}

fn config(cases: u32) -> Config {
    Config {
        cases,
        rng_seed: RngSeed::Fixed(0x1A5A_1717),
        failure_persistence: None,
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config(120))]

    /// On random puzzles of 1 to 5 cubes: `search` finds a solution iff brute force over
    /// all 24^n orientation tuples does (up to 4 cubes; 5 uses the reduced tuples), and
    /// `all_solutions` counts what brute force counts with the first cube in the seed's
    /// three orientations, a eighth of all tuples. Both representations agree on every
    /// solution and on the positions expanded, and the graph method agrees on existence.
    #[test]
    fn search_and_all_solutions_agree_with_brute_force(
        n in 1usize..=5,
        solvable in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let Some((cubes, puzzle)) = random_puzzle(n, solvable, seed) else {
            return Ok(());
        };
        let brute = if n <= 4 {
            let brute = brute_force(&puzzle);
            prop_assert_eq!(brute.full, 8 * brute.reduced, "{:?}", cubes);
            brute
        } else {
            reduced_brute_force(&puzzle)
        };
        let list = solve(&puzzle, Repr::List);
        let bits = solve(&puzzle, Repr::Bits);
        prop_assert_eq!(list.solution.is_some(), brute.reduced > 0, "{:?}", cubes);
        prop_assert_eq!(&list.solution, &bits.solution);
        prop_assert_eq!(list.stats.expanded, bits.stats.expanded);
        if let Some(tower) = &list.solution {
            prop_assert!(is_a_solution_of(&puzzle, tower), "{} for {:?}", tower, cubes);
        }
        let list_all: Vec<Tower> = solutions(&puzzle, Repr::List).collect();
        let bits_all: Vec<Tower> = solutions(&puzzle, Repr::Bits).collect();
        prop_assert_eq!(list_all.len() as u64, brute.reduced, "{:?}", cubes);
        prop_assert_eq!(&list_all, &bits_all);
        prop_assert_eq!(count_solutions(&puzzle, Repr::Bits).0, brute.reduced);
        let graph = solve_by_graph(&puzzle).solution;
        prop_assert_eq!(graph.is_some(), brute.reduced > 0, "{:?}", cubes);
        if let Some(tower) = &graph {
            prop_assert!(list_all.contains(tower), "{} for {:?}", tower, cubes);
        }
    }
}

/// Brute force with the first cube in its three searched orientations only: 3 × 24^(n-1)
/// tuples.
fn reduced_brute_force(puzzle: &Puzzle) -> BruteForce {
    let n = puzzle.cube_count();
    let colour_bit = |c: char| 1u32 << (c as u32 - 'A' as u32);
    let orientations: Vec<Vec<[u32; 4]>> = (0..n)
        .map(|cube| {
            let all = puzzle.cube_orientations(cube);
            let chosen: Vec<[char; 4]> = if cube == 0 {
                FIRST_CUBE_ORIENTATIONS.iter().map(|&i| all[i]).collect()
            } else {
                all.to_vec()
            };
            chosen.iter().map(|cycle| cycle.map(colour_bit)).collect()
        })
        .collect();
    let mut choice = vec![0usize; n];
    let mut reduced = 0;
    loop {
        let mut used = [0u32; 4];
        let mut fits = true;
        for (cube, &orientation) in choice.iter().enumerate() {
            for (face, &bit) in orientations[cube][orientation].iter().enumerate() {
                fits &= used[face] & bit == 0;
                used[face] |= bit;
            }
        }
        reduced += u64::from(fits);
        let Some(cube) = (0..n).find(|&cube| choice[cube] + 1 < orientations[cube].len()) else {
            break;
        };
        choice[cube] += 1;
        for earlier in &mut choice[..cube] {
            *earlier = 0;
        }
    }
    BruteForce {
        full: 8 * reduced,
        reduced,
    }
}

proptest! {
    #![proptest_config(config(300))]

    /// The opposite-face multigraph finds a solution exactly when the tree search does, on
    /// 300 random puzzles of 4 to 8 cubes, half of them built around a solution; its tower
    /// is a real solution of the puzzle and one the tree search also lists.
    #[test]
    fn the_graph_method_finds_a_solution_exactly_when_the_tree_search_does(
        n in 4usize..=8,
        solvable in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let Some((cubes, puzzle)) = random_puzzle(n, solvable, seed) else {
            return Ok(());
        };
        let tree = solve(&puzzle, Repr::Bits).solution;
        let graph = solve_by_graph(&puzzle).solution;
        prop_assert_eq!(tree.is_some(), graph.is_some(), "{:?}", cubes);
        if solvable {
            prop_assert!(tree.is_some(), "built around a solution: {:?}", cubes);
        }
        if let Some(tower) = &graph {
            prop_assert!(is_a_solution_of(&puzzle, tower), "{} for {:?}", tower, cubes);
            prop_assert!(
                solutions(&puzzle, Repr::Bits).any(|found| &found == tower),
                "{} for {:?}", tower, cubes
            );
        }
    }
}

#[test]
fn random_puzzles_cover_both_outcomes() {
    // The property tests above would mean little if every random puzzle had a solution,
    // or none did: count both among the unbuilt, random ones.
    let (mut with, mut without) = (0, 0);
    for seed in 0..200 {
        let n = 4 + (seed % 5) as usize;
        if let Some((_, puzzle)) = random_puzzle(n, false, seed) {
            if solve(&puzzle, Repr::Bits).solution.is_some() {
                with += 1;
            } else {
                without += 1;
            }
        }
    }
    assert!(
        with >= 10 && without >= 10,
        "{with} with, {without} without"
    );
}

#[test]
fn eight_cubes_with_eight_colours_work_in_both_representations() {
    let (_, puzzle) = random_puzzle(8, true, 8).expect("a built puzzle uses every colour");
    let list = solve(&puzzle, Repr::List);
    let bits = solve(&puzzle, Repr::Bits);
    let tower = list.solution.expect("built around a solution");
    assert!(is_a_solution_of(&puzzle, &tower));
    assert_eq!(Some(tower), bits.solution);
}

#[test]
fn sixteen_cubes_fill_the_word_and_seventeen_are_refused() {
    // Cube k painted all over in colour k: any stacking is a solution.
    let cubes: Vec<String> = (0..16)
        .map(|k| char::from(b'A' + k).to_string().repeat(6))
        .collect();
    let puzzle = Puzzle::new(&cubes).expect("16 cubes fit");
    assert!(solve(&puzzle, Repr::Bits).solution.is_some());
    let mut cubes = cubes;
    cubes.push("QQQQQQ".to_string());
    assert!(Puzzle::new(&cubes).is_err());
}
