//! Slagle's experiment on Kalah (issue 16, part 4): the game on which Slagle and Dixon
//! ("Experiments with the M & N tree-searching program", CACM 13(3), 1970) reported M&N
//! significantly better than ordinary minimaxing at equal depth. Positions are written in
//! the pits notation of `gametree kalah --position`; the evaluation is the store
//! difference ([`crate::Evaluate`] for [`Kalah`]).

use std::collections::HashSet;
use std::time::Instant;

use super::game::{ExperimentGame, deep_value_in, search_nodes_in, two_best_successors_in};
use super::matches::{BUDGET_MAX_DEPTH, GameRecord, GameSpec, MatchKind, MatchSetup, SideStats};
use super::positions::{SamplingConfig, near_best_move};
use crate::game::{Game, Player};
use crate::games::kalah::{Kalah, KalahRules, play_random_moves};
use crate::random::SplitMix64;
use crate::search::deepening::{SearchOptions, iterative_deepening};
use crate::search::float_valued::FloatValued;
use crate::search::m_and_n::{Slagle, mn_alphabeta_depth};

/// A Kalah position as the experiment stores it: the pits in sowing order (South's houses,
/// South's store, North's houses, North's store) and the player to move (South is MAX).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct KalahPosition {
    /// The pits in sowing order.
    pub pits: Vec<u8>,
    /// The player to move.
    pub to_move: Player,
}

impl KalahPosition {
    /// The position of `game`.
    #[must_use]
    pub fn of(game: &Kalah) -> Self {
        KalahPosition {
            pits: game.pits().to_vec(),
            to_move: game.player_to_move(),
        }
    }

    /// The position as a game under `rules`.
    ///
    /// # Panics
    /// If the pits are not a board ([`KalahPosition::from_notation`] checks them).
    #[must_use]
    pub fn game(&self, rules: KalahRules) -> Kalah {
        Kalah::from_pits(&self.pits, self.to_move, rules)
            .expect("invariant: a stored position is a board")
    }

    /// The seeds left in the houses (not in a store).
    #[must_use]
    pub fn seeds_in_houses(&self) -> u32 {
        let houses = self.pits.len() / 2 - 1;
        self.pits
            .iter()
            .enumerate()
            .filter(|&(pit, _)| pit != houses && pit != 2 * houses + 1)
            .map(|(_, &seeds)| u32::from(seeds))
            .sum()
    }

    /// The notation of `gametree kalah --position`: the pits, then `S` or `N` for the
    /// player to move, comma separated.
    ///
    /// # Example
    /// ```
    /// use gametree::experiment::KalahPosition;
    /// let text = "4,4,4,4,4,4,0,4,4,4,4,4,4,0,S";
    /// let position = KalahPosition::from_notation(text).expect("a board");
    /// assert_eq!(position.seeds_in_houses(), 48);
    /// assert_eq!(position.to_notation(), text);
    /// ```
    #[must_use]
    pub fn to_notation(&self) -> String {
        let mut fields: Vec<String> = self.pits.iter().map(ToString::to_string).collect();
        fields.push(
            match self.to_move {
                Player::Max => "S",
                Player::Min => "N",
            }
            .to_string(),
        );
        fields.join(",")
    }

    /// Reads [`KalahPosition::to_notation`].
    ///
    /// # Errors
    /// A one-line reason: a field that is not a number, a last field other than `S` or
    /// `N`, or pits that are not a board.
    pub fn from_notation(text: &str) -> Result<Self, String> {
        let fields: Vec<&str> = text.trim().split(',').map(str::trim).collect();
        let (side, pits) = fields
            .split_last()
            .ok_or_else(|| "an empty position".to_string())?;
        let to_move = match *side {
            "S" => Player::Max,
            "N" => Player::Min,
            other => {
                return Err(format!(
                    "the last field ({}) must be S or N, the player to move",
                    crate::text::excerpt(other)
                ));
            }
        };
        let pits = pits
            .iter()
            .map(|field| {
                field.parse::<u8>().map_err(|_| {
                    format!("{} is not a number of seeds", crate::text::excerpt(field))
                })
            })
            .collect::<Result<Vec<u8>, String>>()?;
        let game = Kalah::from_pits(&pits, to_move, KalahRules::irving())
            .map_err(|error| error.to_string())?;
        Ok(KalahPosition::of(&game))
    }
}

/// A Kalah opening: moves from the start (houses 0-based from the mover's left, as
/// [`Game::Move`] of [`Kalah`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KalahOpening {
    /// `opening 3 (3 1 6 2)`: its number and its moves, houses 1-based.
    pub name: String,
    /// The moves.
    pub moves: Vec<u8>,
}

/// The board, the rules and how the games are begun: Kalah(h, s) as the experiment plays
/// it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KalahExperiment {
    /// Houses a side.
    pub houses: usize,
    /// Seeds a house at the start.
    pub seeds: u8,
    /// The rules.
    pub rules: KalahRules,
}

impl KalahExperiment {
    /// Kalah(6, 4) under Irving's rules, the board of the issue.
    #[must_use]
    pub fn standard() -> Self {
        KalahExperiment {
            houses: 6,
            seeds: 4,
            rules: KalahRules::irving(),
        }
    }

    /// The start position.
    ///
    /// # Panics
    /// If the size is not one [`Kalah::new`] accepts.
    #[must_use]
    pub fn start(&self) -> Kalah {
        Kalah::new(self.houses, self.seeds, self.rules).expect("invariant: a checked size")
    }

    /// The game after `opening`.
    #[must_use]
    pub fn opening_game(&self, opening: &KalahOpening) -> Kalah {
        let mut game = self.start();
        for &mv in &opening.moves {
            game.update(mv);
        }
        game
    }

    /// `count` distinct openings, reproducible from `seed`: `plies` moves from the start,
    /// each drawn uniformly among the legal ones, keeping only lines whose position is
    /// new and the game not over. Fewer come back if 100·`count` tries do not find enough.
    #[must_use]
    pub fn openings(&self, count: usize, plies: usize, seed: u64) -> Vec<KalahOpening> {
        let mut random = SplitMix64::new(seed);
        let mut seen = HashSet::new();
        let mut openings = Vec::with_capacity(count);
        for _ in 0..100 * count.max(1) {
            if openings.len() == count {
                break;
            }
            let mut game = self.start();
            let line = play_random_moves(&mut game, plies, &mut random);
            if game.is_over() || !seen.insert(KalahPosition::of(&game)) {
                continue;
            }
            let houses: Vec<String> = line.iter().map(|&mv| (mv + 1).to_string()).collect();
            openings.push(KalahOpening {
                name: format!("opening {} ({})", openings.len() + 1, houses.join(" ")),
                moves: line,
            });
        }
        openings
    }

    /// How self-play games that supply typical positions are played on Kalah: each move
    /// looked at 3 plies deep, candidates within 2 (one seed from one store to the other)
    /// of the best, at most 200 plies.
    #[must_use]
    pub fn sampling() -> SamplingConfig {
        SamplingConfig {
            search_depth: 3,
            margin: 2,
            max_plies: 200,
        }
    }
}

/// The value of a finished Kalah game for points: 1, ½ or 0 for the side whose final
/// margin is `margin`.
fn points(margin: i32) -> f64 {
    match margin.signum() {
        1 => 1.0,
        0 => 0.5,
        _ => 0.0,
    }
}

impl ExperimentGame for KalahExperiment {
    type Position = KalahPosition;
    type Opening = KalahOpening;

    fn name(&self) -> &'static str {
        "kalah"
    }

    fn positions_file(&self) -> &'static str {
        "positions.txt"
    }

    fn positions_to_lines(&self, positions: &[KalahPosition]) -> String {
        positions
            .iter()
            .map(|position| position.to_notation() + "\n")
            .collect()
    }

    fn positions_from_lines(&self, text: &str) -> Result<Vec<KalahPosition>, String> {
        text.lines()
            .enumerate()
            .filter(|(_, line)| !line.trim().is_empty() && !line.trim_start().starts_with(';'))
            .map(|(number, line)| {
                let position = KalahPosition::from_notation(line)
                    .map_err(|error| format!("line {}: {error}", number + 1))?;
                if position.pits.len() != 2 * self.houses + 2 {
                    return Err(format!(
                        "line {}: a board of {} houses, not {}",
                        number + 1,
                        position.pits.len() / 2 - 1,
                        self.houses
                    ));
                }
                Ok(position)
            })
            .collect()
    }

    /// As [`super::sampling_game`] on checkers: the opening, then moves drawn uniformly
    /// among those within `config.margin` of the best for the mover (1&1 alpha-beta
    /// `config.search_depth` plies, the move included).
    fn sampling_game(
        &self,
        openings: &[KalahOpening],
        seed: u64,
        game_index: u64,
        config: &SamplingConfig,
    ) -> Vec<KalahPosition> {
        assert!(!openings.is_empty(), "sampling needs at least one opening");
        let opening = &openings[(game_index % openings.len() as u64) as usize];
        let mut random = SplitMix64::with_stream(seed, game_index);
        let mut game = self.opening_game(opening);
        let mut positions = Vec::new();
        let mut moves = Vec::new();
        let mut candidates: Vec<(i32, u8)> = Vec::new();
        for _ in 0..config.max_plies {
            if game.is_over() {
                break;
            }
            moves.clear();
            game.successors(&mut moves);
            if moves.len() >= 2 {
                positions.push(KalahPosition::of(&game));
            }
            let mv = near_best_move(
                &mut game,
                &moves,
                &mut candidates,
                config,
                &mut random,
                |_| {},
            );
            game.update(mv);
        }
        positions
    }

    fn deep_value(&self, position: &KalahPosition, depth: u32) -> (f64, u64) {
        deep_value_in(&mut position.game(self.rules), depth, 0)
    }

    fn two_best_successors(
        &self,
        position: &KalahPosition,
        dmax: u32,
        functions: &Slagle,
    ) -> Option<((f64, f64), u64)> {
        two_best_successors_in(position.game(self.rules), dmax, functions, 0)
    }

    fn search_nodes(&self, position: &KalahPosition, functions: &Slagle, depth: u32) -> u64 {
        search_nodes_in(
            position.game(self.rules),
            functions,
            depth,
            0,
            crate::search::m_and_n::MnOrdering::NONE,
        )
    }

    /// The opening, then 2&2 against 1&1 as `spec` says (`two_two_black`: 2&2 plays
    /// South), until the game ends or `setup.max_plies` plies have gone (then the store
    /// difference stands as the margin). The record's `pdn` field holds the game as one
    /// line: `start <position> moves <houses, 1-based> margin <South's final margin>`.
    fn play_game(
        &self,
        spec: &GameSpec,
        opening: &KalahOpening,
        functions: &Slagle,
        setup: &MatchSetup,
    ) -> GameRecord {
        let one_and_one = Slagle::one_and_one();
        let start = self.start();
        let mut game = FloatValued(self.opening_game(opening));
        let mut played = Vec::new();
        let (mut two_two, mut one_one) = (SideStats::default(), SideStats::default());
        let two_two_player = if spec.two_two_black {
            Player::Max
        } else {
            Player::Min
        };
        let mut termination = "ply limit";
        for _ in 0..setup.max_plies {
            if game.0.is_over() {
                termination = "game over";
                break;
            }
            let mut started = Instant::now();
            let two_two_to_move = game.0.to_move() == two_two_player;
            let (mv, nodes, depth) = if two_two_to_move {
                let found = mn_alphabeta_depth(&mut game, functions, setup.depth);
                (found.best_move, found.stats.nodes, setup.depth)
            } else {
                match spec.kind {
                    MatchKind::EqualDepth => {
                        let found = mn_alphabeta_depth(&mut game, &one_and_one, setup.depth);
                        (found.best_move, found.stats.nodes, setup.depth)
                    }
                    MatchKind::EqualCost => {
                        let shadow = mn_alphabeta_depth(&mut game, functions, setup.depth);
                        started = Instant::now();
                        let options = SearchOptions {
                            max_nodes: Some(shadow.stats.nodes.max(1)),
                            ..SearchOptions::plain()
                        };
                        let found =
                            iterative_deepening(&mut game.0, BUDGET_MAX_DEPTH, &options, |_| {});
                        (found.best_move, found.stats.nodes, found.depth)
                    }
                    MatchKind::EqualCostDepth => {
                        let found = mn_alphabeta_depth(&mut game, &one_and_one, setup.deeper_depth);
                        (found.best_move, found.stats.nodes, setup.deeper_depth)
                    }
                }
            };
            let seconds = started.elapsed().as_secs_f64();
            let mv = mv.expect("invariant: a game that is not over has a move to play");
            let stats = if two_two_to_move {
                &mut two_two
            } else {
                &mut one_one
            };
            stats.moves += 1;
            stats.nodes += nodes;
            stats.seconds += seconds;
            stats.depth_sum += u64::from(depth);
            game.update(mv);
            played.push(mv);
        }
        if game.0.is_over() {
            termination = "game over";
        }
        let south_margin = game.0.value();
        let two_two_margin = if spec.two_two_black {
            south_margin
        } else {
            -south_margin
        };
        let result = match south_margin.signum() {
            1 => "1-0",
            -1 => "0-1",
            _ => "1/2-1/2",
        };
        let houses: Vec<String> = opening
            .moves
            .iter()
            .chain(&played)
            .map(|&mv| (mv + 1).to_string())
            .collect();
        GameRecord {
            index: spec.index,
            kind: spec.kind,
            opening: spec.opening,
            two_two_black: spec.two_two_black,
            result: result.to_string(),
            two_two_points: points(two_two_margin),
            plies: u32::try_from(played.len()).unwrap_or(u32::MAX),
            termination: termination.to_string(),
            two_two,
            one_one,
            pdn: format!(
                "start {} moves {} margin {south_margin:+}\n",
                KalahPosition::of(&start).to_notation(),
                houses.join(" ")
            ),
            margin: Some(two_two_margin),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::{functions_so_far, game_specs};
    use crate::search::m_and_n::Exponents;

    #[test]
    fn positions_survive_their_notation_and_bad_lines_say_where() {
        let experiment = KalahExperiment::standard();
        let openings = experiment.openings(3, 4, 7);
        assert_eq!(openings.len(), 3);
        let positions = experiment.sampling_game(&openings, 1, 0, &KalahExperiment::sampling());
        assert!(positions.len() > 5);
        let text = experiment.positions_to_lines(&positions);
        assert_eq!(experiment.positions_from_lines(&text), Ok(positions));
        let error = experiment
            .positions_from_lines("4,4,0,4,4,0,S\n4,4,x,S")
            .expect_err("bad lines");
        assert!(error.starts_with("line 1: a board of 2 houses"), "{error}");
        assert!(KalahPosition::from_notation("4,4,0,4,4,0,W").is_err());
    }

    #[test]
    fn a_match_game_is_deterministic_and_its_record_replays_to_its_margin() {
        let experiment = KalahExperiment {
            houses: 4,
            seeds: 3,
            rules: KalahRules::irving(),
        };
        let openings = experiment.openings(2, 2, 3);
        let functions = functions_so_far(&[(0, Exponents::new(1.0, 0.5).expect("valid"))]);
        let setup = MatchSetup {
            depth: 2,
            deeper_depth: 3,
            max_plies: 300,
            quiescence_plies: 0,
            evaluation: crate::experiment::ExperimentEvaluation::Samuel,
            ordered: false,
        };
        for spec in game_specs(openings.len()) {
            let record = experiment.play_game(&spec, &openings[spec.opening], &functions, &setup);
            let again = experiment.play_game(&spec, &openings[spec.opening], &functions, &setup);
            assert_eq!(
                (&record.pdn, record.two_two.nodes, record.one_one.nodes),
                (&again.pdn, again.two_two.nodes, again.one_one.nodes)
            );
            assert_eq!(record.termination, "game over");
            let moves = record
                .pdn
                .split(" moves ")
                .nth(1)
                .and_then(|rest| rest.split(" margin ").next())
                .expect("a record");
            let mut game = experiment.start();
            for house in moves.split(' ') {
                game.play(house.parse().expect("a house")).expect("legal");
            }
            let margin = if spec.two_two_black {
                game.value()
            } else {
                -game.value()
            };
            assert_eq!(record.margin, Some(margin));
        }
    }
}
