//! Games in which a player may move twice or more in a row, for the equivalence tests of
//! `tests/repeated_movers.rs`: random game graphs where every position names its own
//! player to move, and a small Kalah with its extra move (the last seed sown into the
//! mover's own store). [`Game::to_move`] is asked at every position; nothing here lets
//! the players alternate by default.
//!
//! Also the references the searches are held to that the library has no function for:
//! depth-limited minimax.

#![allow(dead_code)]

use gametree::search::transposition::PositionKey;
use gametree::{Evaluate, Game, Player, Solvable, SplitMix64, Value};

/// A layered game graph whose positions each name their player to move, drawn at random:
/// about half the moves leave the same player to move, so runs of two, three or more
/// moves by one player are common. A position of layer L has moves to layer L + 1 and
/// sometimes L + 2, so positions are reached along several paths (transpositions) and at
/// different distances from the root; the key is the position's index.
///
/// Some positions are terminal before the last layer, and a few are neither terminal nor
/// have moves (a loss for the player to move, as [`Game`] says).
#[derive(Clone, Debug)]
pub struct MoverGraph {
    players: Vec<Player>,
    children: Vec<Vec<usize>>,
    /// A terminal position's value; an inner position's evaluation.
    values: Vec<i32>,
    terminal: Vec<bool>,
    /// The positions from the root (index 0) to the current one.
    path: Vec<usize>,
}

impl MoverGraph {
    /// The graph made from `seed`: `layers` layers (at least 2) of `width` positions,
    /// 1 to `max_branching` moves per inner position, values from −`spread` to `spread`.
    /// The root is the first position of layer 0 and always has moves.
    #[must_use]
    pub fn generate(
        seed: u64,
        layers: usize,
        width: usize,
        max_branching: u64,
        spread: i32,
    ) -> Self {
        assert!(layers >= 2 && width >= 1 && max_branching >= 1 && spread >= 0);
        let mut random = SplitMix64::new(seed);
        let count = layers * width;
        let mut players = Vec::with_capacity(count);
        let mut children = vec![Vec::new(); count];
        let mut values = Vec::with_capacity(count);
        let mut terminal = Vec::with_capacity(count);
        let range = u64::try_from(2 * spread + 1).expect("a non-negative spread");
        for (node, moves) in children.iter_mut().enumerate() {
            let layer = node / width;
            players.push(if random.below(2) == 0 {
                Player::Max
            } else {
                Player::Min
            });
            values.push(i32::try_from(random.below(range)).expect("a small range") - spread);
            let draw = random.below(16);
            if layer + 1 == layers || (node > 0 && draw < 2) {
                terminal.push(true);
                continue;
            }
            terminal.push(false);
            if node > 0 && draw == 2 {
                // Stuck: not terminal, and no moves.
                continue;
            }
            for _ in 0..=random.below(max_branching) {
                let skip = if layer + 2 < layers && random.below(4) == 0 {
                    2
                } else {
                    1
                };
                let child = (layer + skip) * width + random.index(width);
                if !moves.contains(&child) {
                    moves.push(child);
                }
            }
        }
        MoverGraph {
            players,
            children,
            values,
            terminal,
            path: vec![0],
        }
    }

    fn current(&self) -> usize {
        *self
            .path
            .last()
            .expect("invariant: the root is on the path")
    }

    /// Whether the game is back at the root.
    #[must_use]
    pub fn at_root(&self) -> bool {
        self.path.len() == 1
    }

    /// How many moves of the positions reachable from the root leave the same player to
    /// move, and how many moves there are.
    #[must_use]
    pub fn repeated_moves(&self) -> (usize, usize) {
        let mut reached = vec![false; self.players.len()];
        let mut pending = vec![0];
        reached[0] = true;
        let (mut repeated, mut all) = (0, 0);
        while let Some(node) = pending.pop() {
            for &child in &self.children[node] {
                all += 1;
                repeated += usize::from(self.players[child] == self.players[node]);
                if !std::mem::replace(&mut reached[child], true) {
                    pending.push(child);
                }
            }
        }
        (repeated, all)
    }
}

impl Game for MoverGraph {
    type Move = usize;
    type Value = i32;

    /// The position's own player, whoever moved before.
    fn to_move(&self) -> Player {
        self.players[self.current()]
    }

    fn successors(&self, moves: &mut Vec<usize>) {
        moves.extend(self.children[self.current()].iter().copied());
    }

    fn is_terminal(&self) -> bool {
        self.terminal[self.current()]
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

impl Evaluate for MoverGraph {
    fn evaluate(&self) -> i32 {
        self.values[self.current()]
    }
}

impl PositionKey for MoverGraph {
    /// The position's index: exact.
    fn hash_key(&self) -> u64 {
        self.current() as u64
    }
}

impl Solvable for MoverGraph {
    type Candidates = ();
}

/// The most pits a side of [`Kalah`] may have (its key packs the board into 64 bits).
pub const MAX_PITS: usize = 4;
/// The most seeds a [`Kalah`] board may hold in its pits.
pub const MAX_SEEDS: u32 = 15;

/// Kalah on `pits` pits a side. The board, counter-clockwise: MAX's pits, MAX's store,
/// MIN's pits, MIN's store. A move picks up the seeds of one of the mover's pits and sows
/// them one by one into the next pits and the mover's own store (never the opponent's).
/// When the last seed falls into the mover's store, **the mover moves again**; when it
/// falls into an empty pit of the mover's whose opposite pit holds seeds, both go to the
/// mover's store. The game ends when either side's pits are empty; the seeds left on the
/// other side go to their owner. The value to MAX is MAX's seeds less MIN's (stores and
/// pits); the evaluation is the difference of the stores.
///
/// Moves are pits counted from the mover's first, tried first to last.
#[derive(Clone, Debug)]
pub struct Kalah {
    pits: usize,
    /// `2 · pits + 2` cells are used.
    board: [u8; 2 * MAX_PITS + 2],
    to_move: Player,
    /// The board and mover before each move played, for `revert`.
    history: Vec<([u8; 2 * MAX_PITS + 2], Player)>,
}

impl Kalah {
    /// An endgame drawn from `seed`: `seeds` seeds (at most [`MAX_SEEDS`]) spread at
    /// random over the `pits` pits of each side (at most [`MAX_PITS`]), up to 3 seeds in
    /// each store, either player to move.
    #[must_use]
    pub fn random(pits: usize, seeds: u32, seed: u64) -> Self {
        assert!((1..=MAX_PITS).contains(&pits) && seeds <= MAX_SEEDS);
        let mut random = SplitMix64::new(seed);
        let mut game = Kalah {
            pits,
            board: [0; 2 * MAX_PITS + 2],
            to_move: if random.below(2) == 0 {
                Player::Max
            } else {
                Player::Min
            },
            history: Vec::new(),
        };
        for _ in 0..seeds {
            let pit = random.index(2 * pits);
            let cell = if pit < pits { pit } else { pit + 1 };
            game.board[cell] += 1;
        }
        for player in [Player::Max, Player::Min] {
            let store = game.store(player);
            game.board[store] = u8::try_from(random.below(4)).expect("below 4");
        }
        game
    }

    /// The position with these pits (each side's first pit first) and stores.
    #[must_use]
    pub fn new<const PITS: usize>(
        max_pits: [u8; PITS],
        max_store: u8,
        min_pits: [u8; PITS],
        min_store: u8,
        to_move: Player,
    ) -> Self {
        assert!((1..=MAX_PITS).contains(&PITS));
        let mut board = [0; 2 * MAX_PITS + 2];
        board[..PITS].copy_from_slice(&max_pits);
        board[PITS] = max_store;
        board[PITS + 1..=2 * PITS].copy_from_slice(&min_pits);
        board[2 * PITS + 1] = min_store;
        let seeds: u32 = board[..2 * PITS + 2]
            .iter()
            .map(|&seeds| u32::from(seeds))
            .sum();
        assert!(seeds <= MAX_SEEDS + 6, "too many seeds for the key");
        Kalah {
            pits: PITS,
            board,
            to_move,
            history: Vec::new(),
        }
    }

    /// Every seed on the board, in pits and stores.
    #[must_use]
    pub fn seeds(&self) -> u32 {
        self.board.iter().map(|&seeds| u32::from(seeds)).sum()
    }

    fn store(&self, player: Player) -> usize {
        match player {
            Player::Max => self.pits,
            Player::Min => 2 * self.pits + 1,
        }
    }

    fn first_pit(&self, player: Player) -> usize {
        match player {
            Player::Max => 0,
            Player::Min => self.pits + 1,
        }
    }

    fn side(&self, player: Player) -> &[u8] {
        let first = self.first_pit(player);
        &self.board[first..first + self.pits]
    }

    fn seeds_of(&self, player: Player) -> i32 {
        i32::from(self.board[self.store(player)])
            + self
                .side(player)
                .iter()
                .map(|&seeds| i32::from(seeds))
                .sum::<i32>()
    }

    /// Whether the board is back where it started.
    #[must_use]
    pub fn at_start(&self) -> bool {
        self.history.is_empty()
    }
}

impl Game for Kalah {
    type Move = u8;
    type Value = i32;

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn successors(&self, moves: &mut Vec<u8>) {
        let side = self.side(self.to_move);
        moves.extend(
            (0..self.pits)
                .filter(|&pit| side[pit] > 0)
                .map(|pit| u8::try_from(pit).expect("a few pits")),
        );
    }

    fn is_terminal(&self) -> bool {
        self.side(Player::Max).iter().all(|&seeds| seeds == 0)
            || self.side(Player::Min).iter().all(|&seeds| seeds == 0)
    }

    fn value(&self) -> i32 {
        self.seeds_of(Player::Max) - self.seeds_of(Player::Min)
    }

    fn update(&mut self, pit: u8) {
        self.history.push((self.board, self.to_move));
        let mover = self.to_move;
        let cells = 2 * self.pits + 2;
        let opponent_store = self.store(mover.opponent());
        let mut cell = self.first_pit(mover) + usize::from(pit);
        let mut seeds = std::mem::take(&mut self.board[cell]);
        while seeds > 0 {
            cell = (cell + 1) % cells;
            if cell != opponent_store {
                self.board[cell] += 1;
                seeds -= 1;
            }
        }
        let own_store = self.store(mover);
        if cell == own_store {
            // The extra move: the same player moves again.
            return;
        }
        let first = self.first_pit(mover);
        let opposite = 2 * self.pits - cell;
        if (first..first + self.pits).contains(&cell)
            && self.board[cell] == 1
            && self.board[opposite] > 0
        {
            self.board[own_store] += 1 + std::mem::take(&mut self.board[opposite]);
            self.board[cell] = 0;
        }
        self.to_move = mover.opponent();
    }

    fn revert(&mut self, _pit: u8) {
        (self.board, self.to_move) = self.history.pop().expect("a move to take back");
    }
}

impl Evaluate for Kalah {
    fn evaluate(&self) -> i32 {
        i32::from(self.board[self.store(Player::Max)])
            - i32::from(self.board[self.store(Player::Min)])
    }
}

impl PositionKey for Kalah {
    /// The board packed exactly: four bits a pit, six a store, one for the mover (45 bits
    /// for four pits a side).
    fn hash_key(&self) -> u64 {
        let mut key = u64::from(self.to_move == Player::Min);
        for player in [Player::Max, Player::Min] {
            for &seeds in self.side(player) {
                key = key << 4 | u64::from(seeds);
            }
            key = key << 6 | u64::from(self.board[self.store(player)]);
        }
        key
    }
}

impl Solvable for Kalah {
    type Candidates = ();
}

/// Minimax looking at most `depth` moves ahead: a terminal position's [`Game::value`], at
/// the horizon [`Evaluate::evaluate`], a position without moves the loss of its player to
/// move; otherwise the greatest (MAX to move) or least (MIN) value of the positions after
/// each move. What the depth-limited searches compute.
pub fn depth_limited_minimax<G: Game + Evaluate>(game: &mut G, depth: u32) -> G::Value {
    if game.is_terminal() {
        return game.value();
    }
    if depth == 0 {
        return game.evaluate();
    }
    let player = game.to_move();
    let mut moves = Vec::new();
    game.successors(&mut moves);
    let mut best = match player {
        Player::Max => G::Value::MIN,
        Player::Min => G::Value::MAX,
    };
    for mv in moves {
        game.update(mv);
        let value = depth_limited_minimax(game, depth - 1);
        game.revert(mv);
        let better = match player {
            Player::Max => value > best,
            Player::Min => value < best,
        };
        if better {
            best = value;
        }
    }
    best
}
