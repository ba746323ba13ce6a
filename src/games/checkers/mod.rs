//! English draughts (American checkers), the game of Samuel's learning program and of
//! Slagle's m&n experiment (seed 003, section 8): rules on bitboards, PDN notation and
//! files, the ACF three-move ballots, perft, and a Samuel-style evaluation.
//!
//! | what | where |
//! |---|---|
//! | board, squares, moves, positions | [`Position`], [`Move`], [`Color`] |
//! | move generation, perft | [`Position::legal_moves`], [`perft`], [`perft_divide`] |
//! | notation: `11-15`, `15x24x31`, PDN FEN | [`Position::parse_move`], [`Position::from_fen`] |
//! | PDN games | [`PdnGame`], [`read_pdn`], [`write_pdn`] |
//! | three-move ballots | [`three_move_ballots`] |
//! | evaluation | [`Evaluation`]: Samuel-style [`EvaluationWeights`] or [`LearnedWeights`] fitted to game results |
//! | the game for the search engine, with the draw rules | [`Checkers`] |

mod ballots;
mod board;
pub mod endgame;
mod eval;
pub mod features;
mod learned;
mod movegen;
pub mod network;
mod notation;
mod pdn;
mod zobrist;

pub use ballots::{Ballot, three_move_ballots};
pub use board::{Bitboard, Color, Move, Position, PositionError, squares_of};
pub use eval::EvaluationWeights;
pub use learned::{LearnedWeights, WeightsError};
pub use movegen::{perft, perft_divide};
pub use network::{Accumulators, Network, NetworkError};
pub use notation::{FenError, MoveError, MoveText};
pub use pdn::{GameResult, PdnError, PdnGame, read_pdn, write_pdn};

use crate::game::{Evaluate, Game, Player};
use crate::search::deepening::DistanceAdjustment;
use crate::search::transposition::PositionKey;

/// The value of a won game for the winner, less one per ply it takes to win: a win sooner
/// is worth more, a loss later less. Far above any evaluation.
pub const WIN_VALUE: i32 = 1_000_000;

/// The draw rules, which depend on the game's history rather than the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRules {
    /// A draw when this many moves by each side have gone by without a capture or a man
    /// moving (only kings stepping). 40 by default; 0 turns the rule off.
    pub quiet_move_limit: u32,
    /// A draw when the same position, with the same side to move, occurs this many
    /// times. 3 (threefold repetition) by default; 0 turns the rule off.
    pub repetitions: u32,
}

impl Default for DrawRules {
    fn default() -> Self {
        DrawRules {
            quiet_move_limit: 40,
            repetitions: 3,
        }
    }
}

/// A game of checkers for the search engine: a position, the positions that led to it (for
/// the draw rules and for [`Game::revert`]), the draw rules and the evaluation weights.
///
/// **MAX is Black** and values are from Black's side, whoever is to move: a positive value
/// favours Black. A won game is worth [`WIN_VALUE`] less the number of plies from the
/// position the game was made from (or last [`Checkers::mark_root`]), so a search prefers
/// the quickest win and the slowest loss.
///
/// The rules decide that a position is terminal ([`Game::is_terminal`] ignores the
/// window): the side to move has no legal move (it has lost), or a draw rule applies. At
/// any other position [`Game::value`] is the Samuel-style evaluation, so a depth-limited
/// search can stop anywhere.
///
/// # Example
/// ```
/// use gametree::Checkers;
/// use gametree::{Game, Player};
///
/// let mut game = Checkers::new();
/// let mut moves = Vec::new();
/// game.successors(&mut moves);
/// assert_eq!(moves.len(), 7);
/// assert_eq!(game.to_move(), Player::Max); // Black moves first
/// ```
#[derive(Clone, Debug)]
pub struct Checkers {
    position: Position,
    /// Earlier positions, oldest first, each with the quiet-ply count and key it had.
    history: Vec<(Position, u32, u64)>,
    /// The Zobrist key of `position`, kept up to date move by move.
    hash: u64,
    /// Plies since the last capture or man move.
    quiet_plies: u32,
    /// Length of `history` at the root: plies are counted from here.
    root: usize,
    rules: DrawRules,
    evaluation: Evaluation,
    /// The network's first-layer sums ([`Network::fill_accumulators`]) of the positions
    /// in `history` and of `position`, oldest first, a slot each (empty without a
    /// hidden layer in the evaluation), brought up to date by every
    /// [`update`](Game::update) so that evaluating stays a read (`&self`) and the game
    /// stays `Sync`. The vector keeps the slots of positions reverted, so that a search
    /// writes into room it already has instead of growing and shrinking it at every move.
    accumulators: Vec<Accumulators>,
    /// Endgame databases the evaluation reads at the leaves, when given.
    endgame: Option<endgame::CheckersEndgame>,
}

/// The value of a position the endgame databases say is won, before the conversion bonus:
/// above any evaluation, below the [`WIN_VALUE`] range of games over (which count plies).
pub const ENDGAME_WIN_VALUE: i32 = 100_000;

/// The evaluation a [`Checkers`] game scores positions with, from Black's side.
// The learned weights with their square tables are some 600 bytes: an evaluation is held
// once by a game (and cloned once per search thread), never in bulk, so it stays a plain
// value rather than a box (a network in it is shared).
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Evaluation {
    /// A few hand-set terms in Samuel's style: the default, and what Slagle's experiment
    /// was run with.
    Samuel(EvaluationWeights),
    /// Fourteen features and square tables weighted by phase, fitted to game results
    /// ([`LearnedWeights::shipped`]: what `gametree checkers` plays with).
    Learned(LearnedWeights),
}

impl Default for Evaluation {
    fn default() -> Self {
        Evaluation::Samuel(EvaluationWeights::default())
    }
}

impl Evaluation {
    /// The learned evaluation's hidden layer, if it has one.
    #[must_use]
    pub fn network(&self) -> Option<&std::sync::Arc<Network>> {
        match self {
            Evaluation::Learned(weights) => weights.network(),
            Evaluation::Samuel(_) => None,
        }
    }

    /// The value of `position` from Black's side (the game's end is not looked at).
    #[must_use]
    #[inline]
    pub fn evaluate(&self, position: &Position) -> i32 {
        match self {
            Evaluation::Samuel(weights) => weights.evaluate(position),
            Evaluation::Learned(weights) => weights.evaluate(position),
        }
    }
}

impl Default for Checkers {
    fn default() -> Self {
        Checkers::new()
    }
}

impl Checkers {
    /// A game from the start position, default draw rules and weights.
    #[must_use]
    pub fn new() -> Checkers {
        Checkers::from_position(Position::initial())
    }

    /// A game from `position`, with no history.
    #[must_use]
    pub fn from_position(position: Position) -> Checkers {
        Checkers {
            position,
            hash: position.hash(),
            history: Vec::new(),
            quiet_plies: 0,
            root: 0,
            rules: DrawRules::default(),
            evaluation: Evaluation::default(),
            accumulators: Vec::new(),
            endgame: None,
        }
    }

    /// The game at the end of a PDN game's moves, the positions before them kept for the
    /// draw rules (a repetition may span them), plies counted from the end.
    #[must_use]
    pub fn from_pdn(game: &PdnGame) -> Checkers {
        let mut checkers = Checkers::from_position(game.start);
        for &mv in &game.moves {
            checkers.update(mv);
        }
        checkers.mark_root();
        checkers
    }

    /// The same game with other draw rules.
    #[must_use]
    pub fn with_rules(mut self, rules: DrawRules) -> Checkers {
        self.rules = rules;
        self
    }

    /// The same game with other evaluation weights.
    #[must_use]
    pub fn with_weights(self, weights: EvaluationWeights) -> Checkers {
        self.with_evaluation(Evaluation::Samuel(weights))
    }

    /// The same game with another evaluation.
    #[must_use]
    pub fn with_evaluation(mut self, evaluation: Evaluation) -> Checkers {
        self.evaluation = evaluation;
        self.accumulators.clear();
        if let Some(network) = self.evaluation.network() {
            let mut positions = self
                .history
                .iter()
                .map(|(position, _, _)| position)
                .chain(std::iter::once(&self.position));
            let first = positions
                .next()
                .expect("invariant: the game has a position");
            self.accumulators.push(network.fill_accumulators(first));
            let mut before = first;
            for after in positions {
                let last = self.accumulators.last().expect("invariant: one pushed");
                let next = network.update_accumulators(before, after, last);
                self.accumulators.push(next);
                before = after;
            }
        }
        self
    }

    /// The same game reading the endgame databases `endgame` in its searches: a position
    /// they hold is worth [`ENDGAME_WIN_VALUE`] plus a bonus for progress to the side that
    /// wins with best play (fewer pieces left to the loser, the winner's kings near them,
    /// its men nearer the crown), 0 when it is drawn. Below a root they do not hold, such
    /// a position ends its branch ([`Evaluate::known_value`]); from a root they hold, the
    /// search reads them at its leaves, to choose the move that makes progress.
    #[must_use]
    pub fn with_endgame(mut self, endgame: endgame::CheckersEndgame) -> Checkers {
        self.endgame = Some(endgame);
        self
    }

    /// The evaluation in use.
    #[must_use]
    pub fn evaluation(&self) -> &Evaluation {
        &self.evaluation
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The Zobrist key of the current position ([`Position::hash`]), kept up to date by
    /// [`Game::update`] and [`Game::revert`] with a few xors per move. The draw rules'
    /// history is not in it.
    #[must_use]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The draw rules in force.
    #[must_use]
    pub fn rules(&self) -> DrawRules {
        self.rules
    }

    /// Plies played since the root (see [`Checkers::mark_root`]).
    #[must_use]
    pub fn ply(&self) -> usize {
        self.history.len() - self.root
    }

    /// Counts plies (for the distance of wins and losses) from the current position on:
    /// call it before searching a game that already has moves played.
    pub fn mark_root(&mut self) {
        self.root = self.history.len();
    }

    /// Plies since the last capture or man move.
    #[must_use]
    pub fn quiet_plies(&self) -> u32 {
        self.quiet_plies
    }

    /// How many times the current position has occurred, this time included. Only
    /// positions since the last capture or man move can repeat it.
    #[must_use]
    pub fn occurrences(&self) -> u32 {
        let reachable = (self.quiet_plies as usize).min(self.history.len());
        let since = &self.history[self.history.len() - reachable..];
        // The positions with this side to move: 2, 4, 6 ... plies back. A plain loop: the
        // search asks this at every position, and the iterator chain it replaces
        // (`rev().skip(1).step_by(2)`) cost 3.5% of a checkers search.
        let mut earlier = 0;
        let mut back = 2;
        while back <= since.len() {
            let (position, _, hash) = &since[since.len() - back];
            if *hash == self.hash && *position == self.position {
                earlier += 1;
            }
            back += 2;
        }
        1 + earlier
    }

    /// Whether a draw rule ends the game here.
    #[must_use]
    pub fn is_draw(&self) -> bool {
        let limit = self.rules.quiet_move_limit;
        (limit > 0 && self.quiet_plies >= 2 * limit)
            || (self.rules.repetitions > 0 && self.occurrences() >= self.rules.repetitions)
    }

    /// The game's result if it is over: the side to move without a legal move has lost,
    /// otherwise a draw rule may end it.
    #[must_use]
    pub fn result(&self) -> Option<GameResult> {
        if !self.position.has_legal_move() {
            Some(match self.position.side_to_move() {
                Color::Black => GameResult::WhiteWins,
                Color::White => GameResult::BlackWins,
            })
        } else if self.is_draw() {
            Some(GameResult::Draw)
        } else {
            None
        }
    }

    /// How a transposition table must store this game's values: a won game is worth
    /// [`WIN_VALUE`] less the plies from the root, so a win found `ply` plies below the
    /// root is stored as a win that many plies nearer (its distance from the position),
    /// and read back as farther. Evaluations (far below `WIN_VALUE / 2`) and window edges
    /// beyond ±`WIN_VALUE` pass unchanged; the conversion is monotone on the values a
    /// search can meet, so bounds stay bounds.
    #[must_use]
    pub fn distance_adjustment() -> DistanceAdjustment<i32> {
        fn shift(value: i32, plies: i32) -> i32 {
            if (WIN_VALUE / 2..=WIN_VALUE).contains(&value) {
                value.saturating_add(plies)
            } else if (-WIN_VALUE..=-WIN_VALUE / 2).contains(&value) {
                value.saturating_sub(plies)
            } else {
                value
            }
        }
        fn plies(ply: usize) -> i32 {
            i32::try_from(ply).unwrap_or(i32::MAX).min(WIN_VALUE / 2)
        }
        DistanceAdjustment {
            to_position: |value, ply| shift(value, plies(ply)),
            to_root: |value, ply| shift(value, -plies(ply)),
        }
    }

    /// The evaluation of the current position from Black's side, the network's part (if
    /// any) read from the accumulators kept up to date move by move.
    #[inline]
    fn evaluate_position(&self) -> i32 {
        let Evaluation::Learned(weights) = &self.evaluation else {
            return self.evaluation.evaluate(&self.position);
        };
        let Some(network) = weights.network() else {
            return weights.evaluate(&self.position);
        };
        weights.evaluate_linear(&self.position)
            + network.points(&self.position, &self.accumulators[self.history.len()])
    }

    /// The value of the finished game at this ply, from Black's side.
    fn result_value(&self, result: GameResult) -> i32 {
        let distance = i32::try_from(self.ply())
            .unwrap_or(i32::MAX)
            .min(WIN_VALUE / 2);
        match result {
            GameResult::BlackWins => WIN_VALUE - distance,
            GameResult::WhiteWins => -(WIN_VALUE - distance),
            GameResult::Draw | GameResult::Unfinished => 0,
        }
    }
}

/// The value from Black's side of a position the databases value `value`: 0 for a draw,
/// ±([`ENDGAME_WIN_VALUE`] + progress) for a win, the progress being what a search needs to
/// convert the win instead of shuffling round it: every loser's piece gone is worth 1,000,
/// every step the winner's kings stand nearer the loser's pieces 10, every row the winner's
/// men have advanced 5, every move the loser could make −20, every loser's piece in a
/// double corner −50.
fn endgame_value(position: &Position, value: endgame::EndgameValue) -> i32 {
    let winner = match value {
        endgame::EndgameValue::Draw => return 0,
        endgame::EndgameValue::BlackWins => Color::Black,
        endgame::EndgameValue::WhiteWins => Color::White,
    };
    let loser_pieces = position.pieces(winner.opponent());
    let row_and_column = |square: u32| {
        let row = (square / 4) as i32;
        let column = 2 * (square % 4) as i32 + i32::from(row % 2 == 0);
        (row, column)
    };
    let mut distance = 0;
    for king in squares_of(position.kings(winner)) {
        let (row, column) = row_and_column(u32::from(king) - 1);
        let nearest = squares_of(loser_pieces)
            .map(|square| {
                let (other_row, other_column) = row_and_column(u32::from(square) - 1);
                (row - other_row).abs().max((column - other_column).abs())
            })
            .min()
            .unwrap_or(0);
        distance += nearest;
    }
    let advanced: i32 = squares_of(position.men(winner))
        .map(|square| {
            let row = (i32::from(square) - 1) / 4;
            match winner {
                Color::Black => row,
                Color::White => 7 - row,
            }
        })
        .sum();
    // The double corners (1 and 5, 28 and 32): where a lone king holds out longest.
    let double_corners: Bitboard = (1 << 0) | (1 << 4) | (1 << 27) | (1 << 31);
    let progress = 1_000 * (12 - loser_pieces.count_ones() as i32) - 10 * distance + 5 * advanced
        - 20 * position.step_count(winner.opponent()) as i32
        - 50 * (loser_pieces & double_corners).count_ones() as i32;
    let value = ENDGAME_WIN_VALUE + progress;
    match winner {
        Color::Black => value,
        Color::White => -value,
    }
}

/// The most moves [`order_moves`] sorts; a longer list (never seen in play) keeps the
/// generator's order.
const MAX_ORDERED_MOVES: usize = 64;

/// Orders the legal moves of `position` so that alpha-beta meets good moves first, at the
/// cost of one position copy and a few shifts per move: captures taking more pieces first
/// (they are forced anyway; which one is tried first is what matters), then moves that
/// crown, then moves that offer the opponent a capture — in checkers most such moves are
/// exchanges, which settle the position and are often best — each group in the generator's
/// order ([`Position::legal_moves`]). The sort is stable and deterministic and allocates
/// nothing.
///
/// Measured with iterative deepening to depth 11 on every seventh three-move ballot: the
/// generator's order visits 4.42 million positions, crowning and longer captures first
/// 4.30 million, "safe" moves (offering no capture) first 7.12 million, and this order
/// 1.75 million (at depth 13: 31.9 and 11.3 million).
fn order_moves(position: &Position, moves: &mut [Move]) {
    if moves.len() < 2 || moves.len() > MAX_ORDERED_MOVES {
        return;
    }
    let mut scores = [0u8; MAX_ORDERED_MOVES];
    for (score, mv) in scores.iter_mut().zip(moves.iter()) {
        let offers_capture = position.play(*mv).has_capture();
        *score = 4 * mv.jumps + 2 * u8::from(mv.crowns) + u8::from(offers_capture);
    }
    // Insertion sort, best score first, equal scores in their original order.
    for index in 1..moves.len() {
        let (mv, score) = (moves[index], scores[index]);
        let mut place = index;
        while place > 0 && scores[place - 1] < score {
            moves[place] = moves[place - 1];
            scores[place] = scores[place - 1];
            place -= 1;
        }
        moves[place] = mv;
        scores[place] = score;
    }
}

/// The search's player of a colour: Black is MAX.
pub(crate) fn player_of(color: Color) -> Player {
    match color {
        Color::Black => Player::Max,
        Color::White => Player::Min,
    }
}

impl Game for Checkers {
    type Move = Move;
    type Value = i32;

    fn to_move(&self) -> Player {
        player_of(self.position.side_to_move())
    }

    /// The legal moves: every capture sequence when a capture is possible, otherwise every
    /// step; none once a draw rule has ended the game. Ordered for alpha-beta, cheaply
    /// (see `order_moves`).
    fn successors(&self, moves: &mut Vec<Move>) {
        if !self.is_draw() {
            let first = moves.len();
            self.position.legal_moves(moves);
            order_moves(&self.position, &mut moves[first..]);
        }
    }

    /// McCarthy's `ter`, decided by the rules alone: no legal move, or a draw.
    fn is_terminal(&self) -> bool {
        !self.position.has_legal_move() || self.is_draw()
    }

    /// McCarthy's `imval`: ±([`WIN_VALUE`] − plies) for a decided game, 0 for a draw, the
    /// evaluation anywhere else.
    fn value(&self) -> i32 {
        self.evaluate()
    }

    fn update(&mut self, mv: Move) {
        let man_moved = self.position.kings & (1 << mv.from) == 0;
        self.history
            .push((self.position, self.quiet_plies, self.hash));
        self.hash = self.position.hash_after(mv, self.hash);
        self.quiet_plies = if mv.is_capture() || man_moved {
            0
        } else {
            self.quiet_plies + 1
        };
        let before = self.position;
        self.position = self.position.play(mv);
        if let Some(network) = self.evaluation.network() {
            let slot = self.history.len();
            if self.accumulators.len() <= slot {
                self.accumulators.resize(slot + 1, Accumulators::default());
            }
            let (done, next) = self.accumulators.split_at_mut(slot);
            next[0] = network.update_accumulators(&before, &self.position, &done[slot - 1]);
        }
    }

    fn revert(&mut self, _mv: Move) {
        let (position, quiet_plies, hash) = self
            .history
            .pop()
            .expect("invariant: revert follows an update");
        self.position = position;
        self.hash = hash;
        self.quiet_plies = quiet_plies;
    }
}

/// The key of the pieces and the side to move ([`Checkers::hash`]). The draw rules' history
/// is not in it: with the draw rules on, a table may give a position the value it had
/// with another history (a repetition draw seen on one path, not on another) — the usual
/// approximation of game programs. Turn the rules off ([`DrawRules`] with zeros) where a
/// search with a table must give exactly the values of one without.
impl PositionKey for Checkers {
    fn hash_key(&self) -> u64 {
        self.hash
    }

    /// The key updated for the move alone, as [`update`](Game::update) does.
    fn hash_key_after(&mut self, mv: Move) -> u64 {
        self.position.hash_after(mv, self.hash)
    }

    const KEY_AFTER_IS_CHEAP: bool = true;
}

impl Evaluate for Checkers {
    /// The result's value when the game is over, else Samuel's weighted feature sum.
    fn evaluate(&self) -> i32 {
        match self.result() {
            Some(result) => self.result_value(result),
            None => {
                if let Some(endgame) = &self.endgame
                    && let Some(value) = endgame.probe(&self.position)
                {
                    return endgame_value(&self.position, value);
                }
                self.evaluate_position()
            }
        }
    }

    /// What the endgame databases say of a position they hold, with the bonus that makes a
    /// win be played to its end ([`Checkers::with_endgame`]); `None` without them, or for a
    /// game already over (its result is its value: a draw by repetition stays a draw).
    fn known_value(&self) -> Option<i32> {
        let endgame = self.endgame.as_ref()?;
        let value = endgame.probe(&self.position)?;
        if self.is_draw() {
            return None;
        }
        Some(endgame_value(&self.position, value))
    }

    /// Quiet unless the player to move must capture: a position in the middle of an
    /// exchange is valued after it (quiescence; see [`crate::SearchOptions`]).
    fn is_quiet(&self) -> bool {
        !self.position.has_capture()
    }

    /// The player who just moved could capture if it were to move again.
    fn is_threatened(&self) -> bool {
        self.position.threatens_capture()
    }

    /// From-square × 32 + to-square: 1,024 slots, shared by a move and the captures that
    /// start and end on the same squares.
    fn history_slot(&self, mv: Move) -> Option<usize> {
        Some(usize::from(mv.from_square() - 1) * 32 + usize::from(mv.to_square() - 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(game: &mut Checkers, text: &str) {
        let mv = game.position().parse_move(text).expect("legal move");
        game.update(mv);
    }

    #[test]
    fn a_side_without_moves_loses_and_sooner_wins_score_higher() {
        // Black takes White's last piece; White, to move, has no move.
        let mut game = Checkers::from_position(Position::from_fen("B:W14:B9,10").expect("valid"));
        assert!(!game.is_terminal());
        play(&mut game, "9x18");
        assert!(game.is_terminal());
        assert_eq!(game.value(), WIN_VALUE - 1);
        assert_eq!(game.result(), Some(GameResult::BlackWins));
    }

    #[test]
    fn a_blocked_side_loses() {
        // White man on 32 has 27 and 28 ahead, both Black's.
        let game =
            Checkers::from_position(Position::from_fen("W:W32:BK27,K28,K23,K24").expect("valid"));
        assert!(game.is_terminal());
        assert_eq!(game.value(), WIN_VALUE);
    }

    #[test]
    fn threefold_repetition_draws() {
        let mut game = Checkers::from_position(Position::from_fen("B:WK32:BK1").expect("valid"));
        for text in ["1-5", "32-28", "5-1", "28-32", "1-5", "32-28", "5-1"] {
            assert!(!game.is_draw(), "before {text}");
            play(&mut game, text);
        }
        assert_eq!(game.occurrences(), 2);
        play(&mut game, "28-32");
        assert_eq!(game.occurrences(), 3);
        assert!(game.is_terminal());
        assert_eq!(game.value(), 0);
        let mut moves = Vec::new();
        game.successors(&mut moves);
        assert!(moves.is_empty());
    }

    #[test]
    fn the_quiet_move_limit_draws_and_a_man_move_resets_it() {
        let rules = DrawRules {
            quiet_move_limit: 2,
            repetitions: 0,
        };
        let mut game =
            Checkers::from_position(Position::from_fen("B:W24,K32:BK1,9").expect("valid"))
                .with_rules(rules);
        play(&mut game, "1-5");
        play(&mut game, "32-28");
        play(&mut game, "5-1");
        assert_eq!(game.quiet_plies(), 3);
        play(&mut game, "24-20");
        assert_eq!(game.quiet_plies(), 0);
        let mut last = None;
        for text in ["1-5", "28-32", "5-1", "32-28"] {
            assert!(!game.is_draw());
            let mv = game.position().parse_move(text).expect("legal move");
            game.update(mv);
            last = Some(mv);
        }
        assert!(game.is_draw());
        game.revert(last.expect("moves were played"));
        assert!(!game.is_draw());
    }

    #[test]
    fn a_game_read_from_pdn_remembers_its_positions_for_repetition() {
        let games =
            read_pdn("[FEN \"B:WK32:BK1\"]\n1. 1-5 32-28 2. 5-1 28-32 3. 1-5 32-28 4. 5-1 *")
                .expect("valid PDN");
        let mut game = Checkers::from_pdn(&games[0]);
        assert_eq!(game.ply(), 0);
        assert_eq!(game.occurrences(), 2);
        play(&mut game, "28-32");
        assert!(game.is_draw());
        assert_eq!(game.ply(), 1);
    }

    #[test]
    fn the_key_follows_update_and_revert() {
        let mut game = Checkers::new();
        let mut keys = vec![game.hash()];
        let mut played = Vec::new();
        let mut moves = Vec::new();
        // The first successor each time: the ordering puts exchanges early, so captures
        // come up.
        for _ in 0..16 {
            moves.clear();
            game.successors(&mut moves);
            let mv = moves[0];
            game.update(mv);
            assert_eq!(game.hash(), game.position().hash(), "after {mv}");
            keys.push(game.hash());
            played.push(mv);
        }
        assert!(played.iter().any(Move::is_capture), "{played:?}");
        while let Some(mv) = played.pop() {
            keys.pop();
            game.revert(mv);
            assert_eq!(Some(&game.hash()), keys.last());
        }
    }

    #[test]
    fn the_key_after_a_move_is_the_key_update_makes() {
        // Every move of twenty random games (7,678 moves, 208 crownings, 39 captures of kings
        // when measured): the key computed without playing the move is the one playing it
        // gives.
        let mut random = crate::random::SplitMix64::new(29);
        let mut moves = Vec::new();
        let (mut checked, mut crownings, mut king_captures) = (0, 0, 0);
        for _ in 0..20 {
            let mut game = Checkers::new();
            for _ in 0..200 {
                moves.clear();
                game.successors(&mut moves);
                if moves.is_empty() {
                    break;
                }
                for &mv in &moves {
                    let predicted = game.hash_key_after(mv);
                    crownings += usize::from(mv.crowns);
                    king_captures +=
                        usize::from(mv.is_capture() && game.position().kings & mv.captured != 0);
                    game.update(mv);
                    assert_eq!(predicted, game.hash_key(), "{mv} in {}", game.position());
                    game.revert(mv);
                    checked += 1;
                }
                game.update(moves[random.index(moves.len())]);
            }
        }
        assert!(
            checked > 5_000 && crownings > 50 && king_captures > 10,
            "{checked} moves, {crownings} crownings, {king_captures} captures of kings"
        );
    }

    #[test]
    fn successors_put_longer_captures_first_and_keep_every_legal_move() {
        // Black's man on 6 takes one piece by 6x13 or two by 6x15x22 (White men on 9, 10
        // and 18); the generator lists 6x13 first.
        let position = Position::from_fen("B:W9,10,18:B6").expect("valid");
        let game = Checkers::from_position(position);
        let mut ordered = Vec::new();
        game.successors(&mut ordered);
        let mut generated = Vec::new();
        position.legal_moves(&mut generated);
        assert_eq!(ordered.len(), generated.len());
        for mv in &generated {
            assert!(ordered.contains(mv));
        }
        let jumps: Vec<u32> = ordered.iter().map(Move::captures).collect();
        let mut sorted = jumps.clone();
        sorted.sort_unstable_by(|a, b| b.cmp(a));
        assert_eq!(jumps, sorted, "{ordered:?}");
        assert!(jumps[0] > *jumps.last().expect("moves"), "{ordered:?}");
    }

    #[test]
    fn the_network_kept_up_to_date_evaluates_as_from_scratch() {
        let weights = LearnedWeights::shipped().with_network(Some(network::scrambled()));
        // Two games: one given its evaluation at the start and evaluated at every ply, one
        // given it after its moves (which fills the sums through the whole history); both
        // then evaluated at every ply `revert` walks back through.
        let mut game = Checkers::new().with_evaluation(Evaluation::Learned(weights.clone()));
        let mut played = Vec::new();
        let mut moves = Vec::new();
        for ply in 0..120 {
            game.successors(&mut moves);
            let Some(&mv) = moves.get(ply * 5 % moves.len().max(1)) else {
                break;
            };
            game.update(mv);
            played.push(mv);
            assert_eq!(
                game.evaluate_position(),
                weights.evaluate(game.position()),
                "ply {ply}"
            );
        }
        let mut late = Checkers::from_position(Position::initial());
        for &mv in &played {
            late.update(mv);
        }
        let mut late = late.with_evaluation(Evaluation::Learned(weights.clone()));
        for &mv in played.iter().rev() {
            for checked in [&mut game, &mut late] {
                checked.revert(mv);
                assert_eq!(
                    checked.evaluate_position(),
                    weights.evaluate(checked.position())
                );
            }
        }
        assert!(played.len() > 40);
        // Moves over slots left by the reverted ones, evaluated only at the end.
        for &mv in &played[..5] {
            game.update(mv);
        }
        assert_eq!(game.evaluate_position(), weights.evaluate(game.position()));
        // Back to the Samuel evaluation: no network, no accumulators.
        let samuel = game.with_weights(EvaluationWeights::default());
        assert!(samuel.evaluation.network().is_none() && samuel.accumulators.is_empty());
    }

    #[test]
    fn a_game_can_be_shared_between_threads() {
        // The Python bindings and any user holding an `Arc<Checkers>` need this; an
        // evaluation that kept its network's sums behind a `RefCell` once lost it.
        fn shared<T: Send + Sync>() {}
        shared::<Checkers>();
    }

    #[test]
    fn update_then_revert_restores_the_position() {
        let mut game = Checkers::new();
        let mut moves = Vec::new();
        game.successors(&mut moves);
        for &mv in &moves {
            let before = *game.position();
            game.update(mv);
            assert_ne!(*game.position(), before);
            game.revert(mv);
            assert_eq!(*game.position(), before);
        }
    }
}
