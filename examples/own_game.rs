//! Your own game, searched by gametree: Dots and Boxes, written here against the crate's
//! public interface alone (the guide in the crate docs, `gametree::guide`, explains each
//! step).
//!
//! Players take turns drawing one edge of a grid of boxes; whoever draws the fourth side of
//! a box owns it and must draw again — so the same player may move many times in a row, and
//! every search asks [`Game::to_move`] at each position. The value is MAX's boxes less MIN's.
//!
//! ```sh
//! cargo run --release --example own_game
//! ```

use std::fmt;
use std::time::Duration;

use gametree::prelude::*;

/// Dots and Boxes on `rows` × `cols` boxes (at most 2 × 3: 17 edges in a `u32`).
#[derive(Clone, Debug)]
pub struct DotsAndBoxes {
    rows: usize,
    cols: usize,
    /// Drawn edges: horizontal ones first, row by row, then vertical ones.
    edges: u32,
    /// Boxes owned by MAX and by MIN.
    boxes: [u8; 2],
    to_move: Player,
    /// What `update` changed, so that `revert` can put it back: the undo stack every
    /// make/unmake game keeps (checkers and Kalah in the crate do the same).
    history: Vec<([u8; 2], Player)>,
}

impl DotsAndBoxes {
    /// An empty grid, MAX to move.
    pub fn new(rows: usize, cols: usize) -> Self {
        assert!(rows * cols <= 6, "at most 6 boxes fit the edge mask");
        DotsAndBoxes {
            rows,
            cols,
            edges: 0,
            boxes: [0, 0],
            to_move: Player::Max,
            history: Vec::new(),
        }
    }

    fn edge_count(&self) -> usize {
        (self.rows + 1) * self.cols + self.rows * (self.cols + 1)
    }

    /// The four edges of box (row, col): top, bottom, left, right.
    fn sides(&self, row: usize, col: usize) -> [usize; 4] {
        let horizontal = (self.rows + 1) * self.cols;
        let left = horizontal + row * (self.cols + 1) + col;
        [
            row * self.cols + col,
            (row + 1) * self.cols + col,
            left,
            left + 1,
        ]
    }

    /// Sides drawn of box (row, col) with `edges`.
    fn drawn(&self, edges: u32, row: usize, col: usize) -> usize {
        self.sides(row, col)
            .iter()
            .filter(|&&edge| edges & (1 << edge) != 0)
            .count()
    }

    /// The boxes `edge` completes when drawn now, and the boxes it leaves with three
    /// sides (a gift to the opponent).
    fn effect(&self, edge: usize) -> (usize, usize) {
        let after = self.edges | (1 << edge);
        let mut completed = 0;
        let mut gifts = 0;
        for row in 0..self.rows {
            for col in 0..self.cols {
                if !self.sides(row, col).contains(&edge) {
                    continue;
                }
                match self.drawn(after, row, col) {
                    4 => completed += 1,
                    3 => gifts += 1,
                    _ => {}
                }
            }
        }
        (completed, gifts)
    }

    fn index(player: Player) -> usize {
        match player {
            Player::Max => 0,
            Player::Min => 1,
        }
    }
}

impl Game for DotsAndBoxes {
    /// An edge number.
    type Move = u8;
    /// MAX's boxes less MIN's.
    type Value = i32;

    fn to_move(&self) -> Player {
        self.to_move
    }

    /// The undrawn edges: those that complete a box first, then those that give nothing
    /// away, then the rest — move ordering is the game's business.
    fn successors(&self, moves: &mut Vec<u8>) {
        let start = moves.len();
        for edge in 0..self.edge_count() {
            if self.edges & (1 << edge) == 0 {
                moves.push(u8::try_from(edge).expect("at most 17 edges"));
            }
        }
        moves[start..].sort_by_key(|&edge| {
            let (completed, gifts) = self.effect(usize::from(edge));
            (std::cmp::Reverse(completed), gifts)
        });
    }

    fn is_terminal(&self) -> bool {
        self.edges.count_ones() as usize == self.edge_count()
    }

    fn value(&self) -> i32 {
        i32::from(self.boxes[0]) - i32::from(self.boxes[1])
    }

    fn update(&mut self, edge: u8) {
        self.history.push((self.boxes, self.to_move));
        let (completed, _) = self.effect(usize::from(edge));
        self.edges |= 1 << edge;
        if completed > 0 {
            // The extra-turn rule: the player who closed a box moves again.
            self.boxes[Self::index(self.to_move)] += completed as u8;
        } else {
            self.to_move = self.to_move.opponent();
        }
    }

    fn revert(&mut self, edge: u8) {
        self.edges &= !(1 << edge);
        (self.boxes, self.to_move) = self.history.pop().expect("revert follows update");
    }
}

impl Evaluate for DotsAndBoxes {
    /// The boxes won so far: what a depth-limited search sees at its horizon.
    fn evaluate(&self) -> i32 {
        self.value()
    }
}

impl PositionKey for DotsAndBoxes {
    /// Small enough for an exact key: edges, boxes, player to move.
    fn hash_key(&self) -> u64 {
        let mover = u64::from(self.to_move == Player::Min);
        u64::from(self.edges)
            | mover << 17
            | u64::from(self.boxes[0]) << 18
            | u64::from(self.boxes[1]) << 24
    }
}

/// The solver needs integer values and a key; the default outlook asks `is_terminal`.
impl Solvable for DotsAndBoxes {
    type Candidates = ();
}

impl fmt::Display for DotsAndBoxes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}×{} boxes, {} of {} edges drawn, MAX {} MIN {}",
            self.rows,
            self.cols,
            self.edges.count_ones(),
            self.edge_count(),
            self.boxes[0],
            self.boxes[1]
        )
    }
}

fn line_text(line: &[u8]) -> String {
    line.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Solves the 2×2 grid, then searches the 2×3 grid with alpha-beta and with 2&2.
pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    // 1. Solve the 2×2 grid exactly: the null-window solver with its own table.
    let mut small = DotsAndBoxes::new(2, 2);
    let solved = Search::new(&mut small).solve();
    println!(
        "2×2, solved: value {:?}, best edge {:?}, line {} ({} positions)",
        solved.value,
        solved.best_move,
        line_text(&solved.principal_line),
        solved.stats.nodes
    );

    // 2. The 2×3 grid with alpha-beta, a table kept between searches, and a time budget.
    let mut game = DotsAndBoxes::new(2, 3);
    let mut table = TranspositionTable::with_mib(16);
    let result = Search::new(&mut game)
        .time_limit(Duration::from_secs(1))
        .table(&mut table)
        .run();
    println!(
        "2×3, alpha-beta: value {:?} at depth {} ({:?}), best edge {:?}, line {} ({} positions)",
        result.value,
        result.depth,
        result.stop,
        result.best_move,
        line_text(&result.principal_line),
        result.stats.nodes
    );

    // 3. Slagle's 2&2 on the same position, four plies deep. Values are boxes, so the
    //    bonus for a second-best successor is at most 2^0 = 1 box, halving for each box it
    //    falls behind (x = 0, y = 1): monotone, as (m − 1)·y·2^x·ln 2 = 0.69 ≤ 1.
    let one_box = Exponents::new(0.0, 1.0)?;
    let two_and_two = Slagle::new(2, 2, one_box, one_box)?;
    let m_and_n = Search::new(&mut game).depth(4).run_m_and_n(&two_and_two);
    println!(
        "2×3, 2&2 at depth 4: value {:.3}, chosen edge {:?}, line {} ({} positions)",
        m_and_n.value.unwrap_or(f64::NAN),
        m_and_n.best_move,
        line_text(&m_and_n.principal_line),
        m_and_n.stats.nodes
    );
    println!("{game}");
    Ok(())
}
