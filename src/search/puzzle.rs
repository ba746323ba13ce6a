//! Depth-first puzzle search over closures: McCarthy's `search`/`searchlis` (seed 000,
//! "Depth First Tree Search"; seed 001, "5. Tree search") and his `allsol`.
//!
//! A problem is three functions of a position, exactly as in the seeds:
//!
//! - `successors`: the positions one step on, in the order they are to be tried;
//! - `is_terminal`: the seed's `ter`, a position that does not lose and is terminal is a
//!   solution;
//! - `loses`: the seed's `lose`, a losing position is dropped and never expanded.
//!
//! The control program never knows the problem. Unlike the seed's recursive `searchlis`,
//! these functions keep an explicit stack of child iterators, so the depth of a search is
//! limited by memory, not by the call stack: a chain a million levels deep is fine.
//!
//! `successors` is called with a borrowed position and returns an iterator that owns what
//! it needs (a copy of the parent, a shared tail, an index), because a position is dropped
//! as soon as its successors have been asked for: the search keeps only the iterators.

use std::fmt;

/// How much work a search did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PuzzleStats {
    /// Positions the search looked at: the start and every position `successors` yielded
    /// that the search pulled (each is tested with `loses`).
    pub generated: u64,
    /// Positions whose successors were asked for: those that neither lose nor are
    /// terminal.
    pub expanded: u64,
}

impl fmt::Display for PuzzleStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} generated, {} expanded",
            self.generated, self.expanded
        )
    }
}

/// What [`search_with_stats`] found, and what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOutcome<P> {
    /// The first solution in depth-first order, or `None` (the seed's `LOSE`).
    pub solution: Option<P>,
    /// The work done up to and including finding `solution`.
    pub stats: PuzzleStats,
}

/// McCarthy's `search`: the first position in depth-first order that does not lose and is
/// terminal, or `None` when there is none (the seed returns `LOSE`).
///
/// ```text
/// search p ← if lose p then LOSE else if ter p then p else searchlis[successors p]
/// searchlis u ← if n u then LOSE else {search a u}[λx: if x = LOSE then searchlis d u else x]
/// ```
///
/// The contract, as in the seed:
/// - `loses` is asked first, for every position including `start`; a losing position is
///   never tested with `is_terminal` and never expanded;
/// - a terminal position that does not lose is a solution and is not expanded;
/// - the children of any other position are tried in the order `successors` yields them,
///   each one's subtree exhausted before the next child is looked at.
///
/// The search is iterative (an explicit stack of child iterators), so a chain of any depth
/// is searched without overflowing the call stack. The tree must be finite along the path
/// to the answer: `loses` is where a problem cuts off cycles.
///
/// # Example
///
/// Words of bits built from the left, at most three long; the first with two ones:
///
/// ```
/// use gametree::puzzle_search as search;
///
/// let found = search(
///     String::new(),
///     |word: &String| {
///         let word = word.clone();
///         ["0", "1"].into_iter().map(move |bit| format!("{word}{bit}"))
///     },
///     |word| word.matches('1').count() == 2,
///     |word| word.len() > 3,
/// );
/// assert_eq!(found.as_deref(), Some("011"));
/// ```
pub fn search<P, FN, IN, FT, FL>(start: P, successors: FN, is_terminal: FT, loses: FL) -> Option<P>
where
    FN: FnMut(&P) -> IN,
    IN: IntoIterator<Item = P>,
    FT: FnMut(&P) -> bool,
    FL: FnMut(&P) -> bool,
{
    all_solutions(start, successors, is_terminal, loses).next()
}

/// [`search`], also reporting how many positions were generated and expanded.
///
/// # Example
///
/// ```
/// use gametree::puzzle_search_with_stats as search_with_stats;
///
/// // Count up from 0 by 1 or 2; the first number reached that is 5.
/// let outcome = search_with_stats(
///     0u32,
///     |&n| [n + 1, n + 2],
///     |&n| n == 5,
///     |&n| n > 5,
/// );
/// assert_eq!(outcome.solution, Some(5));
/// // 0 1 2 3 4 expanded; 0 1 2 3 4 5 looked at.
/// assert_eq!(outcome.stats.expanded, 5);
/// assert_eq!(outcome.stats.generated, 6);
/// ```
pub fn search_with_stats<P, FN, IN, FT, FL>(
    start: P,
    successors: FN,
    is_terminal: FT,
    loses: FL,
) -> SearchOutcome<P>
where
    FN: FnMut(&P) -> IN,
    IN: IntoIterator<Item = P>,
    FT: FnMut(&P) -> bool,
    FL: FnMut(&P) -> bool,
{
    let mut solutions = all_solutions(start, successors, is_terminal, loses);
    let solution = solutions.next();
    SearchOutcome {
        solution,
        stats: solutions.stats(),
    }
}

/// McCarthy's `allsol` (seed 001): every solution, lazily, in the order [`search`] meets
/// them — the first item is what `search` returns.
///
/// ```text
/// allsol p ← if lose p then NIL else if ter p then (p) else mapapp[successors p, allsol]
/// ```
///
/// The seed's faster `allsola` accumulates its answers and so returns them in reverse;
/// this iterator keeps the depth-first order of the plain `allsol`. It does no work until
/// asked, so `take(k)` searches only as far as the `k`th solution, and
/// [`AllSolutions::stats`] reports the work done so far.
///
/// # Example
///
/// ```
/// use gametree::all_solutions;
///
/// // Words over {a, b} of length 2.
/// let words: Vec<String> = all_solutions(
///     String::new(),
///     |word: &String| {
///         let word = word.clone();
///         ['a', 'b'].into_iter().map(move |letter| format!("{word}{letter}"))
///     },
///     |word| word.len() == 2,
///     |_| false,
/// )
/// .collect();
/// assert_eq!(words, ["aa", "ab", "ba", "bb"]);
/// ```
pub fn all_solutions<P, FN, IN, FT, FL>(
    start: P,
    successors: FN,
    is_terminal: FT,
    loses: FL,
) -> AllSolutions<P, FN, IN::IntoIter, FT, FL>
where
    FN: FnMut(&P) -> IN,
    IN: IntoIterator<Item = P>,
    FT: FnMut(&P) -> bool,
    FL: FnMut(&P) -> bool,
{
    AllSolutions {
        start: Some(start),
        stack: Vec::new(),
        successors,
        is_terminal,
        loses,
        stats: PuzzleStats::default(),
    }
}

/// The number of solutions, counted without storing them: `all_solutions(...).count()`.
///
/// To have the statistics too, count through `by_ref` and ask the iterator afterwards:
///
/// # Example
///
/// ```
/// use gametree::{all_solutions, count_solutions};
///
/// // Subsets of {1, 2, 3, 4} (chosen in increasing order) that sum to 5.
/// let successors = |chosen: &Vec<u32>| {
///     let chosen = chosen.clone();
///     let next = chosen.last().map_or(1, |last| last + 1);
///     (next..=4).map(move |n| {
///         let mut more = chosen.clone();
///         more.push(n);
///         more
///     })
/// };
/// let sum = |chosen: &Vec<u32>| chosen.iter().sum::<u32>();
/// assert_eq!(count_solutions(vec![], successors, |c| sum(c) == 5, |c| sum(c) > 5), 2);
///
/// let mut solutions = all_solutions(vec![], successors, |c| sum(c) == 5, |c| sum(c) > 5);
/// assert_eq!(solutions.by_ref().count(), 2);
/// assert!(solutions.stats().expanded > 0);
/// ```
pub fn count_solutions<P, FN, IN, FT, FL>(
    start: P,
    successors: FN,
    is_terminal: FT,
    loses: FL,
) -> u64
where
    FN: FnMut(&P) -> IN,
    IN: IntoIterator<Item = P>,
    FT: FnMut(&P) -> bool,
    FL: FnMut(&P) -> bool,
{
    let mut count = 0;
    for _ in all_solutions(start, successors, is_terminal, loses) {
        count += 1;
    }
    count
}

/// The lazy iterator of [`all_solutions`]: an explicit stack of child iterators, one per
/// position on the current path that has been expanded.
pub struct AllSolutions<P, FN, I, FT, FL> {
    /// The start position until the first call to `next`.
    start: Option<P>,
    /// The unexplored children of each expanded position on the current path, deepest
    /// last.
    stack: Vec<I>,
    successors: FN,
    is_terminal: FT,
    loses: FL,
    stats: PuzzleStats,
}

impl<P, FN, I, FT, FL> AllSolutions<P, FN, I, FT, FL> {
    /// The work done so far: positions generated and expanded.
    pub fn stats(&self) -> PuzzleStats {
        self.stats
    }

    /// How many expanded positions are on the current path (the depth of the explicit
    /// stack): 0 before the search starts and once it is exhausted.
    pub fn depth(&self) -> usize {
        self.stack.len()
    }
}

impl<P, FN, IN, FT, FL> Iterator for AllSolutions<P, FN, IN::IntoIter, FT, FL>
where
    FN: FnMut(&P) -> IN,
    IN: IntoIterator<Item = P>,
    FT: FnMut(&P) -> bool,
    FL: FnMut(&P) -> bool,
{
    type Item = P;

    fn next(&mut self) -> Option<P> {
        loop {
            let position = match self.start.take() {
                Some(start) => start,
                None => {
                    let children = self.stack.last_mut()?;
                    match children.next() {
                        Some(child) => child,
                        None => {
                            self.stack.pop();
                            continue;
                        }
                    }
                }
            };
            self.stats.generated += 1;
            if (self.loses)(&position) {
                continue;
            }
            if (self.is_terminal)(&position) {
                return Some(position);
            }
            self.stats.expanded += 1;
            let children = (self.successors)(&position).into_iter();
            self.stack.push(children);
        }
    }
}

impl<P, FN, I, FT, FL> fmt::Debug for AllSolutions<P, FN, I, FT, FL> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AllSolutions")
            .field("started", &self.start.is_none())
            .field("depth", &self.stack.len())
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_losing_start_has_no_solution_even_when_terminal() {
        let outcome = search_with_stats(7, |_: &i32| Vec::new(), |_| true, |_| true);
        assert_eq!(outcome.solution, None);
        assert_eq!(
            outcome.stats,
            PuzzleStats {
                generated: 1,
                expanded: 0
            }
        );
    }

    #[test]
    fn a_terminal_start_is_the_solution_and_is_not_expanded() {
        let mut asked = 0;
        let outcome = search_with_stats(
            7,
            |_: &i32| {
                asked += 1;
                vec![8]
            },
            |_| true,
            |_| false,
        );
        assert_eq!(outcome.solution, Some(7));
        assert_eq!(asked, 0);
    }
}
