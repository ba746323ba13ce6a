//! Kalah(h, s): h houses a side and s seeds a house, the game on which Slagle and Dixon first
//! reported M&N ("Experiments with the M & N tree-searching program", CACM 13(3), 1970), and
//! which Irving, Donkers and Uiterwijk solved up to six houses and five seeds ("Solving
//! Kalah", ICGA Journal 23(3), 2000).
//!
//! # Rules
//! South (the first player, MAX) owns houses 1..h on the near side and the store on the
//! right; North (MIN) the far houses and the store on the left. A move takes every seed of
//! one of the mover's non-empty houses and sows them one by one counter-clockwise, into the
//! mover's own store but never the opponent's. When the last seed lands in the mover's
//! store, the mover moves again — so the players need not alternate, and every search asks
//! [`Game::to_move`] at each position. When it lands in one of the mover's houses that was
//! empty, that seed and the seeds of the opposite house are captured into the mover's
//! store. The game ends when a side has no seeds ([`Ending`]); each player then adds the
//! seeds left in their own houses to their store. The value is South's store less North's.
//!
//! The published results differ in two rules, which [`KalahRules`] selects:
//!
//! | rule | [`KalahRules::irving`] (the default) | [`KalahRules::standard`] |
//! |---|---|---|
//! | a capture when the opposite house is empty | yes: the last seed alone goes to the store ("empty capture") | no: nothing happens |
//! | used by | Irving, Donkers and Uiterwijk 2000 (Kalah(6,4) is a first-player win by 10, Kalah(6,5) by 12) | the rules as Wikipedia states them; Rawlings' 2015 analyses of the standard game |
//!
//! Both end the game as soon as either side's houses are empty, as Irving's solver does;
//! [`Ending::MoverHasNoSeeds`] is the other reading found in rule books, where the game
//! goes on until the player to move has nothing to sow.

use std::fmt;
use std::sync::Arc;

use crate::game::{Evaluate, Game, Player};
use crate::random::SplitMix64;
/// Random play, for Kalah as for any game (kept here, where Kalah's openings first used it).
pub use crate::random::play_random_moves;
use crate::search::retrograde::{Endgame, EndgameTable};
use crate::search::solver::{Outlook, Peek, Solvable};
use crate::search::transposition::ZobristHash;

/// The most houses a side may have.
pub const MAX_HOUSES: usize = 6;
/// The most seeds a house may start with: every count then fits in a byte with room to
/// spare (6 · 2 · 20 = 240).
pub const MAX_SEEDS: u8 = 20;

/// Pits on a board of [`MAX_HOUSES`]: the houses and stores of both sides.
const PITS: usize = 2 * MAX_HOUSES + 2;

/// The board as one `u128`, a byte a pit in sowing order (bytes past the last pit zero):
/// sowing is then one addition of a precomputed pattern of ones, since no count reaches 256.
type Board = u128;

/// When the game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// As soon as either side's houses are empty after a move (Irving's solver; Wikipedia).
    EitherSideEmpty,
    /// When the player to move has no seeds to sow; until then the other side may be empty.
    MoverHasNoSeeds,
}

/// The rule variants of Kalah (see the [module documentation](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KalahRules {
    /// Whether a last seed in an empty house of the mover is captured even when the
    /// opposite house is empty (the "empty capture" rule of Irving et al.).
    pub empty_capture: bool,
    /// When the game ends.
    pub ending: Ending,
}

impl KalahRules {
    /// The rules of Irving, Donkers and Uiterwijk's "Solving Kalah" (2000): empty captures,
    /// the game over when either side is empty.
    #[must_use]
    pub const fn irving() -> Self {
        KalahRules {
            empty_capture: true,
            ending: Ending::EitherSideEmpty,
        }
    }

    /// The rules as commonly stated (Wikipedia): a capture needs seeds in the opposite
    /// house; the game over when either side is empty.
    #[must_use]
    pub const fn standard() -> Self {
        KalahRules {
            empty_capture: false,
            ending: Ending::EitherSideEmpty,
        }
    }
}

impl Default for KalahRules {
    /// [`KalahRules::irving`]: the rules of the published solutions.
    fn default() -> Self {
        KalahRules::irving()
    }
}

/// A board that cannot be set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KalahError {
    /// Houses outside 1..=6 or seeds outside 1..=20.
    #[error(
        "Kalah({houses},{seeds}) cannot be set up: houses must be 1 to {MAX_HOUSES} and seeds \
         1 to {MAX_SEEDS}"
    )]
    Size {
        /// Houses asked for.
        houses: usize,
        /// Seeds asked for.
        seeds: u8,
    },
    /// A list of pits of the wrong length, or with more seeds than a byte of ours holds.
    #[error("{0}")]
    Pits(String),
    /// A move that is not legal here.
    #[error("{0}")]
    Move(String),
    /// An endgame table for another board or other rules.
    #[error("{0}")]
    Endgame(String),
}

/// The state one move changes: what [`Game::revert`] restores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct State {
    /// The pits in sowing order, then zeros: read as one [`Board`] to sow.
    pits: [u8; 16],
    to_move: Player,
    over: bool,
}

/// A Kalah position with its rules, and the states before each move played (so that
/// [`Game::revert`] is a copy back).
#[derive(Clone, Debug)]
pub struct Kalah {
    houses: usize,
    rules: KalahRules,
    /// Every seed on the board: no move changes it.
    total: u8,
    state: State,
    history: Vec<State>,
    sowing: &'static Sowing,
    /// Positions valued before the search: see [`Kalah::with_endgame`].
    endgame: Option<Arc<EndgameTable>>,
}

impl Kalah {
    /// The start of Kalah(`houses`, `seeds`) under `rules`, South to move.
    ///
    /// # Errors
    /// [`KalahError::Size`] unless 1 ≤ houses ≤ 6 and 1 ≤ seeds ≤ 20.
    ///
    /// # Example
    /// ```
    /// use gametree::games::kalah::{Kalah, KalahRules};
    /// let game = Kalah::new(6, 4, KalahRules::default()).expect("a standard board");
    /// assert_eq!(game.seeds_in_play(), 48);
    /// ```
    pub fn new(houses: usize, seeds: u8, rules: KalahRules) -> Result<Kalah, KalahError> {
        if !(1..=MAX_HOUSES).contains(&houses) || !(1..=MAX_SEEDS).contains(&seeds) {
            return Err(KalahError::Size { houses, seeds });
        }
        let mut pits = vec![seeds; 2 * houses + 2];
        pits[houses] = 0;
        pits[2 * houses + 1] = 0;
        Kalah::from_pits(&pits, Player::Max, rules)
    }

    /// A position from its pits in sowing order — South's houses 1..h, South's store,
    /// North's houses 1..h, North's store — and the player to move (MAX is South).
    ///
    /// # Errors
    /// [`KalahError::Pits`] when the list is not 4 to 14 long and even, or holds more than
    /// 240 seeds.
    pub fn from_pits(pits: &[u8], to_move: Player, rules: KalahRules) -> Result<Kalah, KalahError> {
        if pits.len() < 4 || pits.len() > PITS || !pits.len().is_multiple_of(2) {
            return Err(KalahError::Pits(format!(
                "a board has 2·h + 2 pits (houses and stores) with 1 ≤ h ≤ {MAX_HOUSES}, not {}",
                pits.len()
            )));
        }
        let total: u32 = pits.iter().map(|&seeds| u32::from(seeds)).sum();
        if total > 240 {
            return Err(KalahError::Pits(format!(
                "{total} seeds: at most 240 fit the board"
            )));
        }
        let houses = pits.len() / 2 - 1;
        let mut bytes = [0; 16];
        bytes[..pits.len()].copy_from_slice(pits);
        let state = State {
            pits: bytes,
            to_move,
            over: false,
        };
        let mut game = Kalah {
            houses,
            rules,
            total: u8::try_from(total).expect("invariant: at most 240 seeds"),
            state,
            history: Vec::new(),
            sowing: sowing(houses),
            endgame: None,
        };
        let mut state = game.state;
        game.end_if_over(&mut state, to_move);
        game.state = state;
        Ok(game)
    }

    /// Houses a side.
    #[must_use]
    pub fn houses(&self) -> usize {
        self.houses
    }

    /// The rules played.
    #[must_use]
    pub fn rules(&self) -> KalahRules {
        self.rules
    }

    /// The pits in sowing order: South's houses, South's store, North's houses, North's
    /// store.
    #[must_use]
    pub fn pits(&self) -> &[u8] {
        &self.state.pits[..2 * self.houses + 2]
    }

    /// The seeds in `player`'s store (MAX is South).
    #[must_use]
    pub fn store(&self, player: Player) -> u8 {
        self.state.pits[self.store_index(player)]
    }

    /// The seeds in house `house` (0-based, from the owner's left) of `player`.
    #[must_use]
    pub fn house(&self, player: Player, house: usize) -> u8 {
        self.state.pits[self.first_house(player) + house]
    }

    /// Every seed on the board, stores included.
    #[must_use]
    pub fn seeds_in_play(&self) -> u32 {
        u32::from(self.total)
    }

    /// Whether the game has ended.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.state.over
    }

    /// The player to move (South is MAX). After the end of the game, the player who would
    /// have moved.
    #[must_use]
    pub fn player_to_move(&self) -> Player {
        self.state.to_move
    }

    /// Plays house `house` (1-based, from the mover's left), checking it.
    ///
    /// # Errors
    /// [`KalahError::Move`] when the game is over, the house does not exist or is empty.
    pub fn play(&mut self, house: usize) -> Result<(), KalahError> {
        if self.state.over {
            return Err(KalahError::Move("the game is over".into()));
        }
        if !(1..=self.houses).contains(&house) {
            return Err(KalahError::Move(format!(
                "there is no house {house}: the houses are 1 to {}",
                self.houses
            )));
        }
        if self.house(self.state.to_move, house - 1) == 0 {
            return Err(KalahError::Move(format!("house {house} is empty")));
        }
        let mv = u8::try_from(house - 1).expect("invariant: at most six houses");
        self.update(mv);
        Ok(())
    }

    fn first_house(&self, player: Player) -> usize {
        match player {
            Player::Max => 0,
            Player::Min => self.houses + 1,
        }
    }

    fn store_index(&self, player: Player) -> usize {
        match player {
            Player::Max => self.houses,
            Player::Min => 2 * self.houses + 1,
        }
    }

    /// Moves the seeds left in each side's houses of `state` to that side's store.
    fn gather(&self, state: &mut State) {
        for player in [Player::Max, Player::Min] {
            let first = self.first_house(player);
            let houses = &mut state.pits[first..first + self.houses];
            let left: u32 = houses.iter().map(|&seeds| u32::from(seeds)).sum();
            houses.fill(0);
            let store = self.store_index(player);
            state.pits[store] += u8::try_from(left).expect("invariant: at most 240 seeds");
        }
        state.over = true;
    }

    /// Ends the game in `state` if the rules say it is over with `next` to move.
    fn end_if_over(&self, state: &mut State, next: Player) {
        let board = Board::from_le_bytes(state.pits);
        let south_empty = board & self.sowing.houses[0] == 0;
        let north_empty = board & self.sowing.houses[1] == 0;
        let over = match self.rules.ending {
            Ending::EitherSideEmpty => south_empty || north_empty,
            Ending::MoverHasNoSeeds => match next {
                Player::Max => south_empty,
                Player::Min => north_empty,
            },
        };
        if over {
            self.gather(state);
        }
    }

    /// `state` after house `mv` of its player to move is sown: the move of
    /// [`Game::update`], on a copy.
    #[inline]
    fn played(&self, mut state: State, mv: u8) -> State {
        let player = state.to_move;
        let pit = self.first_house(player) + usize::from(mv);
        let seeds = state.pits[pit];
        let sow = self.sowing.sow(player, usize::from(mv), seeds);
        state.pits[pit] = 0;
        state.pits = (Board::from_le_bytes(state.pits) + sow.add).to_le_bytes();
        let last = usize::from(sow.last);
        let own_store = self.store_index(player);
        let next = if last == own_store {
            player
        } else {
            let first = self.first_house(player);
            let own_house = (first..first + self.houses).contains(&last);
            if own_house && state.pits[last] == 1 {
                let opposite = 2 * self.houses - last;
                let captured = state.pits[opposite];
                if captured > 0 || self.rules.empty_capture {
                    state.pits[own_store] += captured + 1;
                    state.pits[last] = 0;
                    state.pits[opposite] = 0;
                }
            }
            player.opponent()
        };
        state.to_move = next;
        self.end_if_over(&mut state, next);
        state
    }

    /// How good house `mv` of the mover looks before it is searched, `None` when it is
    /// empty: another move ranks above every other move, and otherwise the more seeds the
    /// move puts in the mover's store (passing it or capturing), the better. Worked out
    /// from the sowing table without sowing.
    fn move_rank(&self, mv: usize) -> Option<u32> {
        let player = self.state.to_move;
        let pit = self.first_house(player) + mv;
        let seeds = self.state.pits[pit];
        if seeds == 0 {
            return None;
        }
        let sow = self.sowing.sow(player, mv, seeds);
        let own_store = self.store_index(player);
        if usize::from(sow.last) == own_store {
            return Some(1000);
        }
        let added = |at: usize| -> u32 { ((sow.add >> (8 * at)) & 0xff) as u32 };
        let mut gain = added(own_store);
        let last = usize::from(sow.last);
        let first = self.first_house(player);
        if (first..first + self.houses).contains(&last) {
            let before = if last == pit {
                0
            } else {
                u32::from(self.state.pits[last])
            };
            if before + added(last) == 1 {
                let opposite = 2 * self.houses - last;
                let captured = u32::from(self.state.pits[opposite]) + added(opposite);
                if captured > 0 || self.rules.empty_capture {
                    gain += captured + 1;
                }
            }
        }
        Some(gain)
    }

    /// The mover's store less the opponent's, from South's side: the final value when the
    /// game is over.
    fn store_difference(&self) -> i32 {
        i32::from(self.store(Player::Max)) - i32::from(self.store(Player::Min))
    }
}

impl Kalah {
    /// The same position, valued from `table` wherever the table holds it: the solver
    /// then stops at every position with few enough seeds left in the houses.
    ///
    /// # Errors
    /// [`KalahError::Endgame`] when the table was built for another number of houses or
    /// other rules.
    ///
    /// # Example
    /// ```
    /// use std::sync::Arc;
    /// use gametree::games::kalah::{Kalah, KalahRules};
    /// use gametree::search::retrograde::EndgameTable;
    /// use gametree::{SolveOptions, Solver};
    ///
    /// let mut board = Kalah::new(4, 1, KalahRules::irving()).expect("a board");
    /// let table = EndgameTable::build(&mut board, 9, |_| {}).expect("built");
    /// let mut game = Kalah::new(4, 3, KalahRules::irving())
    ///     .expect("a board")
    ///     .with_endgame(Arc::new(table))
    ///     .expect("the same rules");
    /// let solution = Solver::new(SolveOptions::default()).solve(&mut game);
    /// assert_eq!(solution.score, 8);
    /// ```
    pub fn with_endgame(mut self, table: Arc<EndgameTable>) -> Result<Kalah, KalahError> {
        if table.id() != self.endgame_id() {
            return Err(KalahError::Endgame(format!(
                "the endgame table is for `{}`, not `{}`",
                table.id(),
                self.endgame_id()
            )));
        }
        self.endgame = Some(table);
        Ok(self)
    }

    /// The endgame table the position is valued from, if any.
    #[must_use]
    pub fn endgame(&self) -> Option<&Arc<EndgameTable>> {
        self.endgame.as_ref()
    }

    /// The seeds left in the houses: what is still to be won.
    fn seeds_in_houses(&self) -> u32 {
        u32::from(self.total)
            - u32::from(self.store(Player::Max))
            - u32::from(self.store(Player::Min))
    }
}

/// How many seeds above the endgame table's a position may have for the solver to peek at
/// its successors in the table (Irving's peek): a move rarely takes more than a few seeds
/// out of the houses. Measured on Kalah(6,4) with a 17-seed table: 61.3 M positions with no
/// peek, 48.6 M peeking within 4 seeds, 47.7 M within 12.
const PEEK_MARGIN: usize = 4;

/// The most seeds an endgame slice of Kalah may hold: far past any table that fits in
/// memory (slice 64 of six houses has 10^13 positions).
const MOST_ENDGAME_SEEDS: usize = 64;

/// `LAYOUTS[seeds][parts]`: the ways to lay `seeds` seeds in `parts` houses, the binomial
/// coefficient (`seeds` + `parts` − 1 choose `parts` − 1), saturating at `u64::MAX`; worked
/// out at compile time, since every endgame probe numbers a position with a dozen of them.
static LAYOUTS: [[u64; 2 * MAX_HOUSES + 1]; MOST_ENDGAME_SEEDS + 1] = {
    let mut table = [[0; 2 * MAX_HOUSES + 1]; MOST_ENDGAME_SEEDS + 1];
    let mut seeds = 0;
    while seeds <= MOST_ENDGAME_SEEDS {
        // One house holds them one way; more houses: the first takes 0 to `seeds`.
        table[seeds][1] = 1;
        let mut parts = 2;
        while parts <= 2 * MAX_HOUSES {
            let fewer: u64 = if seeds == 0 {
                0
            } else {
                table[seeds - 1][parts]
            };
            table[seeds][parts] = fewer.saturating_add(table[seeds][parts - 1]);
            parts += 1;
        }
        seeds += 1;
    }
    table
};

/// Ways to lay `seeds` seeds in `parts` houses (1 ≤ `parts` ≤ 12, `seeds` ≤ 64).
#[inline]
fn layouts(seeds: u64, parts: u64) -> u64 {
    LAYOUTS[seeds as usize][parts as usize]
}

/// The endgame database of Kalah: slice `n` holds the positions with `n` seeds left in the
/// houses, seen from the player to move (its houses first), so that a position and its
/// mirror image share a byte; the stores are left out, since the table keeps the margin
/// still to be won. Positions are numbered in the lexicographic order of their houses.
impl Endgame for Kalah {
    fn endgame_id(&self) -> String {
        let ending = match self.rules.ending {
            Ending::EitherSideEmpty => "either-side-empty",
            Ending::MoverHasNoSeeds => "mover-has-no-seeds",
        };
        format!(
            "kalah houses={} empty-capture={} ending={ending}",
            self.houses, self.rules.empty_capture
        )
    }

    fn slice_len(&self, slice: usize) -> u64 {
        if slice > MOST_ENDGAME_SEEDS {
            return u64::MAX;
        }
        layouts(slice as u64, 2 * self.houses as u64)
    }

    fn set_position(&mut self, slice: usize, index: u64) {
        let parts = 2 * self.houses;
        let mut pits = [0_u8; 16];
        let mut left = slice as u64;
        let mut rank = index;
        for part in 0..parts {
            let pit = if part < self.houses { part } else { part + 1 };
            if part == parts - 1 {
                pits[pit] = u8::try_from(left).expect("invariant: a slice fits a byte");
                break;
            }
            let mut seeds = 0;
            loop {
                let after = layouts(left - seeds, (parts - part - 1) as u64);
                if rank < after {
                    break;
                }
                rank -= after;
                seeds += 1;
            }
            pits[pit] = u8::try_from(seeds).expect("invariant: a slice fits a byte");
            left -= seeds;
        }
        self.total = u8::try_from(slice).expect("invariant: a slice fits a byte");
        self.state = State {
            pits,
            to_move: Player::Max,
            over: false,
        };
        self.history.clear();
        let mut state = self.state;
        self.end_if_over(&mut state, Player::Max);
        self.state = state;
    }

    fn position_index(&self, slices: usize) -> Option<(usize, u64)> {
        self.state_index(&self.state, slices)
    }
}

impl Kalah {
    /// [`Endgame::position_index`] of `state`, a position of this board.
    #[inline]
    fn state_index(&self, state: &State, slices: usize) -> Option<(usize, u64)> {
        let stores =
            u32::from(state.pits[self.houses]) + u32::from(state.pits[2 * self.houses + 1]);
        let seeds = (u32::from(self.total) - stores) as usize;
        if seeds >= slices.min(MOST_ENDGAME_SEEDS + 1) {
            return None;
        }
        let parts = (2 * self.houses) as u64;
        let (own, other) = match state.to_move {
            Player::Max => (0, self.houses + 1),
            Player::Min => (self.houses + 1, 0),
        };
        let houses = (own..own + self.houses).chain(other..other + self.houses);
        let mut left = seeds as u64;
        let mut index = 0;
        for (part, pit) in houses.enumerate().take(2 * self.houses - 1) {
            let in_house = u64::from(state.pits[pit]);
            let rest = parts - part as u64;
            // The layouts whose house `part` holds fewer seeds, the earlier ones the same.
            index += layouts(left, rest) - layouts(left - in_house, rest);
            left -= in_house;
        }
        Some((seeds, index))
    }

    /// The best value to the player to move among the successors the endgame table or the
    /// end of the game values at once, and whether every successor was valued: Irving's
    /// peek at the children.
    fn peek_known(&self, table: &EndgameTable) -> (Option<i32>, KnownMoves) {
        let mover = self.state.to_move;
        let first = self.first_house(mover);
        // Two passes: every successor's place in the table first, then the reads, so that
        // the reads (cache misses, most of them) do not wait on one another.
        let mut settled = [0_i32; MAX_HOUSES];
        let mut places = [((0, 0), false, 0_u8); MAX_HOUSES];
        let mut children = 0;
        let mut best = None;
        let mut known: KnownMoves = 0;
        for mv in 0..self.houses {
            if self.state.pits[first + mv] == 0 {
                continue;
            }
            let house = u8::try_from(mv).expect("invariant: six houses");
            let child = self.played(self.state, house);
            let difference =
                i32::from(child.pits[self.houses]) - i32::from(child.pits[2 * self.houses + 1]);
            if child.over {
                let score = seen_by_mover(difference, mover);
                best = Some(best.map_or(score, |best: i32| best.max(score)));
                known |= 1 << mv;
                continue;
            }
            if let Some(place) = self.state_index(&child, table.slices()) {
                // Seen by this position's mover: the child's mover sees the table's
                // value; the other player, its negation.
                settled[children] = seen_by_mover(difference, mover);
                places[children] = (place, child.to_move == mover, house);
                children += 1;
            }
        }
        for (&((slice, index), same_mover, house), settled) in
            places[..children].iter().zip(settled)
        {
            if let Some(relative) = table.relative_score(slice, index) {
                let score = settled + if same_mover { relative } else { -relative };
                best = Some(best.map_or(score, |best: i32| best.max(score)));
                known |= 1 << house;
            }
        }
        (best, known)
    }
}

/// A value to MAX seen by `mover`.
fn seen_by_mover(value: i32, mover: Player) -> i32 {
    match mover {
        Player::Max => value,
        Player::Min => -value,
    }
}

impl Game for Kalah {
    /// A house of the mover, 0-based from the mover's left.
    type Move = u8;
    /// South's store less North's.
    type Value = i32;

    fn to_move(&self) -> Player {
        self.state.to_move
    }

    /// The mover's non-empty houses: those whose last seed ends in the store (another move)
    /// first, nearest the store first; then the others, nearest the store first.
    fn successors(&self, moves: &mut Vec<u8>) {
        if self.state.over {
            return;
        }
        // Irving's order: the moves that give another move (nearest the store first),
        // then the others by the seeds they put in the store (captures first), nearest
        // the store first among equals.
        let mut ranked = [(0_u32, 0_u8); MAX_HOUSES];
        let mut count = 0;
        for mv in (0..self.houses).rev() {
            if let Some(rank) = self.move_rank(mv) {
                let mv = u8::try_from(mv).expect("invariant: at most six houses");
                // Insertion sort, stable: a later move goes after its equals.
                let mut slot = count;
                while slot > 0 && ranked[slot - 1].0 < rank {
                    ranked[slot] = ranked[slot - 1];
                    slot -= 1;
                }
                ranked[slot] = (rank, mv);
                count += 1;
            }
        }
        moves.extend(ranked[..count].iter().map(|&(_, mv)| mv));
    }

    fn is_terminal(&self) -> bool {
        self.state.over
    }

    fn value(&self) -> i32 {
        self.store_difference()
    }

    fn update(&mut self, mv: u8) {
        self.history.push(self.state);
        self.state = self.played(self.state, mv);
    }

    fn revert(&mut self, _mv: u8) {
        self.state = self
            .history
            .pop()
            .expect("invariant: revert follows an update");
    }
}

impl Evaluate for Kalah {
    /// The store difference: what is already won.
    fn evaluate(&self) -> i32 {
        self.store_difference()
    }
}

/// Where sowing a house leads: the pattern of seeds it adds to the board and the pit of the
/// last seed.
#[derive(Clone, Copy, Debug, Default)]
struct Sow {
    add: Board,
    last: u8,
}

/// Every sowing on a board of some number of houses, worked out once: for each player,
/// house and seed count, what [`Game::update`] adds to the board.
#[derive(Debug)]
struct Sowing {
    /// `moves[player][house][seeds]`, South (MAX) first.
    moves: [[[Sow; 241]; MAX_HOUSES]; 2],
    /// The bytes of each side's houses, South's first.
    houses: [Board; 2],
}

impl Sowing {
    fn new(houses: usize) -> Sowing {
        let ring = 2 * houses + 2;
        let side = |first: usize| -> Board {
            (first..first + houses).fold(0, |mask, pit| mask | 0xff << (8 * pit))
        };
        let mut sowing = Sowing {
            moves: [[[Sow::default(); 241]; MAX_HOUSES]; 2],
            houses: [side(0), side(houses + 1)],
        };
        for (side_index, skipped) in [(0, 2 * houses + 1), (1, houses)] {
            let first = side_index * (houses + 1);
            for house in 0..houses {
                let mut add: Board = 0;
                let mut pit = first + house;
                for seeds in 1..=240 {
                    pit = (pit + 1) % ring;
                    if pit == skipped {
                        pit = (pit + 1) % ring;
                    }
                    add += 1 << (8 * pit);
                    sowing.moves[side_index][house][seeds] = Sow {
                        add,
                        last: u8::try_from(pit).expect("invariant: at most 14 pits"),
                    };
                }
            }
        }
        sowing
    }

    #[inline]
    fn sow(&self, player: Player, house: usize, seeds: u8) -> Sow {
        let side = match player {
            Player::Max => 0,
            Player::Min => 1,
        };
        self.moves[side][house][usize::from(seeds)]
    }
}

/// The sowing table of a board of `houses` houses, built on first use.
fn sowing(houses: usize) -> &'static Sowing {
    static TABLES: [std::sync::OnceLock<Box<Sowing>>; MAX_HOUSES] =
        [const { std::sync::OnceLock::new() }; MAX_HOUSES];
    TABLES[houses - 1].get_or_init(|| Box::new(Sowing::new(houses)))
}

/// Mixes 64 bits into 64 (the finaliser of SplitMix64): every input bit moves about half
/// of the output bits.
#[inline]
fn mix(mut bits: u64) -> u64 {
    bits = (bits ^ (bits >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    bits = (bits ^ (bits >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    bits ^ (bits >> 31)
}

impl ZobristHash for Kalah {
    /// A hash of every pit, stores included, and the player to move: the houses and
    /// stores are bytes of the board, hashed as two words rather than looked up pit by pit.
    fn hash_key(&self) -> u64 {
        self.board_key(Board::MAX)
    }
}

impl Kalah {
    /// The hash of the pits `mask` keeps and the player to move.
    #[inline]
    fn board_key(&self, mask: Board) -> u64 {
        let board = Board::from_le_bytes(self.state.pits) & mask;
        let north_to_move = match self.state.to_move {
            Player::Max => 0,
            Player::Min => 0x9e37_79b9_7f4a_7c15,
        };
        #[allow(clippy::cast_possible_truncation)] // The low word, then the high one.
        let (low, high) = (board as u64, (board >> 64) as u64);
        mix(low ^ mix(high ^ north_to_move))
    }
}

/// The houses (bit `h` for house `h`, 0-based) whose successors the outlook valued from
/// the endgame table or the end of the game.
type KnownMoves = u8;

impl Solvable for Kalah {
    /// The moves whose values the outlook's bound already counts: the search leaves them
    /// out.
    type Candidates = KnownMoves;

    /// The value from the endgame table when it holds the position; otherwise the final
    /// margin lies between South keeping only its store and South taking every seed not
    /// yet in North's store: the futility bounds of Irving et al. Under empty captures the
    /// player to move gets at least one more seed, which narrows the bound by 2 on its
    /// side: its rightmost non-empty house either reaches the store or ends in an empty
    /// house of its own, a capture.
    fn outlook(&self, _after_search_move: bool) -> Outlook<KnownMoves> {
        if self.state.over {
            return Outlook::Known(self.store_difference());
        }
        if let Some(value) = self.endgame.as_ref().and_then(|table| table.probe(self)) {
            return Outlook::Known(value);
        }
        let total = i32::try_from(self.seeds_in_play()).expect("invariant: at most 240 seeds");
        let south = i32::from(self.store(Player::Max));
        let north = i32::from(self.store(Player::Min));
        let (mut lower, mut upper) = (2 * south - total, total - 2 * north);
        if self.rules.empty_capture {
            match self.state.to_move {
                Player::Max => lower += 2,
                Player::Min => upper -= 2,
            }
        }
        let mut known = 0;
        if let Some(table) = &self.endgame
            && (self.seeds_in_houses() as usize) < table.slices() + PEEK_MARGIN
        {
            let (best, known_moves) = self.peek_known(table);
            known = known_moves;
            let first = self.first_house(self.state.to_move);
            let every = (0..self.houses)
                .all(|house| self.state.pits[first + house] == 0 || known & (1 << house) != 0);
            if let Some(best) = best {
                // The mover's score back to a value to MAX: the same sign change.
                let value = seen_by_mover(best, self.state.to_move);
                if every {
                    return Outlook::Known(value);
                }
                match self.state.to_move {
                    Player::Max => lower = lower.max(value),
                    Player::Min => upper = upper.min(value),
                }
            }
        }
        Outlook::Search {
            lower,
            upper,
            candidates: known,
        }
    }

    /// The moves in Irving's order, less those whose successors the outlook valued: the
    /// lower bound it gave counts them.
    fn search_moves(&self, known: KnownMoves, moves: &mut Vec<u8>) {
        self.successors(moves);
        if known != 0 {
            moves.retain(|&house| known & (1 << house) == 0);
        }
    }

    /// The store difference: a search that climbs from it proves lower bounds, each along
    /// one good line, until the one upper bound at the value (MTD(f)).
    fn first_guess(&self) -> Option<i32> {
        Some(self.store_difference())
    }

    /// The seeds already in the stores, South's less North's: the table keys only the
    /// houses.
    fn settled_value(&self) -> i32 {
        self.store_difference()
    }

    /// The houses and the player to move, not the stores: what the rest of the game can
    /// win depends only on the houses, so positions that differ in their stores share the
    /// solver's entries.
    fn solver_key(&self) -> u64 {
        self.board_key(self.sowing.houses[0] | self.sowing.houses[1])
    }

    fn solver_key_after(&mut self, mv: u8) -> u64 {
        self.peek(mv).key
    }

    fn settled_value_after(&mut self, mv: u8) -> i32 {
        self.peek(mv).settled_value
    }

    fn to_move_after(&mut self, mv: u8) -> Player {
        self.peek(mv).to_move
    }

    /// The move played once for the three answers.
    fn peek(&mut self, mv: u8) -> Peek {
        self.update(mv);
        let peek = Peek {
            key: self.solver_key(),
            to_move: self.state.to_move,
            settled_value: self.store_difference(),
        };
        self.revert(mv);
        peek
    }
}

impl fmt::Display for Kalah {
    /// North's houses on top (its house 1 on the right, as North sees it), the stores at
    /// the ends (North's on the left), South's houses below, then who is to move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let houses = self.houses;
        write!(f, "   ")?;
        for house in (0..houses).rev() {
            write!(f, "{:>3}", self.house(Player::Min, house))?;
        }
        writeln!(f)?;
        writeln!(
            f,
            "{:>3}{}{:>3}",
            self.store(Player::Min),
            " ".repeat(3 * houses),
            self.store(Player::Max)
        )?;
        write!(f, "   ")?;
        for house in 0..houses {
            write!(f, "{:>3}", self.house(Player::Max, house))?;
        }
        writeln!(f)?;
        if self.state.over {
            write!(f, "game over: {}", self.store_difference())
        } else {
            let side = match self.state.to_move {
                Player::Max => "South",
                Player::Min => "North",
            };
            write!(f, "{side} to move")
        }
    }
}

/// A random position reached by `plies` random moves from the start of Kalah(`houses`,
/// `seeds`) (fewer if the game ends first): test and experiment material.
///
/// # Panics
/// When the size is not one [`Kalah::new`] accepts.
#[must_use]
pub fn random_position(
    houses: usize,
    seeds: u8,
    rules: KalahRules,
    plies: usize,
    random: &mut SplitMix64,
) -> Kalah {
    let mut game = Kalah::new(houses, seeds, rules).expect("a size Kalah::new accepts");
    play_random_moves(&mut game, plies, random);
    game.history.clear();
    game
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::minimax::minimax;

    fn board(pits: &[u8], to_move: Player) -> Kalah {
        Kalah::from_pits(pits, to_move, KalahRules::irving()).expect("a board")
    }

    #[test]
    fn a_last_seed_in_the_store_gives_another_move() {
        // Kalah(6,4): house 3 (four seeds from the third house) ends in the store.
        let mut game = Kalah::new(6, 4, KalahRules::default()).expect("a board");
        game.play(3).expect("legal");
        assert_eq!(game.pits(), [4, 4, 0, 5, 5, 5, 1, 4, 4, 4, 4, 4, 4, 0]);
        assert_eq!(game.to_move(), Player::Max);
        game.play(1).expect("legal");
        assert_eq!(game.pits(), [0, 5, 1, 6, 6, 5, 1, 4, 4, 4, 4, 4, 4, 0]);
        assert_eq!(game.to_move(), Player::Min);
    }

    #[test]
    fn a_last_seed_in_an_empty_own_house_captures_the_opposite_house() {
        // Kalah(4, *): South sows house 1 (one seed) into its empty house 2; across it is
        // North's house 3 (pit 2·4 − 1 = 7) with 7 seeds: 1 + 7 go to South's store.
        let mut game = board(&[1, 0, 3, 0, 2, 0, 0, 7, 4, 0], Player::Max);
        assert_eq!(game.houses(), 4);
        game.play(1).expect("legal");
        assert_eq!(game.pits(), [0, 0, 3, 0, 10, 0, 0, 0, 4, 0]);
        assert_eq!(game.to_move(), Player::Min);
    }

    #[test]
    fn an_empty_capture_takes_the_last_seed_only_under_irvings_rules() {
        let pits = [1, 0, 3, 0, 2, 4, 4, 0, 4, 0];
        let mut irving = board(&pits, Player::Max);
        irving.play(1).expect("legal");
        assert_eq!(irving.pits(), [0, 0, 3, 0, 3, 4, 4, 0, 4, 0]);
        let mut standard =
            Kalah::from_pits(&pits, Player::Max, KalahRules::standard()).expect("a board");
        standard.play(1).expect("legal");
        assert_eq!(standard.pits(), [0, 1, 3, 0, 2, 4, 4, 0, 4, 0]);
    }

    #[test]
    fn sowing_skips_the_opponents_store_and_laps_the_board() {
        // Kalah(2, *): a ring of 6 pits; South sows 7 seeds from house 1 over pits
        // 1, 2, 3, 4, (North's store 5 skipped), 0, 1, 2: the last in its store.
        let mut game = board(&[7, 1, 0, 1, 1, 0], Player::Max);
        game.play(1).expect("legal");
        assert_eq!(game.pits(), [1, 3, 2, 2, 2, 0]);
        assert_eq!(game.to_move(), Player::Max);
    }

    #[test]
    fn the_game_ends_when_a_side_is_empty_and_each_keeps_its_seeds() {
        // South's last seed goes to its store: South is empty, North keeps its 5.
        let mut game = board(&[0, 1, 3, 2, 3, 1], Player::Max);
        game.play(2).expect("legal");
        assert!(game.is_over());
        assert_eq!(game.pits(), [0, 0, 4, 0, 0, 6]);
        assert_eq!(game.value(), -2);
        assert!(game.play(1).is_err());
    }

    #[test]
    fn under_mover_has_no_seeds_the_game_goes_on_while_the_mover_can_sow() {
        let rules = KalahRules {
            ending: Ending::MoverHasNoSeeds,
            ..KalahRules::irving()
        };
        // South empties its side with an extra move: South is to move with nothing.
        let mut game = Kalah::from_pits(&[0, 1, 3, 2, 3, 1], Player::Max, rules).expect("a board");
        game.play(2).expect("legal");
        assert!(game.is_over());
        // South's empty capture leaves its side empty with North to move: the game goes on
        // for North, where either side empty would have ended it.
        let pits = [1, 0, 0, 0, 2, 0];
        let mut game = Kalah::from_pits(&pits, Player::Max, rules).expect("a board");
        game.play(1).expect("legal");
        assert!(!game.is_over(), "{game}");
        assert_eq!(game.to_move(), Player::Min);
        let mut game = board(&pits, Player::Max);
        game.play(1).expect("legal");
        assert!(game.is_over());
        assert_eq!(game.value(), 1 - 2);
    }

    #[test]
    fn the_key_covers_the_stores_and_the_solvers_key_only_the_houses() {
        let one = board(&[1, 2, 0, 3, 0, 1, 4, 2], Player::Max);
        let other = board(&[1, 2, 0, 5, 0, 1, 4, 0], Player::Max);
        // Depth-limited searches keep whole values in their tables: the stores count.
        assert_ne!(one.hash_key(), other.hash_key());
        // The solver keeps the margin still to be won: the houses alone decide it.
        assert_eq!(one.solver_key(), other.solver_key());
        let north = board(&[1, 2, 0, 3, 0, 1, 4, 2], Player::Min);
        assert_ne!(one.solver_key(), north.solver_key());
    }

    #[test]
    fn revert_restores_every_pit_and_the_player() {
        let mut random = SplitMix64::new(7);
        for _ in 0..200 {
            let mut game = random_position(4, 3, KalahRules::irving(), 6, &mut random);
            let before = (game.pits().to_vec(), game.to_move(), game.hash_key());
            let mut moves = Vec::new();
            game.successors(&mut moves);
            for &mv in &moves {
                game.update(mv);
                assert_eq!(game.seeds_in_play(), 24);
                game.revert(mv);
                assert_eq!(
                    (game.pits().to_vec(), game.to_move(), game.hash_key()),
                    before
                );
            }
        }
    }

    #[test]
    fn endgame_indices_number_each_slice_from_zero_without_gaps() {
        for houses in 1..=3 {
            let mut game = Kalah::new(houses, 1, KalahRules::irving()).expect("a board");
            for slice in 0..7 {
                for index in 0..game.slice_len(slice) {
                    game.set_position(slice, index);
                    if game.is_over() {
                        continue;
                    }
                    assert_eq!(game.position_index(7), Some((slice, index)));
                    // The mirror image, North to move, has the same index.
                    let pits = game.pits().to_vec();
                    let mut mirror = pits[houses + 1..].to_vec();
                    mirror.extend_from_slice(&pits[..=houses]);
                    let mirror = board_with(&mirror, Player::Min, KalahRules::irving());
                    assert_eq!(mirror.position_index(7), Some((slice, index)));
                }
            }
        }
    }

    fn board_with(pits: &[u8], to_move: Player, rules: KalahRules) -> Kalah {
        Kalah::from_pits(pits, to_move, rules).expect("a board")
    }

    #[test]
    fn an_endgame_table_holds_the_minimax_value_of_every_position() {
        for rules in [
            KalahRules::irving(),
            KalahRules::standard(),
            KalahRules {
                ending: Ending::MoverHasNoSeeds,
                ..KalahRules::irving()
            },
        ] {
            let mut board = Kalah::new(2, 1, rules).expect("a board");
            let table = EndgameTable::build(&mut board, 9, |_| {}).expect("built");
            for slice in 0..9 {
                for index in 0..board.slice_len(slice) {
                    board.set_position(slice, index);
                    // Seeds in the stores change the value by their difference only.
                    let mut pits = board.pits().to_vec();
                    pits[2] += 3;
                    pits[5] += 1;
                    for to_move in [Player::Max, Player::Min] {
                        let mut game = board_with(&pits, to_move, rules);
                        let value = minimax(&mut game).value;
                        assert_eq!(table.probe(&game), Some(value), "{game}");
                    }
                }
            }
        }
    }

    #[test]
    fn an_endgame_table_built_on_threads_is_the_one_built_on_one() {
        let rules = KalahRules::irving();
        let mut board = Kalah::new(3, 1, rules).expect("a board");
        let serial = EndgameTable::build(&mut board, 12, |_| {}).expect("built");
        let parallel = EndgameTable::build_parallel(&board, 12, 3, |_| {}).expect("built");
        let (mut serial_bytes, mut parallel_bytes) = (Vec::new(), Vec::new());
        serial.write_to(&mut serial_bytes).expect("written");
        parallel.write_to(&mut parallel_bytes).expect("written");
        assert_eq!(serial_bytes, parallel_bytes);
        let read = EndgameTable::read_from(&serial_bytes[..], &board.endgame_id()).expect("read");
        let mut read_bytes = Vec::new();
        read.write_to(&mut read_bytes).expect("written");
        assert_eq!(read_bytes, serial_bytes);
        assert!(EndgameTable::read_from(&serial_bytes[..10], &board.endgame_id()).is_err());
        let other = Kalah::new(3, 1, KalahRules::standard()).expect("a board");
        assert!(EndgameTable::read_from(&serial_bytes[..], &other.endgame_id()).is_err());
    }

    #[test]
    fn an_endgame_build_stopped_and_resumed_gives_the_table_built_at_once() {
        use crate::search::retrograde::EndgameError;
        let rules = KalahRules::irving();
        let board = Kalah::new(3, 1, rules).expect("a board");
        let whole = EndgameTable::build_parallel(&board, 12, 2, |_| {}).expect("built");
        let mut whole_bytes = Vec::new();
        whole.write_to(&mut whole_bytes).expect("written");
        // Stopped after 7 slices: the checkpoint then saved is what a rerun resumes from.
        let mut saved = Vec::new();
        let stopped = EndgameTable::resume_parallel(
            &board,
            12,
            2,
            None,
            |_| {},
            |table| {
                if table.slices() < 7 {
                    return Ok(());
                }
                table.write_to(&mut saved)?;
                Err(EndgameError::Format("stopped".into()))
            },
        );
        assert!(stopped.is_err());
        let done = EndgameTable::read_from(&saved[..], &board.endgame_id()).expect("read");
        assert_eq!(done.slices(), 7);
        let mut resumed_slices = Vec::new();
        let resumed = EndgameTable::resume_parallel(
            &board,
            12,
            2,
            Some(done),
            |progress| resumed_slices.push(progress.slice),
            |_| Ok(()),
        )
        .expect("built");
        assert_eq!(resumed_slices, (7..12).collect::<Vec<_>>());
        let mut resumed_bytes = Vec::new();
        resumed.write_to(&mut resumed_bytes).expect("written");
        assert_eq!(resumed_bytes, whole_bytes);
        // A checkpoint of another game, or of more slices than are built, is refused.
        let other = Kalah::new(3, 1, KalahRules::standard()).expect("a board");
        let done = EndgameTable::read_from(&saved[..], &board.endgame_id()).expect("read");
        assert!(
            EndgameTable::resume_parallel(&other, 12, 2, Some(done), |_| {}, |_| Ok(())).is_err()
        );
        let done = EndgameTable::read_from(&saved[..], &board.endgame_id()).expect("read");
        assert!(
            EndgameTable::resume_parallel(&board, 5, 2, Some(done), |_| {}, |_| Ok(())).is_err()
        );
    }

    #[test]
    fn the_solver_with_an_endgame_table_finds_the_values_it_finds_without() {
        let rules = KalahRules::irving();
        let mut board = Kalah::new(4, 1, rules).expect("a board");
        let table = Arc::new(EndgameTable::build(&mut board, 10, |_| {}).expect("built"));
        let mut random = SplitMix64::new(5);
        for _ in 0..60 {
            let mut game = random_position(4, 3, rules, 4, &mut random);
            let plain = crate::solve(&mut game, crate::SolveOptions::default()).score;
            let mut probed = game
                .clone()
                .with_endgame(Arc::clone(&table))
                .expect("same rules");
            let solution = crate::solve(&mut probed, crate::SolveOptions::default());
            assert_eq!(solution.score, plain, "{game}");
        }
        let other = Kalah::new(4, 3, KalahRules::standard()).expect("a board");
        assert!(other.with_endgame(table).is_err());
    }

    #[test]
    fn the_futility_bounds_hold_the_minimax_value() {
        let mut random = SplitMix64::new(11);
        for index in 0..400 {
            let rules = if index % 2 == 0 {
                KalahRules::irving()
            } else {
                KalahRules::standard()
            };
            let seeds = 2 + u8::try_from(index % 2).expect("small");
            let mut game = random_position(3, seeds, rules, 3 + index % 7, &mut random);
            let value = minimax(&mut game).value;
            if let Outlook::Search { lower, upper, .. } = game.outlook(false) {
                assert!(lower <= value && value <= upper, "{game}: {value}");
            }
        }
    }
}
