//! Typical positions for the learning of section 8 (seed 003): Slagle's "large number of
//! typical checker positions P⁽ᵏ⁾", here the positions of self-play games from the
//! three-move ballots in which each move is drawn at random among the near-best ones.

use std::collections::HashSet;
use std::ops::Range;

use crate::game::{Evaluate, Game, Player};
use crate::games::checkers::{Checkers, Move, PdnError, Position, read_pdn, three_move_ballots};
use crate::random::SplitMix64;
use crate::search::Window;
use crate::search::deepening::depth_limited_value;

/// An opening: a start position and the moves that follow it, as a ballot or a PDN game
/// gives them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// How the opening is named in results: `ballot 1 (9-13 21-17 5-9)`.
    pub name: String,
    /// The position the moves start from.
    pub start: Position,
    /// The opening moves.
    pub moves: Vec<Move>,
}

impl Opening {
    /// The 156 three-move ballots of the ACF deck, in ballot order.
    #[must_use]
    pub fn ballots() -> Vec<Opening> {
        three_move_ballots()
            .into_iter()
            .map(|ballot| Opening {
                name: format!("ballot {} ({ballot})", ballot.number),
                start: Position::initial(),
                moves: ballot.moves.to_vec(),
            })
            .collect()
    }

    /// The openings of a PDN text, one per game: its start (the `FEN` tag or the initial
    /// position) and its moves. A game is named by its `Ballot` or `Event` tag, else by its
    /// number in the file.
    ///
    /// # Errors
    /// The PDN reader's error (line, column and reason) for a text it cannot read.
    pub fn from_pdn(text: &str) -> Result<Vec<Opening>, PdnError> {
        Ok(read_pdn(text)?
            .into_iter()
            .enumerate()
            .map(|(index, game)| {
                let label = game
                    .tag("Ballot")
                    .map(|number| format!("ballot {number}"))
                    .or_else(|| {
                        game.tag("Event")
                            .filter(|event| *event != "?")
                            .map(str::to_string)
                    })
                    .unwrap_or_else(|| format!("game {}", index + 1));
                let moves: Vec<String> = game.moves.iter().map(ToString::to_string).collect();
                Opening {
                    name: format!("{label} ({})", moves.join(" ")),
                    start: game.start,
                    moves: game.moves,
                }
            })
            .collect())
    }

    /// The game after the opening moves, its history kept for the draw rules.
    #[must_use]
    pub fn game(&self) -> Checkers {
        let mut game = Checkers::from_position(self.start);
        for &mv in &self.moves {
            game.update(mv);
        }
        game.mark_root();
        game
    }
}

/// How the self-play games that supply typical positions are played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SamplingConfig {
    /// Plies each candidate move is looked at (1&1 alpha-beta, the move and `depth − 1`
    /// replies).
    pub search_depth: u32,
    /// A move is a candidate when it is at most this many points (a man is 100) worse for
    /// the mover than the best move.
    pub margin: i32,
    /// Plies after the opening at which a self-play game stops, if the rules have not
    /// ended it.
    pub max_plies: u32,
}

impl Default for SamplingConfig {
    /// Three plies a move, candidates within a fifth of a man, 120 plies.
    fn default() -> Self {
        SamplingConfig {
            search_depth: 3,
            margin: 20,
            max_plies: 120,
        }
    }
}

/// Self-play games per batch: games are generated in batches (in parallel by the CLI),
/// and positions taken from the games in game order, so the result does not depend on
/// how many threads play them.
pub const SAMPLING_BATCH: u64 = 32;

/// The positions of self-play game number `game_index` under `seed`, in order of play: the
/// opening `openings[game_index % len]`, then moves drawn uniformly among those within
/// `config.margin` of the best for the mover. Only positions with at least two legal moves
/// are kept: section 8 backs up the two best successors.
///
/// # Panics
/// If `openings` is empty.
#[must_use]
pub fn sampling_game(
    openings: &[Opening],
    seed: u64,
    game_index: u64,
    config: &SamplingConfig,
    evaluation: super::ExperimentEvaluation,
) -> Vec<Position> {
    assert!(!openings.is_empty(), "sampling needs at least one opening");
    let opening = &openings[(game_index % openings.len() as u64) as usize];
    let mut random = SplitMix64::with_stream(seed, game_index);
    let mut game = evaluation.apply(opening.game());
    let mut positions = Vec::new();
    let mut moves = Vec::new();
    let mut candidates: Vec<(i32, Move)> = Vec::new();
    for _ in 0..config.max_plies {
        if game.result().is_some() {
            break;
        }
        moves.clear();
        game.successors(&mut moves);
        if moves.len() >= 2 {
            positions.push(*game.position());
        }
        let mv = near_best_move(
            &mut game,
            &moves,
            &mut candidates,
            config,
            &mut random,
            Checkers::mark_root,
        );
        game.update(mv);
    }
    positions
}

/// A move drawn among those within `config.margin` of the best, each valued by a search of
/// `config.search_depth` plies from the side to move: the randomised self-play move of the
/// typical-position sampling, for any game. `after_move` is called on each successor before
/// it is searched (checkers marks it as the root of the search's repetition history).
pub fn near_best_move<G>(
    game: &mut G,
    moves: &[G::Move],
    candidates: &mut Vec<(i32, G::Move)>,
    config: &SamplingConfig,
    random: &mut SplitMix64,
    after_move: impl Fn(&mut G),
) -> G::Move
where
    G: Evaluate + Game<Value = i32>,
{
    let player = game.to_move();
    candidates.clear();
    for &mv in moves {
        game.update(mv);
        after_move(game);
        let value =
            depth_limited_value(game, config.search_depth.saturating_sub(1), Window::full()).value;
        game.revert(mv);
        let for_mover = match player {
            Player::Max => value,
            Player::Min => value.saturating_neg(),
        };
        candidates.push((for_mover, mv));
    }
    let best = candidates
        .iter()
        .map(|&(value, _)| value)
        .max()
        .expect("invariant: a position that is not over has a move");
    candidates.retain(|&(value, _)| value >= best.saturating_sub(config.margin));
    candidates[random.index(candidates.len())].1
}

/// `count` distinct typical positions (of any game), reproducible from `seed`: the positions of
/// [`sampling_game`] 0, 1, 2, …, each kept the first time it occurs, until there are
/// `count`. Fewer come back only if `max_games` games do not supply enough.
///
/// `play` plays a batch of games (a range of game indices) and returns their positions in
/// index order: `|games| games.map(|index| sampling_game(...)).collect()`, sequentially or
/// in parallel — the result is the same.
pub fn typical_positions<P: Clone + Eq + std::hash::Hash>(
    count: usize,
    max_games: u64,
    play: impl FnMut(Range<u64>) -> Vec<Vec<P>>,
) -> Vec<P> {
    typical_positions_by_stratum(&[count], max_games, |_| 0, play)
}

/// [`typical_positions`] in stated proportions (issue 15: openings, middle games and
/// endgames): `quotas[s]` distinct positions of each stratum `s` (as `stratum` tells),
/// each kept the first time it occurs while its stratum's quota is not full, until every
/// quota is; fewer only if `max_games` games do not supply enough. A stratum beyond
/// `quotas` is never kept.
pub fn typical_positions_by_stratum<P: Clone + Eq + std::hash::Hash>(
    quotas: &[usize],
    max_games: u64,
    stratum: impl Fn(&P) -> usize,
    mut play: impl FnMut(Range<u64>) -> Vec<Vec<P>>,
) -> Vec<P> {
    let count: usize = quotas.iter().sum();
    let mut kept = vec![0; quotas.len()];
    let mut seen = HashSet::new();
    let mut positions = Vec::with_capacity(count);
    let mut next_game = 0;
    while positions.len() < count && next_game < max_games {
        let end = (next_game + SAMPLING_BATCH).min(max_games);
        for game in play(next_game..end) {
            for position in game {
                let class = stratum(&position);
                if quotas.get(class).is_some_and(|&quota| kept[class] < quota)
                    && seen.insert(position.clone())
                {
                    kept[class] += 1;
                    positions.push(position);
                }
            }
        }
        next_game = end;
    }
    positions
}

/// The positions as PDN FEN, one a line.
#[must_use]
pub fn positions_to_fen_lines(positions: &[Position]) -> String {
    positions
        .iter()
        .map(|position| position.to_fen() + "\n")
        .collect()
}

/// Positions from PDN FEN lines (blank lines and lines starting with `;` skipped).
///
/// # Errors
/// The line number and the FEN reader's reason for the first line that is not a position.
pub fn positions_from_fen_lines(text: &str) -> Result<Vec<Position>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.trim_start().starts_with(';'))
        .map(|(number, line)| {
            Position::from_fen(line.trim()).map_err(|error| format!("line {}: {error}", number + 1))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strata_fill_their_quotas_with_the_first_distinct_positions_of_each() {
        // Games of numbers; the stratum is the number's remainder by 3.
        let play = |games: Range<u64>| -> Vec<Vec<u64>> {
            games
                .map(|game| (game * 5..game * 5 + 7).collect())
                .collect()
        };
        let positions = typical_positions_by_stratum(&[2, 0, 3], 1000, |n| (n % 3) as usize, play);
        // Game 0 is 0..7: remainder 0 takes 0 and 3 (its quota of two is full), remainder 2
        // takes 2, 5 and then 8 from game 1 (5..12); remainder 1 has no quota.
        assert_eq!(positions, [0, 2, 3, 5, 8]);
        // One stratum is the plain sampling.
        assert_eq!(typical_positions(4, 1000, play), [0, 1, 2, 3]);
        // Quotas that the games cannot fill give what there is.
        let short = typical_positions_by_stratum(
            &[1, 1, 1],
            1,
            |n| (n % 3) as usize,
            |_| vec![vec![3, 6, 9]],
        );
        assert_eq!(short, [3]);
    }

    fn sequential(openings: &[Opening], seed: u64, count: usize) -> Vec<Position> {
        let config = SamplingConfig {
            search_depth: 2,
            margin: 20,
            max_plies: 30,
        };
        typical_positions(count, 1000, |games| {
            games
                .map(|index| {
                    sampling_game(
                        openings,
                        seed,
                        index,
                        &config,
                        super::super::ExperimentEvaluation::Samuel,
                    )
                })
                .collect()
        })
    }

    #[test]
    fn typical_positions_are_distinct_and_reproducible_from_the_seed() {
        let openings: Vec<Opening> = Opening::ballots().into_iter().take(3).collect();
        let first = sequential(&openings, 5, 60);
        assert_eq!(first.len(), 60);
        assert_eq!(first.iter().collect::<HashSet<_>>().len(), 60);
        assert_eq!(sequential(&openings, 5, 60), first);
        assert_ne!(sequential(&openings, 6, 60), first);
    }

    #[test]
    fn every_typical_position_has_two_successors_and_survives_fen() {
        let openings: Vec<Opening> = Opening::ballots().into_iter().take(2).collect();
        let positions = sequential(&openings, 1, 40);
        let text = positions_to_fen_lines(&positions);
        assert_eq!(positions_from_fen_lines(&text), Ok(positions.clone()));
        for position in positions {
            let mut moves = Vec::new();
            position.legal_moves(&mut moves);
            assert!(moves.len() >= 2);
        }
    }

    #[test]
    fn openings_read_from_pdn_are_named_and_bad_pdn_is_an_error() {
        let openings = Opening::from_pdn("[Event \"Old Faithful\"]\n1. 11-15 23-19 2. 8-11 *")
            .expect("valid PDN");
        assert_eq!(openings[0].name, "Old Faithful (11-15 23-19 8-11)");
        assert_eq!(openings[0].game().position().side_to_move().letter(), 'W');
        assert!(Opening::from_pdn("1. 11-16 11-15 *").is_err());
        assert_eq!(Opening::ballots().len(), 156);
    }
}
