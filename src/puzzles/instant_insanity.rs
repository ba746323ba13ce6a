//! Instant Insanity by McCarthy's `search` (seed 000, "Depth First Tree Search"; seed 001,
//! "5. Tree search"), in both of the seed's representations, and by the opposite-face
//! multigraph, the "application of some mathematics" the seed alludes to.
//!
//! There are n cubes whose faces are painted with n colours (the classic puzzle has four
//! of each); stack them into a tower so that each of its four vertical faces shows every
//! colour once.
//!
//! A cube is six colour letters: the top, the four sides going clockwise, the bottom (the
//! seed's `puzz1` writes `(G B B W R G)`; here `GBBWRG`). Letters are read case-blind and
//! printed in upper case. The 24 orientations of a cube come from the seed's `cycles`
//! construction ([`face_cycles`]), and for symmetry only the 1st, 9th and 17th of the
//! first cube are searched ([`FIRST_CUBE_ORIENTATIONS`]).
//!
//! - [`Repr::List`], the seed's first version: a position is four lists of colours, one per
//!   tower face, and `lose` looks for the newest colour among the older ones of its face.
//! - [`Repr::Bits`], the seed's faster version: a cube's side cycle is a word with one bit
//!   per face and colour, a partial tower is the bool-or of its cubes' words, and a cube
//!   fits when the bool-and of its word with the tower's is zero (`mapchoose` in
//!   `successors`, so `lose` is false). The seed packs four colours in 16 bits; n colours
//!   take 4n bits of a `u64`, so up to [`MAX_CUBES`] cubes.
//!
//! Positions are small fixed-size arrays, copied to make a successor: no allocation per
//! position in either representation.

use std::fmt;

use crate::search::puzzle::{AllSolutions, PuzzleStats, SearchOutcome, all_solutions};
use crate::text::excerpt;

/// The seed's `puzz1`: McCarthy's four cubes, the default puzzle.
pub const PUZZ1: [&str; 4] = ["GBBWRG", "GGBGWR", "GWWRBR", "GGRBWW"];

/// The most cubes a puzzle may have: n colours on each of four faces fill 4n bits of a
/// 64-bit word.
pub const MAX_CUBES: usize = 16;

/// The orientations of the first cube that are searched, as indices into
/// [`face_cycles`]: the seed's first, ninth and seventeenth, one for each axis that can
/// stand vertical. Turning the whole tower about its axis, or over, maps any solution to
/// exactly one whose first cube is in one of these.
pub const FIRST_CUBE_ORIENTATIONS: [usize; 3] = [0, 8, 16];

/// The seed's colour order for its bit words, `bool-color`: R = 1, W = 2, G = 4, B = 8.
/// Puzzles with other letters number their colours alphabetically.
const SEED_COLOUR_ORDER: [char; 4] = ['R', 'W', 'G', 'B'];

/// The seed's `cycles`: every cyclic shift of `u`, starting with `u` itself.
///
/// ```text
/// cycles u ← maplist[λv: v * upto[u, v], u]
/// upto[u, v] ← if v = u then NIL else a u . upto[d u, v]
/// ```
fn cycles(u: [u8; 4]) -> [[u8; 4]; 4] {
    // maplist hands λv each tail v of u; v * upto[u, v] is that tail followed by the part
    // of u before it.
    std::array::from_fn(|start| {
        let tail = &u[start..];
        let upto = &u[..start];
        let mut cycle = [0; 4];
        for (slot, &face) in cycle.iter_mut().zip(tail.iter().chain(upto)) {
            *slot = face;
        }
        cycle
    })
}

/// The seed's `puzz2`: the 24 orientations of a cube as the cycles of face numbers on its
/// sides (faces numbered 1 to 6: top, the sides clockwise, bottom), in the seed's order:
///
/// ```text
/// puzz2 ← cycles[(2 3 4 5)] * cycles[(2 5 4 3)] * cycles[(1 2 6 4)]
///       * cycles[(1 4 6 2)] * cycles[(1 3 6 5)] * cycles[(1 5 6 3)]
/// ```
///
/// # Example
///
/// ```
/// use gametree::puzzles::instant_insanity::face_cycles;
///
/// let cycles = face_cycles();
/// assert_eq!(cycles[0], [2, 3, 4, 5]);
/// assert_eq!(cycles[1], [3, 4, 5, 2]);
/// assert_eq!(cycles[8], [1, 2, 6, 4]);
/// assert_eq!(cycles[16], [1, 3, 6, 5]);
/// ```
pub fn face_cycles() -> [[u8; 4]; 24] {
    let seeds = [
        [2, 3, 4, 5],
        [2, 5, 4, 3],
        [1, 2, 6, 4],
        [1, 4, 6, 2],
        [1, 3, 6, 5],
        [1, 5, 6, 3],
    ];
    let mut all = [[0; 4]; 24];
    for (block, seed) in seeds.into_iter().enumerate() {
        all[block * 4..block * 4 + 4].copy_from_slice(&cycles(seed));
    }
    all
}

/// What is wrong with a puzzle's cubes. Each message is one line, names the cube at fault
/// (counting from 1) when one is, and quotes at most 40 characters of it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PuzzleError {
    /// No cubes at all.
    #[error("a puzzle needs at least one cube")]
    NoCubes,
    /// More cubes than a word can hold.
    #[error("{cubes} cubes: at most {MAX_CUBES} are supported")]
    TooManyCubes {
        /// How many were given.
        cubes: usize,
    },
    /// A cube without exactly six faces.
    #[error(
        "cube {cube} {} has {faces} faces; a cube has 6 (top, the four sides clockwise, bottom)",
        excerpt(.given)
    )]
    FaceCount {
        /// The cube, counting from 1.
        cube: usize,
        /// The cube as given.
        given: String,
        /// How many faces it has.
        faces: usize,
    },
    /// A face that is not a letter.
    #[error("cube {cube} {}: {character:?} is not a colour letter", excerpt(.given))]
    NotALetter {
        /// The cube, counting from 1.
        cube: usize,
        /// The cube as given.
        given: String,
        /// The offending character.
        character: char,
    },
    /// The number of colours differs from the number of cubes.
    #[error(
        "{} but {} ({}); the puzzle needs as many colours as cubes",
        counted(*cubes, "cube"),
        counted(colours.len(), "colour"),
        colours.iter().map(char::to_string).collect::<Vec<_>>().join(" ")
    )]
    ColourCount {
        /// How many cubes were given.
        cubes: usize,
        /// The colours they use.
        colours: Vec<char>,
    },
}

/// `n` things, in the singular for one.
fn counted(n: usize, thing: &str) -> String {
    if n == 1 {
        format!("1 {thing}")
    } else {
        format!("{n} {thing}s")
    }
}

/// An Instant Insanity puzzle, with every cube's orientations precomputed in both of the
/// seed's forms (`puzz` and `puzza`).
///
/// The `list_*` and `bits_*` methods are the seed's `successors`, `ter` and `lose` for each
/// representation, ready to hand to the game-independent search.
///
/// # Example
///
/// ```
/// use gametree::puzzles::instant_insanity::Puzzle;
/// use gametree::puzzle_search as search;
///
/// let puzzle = Puzzle::classic();
/// let found = search(
///     puzzle.list_start(),
///     |tower| puzzle.list_successors(tower),
///     |tower| puzzle.list_is_terminal(tower),
///     |tower| puzzle.list_loses(tower),
/// )
/// .unwrap();
/// assert_eq!(found.height(), 4);
/// assert_eq!(
///     puzzle.list_tower(&found).to_string(),
///     "((G W R B) (R W G B) (B R G W) (W B G R))"
/// );
/// ```
#[derive(Clone, Debug)]
pub struct Puzzle {
    /// The colour letters, by colour index.
    colours: Vec<char>,
    /// Each cube's six faces as colour indices: top, sides clockwise, bottom.
    cubes: Vec<[u8; 6]>,
    /// The seed's `puzz`: for each cube, the side cycles to try, as colour indices (three
    /// for the first cube, 24 for the others).
    orientations: Vec<Vec<[u8; 4]>>,
    /// The seed's `puzza`: the same cycles as words.
    words: Vec<Vec<u64>>,
}

impl Puzzle {
    /// The seed's puzzle, [`PUZZ1`].
    pub fn classic() -> Puzzle {
        Puzzle::new(&PUZZ1).expect("invariant: the seed's puzzle is well formed")
    }

    /// A puzzle from its cubes, each six colour letters (top, four sides clockwise,
    /// bottom). There must be as many colours as cubes.
    ///
    /// # Errors
    ///
    /// A [`PuzzleError`] for no cubes, more than [`MAX_CUBES`], a cube without six faces,
    /// a face that is not a letter, or a colour count different from the cube count.
    ///
    /// # Example
    ///
    /// ```
    /// use gametree::puzzles::instant_insanity::{Puzzle, PuzzleError};
    ///
    /// assert!(Puzzle::new(&["AAAAAA"]).is_ok());
    /// assert!(matches!(Puzzle::new(&["ABABAB"]), Err(PuzzleError::ColourCount { .. })));
    /// ```
    pub fn new<S: AsRef<str>>(cubes: &[S]) -> Result<Puzzle, PuzzleError> {
        if cubes.is_empty() {
            return Err(PuzzleError::NoCubes);
        }
        if cubes.len() > MAX_CUBES {
            return Err(PuzzleError::TooManyCubes { cubes: cubes.len() });
        }
        let mut letters: Vec<[char; 6]> = Vec::with_capacity(cubes.len());
        for (number, given) in cubes.iter().enumerate() {
            let given = given.as_ref();
            let faces = given.chars().count();
            if faces != 6 {
                return Err(PuzzleError::FaceCount {
                    cube: number + 1,
                    given: given.to_string(),
                    faces,
                });
            }
            if let Some(character) = given.chars().find(|c| !c.is_ascii_alphabetic()) {
                return Err(PuzzleError::NotALetter {
                    cube: number + 1,
                    given: given.to_string(),
                    character,
                });
            }
            let mut faces = ['?'; 6];
            for (face, letter) in faces.iter_mut().zip(given.chars()) {
                *face = letter.to_ascii_uppercase();
            }
            letters.push(faces);
        }
        let mut colours: Vec<char> = letters.iter().flatten().copied().collect();
        colours.sort_unstable();
        colours.dedup();
        if colours.iter().all(|c| SEED_COLOUR_ORDER.contains(c)) {
            colours.sort_by_key(|c| SEED_COLOUR_ORDER.iter().position(|s| s == c));
        }
        if colours.len() != cubes.len() {
            return Err(PuzzleError::ColourCount {
                cubes: cubes.len(),
                colours,
            });
        }
        let index_of = |letter: char| -> u8 {
            let index = colours
                .iter()
                .position(|&c| c == letter)
                .expect("invariant: every letter is among the colours");
            u8::try_from(index).expect("invariant: at most MAX_CUBES colours")
        };
        let cubes: Vec<[u8; 6]> = letters.iter().map(|faces| faces.map(index_of)).collect();
        let n = cubes.len();
        let all = face_cycles();
        let orientations: Vec<Vec<[u8; 4]>> = cubes
            .iter()
            .enumerate()
            .map(|(number, faces)| {
                let cycle_colours =
                    |cycle: &[u8; 4]| cycle.map(|face| faces[usize::from(face) - 1]);
                if number == 0 {
                    FIRST_CUBE_ORIENTATIONS
                        .iter()
                        .map(|&i| cycle_colours(&all[i]))
                        .collect()
                } else {
                    all.iter().map(cycle_colours).collect()
                }
            })
            .collect();
        let words = orientations
            .iter()
            .map(|cycles| cycles.iter().map(|cycle| bool_cycle(cycle, n)).collect())
            .collect();
        Ok(Puzzle {
            colours,
            cubes,
            orientations,
            words,
        })
    }

    /// How many cubes (and colours) the puzzle has.
    pub fn cube_count(&self) -> usize {
        self.cubes.len()
    }

    /// The colour letter of a colour index. When every colour is one of the seed's R, W, G
    /// and B, indices follow its `bool-color` (R = 1, W = 2, G = 4, B = 8: R is 0, W 1, G 2,
    /// B 3); otherwise the letters are numbered alphabetically.
    ///
    /// # Panics
    ///
    /// If `colour` is not below [`Puzzle::cube_count`].
    pub fn colour(&self, colour: u8) -> char {
        self.colours[usize::from(colour)]
    }

    /// All 24 orientations of cube `cube` (counting from 0) as side-colour cycles, in the
    /// order of [`face_cycles`]: a row of the seed's `puzz4`.
    ///
    /// # Panics
    ///
    /// If there is no such cube.
    pub fn cube_orientations(&self, cube: usize) -> [[char; 4]; 24] {
        let faces = self.cubes[cube];
        face_cycles().map(|cycle| cycle.map(|face| self.colour(faces[usize::from(face) - 1])))
    }

    /// The side cycles the search tries for cube `cube`, as colour letters: the seed's
    /// `puzz` (the first cube's three, [`FIRST_CUBE_ORIENTATIONS`], then 24 for each other).
    ///
    /// # Panics
    ///
    /// If there is no such cube.
    pub fn searched_orientations(&self, cube: usize) -> Vec<[char; 4]> {
        self.orientations[cube]
            .iter()
            .map(|cycle| cycle.map(|colour| self.colour(colour)))
            .collect()
    }

    /// The start of the list search: the seed's `p0 = (NIL NIL NIL NIL)`.
    pub fn list_start(&self) -> ListPosition {
        ListPosition {
            faces: [[0; MAX_CUBES]; 4],
            height: 0,
        }
    }

    /// The list version's `successors`: the next cube in each of its orientations, its
    /// colours added to the four faces (seed: `mapcar[λx: mapcar2[λyz: z.y, p, x], nth[puzz,
    /// 1 + length a p]]`).
    pub fn list_successors(&self, position: &ListPosition) -> ListSuccessors<'_> {
        let cycles = self
            .orientations
            .get(position.height())
            .map_or(&[][..], Vec::as_slice);
        ListSuccessors {
            parent: *position,
            cycles: cycles.iter(),
        }
    }

    /// The list version's `ter`: every cube is in the tower (the seed's `length a p = 4`).
    pub fn list_is_terminal(&self, position: &ListPosition) -> bool {
        position.height() == self.cube_count()
    }

    /// The list version's `lose`: on some face, the newest colour is among the older ones
    /// (the seed's `orlis[λu: ¬n u ∧ a u ε d u, p]`).
    pub fn list_loses(&self, position: &ListPosition) -> bool {
        let height = position.height();
        height > 0
            && position.faces.iter().any(|face| {
                let (newest, older) = face[..height].split_last().expect("invariant: height > 0");
                older.contains(newest)
            })
    }

    /// The tower a list position holds, each face newest cube first.
    pub fn list_tower(&self, position: &ListPosition) -> Tower {
        let height = position.height();
        Tower {
            faces: position.faces.map(|face| {
                face[..height]
                    .iter()
                    .rev()
                    .map(|&colour| self.colour(colour))
                    .collect()
            }),
        }
    }

    /// The start of the bit search: the seed's `(0)`, the empty tower.
    pub fn bits_start(&self) -> BitsPosition {
        BitsPosition {
            words: [0; MAX_CUBES + 1],
            height: 0,
        }
    }

    /// The bit version's `successors`: the next cube in each orientation whose word has no
    /// bit in common with the tower's, the tower's word bool-or'ed with it (seed:
    /// `mapchoose[λx: a p ∧ x = 0, λx: [a p ∨ x] . p, nth[puzza, length p]]`).
    pub fn bits_successors(&self, position: &BitsPosition) -> BitsSuccessors<'_> {
        let words = self
            .words
            .get(position.height())
            .map_or(&[][..], Vec::as_slice);
        BitsSuccessors {
            parent: *position,
            words: words.iter(),
        }
    }

    /// The bit version's `ter`: every cube is in the tower (the seed's `length p = 5`).
    pub fn bits_is_terminal(&self, position: &BitsPosition) -> bool {
        position.height() == self.cube_count()
    }

    /// The bit version's `lose`: always false, since `successors` generates only towers
    /// that fit.
    pub fn bits_loses(&self, _position: &BitsPosition) -> bool {
        false
    }

    /// The tower a bit position holds, each face newest cube first: cube k's word is the
    /// difference between the tower words of heights k and k + 1.
    pub fn bits_tower(&self, position: &BitsPosition) -> Tower {
        let n = self.cube_count();
        let mask = (1u64 << n) - 1;
        let mut faces: [Vec<char>; 4] =
            std::array::from_fn(|_| Vec::with_capacity(position.height()));
        for height in (1..=position.height()).rev() {
            let cube = position.words[height] ^ position.words[height - 1];
            for (face, letters) in faces.iter_mut().enumerate() {
                let bits = (cube >> (n * face)) & mask;
                let colour = u8::try_from(bits.trailing_zeros())
                    .expect("invariant: a colour index fits in u8");
                letters.push(self.colour(colour));
            }
        }
        Tower { faces }
    }
}

/// The seed's `bool-cycle`: one bit per face and colour, face i's colour c at bit
/// `n * i + c` (for four colours, `bool-color x + 16 * bool-cycle rest`).
fn bool_cycle(cycle: &[u8; 4], n: usize) -> u64 {
    cycle
        .iter()
        .enumerate()
        .map(|(face, &colour)| 1u64 << (n * face + usize::from(colour)))
        .sum()
}

/// A partial tower in the list representation: four faces of colours, oldest cube first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ListPosition {
    faces: [[u8; MAX_CUBES]; 4],
    height: u8,
}

impl ListPosition {
    /// How many cubes are in the tower.
    pub fn height(&self) -> usize {
        usize::from(self.height)
    }
}

/// The successors of a [`ListPosition`], generated one at a time.
#[derive(Clone, Debug)]
pub struct ListSuccessors<'p> {
    parent: ListPosition,
    cycles: std::slice::Iter<'p, [u8; 4]>,
}

impl Iterator for ListSuccessors<'_> {
    type Item = ListPosition;

    fn next(&mut self) -> Option<ListPosition> {
        let cycle = self.cycles.next()?;
        let mut child = self.parent;
        let height = child.height();
        for (face, &colour) in child.faces.iter_mut().zip(cycle) {
            face[height] = colour;
        }
        child.height += 1;
        Some(child)
    }
}

/// A partial tower in the bit representation: the words of the towers of every height up
/// to this one (the seed's list of words, kept oldest first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BitsPosition {
    words: [u64; MAX_CUBES + 1],
    height: u8,
}

impl BitsPosition {
    /// How many cubes are in the tower.
    pub fn height(&self) -> usize {
        usize::from(self.height)
    }

    /// The word of the whole tower: for each face, the colours used (the seed's `a p`).
    pub fn word(&self) -> u64 {
        self.words[self.height()]
    }
}

/// The successors of a [`BitsPosition`]: the seed's `mapchoose`, lazily.
#[derive(Clone, Debug)]
pub struct BitsSuccessors<'p> {
    parent: BitsPosition,
    words: std::slice::Iter<'p, u64>,
}

impl Iterator for BitsSuccessors<'_> {
    type Item = BitsPosition;

    fn next(&mut self) -> Option<BitsPosition> {
        let tower = self.parent.word();
        let &cube = self.words.find(|&&cube| tower & cube == 0)?;
        let mut child = self.parent;
        child.height += 1;
        child.words[child.height()] = tower | cube;
        Some(child)
    }
}

/// A (partial) tower as the seed prints it: its four faces, each listing the colours of
/// the cubes newest (top) first: `((G W R B) (R W G B) (B R G W) (W B G R))`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Tower {
    faces: [Vec<char>; 4],
}

impl Tower {
    /// The four faces, each newest cube first.
    pub fn faces(&self) -> &[Vec<char>; 4] {
        &self.faces
    }

    /// Whether every face shows each of its colours once (true of every solution).
    pub fn faces_are_distinct(&self) -> bool {
        self.faces.iter().all(|face| {
            face.iter()
                .enumerate()
                .all(|(i, colour)| !face[..i].contains(colour))
        })
    }
}

impl fmt::Display for Tower {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(")?;
        for (number, face) in self.faces.iter().enumerate() {
            if number > 0 {
                f.write_str(" ")?;
            }
            f.write_str("(")?;
            for (i, colour) in face.iter().enumerate() {
                if i > 0 {
                    f.write_str(" ")?;
                }
                write!(f, "{colour}")?;
            }
            f.write_str(")")?;
        }
        f.write_str(")")
    }
}

/// Which of the seed's two representations a tree search uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Repr {
    /// Lists of colours, the seed's first version.
    List,
    /// Bit words with bool-and / bool-or, the seed's faster version.
    Bits,
}

/// McCarthy's `search` on the puzzle: the first solution in depth-first order, and the
/// work done. Both representations find the same solution with the same number of
/// positions expanded (the bit version generates fewer: it never makes a losing one).
///
/// # Example
///
/// ```
/// use gametree::puzzles::instant_insanity::{Puzzle, Repr, solve};
///
/// let outcome = solve(&Puzzle::classic(), Repr::Bits);
/// let tower = outcome.solution.unwrap();
/// assert_eq!(tower.to_string(), "((G W R B) (R W G B) (B R G W) (W B G R))");
/// ```
pub fn solve(puzzle: &Puzzle, repr: Repr) -> SearchOutcome<Tower> {
    let mut solutions = solutions(puzzle, repr);
    let solution = solutions.next();
    SearchOutcome {
        solution,
        stats: solutions.stats(),
    }
}

/// McCarthy's `allsol` on the puzzle: every solution, lazily, in the order [`solve`] meets
/// them, with the first cube in one of its three searched orientations.
///
/// # Example
///
/// ```
/// use gametree::puzzles::instant_insanity::{Puzzle, Repr, solutions};
///
/// let puzzle = Puzzle::classic();
/// let mut all = solutions(&puzzle, Repr::List);
/// let count = all.by_ref().count();
/// assert!(count >= 1);
/// assert!(all.stats().expanded > 0);
/// ```
pub fn solutions(puzzle: &Puzzle, repr: Repr) -> Solutions<'_> {
    let source: Box<dyn TowerSource + '_> = match repr {
        Repr::List => Box::new(Towers {
            puzzle,
            to_tower: Puzzle::list_tower,
            solutions: all_solutions(
                puzzle.list_start(),
                |position| puzzle.list_successors(position),
                |position| puzzle.list_is_terminal(position),
                |position| puzzle.list_loses(position),
            ),
        }),
        Repr::Bits => Box::new(Towers {
            puzzle,
            to_tower: Puzzle::bits_tower,
            solutions: all_solutions(
                puzzle.bits_start(),
                |position| puzzle.bits_successors(position),
                |position| puzzle.bits_is_terminal(position),
                |position| puzzle.bits_loses(position),
            ),
        }),
    };
    Solutions { source }
}

/// The number of solutions [`solutions`] yields, counted without building towers, and
/// the work done.
///
/// # Example
///
/// ```
/// use gametree::puzzles::instant_insanity::{Puzzle, Repr, count_solutions};
///
/// let puzzle = Puzzle::classic();
/// let (list, bits) = (count_solutions(&puzzle, Repr::List), count_solutions(&puzzle, Repr::Bits));
/// assert_eq!(list.0, bits.0);
/// assert_eq!(list.1.expanded, bits.1.expanded);
/// ```
pub fn count_solutions(puzzle: &Puzzle, repr: Repr) -> (u64, PuzzleStats) {
    fn count<I: Iterator>(
        mut solutions: I,
        stats: impl Fn(&I) -> PuzzleStats,
    ) -> (u64, PuzzleStats) {
        let mut count = 0;
        for _ in solutions.by_ref() {
            count += 1;
        }
        let stats = stats(&solutions);
        (count, stats)
    }
    match repr {
        Repr::List => count(
            all_solutions(
                puzzle.list_start(),
                |position| puzzle.list_successors(position),
                |position| puzzle.list_is_terminal(position),
                |position| puzzle.list_loses(position),
            ),
            AllSolutions::stats,
        ),
        Repr::Bits => count(
            all_solutions(
                puzzle.bits_start(),
                |position| puzzle.bits_successors(position),
                |position| puzzle.bits_is_terminal(position),
                |position| puzzle.bits_loses(position),
            ),
            AllSolutions::stats,
        ),
    }
}

/// The lazy iterator of [`solutions`]: towers, with the search's statistics so far.
pub struct Solutions<'p> {
    source: Box<dyn TowerSource + 'p>,
}

impl Solutions<'_> {
    /// Positions generated and expanded so far.
    pub fn stats(&self) -> PuzzleStats {
        self.source.stats()
    }
}

impl Iterator for Solutions<'_> {
    type Item = Tower;

    fn next(&mut self) -> Option<Tower> {
        self.source.next_tower()
    }
}

impl fmt::Debug for Solutions<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Solutions")
            .field("stats", &self.stats())
            .finish_non_exhaustive()
    }
}

/// A search of either representation, seen as a source of towers.
trait TowerSource {
    fn next_tower(&mut self) -> Option<Tower>;
    fn stats(&self) -> PuzzleStats;
}

struct Towers<'p, P, S> {
    puzzle: &'p Puzzle,
    to_tower: fn(&Puzzle, &P) -> Tower,
    solutions: S,
}

impl<P, FN, IN, FT, FL> TowerSource for Towers<'_, P, AllSolutions<P, FN, IN::IntoIter, FT, FL>>
where
    FN: FnMut(&P) -> IN,
    IN: IntoIterator<Item = P>,
    FT: FnMut(&P) -> bool,
    FL: FnMut(&P) -> bool,
{
    fn next_tower(&mut self) -> Option<Tower> {
        let position = self.solutions.next()?;
        Some((self.to_tower)(self.puzzle, &position))
    }

    fn stats(&self) -> PuzzleStats {
        self.solutions.stats()
    }
}

/// The opposite-face pairs of a cube, as face indices (0 = top, 1–4 sides, 5 = bottom):
/// top–bottom, and the two pairs of opposite sides.
const OPPOSITE_PAIRS: [(usize, usize); 3] = [(0, 5), (1, 3), (2, 4)];

/// A partial choice of one opposite-face pair per cube: an edge per cube of the
/// opposite-face multigraph, with the degree each colour has so far.
#[derive(Clone, Copy, Debug)]
struct FactorChoice {
    pairs: [u8; MAX_CUBES],
    degrees: [u8; MAX_CUBES],
    cubes: u8,
}

/// Solves the puzzle by the opposite-face multigraph instead of a search of orientations.
///
/// Colours are vertices and each cube gives three edges, one per pair of opposite faces.
/// A tower's front and back faces use one pair of each cube, and show every colour once
/// each exactly when those edges form a 2-regular spanning subgraph (every colour of
/// degree 2, a loop counting twice); likewise left and right. So a solution is two such
/// subgraphs that take different edges of every cube. The subgraphs are found with
/// [`all_solutions`] (one edge per cube, losing when a degree passes 2), and a pair of
/// them is turned back into a tower by walking each subgraph's cycles: each edge walked
/// from u to v puts u in front (or on the right) and v behind (or on the left).
///
/// The tower returned is a solution, turned so that the first cube is in one of its
/// searched orientations; it need not be the one [`solve`] finds first. `stats` counts the
/// search for subgraphs.
///
/// # Example
///
/// ```
/// use gametree::puzzles::instant_insanity::{Puzzle, solve_by_graph};
///
/// let tower = solve_by_graph(&Puzzle::classic()).solution.unwrap();
/// assert!(tower.faces_are_distinct());
/// ```
pub fn solve_by_graph(puzzle: &Puzzle) -> SearchOutcome<Tower> {
    let n = puzzle.cube_count();
    let edge = |cube: usize, pair: usize| {
        let (a, b) = OPPOSITE_PAIRS[pair];
        (puzzle.cubes[cube][a], puzzle.cubes[cube][b])
    };
    let start = FactorChoice {
        pairs: [0; MAX_CUBES],
        degrees: [0; MAX_CUBES],
        cubes: 0,
    };
    let mut factors = all_solutions(
        start,
        |choice: &FactorChoice| {
            let choice = *choice;
            (0..3u8).map(move |pair| {
                let cube = usize::from(choice.cubes);
                let (a, b) = edge(cube, usize::from(pair));
                let mut next = choice;
                next.pairs[cube] = pair;
                next.degrees[usize::from(a)] += 1;
                next.degrees[usize::from(b)] += 1;
                next.cubes += 1;
                next
            })
        },
        |choice| usize::from(choice.cubes) == n,
        |choice| choice.degrees.iter().any(|&degree| degree > 2),
    );
    let all: Vec<[u8; MAX_CUBES]> = factors.by_ref().map(|choice| choice.pairs).collect();
    let stats = factors.stats();
    let disjoint = |a: &[u8; MAX_CUBES], b: &[u8; MAX_CUBES]| (0..n).all(|cube| a[cube] != b[cube]);
    let pair = all
        .iter()
        .enumerate()
        .find_map(|(i, a)| all[i + 1..].iter().find(|b| disjoint(a, b)).map(|b| (a, b)));
    let solution = pair.map(|(front_back, right_left)| {
        let front_back = orient_factor(puzzle, front_back);
        let right_left = orient_factor(puzzle, right_left);
        tower_from_faces(puzzle, &front_back, &right_left)
    });
    SearchOutcome { solution, stats }
}

/// Directs the edges of a 2-regular spanning subgraph (one opposite-face pair per cube)
/// so that every colour is left by one edge and entered by one: for each cube, the face
/// whose colour the edge leaves, then the face whose colour it enters.
fn orient_factor(puzzle: &Puzzle, pairs: &[u8; MAX_CUBES]) -> Vec<(usize, usize)> {
    let n = puzzle.cube_count();
    let faces_of = |cube: usize| OPPOSITE_PAIRS[usize::from(pairs[cube])];
    let colour = |cube: usize, face: usize| puzzle.cubes[cube][face];
    let mut directed: Vec<Option<(usize, usize)>> = vec![None; n];
    for first in 0..n {
        if directed[first].is_some() {
            continue;
        }
        // Walk the cycle through `first`'s edge until it closes.
        let (a, b) = faces_of(first);
        directed[first] = Some((a, b));
        let start = colour(first, a);
        let mut at = colour(first, b);
        while at != start {
            let next = (0..n)
                .find(|&cube| {
                    directed[cube].is_none() && {
                        let (a, b) = faces_of(cube);
                        colour(cube, a) == at || colour(cube, b) == at
                    }
                })
                .expect("invariant: every colour has degree 2 in a 2-regular subgraph");
            let (a, b) = faces_of(next);
            let (from, to) = if colour(next, a) == at {
                (a, b)
            } else {
                (b, a)
            };
            directed[next] = Some((from, to));
            at = colour(next, to);
        }
    }
    directed
        .into_iter()
        .map(|edge| edge.expect("invariant: every cube's edge lies on a cycle"))
        .collect()
}

/// Builds the tower whose cube k shows faces `front_back[k]` in front and behind and
/// `right_left[k]` on the right and the left, turned so that the first cube is in one of
/// [`FIRST_CUBE_ORIENTATIONS`].
fn tower_from_faces(
    puzzle: &Puzzle,
    front_back: &[(usize, usize)],
    right_left: &[(usize, usize)],
) -> Tower {
    let all = face_cycles();
    // A side cycle going clockwise: front, right, back, left, as face numbers 1 to 6.
    let cycle_of = |cube: usize| -> usize {
        let (front, back) = front_back[cube];
        let (right, left) = right_left[cube];
        let wanted = [front, right, back, left].map(|face| face as u8 + 1);
        // Standing the remaining pair upright one way or the other gives both handednesses,
        // so one of the two cycles is an orientation.
        let mirrored = [front, left, back, right].map(|face| face as u8 + 1);
        all.iter()
            .position(|&cycle| cycle == wanted)
            .or_else(|| all.iter().position(|&cycle| cycle == mirrored))
            .expect("invariant: the 24 orientations include both handednesses")
    };
    // The side cycles of every cube as colours, front, right, back, left.
    let mut sides: Vec<[u8; 4]> = (0..puzzle.cube_count())
        .map(|cube| {
            let faces = puzzle.cubes[cube];
            all[cycle_of(cube)].map(|face| faces[usize::from(face) - 1])
        })
        .collect();
    // Turn the tower: rotate and reflect all cycles alike until the first cube's cycle is
    // one of the three searched ones.
    let first = puzzle.cubes[0];
    let searched: Vec<[u8; 4]> = FIRST_CUBE_ORIENTATIONS
        .iter()
        .map(|&i| all[i].map(|face| first[usize::from(face) - 1]))
        .collect();
    let turns = (0..8).map(|turn: usize| {
        move |cycle: [u8; 4]| {
            let reflected = if turn >= 4 {
                [cycle[0], cycle[3], cycle[2], cycle[1]]
            } else {
                cycle
            };
            std::array::from_fn(|i| reflected[(i + turn) % 4])
        }
    });
    for turn in turns {
        if searched.contains(&turn(sides[0])) {
            for cycle in &mut sides {
                *cycle = turn(*cycle);
            }
            break;
        }
    }
    Tower {
        faces: std::array::from_fn(|face| {
            sides
                .iter()
                .rev()
                .map(|cycle| puzzle.colour(cycle[face]))
                .collect()
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cycles_is_every_rotation_starting_with_the_list_itself() {
        assert_eq!(
            cycles([2, 3, 4, 5]),
            [[2, 3, 4, 5], [3, 4, 5, 2], [4, 5, 2, 3], [5, 2, 3, 4]]
        );
    }

    #[test]
    fn the_24_orientations_are_distinct_and_have_opposite_faces_opposite() {
        let all = face_cycles();
        for (i, cycle) in all.iter().enumerate() {
            assert!(!all[..i].contains(cycle));
            // Faces 1-6, 2-4 and 3-5 are opposite: positions 0 and 2, 1 and 3.
            let opposite = |a: u8, b: u8| matches!((a.min(b), a.max(b)), (1, 6) | (2, 4) | (3, 5));
            assert!(opposite(cycle[0], cycle[2]) && opposite(cycle[1], cycle[3]));
        }
    }

    #[test]
    fn the_classic_colours_get_the_seeds_bool_color_bits() {
        let puzzle = Puzzle::classic();
        // bool-color: R = 1, W = 2, G = 4, B = 8 (seed 000).
        assert_eq!((0..4).map(|c| puzzle.colour(c)).collect::<String>(), "RWGB");
        // The first cube GBBWRG in its first orientation shows sides B B W R; bool-cycle
        // puts the first side in the lowest four bits: hex digits R W B B.
        assert_eq!(puzzle.words[0][0], 0x1288);
    }

    #[test]
    fn the_turn_puts_a_graph_solution_in_a_searched_orientation() {
        let puzzle = Puzzle::classic();
        let tower = solve_by_graph(&puzzle).solution.unwrap();
        let first: [char; 4] =
            std::array::from_fn(|face| *tower.faces()[face].last().expect("four cubes"));
        assert!(puzzle.searched_orientations(0).contains(&first));
    }
}
