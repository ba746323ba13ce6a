//! Cost and strength (issue 15, "the main result"): players that back up one value or two,
//! at several depths, each play a match against one fixed reference player, and the
//! strength they reach (Elo against the reference) is set against what it cost them (mean
//! positions and CPU time a move). Where the 2&2 curve lies relative to the 1&1 curve
//! answers Slagle's question — does backing up the two best values pay for its cost? —
//! at every cost at once, instead of at the one depth of an equal-depth match.
//!
//! The same machinery plays the attribution matches: 2&2 broken down into its ingredients
//! (1&1 with tie-breaking alone, a per-level offset alone, the bonus for a close second
//! best), each ingredient against the one below it.
//!
//! Every player searches with the same move ordering (killers and the history heuristic
//! below the root, [`MnOrdering::KILLERS_AND_HISTORY`]) and the same quiescence: the fair
//! baseline the equal-depth match of [`super::matches`] lacked.
//!
//! # The families in play
//! The backing-up rules are the families of [`super::families`]. Slagle's family (and 1&1)
//! satisfy the contract of [`BackingUp`]. The offset and shifted families add a constant c
//! per level, which can be negative: a position may then be worth less to the player to
//! move than its best successor, and the m&n alpha-beta procedure's cutoffs assume it never
//! is. They are played exactly all the same, by moving the constants to the leaves: both
//! families commute with adding one number to every successor value, so backing up with the
//! bonus alone (Slagle's form, c left out) from leaf values raised by Φ(leaf), the sum of
//! the constants on the path from the root to the leaf (each from the side to move there:
//! +c where MAX is to move, −c where MIN is), gives every position its family value plus
//! Φ(position). The successors of the root share Φ, so the move chosen is the family's. In a
//! search of uniform depth a per-level constant is common to all siblings and changes no
//! move; it matters only where leaves lie at different depths — decided positions, and the
//! capture sequences of quiescence — which is what the attribution match (b) measures.
//!
//! A position with a single move backs up its value unchanged, with every rule. The
//! families were fitted on positions with two moves or more (the learning backs up two
//! successors), and their limit for a lone successor, a₂ + c, would charge a forced move c:
//! with the shifted family's straight-line fits (c of thousands of points balanced by a
//! bonus 2^x of the same size) every forced capture of checkers would look like a loss of
//! many men to the side that must make it. Slagle's family already backs up a lone value
//! unchanged (its bonus vanishes as the second best goes to −∞).

use std::cell::RefCell;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::elo::{EloEstimate, MatchScore};
use super::families::{Family, FamilyFit};
use super::fitting::LEAST_SHIFT;
use super::matches::{SideStats, game_pdn, play_out, points};
use super::positions::Opening;
use crate::game::{Evaluate, Game, Player};
use crate::games::checkers::Color;
use crate::search::float_valued::FloatValued;
use crate::search::m_and_n::{Exponents, MnOrdering, Slagle, mn_alphabeta_depth_ordered};

/// How a player backs up the values of its successors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rule {
    /// 1&1: the best value alone (ordinary alpha-beta).
    OneOne,
    /// 2&2 with the tie-breaking bonus only: 2^(−30 − gap) at every level, so the best
    /// value decides and a close second best only breaks ties.
    TieBreak,
    /// The best value plus a fitted constant per level (the null model: no gap).
    Offset,
    /// 2&2 with Slagle's family as learned by the experiment (section 8).
    Slagle,
    /// 2&2 with the shifted family: best + c + 2^(x − gap·y).
    Shifted,
}

impl Rule {
    /// Every rule, in the order the report lists them.
    pub const ALL: [Rule; 5] = [
        Rule::OneOne,
        Rule::TieBreak,
        Rule::Offset,
        Rule::Slagle,
        Rule::Shifted,
    ];

    /// `1&1`, `2&2 tie-break`, `offset`, `2&2 Slagle` or `2&2 shifted`.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Rule::OneOne => "1&1",
            Rule::TieBreak => "2&2 tie-break",
            Rule::Offset => "offset",
            Rule::Slagle => "2&2 Slagle",
            Rule::Shifted => "2&2 shifted",
        }
    }

    /// The name on the command line: `1-1`, `tie-break`, `offset`, `slagle`, `shifted`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Rule::OneOne => "1-1",
            Rule::TieBreak => "tie-break",
            Rule::Offset => "offset",
            Rule::Slagle => "slagle",
            Rule::Shifted => "shifted",
        }
    }

    /// The rule called `name` ([`Rule::name`]).
    #[must_use]
    pub fn from_name(name: &str) -> Option<Rule> {
        Rule::ALL.into_iter().find(|rule| rule.name() == name)
    }
}

/// A player: a rule and the plies it searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct CurvePlayer {
    /// How it backs up values.
    pub rule: Rule,
    /// The plies it searches (quiescence goes on past them).
    pub depth: u32,
}

impl CurvePlayer {
    /// `2&2 Slagle, depth 6`.
    #[must_use]
    pub fn label(&self) -> String {
        format!("{}, depth {}", self.rule.label(), self.depth)
    }

    /// `slagle@6`: the key of its games in the result file.
    #[must_use]
    pub fn key(&self) -> String {
        format!("{}@{}", self.rule.name(), self.depth)
    }
}

/// One match: `first` against `second`, every opening twice, colours reversed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pairing {
    /// The player whose score is reported.
    pub first: CurvePlayer,
    /// Its opponent (the reference, on a curve).
    pub second: CurvePlayer,
}

impl Pairing {
    /// `slagle@6 vs 1-1@6`: the key of its games in the result file.
    #[must_use]
    pub fn key(&self) -> String {
        format!("{} vs {}", self.first.key(), self.second.key())
    }
}

/// The functions of one family as it is played: a backing-up function of Slagle's form and
/// the constants c that the family adds at each level (`depth_below`), all zero for
/// Slagle's own family and 1&1.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelFunctions {
    /// Slagle's form (no constant): what the search backs up.
    pub backing: Slagle,
    /// c by `depth_below` (dmax), from the side to move, for every level a search meets
    /// (64 levels beyond the deepest fit, as
    /// [`super::SlagleParameters::to_slagle`] extends the exponents).
    pub offsets: Vec<f64>,
}

impl LevelFunctions {
    /// Plain m&n backing up, no constants.
    #[must_use]
    pub fn without_offsets(backing: Slagle) -> Self {
        LevelFunctions {
            backing,
            offsets: Vec::new(),
        }
    }

    /// The family fits `fits` (by dmax, in increasing order) as played: Slagle's form with
    /// their x and y (2&2) or 1&1 for the offset family, and their constants.
    ///
    /// # Panics
    /// If `fits` is empty or a fit's slope is not positive (the fitting never gives one).
    #[must_use]
    pub fn from_fits(fits: &[(u32, FamilyFit)]) -> Self {
        let family = fits.first().expect("invariant: a fit per dmax").1.family;
        let backing = if family == Family::Offset {
            Slagle::one_and_one()
        } else {
            let exponents: Vec<(u32, Exponents)> = fits
                .iter()
                .map(|&(dmax, fit)| {
                    let exponents =
                        Exponents::new(fit.shift, fit.slope).expect("invariant: fitted slope > 0");
                    (dmax, exponents)
                })
                .collect();
            super::learning::functions_so_far(&exponents)
        };
        // c for every level a search can meet, filled as the exponents are
        // (`SlagleParameters::to_slagle`): a level beyond the fitted ones takes the deepest
        // fit's of the same parity, and any other level without a fit the deepest fit's.
        let fitted = |level: u32| {
            fits.iter()
                .find(|&&(dmax, _)| dmax == level)
                .map(|(_, fit)| fit.offset)
        };
        let deepest = fits.iter().map(|&(dmax, _)| dmax).max().unwrap_or(0);
        let deepest_offset = fitted(deepest).unwrap_or(0.0);
        let offsets = (0..=deepest + EXTENDED_LEVELS)
            .map(|level| {
                if level <= deepest {
                    fitted(level).unwrap_or(deepest_offset)
                } else {
                    (0..=deepest)
                        .rev()
                        .filter(|fitted_level| fitted_level % 2 == level % 2)
                        .find_map(fitted)
                        .unwrap_or(deepest_offset)
                }
            })
            .collect();
        LevelFunctions { backing, offsets }
    }

    /// c at `depth_below` plies left below the successors.
    #[must_use]
    pub fn offset(&self, depth_below: u32) -> f64 {
        self.offsets
            .get(depth_below as usize)
            .or(self.offsets.last())
            .copied()
            .unwrap_or(0.0)
    }

    /// Whether every constant is zero (nothing to move to the leaves).
    #[must_use]
    pub fn has_offsets(&self) -> bool {
        self.offsets.iter().any(|&offset| offset != 0.0)
    }
}

/// Levels past the deepest fit that [`LevelFunctions::from_fits`] fills, as
/// [`super::SlagleParameters::to_slagle`] fills the exponents.
const EXTENDED_LEVELS: u32 = 64;

/// Every rule's functions, from the experiment's learned parameters and family fits.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleBook {
    /// [`Rule::Slagle`]: the functions section 8 learned.
    pub slagle: Slagle,
    /// [`Rule::Offset`]: 1&1 and the offset family's constants.
    pub offset: LevelFunctions,
    /// [`Rule::Shifted`]: the shifted family.
    pub shifted: LevelFunctions,
}

impl RuleBook {
    /// The functions of `rule` as played.
    #[must_use]
    pub fn functions(&self, rule: Rule) -> LevelFunctions {
        match rule {
            Rule::OneOne => LevelFunctions::without_offsets(Slagle::one_and_one()),
            Rule::TieBreak => {
                let tie = Exponents::new(LEAST_SHIFT, 1.0).expect("invariant: valid exponents");
                LevelFunctions::without_offsets(
                    Slagle::new(2, 2, tie, tie).expect("invariant: 2&2"),
                )
            }
            Rule::Offset => self.offset.clone(),
            Rule::Slagle => LevelFunctions::without_offsets(self.slagle.clone()),
            Rule::Shifted => self.shifted.clone(),
        }
    }
}

/// A game whose leaves are raised by Φ, the sum of the family's constants on the path from
/// the root (see the module's documentation): backing up Slagle's form over it is backing
/// up the family over the game itself, plus Φ.
struct LeafOffsets<'f, G> {
    game: G,
    functions: &'f LevelFunctions,
    /// The plies the search goes on below the root (D).
    depth: u32,
    /// Φ of each position on the path from the root, the root's (0) first.
    path: Vec<f64>,
    /// The number of successors of each position on the path, by ply, as
    /// [`Game::successors`] last listed them there.
    successor_counts: RefCell<Vec<usize>>,
}

impl<G: Game<Value = f64>> LeafOffsets<'_, G> {
    fn phi(&self) -> f64 {
        *self
            .path
            .last()
            .expect("invariant: the root's entry is never popped")
    }
}

impl<G: Game<Value = f64>> Game for LeafOffsets<'_, G> {
    type Move = G::Move;
    type Value = f64;

    fn to_move(&self) -> Player {
        self.game.to_move()
    }
    fn successors(&self, moves: &mut Vec<Self::Move>) {
        let before = moves.len();
        self.game.successors(moves);
        let ply = self.path.len() - 1;
        let mut counts = self.successor_counts.borrow_mut();
        if counts.len() <= ply {
            counts.resize(ply + 1, 0);
        }
        counts[ply] = moves.len() - before;
    }
    fn is_terminal(&self) -> bool {
        self.game.is_terminal()
    }
    fn value(&self) -> f64 {
        self.game.value() + self.phi()
    }
    fn update(&mut self, mv: Self::Move) {
        let ply = self.path.len() - 1;
        let listed = self.successor_counts.borrow().get(ply).copied();
        let successors = listed.filter(|&count| count > 0).unwrap_or_else(|| {
            let mut moves = Vec::new();
            self.game.successors(&mut moves);
            moves.len()
        });
        // A position with one move backs up its value unchanged; the others add the
        // constant of their level: their successors have depth_below plies left (0 past
        // the depth, in quiescence, as the m&n search counts them).
        let signed = if successors > 1 {
            let ply = u32::try_from(ply).unwrap_or(u32::MAX);
            let c = self.functions.offset(self.depth.saturating_sub(ply + 1));
            match self.game.to_move() {
                Player::Max => c,
                Player::Min => -c,
            }
        } else {
            0.0
        };
        self.path.push(self.phi() + signed);
        self.game.update(mv);
    }
    fn revert(&mut self, mv: Self::Move) {
        self.path.pop();
        self.game.revert(mv);
    }
}

impl<G: Evaluate<Value = f64>> Evaluate for LeafOffsets<'_, G> {
    fn evaluate(&self) -> f64 {
        self.game.evaluate() + self.phi()
    }
    fn is_quiet(&self) -> bool {
        self.game.is_quiet()
    }
    fn is_threatened(&self) -> bool {
        self.game.is_threatened()
    }
    fn known_value(&self) -> Option<f64> {
        self.game.known_value().map(|value| value + self.phi())
    }
    fn history_slot(&self, mv: Self::Move) -> Option<usize> {
        self.game.history_slot(mv)
    }
}

/// The move `functions` choose at `depth` plies (with quiescence), searched with killers
/// and the history heuristic, and the positions examined.
///
/// # Panics
/// If the game is over.
pub fn choose_move<G>(
    game: &mut G,
    functions: &LevelFunctions,
    depth: u32,
    quiescence_plies: u32,
) -> (G::Move, u64)
where
    G: Evaluate<Value = f64>,
{
    let ordering = MnOrdering::KILLERS_AND_HISTORY;
    let found = if functions.has_offsets() {
        let mut shifted = LeafOffsets {
            game,
            functions,
            depth,
            path: vec![0.0],
            successor_counts: RefCell::new(Vec::new()),
        };
        mn_alphabeta_depth_ordered(
            &mut shifted,
            &functions.backing,
            depth,
            quiescence_plies,
            ordering,
        )
    } else {
        mn_alphabeta_depth_ordered(game, &functions.backing, depth, quiescence_plies, ordering)
    };
    let mv = found
        .best_move
        .expect("invariant: a game that is not over has a move to play");
    (mv, found.stats.nodes)
}

/// One game of a pairing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CurveGameSpec {
    /// The match.
    pub pairing: Pairing,
    /// The index of its opening.
    pub opening: usize,
    /// Whether the first player plays Black.
    pub first_black: bool,
}

impl CurveGameSpec {
    /// `slagle@6 vs 1-1@6 #12 B`: the game's key in the result file.
    #[must_use]
    pub fn key(&self) -> String {
        format!(
            "{} #{} {}",
            self.pairing.key(),
            self.opening,
            if self.first_black { 'B' } else { 'W' }
        )
    }
}

/// Every game of `pairings` over `openings` openings: for each pairing, for each opening,
/// the first player as Black then as White.
#[must_use]
pub fn curve_game_specs(pairings: &[Pairing], openings: usize) -> Vec<CurveGameSpec> {
    let mut specs = Vec::with_capacity(pairings.len() * openings * 2);
    for &pairing in pairings {
        for opening in 0..openings {
            for first_black in [true, false] {
                specs.push(CurveGameSpec {
                    pairing,
                    opening,
                    first_black,
                });
            }
        }
    }
    specs
}

/// A finished game of a pairing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CurveRecord {
    /// [`CurveGameSpec::key`].
    pub key: String,
    /// The first player.
    pub first: CurvePlayer,
    /// The second player.
    pub second: CurvePlayer,
    /// The index of its opening.
    pub opening: usize,
    /// Whether the first player played Black.
    pub first_black: bool,
    /// The PDN result token.
    pub result: String,
    /// The first player's points: 1, ½ or 0.
    pub first_points: f64,
    /// Plies played after the opening.
    pub plies: u32,
    /// Why the game ended: `no legal move`, `draw rule` or `ply limit`.
    pub termination: String,
    /// What the first player's searches cost (seconds: CPU time of its thread).
    pub first_stats: SideStats,
    /// What the second player's searches cost.
    pub second_stats: SideStats,
    /// The game in PDN, the opening moves included.
    pub pdn: String,
}

/// Plays one game of a pairing: the opening, then the two players with `book`'s
/// functions and the run's quiescence and evaluation, until the rules end it or `max_plies` plies have gone. Deterministic but for
/// the times. `thread_clock` reads the CPU time of the calling thread, where the system
/// keeps one (the CLI's POSIX clock): a search's cost without the time it waited for a
/// core while other games were played beside it; where it answers `None`, wall-clock time.
#[must_use]
pub fn play_curve_game(
    spec: &CurveGameSpec,
    opening: &Opening,
    book: &RuleBook,
    (quiescence_plies, max_plies, evaluation): (u32, u32, super::ExperimentEvaluation),
    thread_clock: fn() -> Option<Duration>,
) -> CurveRecord {
    let wall = Instant::now();
    let now = || thread_clock().unwrap_or_else(|| wall.elapsed());
    let first = spec.pairing.first;
    let second = spec.pairing.second;
    let first_functions = book.functions(first.rule);
    let second_functions = book.functions(second.rule);
    let first_color = if spec.first_black {
        Color::Black
    } else {
        Color::White
    };
    let mut game = FloatValued(evaluation.apply(opening.game()));
    let (mut first_stats, mut second_stats) = (SideStats::default(), SideStats::default());
    let outcome = play_out(&mut game, max_plies, |game, to_move| {
        let first_to_move = to_move == first_color;
        let (player, functions, stats) = if first_to_move {
            (first, &first_functions, &mut first_stats)
        } else {
            (second, &second_functions, &mut second_stats)
        };
        let started = now();
        let (mv, nodes) = choose_move(game, functions, player.depth, quiescence_plies);
        let seconds = now().saturating_sub(started).as_secs_f64();
        stats.add(nodes, seconds, player.depth);
        mv
    });
    let (black, white) = if spec.first_black {
        (first.label(), second.label())
    } else {
        (second.label(), first.label())
    };
    let pdn = game_pdn(
        opening,
        &outcome,
        &[
            ("Event", "Slagle's experiment, cost and strength"),
            ("Black", &black),
            ("White", &white),
            ("Opening", &opening.name),
        ],
    );
    CurveRecord {
        key: spec.key(),
        first,
        second,
        opening: spec.opening,
        first_black: spec.first_black,
        result: outcome.result.token().to_string(),
        first_points: points(outcome.result, spec.first_black),
        plies: outcome.plies(),
        termination: outcome.termination.to_string(),
        first_stats,
        second_stats,
        pdn,
    }
}

/// The result of one pairing, from the first player's side.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairingSummary {
    /// The first player.
    pub first: CurvePlayer,
    /// The second player.
    pub second: CurvePlayer,
    /// The first player's wins, draws and losses.
    pub score: MatchScore,
    /// Those of its games as Black.
    #[serde(default)]
    pub as_black: MatchScore,
    /// Those of its games as White.
    #[serde(default)]
    pub as_white: MatchScore,
    /// Its Elo advantage over the second, with the 95% interval.
    pub elo: Option<EloEstimate>,
    /// Its searches over all games.
    pub first_stats: SideStats,
    /// The second player's searches.
    pub second_stats: SideStats,
}

impl PairingSummary {
    /// The first player's mean positions a move.
    #[must_use]
    pub fn nodes_per_move(&self) -> f64 {
        self.first_stats.per_move().0
    }

    /// The first player's mean CPU milliseconds a move.
    #[must_use]
    pub fn milliseconds_per_move(&self) -> f64 {
        self.first_stats.per_move().1
    }
}

/// Sums up the games of `pairing` among `records` (`None` when none is played yet).
#[must_use]
pub fn summarize_pairing(pairing: &Pairing, records: &[CurveRecord]) -> Option<PairingSummary> {
    let (mut score, mut as_black, mut as_white) = (
        MatchScore::default(),
        MatchScore::default(),
        MatchScore::default(),
    );
    let (mut first_stats, mut second_stats) = (SideStats::default(), SideStats::default());
    for record in records
        .iter()
        .filter(|record| record.first == pairing.first && record.second == pairing.second)
    {
        score.record(record.first_points);
        if record.first_black {
            as_black.record(record.first_points);
        } else {
            as_white.record(record.first_points);
        }
        first_stats.merge(&record.first_stats);
        second_stats.merge(&record.second_stats);
    }
    (score.games() > 0).then(|| PairingSummary {
        first: pairing.first,
        second: pairing.second,
        score,
        as_black,
        as_white,
        elo: score.elo(),
        first_stats,
        second_stats,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::families::fit_family;
    use crate::experiment::fitting::Observation;
    use crate::search::m_and_n::BackingUp;
    use crate::{Checkers, SplitMix64};

    /// The family's value of the position, minimaxed plainly: a position with one move
    /// is worth its successor, one with more its two best backed up by Slagle's form plus
    /// the level's constant (from the side to move); quiescence as the m&n searches count
    /// it (`used` plies past the depth so far, at most `cap`).
    fn family_value<G: Evaluate<Value = f64>>(
        game: &mut G,
        functions: &LevelFunctions,
        depth: u32,
        (used, cap): (u32, u32),
    ) -> f64 {
        if game.is_terminal() {
            return game.value();
        }
        if depth == 0 && (used >= cap || game.is_quiet()) {
            return game.evaluate();
        }
        let player = game.to_move();
        let mut moves = Vec::new();
        game.successors(&mut moves);
        let extending = u32::from(depth == 0);
        let mut values: Vec<f64> = moves
            .iter()
            .map(|&mv| {
                game.update(mv);
                let value = family_value(
                    game,
                    functions,
                    depth.saturating_sub(1),
                    (used + extending, cap),
                );
                game.revert(mv);
                value
            })
            .collect();
        let sign = match player {
            Player::Max => 1.0,
            Player::Min => -1.0,
        };
        values.sort_by(|a, b| (sign * b).total_cmp(&(sign * a)));
        match values.len() {
            0 => sign * f64::NEG_INFINITY,
            1 => values[0],
            _ => {
                let below = depth.saturating_sub(1);
                let count = functions.backing.count(player);
                let bonus = functions
                    .backing
                    .back_up(player, &values[..count], Some(below));
                bonus + sign * functions.offset(below)
            }
        }
    }

    /// The first move of greatest family value.
    fn family_move(
        checkers: &Checkers,
        functions: &LevelFunctions,
        depth: u32,
        cap: u32,
    ) -> crate::games::checkers::Move {
        let mut game = FloatValued(checkers.clone());
        let sign = match game.to_move() {
            Player::Max => 1.0,
            Player::Min => -1.0,
        };
        let mut moves = Vec::new();
        game.successors(&mut moves);
        let mut best: Option<(f64, crate::games::checkers::Move)> = None;
        for mv in moves {
            game.update(mv);
            let extending = u32::from(depth == 0);
            let value = sign
                * family_value(
                    &mut game,
                    functions,
                    depth.saturating_sub(1),
                    (extending, cap),
                );
            game.revert(mv);
            if best.is_none_or(|(best_value, _)| value > best_value) {
                best = Some((value, mv));
            }
        }
        best.expect("a position with moves").1
    }

    fn random_position(seed: u64, plies: usize) -> Checkers {
        let mut game = Checkers::new();
        crate::play_random_moves(&mut game, plies, &mut SplitMix64::new(seed));
        game
    }

    fn fits(family: super::Family, offsets: [f64; 3]) -> LevelFunctions {
        let fits: Vec<(u32, FamilyFit)> = offsets
            .iter()
            .enumerate()
            .map(|(dmax, &offset)| {
                let mut fit = fit_family(
                    family,
                    &[
                        Observation {
                            gap: 0.0,
                            excess: 1.0,
                        },
                        Observation {
                            gap: 10.0,
                            excess: 0.5,
                        },
                        Observation {
                            gap: 30.0,
                            excess: 0.0,
                        },
                    ],
                )
                .expect("a fit");
                fit.offset = offset;
                (u32::try_from(dmax).expect("small"), fit)
            })
            .collect();
        LevelFunctions::from_fits(&fits)
    }

    #[test]
    fn moving_the_constants_to_the_leaves_chooses_the_familys_move() {
        // Large constants of both signs, so that decided positions and capture sequences
        // (quiescence) would be misjudged if they were left out.
        for family in [super::Family::Offset, super::Family::Shifted] {
            let functions = fits(family, [-500.0, 300.0, -40.0]);
            assert!(functions.has_offsets());
            let mut agreed = 0;
            for seed in 0..30 {
                let checkers = random_position(seed, 20 + usize::try_from(seed).expect("small"));
                if checkers.is_terminal() {
                    continue;
                }
                for (depth, quiescence) in [(2, 0), (3, 4), (4, 2)] {
                    let mut game = FloatValued(checkers.clone());
                    let (mv, _) = choose_move(&mut game, &functions, depth, quiescence);
                    let reference = family_move(&checkers, &functions, depth, quiescence);
                    assert_eq!(mv, reference, "{family:?} seed {seed} depth {depth}");
                    agreed += 1;
                }
            }
            // 30 positions at 3 depths: the comparison must not pass by skipping
            // (terminal positions), so most of the 90 have to be played.
            assert!(agreed > 60, "only {agreed} of 90 compared");
        }
    }

    #[test]
    fn offsets_beyond_the_fitted_levels_repeat_by_parity() {
        let functions = fits(super::Family::Offset, [1.0, 2.0, 3.0]);
        assert_eq!(
            (0..6).map(|d| functions.offset(d)).collect::<Vec<_>>(),
            [1.0, 2.0, 3.0, 2.0, 3.0, 2.0]
        );
        // A level between fitted ones takes the deepest fit's, as the exponents do.
        let mut gapped: Vec<(u32, FamilyFit)> = [0u32, 2]
            .iter()
            .map(|&dmax| {
                let mut fit = fit_family(
                    super::Family::Offset,
                    &[Observation {
                        gap: 0.0,
                        excess: 1.0,
                    }],
                )
                .expect("a fit");
                fit.offset = f64::from(dmax) + 1.0;
                (dmax, fit)
            })
            .collect();
        gapped.sort_by_key(|(dmax, _)| *dmax);
        let functions = LevelFunctions::from_fits(&gapped);
        assert_eq!(
            (0..4).map(|d| functions.offset(d)).collect::<Vec<_>>(),
            [1.0, 3.0, 3.0, 3.0]
        );
    }

    #[test]
    fn a_pairing_is_played_both_ways_and_summed_up() {
        let book = RuleBook {
            slagle: Slagle::one_and_one(),
            offset: LevelFunctions::without_offsets(Slagle::one_and_one()),
            shifted: LevelFunctions::without_offsets(Slagle::one_and_one()),
        };
        let pairing = Pairing {
            first: CurvePlayer {
                rule: Rule::TieBreak,
                depth: 2,
            },
            second: CurvePlayer {
                rule: Rule::OneOne,
                depth: 1,
            },
        };
        let specs = curve_game_specs(&[pairing], 2);
        assert_eq!(specs.len(), 4);
        let opening = &Opening::ballots()[0];
        let records: Vec<CurveRecord> = specs
            .iter()
            .map(|spec| {
                play_curve_game(
                    spec,
                    opening,
                    &book,
                    (4, 12, super::super::ExperimentEvaluation::Samuel),
                    || None,
                )
            })
            .collect();
        let again = play_curve_game(
            &specs[0],
            opening,
            &book,
            (4, 12, super::super::ExperimentEvaluation::Samuel),
            || None,
        );
        assert_eq!(again.pdn, records[0].pdn);
        assert_eq!(again.first_stats.nodes, records[0].first_stats.nodes);
        let summary = summarize_pairing(&pairing, &records).expect("games played");
        assert_eq!(summary.score.games(), 4);
        assert_eq!(summary.first_stats.moves + summary.second_stats.moves, 48);
        assert!(summary.nodes_per_move() > 0.0);
        assert_eq!(Rule::from_name("tie-break"), Some(Rule::TieBreak));
        assert_eq!(pairing.key(), "tie-break@2 vs 1-1@1");
    }
}
