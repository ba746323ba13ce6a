//! `gametree connect4`: Connect Four solved by the generic solver (null-window narrowing,
//! transposition table, the game's pruning), on Pascal Pons' benchmark files, move by move,
//! and against a person in the terminal.

use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
use serde_json::json;

use gametree::{ConnectFour, Game, Player, Solution, SolveOptions, Solver};

use gametree::games::connect_four::RandomColumns;
use gametree::games::connect_four_book::{OpeningBook, positions_up_to, split_line};
use gametree::search::mcts::{Budget, MctsResult, RootParallel};
use gametree::search::proof_number::{DfPn, DfPnOptions};

use super::cpu_time::{peak_memory_bytes, process_cpu_time};
use super::engine::{Engine, EngineArgs, mcts_text};
use super::output::outln;
use super::progress;
use super::{CliError, Outcome, Side, limits, prompt};

/// Arguments of `gametree connect4`.
#[derive(Args, Debug)]
pub struct Connect4Args {
    #[command(subcommand)]
    command: Connect4Command,
}

#[derive(Subcommand, Debug)]
enum Connect4Command {
    /// Solve positions read one per line, `MOVES` or `MOVES SCORE` (Pons' benchmark
    /// format: 1-based columns, first player first; SCORE for the player to move); print
    /// `MOVES SCORE NODES MICROSECONDS` per line. The table is cleared between positions. A
    /// SCORE that differs from the one found is reported on stderr and the exit status is 1
    #[command(after_help = "Examples:\n  \
        $ echo '2252576253462244111563365343671351441 -1' | gametree connect4 solve\n  \
        2252576253462244111563365343671351441 -1 [..] [..]\n  \
        $ head -2 data/connect4/Test_L2_R1 | gametree connect4 solve --json\n  \
        {\"moves\":\"5554224333234511764415115\",\"score\":4,\"expected\":4,\"nodes\":67,\"microseconds\":[..],\"peak_memory_mib\":[..]}\n  \
        {\"moves\":\"52753311433677442422121\",\"score\":8,\"expected\":8,\"nodes\":36,\"microseconds\":[..],\"peak_memory_mib\":[..]}\n\
        \n\
        An empty line is the empty board (a long solve on 7×6: watch the progress on stderr).")]
    Solve(SolveArgs),
    /// The score of every move from a position (for the player to move), one field per
    /// column, `-` for a full column; read from the opening book where it has them
    #[command(after_help = "Examples:\n  \
        $ gametree connect4 analyze 5554224333234511764415115\n  \
        -8 -8 -8 -8 - 4 -8\n  \
        $ gametree connect4 analyze --width 5 --height 4 --json\n  \
        {\"moves\":\"\",\"scores\":[-1,0,0,0,-1]}")]
    Analyze(AnalyzeArgs),
    /// Play against the computer, which reads the opening book near the start and solves
    /// each move it considers within a budget (and so plays perfectly in the book and
    /// once the game is small enough); type a column number per move
    #[command(after_help = "Example:\n  \
        $ printf '3\\n3\\n3\\n' | gametree connect4 play --width 5 --height 4 --side first | tail -3\n  \
        Your move (X): 3\n  \
        column 3 is full; try again.\n  \
        Your move (X):")]
    Play(PlayArgs),
    /// The computer's move from a position (a 1-based column): by the solver within a
    /// budget of positions per move, as `play` chooses, or by Monte Carlo tree search.
    /// Where the budget runs out before a move is solved, what the threads proved by then
    /// depends on their timing: `--threads 1` gives the same move every time
    #[command(after_help = "Examples:\n  \
        $ gametree connect4 best 4453 --threads 1\n  \
        best move 3\n  \
        engine    alphabeta\n  \
        score     [..]\n  \
        $ gametree connect4 best 112233 --engine mcts --playouts 10000 --seed 1 --json\n  \
        {\"moves\":\"112233\",\"engine\":\"mcts\",\"move\":4,[..]}")]
    Best(BestArgs),
    /// Weakly solve a position by depth-first proof-number search (df-pn): 1 if the player
    /// to move wins, 0 a draw, -1 a loss (two proofs: "at least a draw", then "a win")
    #[command(after_help = "Examples:\n  \
        $ gametree connect4 prove 5554224333234511764415115\n  \
        value     1 (the player to move wins)\n  \
        nodes     [..]\n  \
        $ gametree connect4 prove 4455667 --json\n  \
        gametree: \"4455667\": the game is over after move 7 (the first player has four in a row): there is nothing to solve")]
    Prove(ProveArgs),
    /// Solve whole benchmark files and report per file the mean time per position (wall
    /// clock of the solving; CPU time of every thread over the whole file where the system
    /// reports it), the mean positions searched, the peak memory, and whether every score
    /// was right
    #[command(after_help = "Example:\n  \
        $ gametree connect4 bench data/connect4/Test_L3_R1 --lines 100\n  \
        file           positions    mean time     mean CPU   mean positions  positions/s peak memory  scores\n  \
        Test_L3_R1           100 [..]  all correct")]
    Bench(BenchArgs),
    /// Build an opening book: the score of every position of up to `--plies` stones (a
    /// mirror pair once), appended to FILE one by one, the deepest first: those of
    /// `--plies` stones solved, the others the best of their successors' scores. FILE is
    /// read first: a book stopped at any point goes on where it stopped. `analyze`,
    /// `best` and `play` read the book shipped with gametree (7×6, up to 5 stones), or
    /// the one `--book` names
    #[command(after_help = "Examples:\n  \
        $ rm -f /tmp/gametree-book-5x4\n  \
        $ gametree connect4 book /tmp/gametree-book-5x4 --plies 2 --width 5 --height 4\n  \
        book /tmp/gametree-book-5x4: 17 positions of up to 2 stones (17 solved now, 0 already there)\n  \
        $ head -3 /tmp/gametree-book-5x4\n  \
        33 0\n  \
        32 0\n  \
        31 0\n  \
        $ gametree connect4 book /tmp/gametree-book-5x4 --plies 3 --width 5 --height 4\n  \
        book /tmp/gametree-book-5x4: 66 positions of up to 3 stones (49 solved now, 17 already there)\n\
        \n\
        The deepest positions come first; the last line, ` 0` on 5×4, is the empty board's.")]
    Book(BookArgs),
}

/// The default bound on the table: as large as c4's table, which only the largest solves
/// reach (the table grows only as far as a search needs).
const TABLE_MIB: usize = 1024;

/// The board and the solver's settings, shared by every subcommand.
#[derive(Args, Debug)]
struct BoardArgs {
    /// Columns of the board
    #[arg(long, default_value_t = ConnectFour::WIDTH)]
    width: u32,
    /// Rows of the board
    #[arg(long, default_value_t = ConnectFour::HEIGHT)]
    height: u32,
    /// Greatest transposition table size in MiB (the table starts at 1 MiB and grows as the
    /// search needs: the empty 7×6 board takes it to 128 MiB)
    #[arg(long, value_name = "MIB", default_value_t = TABLE_MIB)]
    table_mib: usize,
    /// Turn off enhanced transposition cutoffs (for comparison)
    #[arg(long)]
    no_etc: bool,
}

/// The opening book `analyze`, `best` and `play` read.
#[derive(Args, Debug)]
struct BookUse {
    /// An opening book (made by `connect4 book`) instead of the one shipped for 7×6
    #[arg(long, value_name = "FILE", conflicts_with = "no_book")]
    book: Option<PathBuf>,
    /// Solve every position, even those an opening book has
    #[arg(long)]
    no_book: bool,
}

/// The book shipped with gametree: every 7×6 position of up to six stones, built by
/// `gametree connect4 book data/connect4/book-7x6 --plies 6`.
pub(super) const SHIPPED_BOOK: &str = include_str!("../../data/connect4/book-7x6");

impl BookUse {
    /// The book for `empty`'s board: `--book`'s, or the shipped one on 7×6, or none.
    fn load(&self, empty: &ConnectFour) -> Result<Option<OpeningBook>, CliError> {
        if self.no_book {
            return Ok(None);
        }
        match &self.book {
            Some(path) => {
                let text = std::fs::read_to_string(path).map_err(|error| {
                    CliError::Usage(format!("cannot read {}: {error}", path.display()))
                })?;
                OpeningBook::parse(&text, empty)
                    .map(Some)
                    .map_err(|error| CliError::Usage(format!("{}: {error}", path.display())))
            }
            None if (empty.width(), empty.height())
                == (ConnectFour::WIDTH, ConnectFour::HEIGHT) =>
            {
                let book = OpeningBook::parse(SHIPPED_BOOK, empty)
                    .expect("invariant: the shipped book reads (tested)");
                Ok(Some(book))
            }
            None => Ok(None),
        }
    }
}

/// How many threads search, sharing the table.
#[derive(Args, Debug)]
struct ThreadsArgs {
    /// Search threads, sharing the table (default: every core). Scores never depend on it;
    /// the positions searched do. A solve calls in the other threads only after 65,536
    /// positions. (`best` and `play` with --engine mcts: each thread grows a tree of its
    /// own and the playouts are shared out, root parallelism; the same seed, playouts and
    /// threads give the same move.)
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
}

impl ThreadsArgs {
    fn count(&self) -> Result<usize, CliError> {
        limits::check_threads(self.threads.unwrap_or_else(limits::cores))
    }
}

impl BoardArgs {
    fn empty_board(&self) -> Result<ConnectFour, CliError> {
        ConnectFour::with_size(self.width, self.height)
            .map_err(|error| CliError::Usage(error.to_string()))
    }

    /// The solver's options, after checking the board and the table size: both are
    /// refused before any position is read.
    fn options(&self, weak: bool) -> Result<SolveOptions, CliError> {
        self.empty_board()?;
        limits::check_table_mib(self.table_mib)?;
        Ok(SolveOptions {
            weak,
            enhanced_transposition_cutoffs: !self.no_etc,
            table_mib: self.table_mib,
            ..SolveOptions::default()
        })
    }

    /// The board after `moves` (nothing: the empty board), or a usage error naming the bad
    /// move. A finished game has no score to find: it is an error too.
    fn position(&self, moves: &str) -> Result<ConnectFour, String> {
        let mut game =
            ConnectFour::with_size(self.width, self.height).map_err(|error| error.to_string())?;
        let quoted = gametree::text::excerpt(moves);
        game.play_moves(moves)
            .map_err(|error| format!("{quoted}: {error}"))?;
        if game.is_over() {
            let how = match game.winner() {
                Some(Player::Max) => "the first player has four in a row",
                Some(Player::Min) => "the second player has four in a row",
                None => "the board is full",
            };
            return Err(format!(
                "{quoted}: the game is over after move {} ({how}): there is nothing to solve",
                game.moves_played()
            ));
        }
        Ok(game)
    }
}

#[derive(Args, Debug)]
struct SolveArgs {
    /// The positions, one per line (an empty line is the empty board); `-` or nothing for
    /// standard input
    file: Option<PathBuf>,
    /// Weak solving: only win (1), draw (0) or loss (-1); a given SCORE is compared by sign
    #[arg(long)]
    weak: bool,
    /// Print one JSON object per position: moves, score, expected (or null), nodes,
    /// microseconds, the process's peak memory so far
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    threads: ThreadsArgs,
    #[command(flatten)]
    board: BoardArgs,
}

#[derive(Args, Debug)]
struct AnalyzeArgs {
    /// The moves played: 1-based columns, first player first (nothing or '': the empty
    /// board)
    #[arg(default_value = "")]
    moves: String,
    /// Weak solving: only win (1), draw (0) or loss (-1)
    #[arg(long)]
    weak: bool,
    /// Print one JSON object: moves, and scores (null for a full column)
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    book: BookUse,
    #[command(flatten)]
    threads: ThreadsArgs,
    #[command(flatten)]
    board: BoardArgs,
}

#[derive(Args, Debug)]
struct PlayArgs {
    /// Your side: first (X) or second (O); asked for when absent
    #[arg(
        long,
        alias = "as",
        value_enum,
        ignore_case = true,
        value_name = "SIDE"
    )]
    side: Option<Side>,
    /// The moves played before the game starts: 1-based columns, first player first
    /// (empty: the empty board)
    #[arg(long, value_name = "COLUMNS", default_value = "")]
    moves: String,
    /// The most positions the computer searches for each move it considers (each thread);
    /// a move not solved within them is judged by the bounds proved on its score (the
    /// opening of a 7×6 game is far too large to solve in a turn)
    #[arg(long, value_name = "N", default_value_t = 2_000_000)]
    max_nodes: u64,
    #[command(flatten)]
    engine: EngineArgs,
    #[command(flatten)]
    book: BookUse,
    #[command(flatten)]
    threads: ThreadsArgs,
    #[command(flatten)]
    board: BoardArgs,
}

#[derive(Args, Debug)]
struct BestArgs {
    /// The moves played: 1-based columns, first player first (nothing or '': the empty
    /// board)
    #[arg(default_value = "")]
    moves: String,
    #[command(flatten)]
    engine: EngineArgs,
    /// alphabeta: the most positions the solver searches for each move it considers (each
    /// thread), as in `play`
    #[arg(long, value_name = "N", default_value_t = 2_000_000)]
    max_nodes: u64,
    /// Print one JSON object: moves, engine, move, then score bounds and nodes
    /// (alphabeta) or what the Monte Carlo search did ("search": playouts, seed, each
    /// column's visits)
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    book: BookUse,
    #[command(flatten)]
    threads: ThreadsArgs,
    #[command(flatten)]
    board: BoardArgs,
}

#[derive(Args, Debug)]
struct ProveArgs {
    /// The moves played: 1-based columns, first player first (nothing or '': the empty
    /// board)
    #[arg(default_value = "")]
    moves: String,
    /// Give up after this many positions (exit status 1)
    #[arg(long, value_name = "N")]
    max_nodes: Option<u64>,
    /// Print one JSON object: moves, value (null when the budget ran out), nodes,
    /// microseconds
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    board: BoardArgs,
}

#[derive(Args, Debug)]
struct BookArgs {
    /// The book: read first when it exists (its positions are not solved again), then
    /// each position solved is appended at once
    file: PathBuf,
    /// Positions of up to this many stones (at most 10)
    #[arg(long, value_name = "N")]
    plies: u32,
    /// Print one JSON object at the end: file, plies, positions, solved, kept
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    threads: ThreadsArgs,
    #[command(flatten)]
    board: BoardArgs,
}

#[derive(Args, Debug)]
struct BenchArgs {
    /// Benchmark files: lines `MOVES SCORE`
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Solve only the first N positions of each file
    #[arg(long, value_name = "N")]
    lines: Option<usize>,
    /// Weak solving; scores are compared by sign
    #[arg(long)]
    weak: bool,
    /// Print one JSON object per file instead of a table
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    threads: ThreadsArgs,
    #[command(flatten)]
    board: BoardArgs,
}

/// Runs `gametree connect4`.
pub fn run(args: Connect4Args) -> Result<Outcome, CliError> {
    match args.command {
        Connect4Command::Solve(args) => solve(&args),
        Connect4Command::Analyze(args) => analyze(&args),
        Connect4Command::Play(args) => play(&args),
        Connect4Command::Best(args) => best(&args),
        Connect4Command::Prove(args) => prove(&args),
        Connect4Command::Bench(args) => bench(&args),
        Connect4Command::Book(args) => book(&args),
    }
}

/// A position read from a file: where it stands, its moves, the expected score if the line
/// gives one, and the game after the moves.
struct FilePosition {
    number: usize,
    moves: String,
    expected: Option<i32>,
    game: ConnectFour,
}

/// Reads `MOVES` or `MOVES SCORE` lines (Pons' benchmark format; an empty line, or a
/// line that starts with a blank, is the empty board); every error names the source and
/// the line.
struct PositionReader {
    lines: std::iter::Enumerate<io::Lines<Box<dyn BufRead>>>,
    source: String,
}

impl PositionReader {
    /// Reads `path`, or standard input for `None` or `-`.
    fn open(path: Option<&Path>) -> Result<Self, CliError> {
        let (input, source): (Box<dyn BufRead>, String) = match path {
            None => (Box::new(BufReader::new(io::stdin())), "stdin".into()),
            Some(path) if path == Path::new("-") => {
                (Box::new(BufReader::new(io::stdin())), "stdin".into())
            }
            Some(path) => {
                let file = File::open(path).map_err(|error| {
                    CliError::Usage(format!("cannot read {}: {error}", path.display()))
                })?;
                (Box::new(BufReader::new(file)), path.display().to_string())
            }
        };
        Ok(PositionReader {
            lines: input.lines().enumerate(),
            source,
        })
    }

    /// The next position, played on `board`; `None` at the end of the input.
    fn next_position(&mut self, board: &BoardArgs) -> Result<Option<FilePosition>, CliError> {
        let Some((index, line)) = self.lines.next() else {
            return Ok(None);
        };
        let number = index + 1;
        let source = &self.source;
        let at = |message: String| CliError::Usage(format!("{source} line {number}: {message}"));
        let line = line.map_err(|error| at(format!("cannot read: {error}")))?;
        // A line that starts with a blank has no MOVES: the empty board (` 1` gives its
        // SCORE).
        let (moves, mut fields) = split_line(&line);
        let expected = match fields.next() {
            None => None,
            Some(text) => Some(text.parse::<i32>().map_err(|_| {
                at(format!(
                    "score {} is not an integer",
                    gametree::text::excerpt(text)
                ))
            })?),
        };
        if let Some(extra) = fields.next() {
            return Err(at(format!(
                "unexpected {} after MOVES SCORE",
                gametree::text::excerpt(extra)
            )));
        }
        let game = board.position(moves).map_err(at)?;
        // A score no position can have is a mistake in the input, not a wrong answer (as
        // in a book file).
        let reach = game.max_score();
        if let Some(score) = expected.filter(|score| score.abs() > reach) {
            return Err(at(format!(
                "score {score} is not a whole number within ±{reach}"
            )));
        }
        Ok(Some(FilePosition {
            number,
            moves: moves.to_string(),
            expected,
            game,
        }))
    }

    /// Reports on stderr a score that differs from the expected one; whether it did.
    fn check(&self, position: &FilePosition, score: i32, weak: bool) -> bool {
        match position.expected {
            Some(expected) if !agrees(score, expected, weak) => {
                let moves = if position.moves.is_empty() {
                    "the empty board"
                } else {
                    &position.moves
                };
                eprintln!(
                    "gametree: {} line {}: {moves} scores {score}, not {expected}",
                    self.source, position.number
                );
                true
            }
            _ => false,
        }
    }
}

/// Whether a solved score agrees with an expected one (by sign when solving weakly).
fn agrees(found: i32, expected: i32, weak: bool) -> bool {
    if weak {
        found == expected.signum()
    } else {
        found == expected
    }
}

/// Solves one position on `threads` threads from a cleared table, timing the clearing and
/// the solving.
fn solve_fresh(
    solver: &mut Solver<ConnectFour>,
    game: &mut ConnectFour,
    threads: usize,
) -> (Solution, Duration) {
    let started = Instant::now();
    solver.clear();
    let solution = solver.solve_parallel(game, threads);
    (solution, started.elapsed())
}

fn solve(args: &SolveArgs) -> Result<Outcome, CliError> {
    let mut solver = Solver::new(args.board.options(args.weak)?);
    let threads = args.threads.count()?;
    let mut reader = PositionReader::open(args.file.as_deref())?;
    // Positions typed at a terminal: no spinner, which would spin while the program only
    // waits for the next line.
    let typed = reader.source == "stdin" && io::stdin().is_terminal();
    let spinner = if typed {
        indicatif::ProgressBar::hidden()
    } else {
        progress::spinner("solving")
    };
    let watch = progress::watch_solve(&spinner, solver.progress());
    let mut mismatches = 0usize;
    let mut solved = 0usize;
    while let Some(mut position) = reader.next_position(&args.board)? {
        spinner.set_prefix(format!(
            "solving position {} ({} line {})",
            solved + 1,
            reader.source,
            position.number,
        ));
        let (solution, elapsed) = solve_fresh(&mut solver, &mut position.game, threads);
        solved += 1;
        if args.json {
            outln!(
                "{}",
                json!({
                    "moves": position.moves,
                    "score": solution.score,
                    "expected": position.expected,
                    "nodes": solution.stats.nodes,
                    "microseconds": elapsed.as_micros() as u64,
                    "peak_memory_mib": peak_memory_bytes().map(|bytes| bytes >> 20),
                })
            )?;
        } else {
            outln!(
                "{} {} {} {}",
                position.moves,
                solution.score,
                solution.stats.nodes,
                elapsed.as_micros()
            )?;
        }
        if reader.check(&position, solution.score, args.weak) {
            mismatches += 1;
        }
    }
    drop(watch);
    spinner.finish_and_clear();
    Ok(if mismatches == 0 {
        Outcome::Found
    } else {
        Outcome::NotFound
    })
}

fn analyze(args: &AnalyzeArgs) -> Result<Outcome, CliError> {
    let mut game = args.board.position(&args.moves).map_err(CliError::Usage)?;
    let mut solver = Solver::new(args.board.options(args.weak)?);
    let threads = args.threads.count()?;
    let book = args.book.load(&args.board.empty_board()?)?;
    let spinner = progress::spinner("analysing");
    let watch = progress::watch_solve(&spinner, solver.progress());
    let scores = column_scores(&mut solver, &mut game, threads, book.as_ref(), |column| {
        spinner.set_prefix(format!("analysing column {}", column + 1));
    });
    let scores: Vec<Option<i32>> = if args.weak {
        scores
            .into_iter()
            .map(|score| score.map(i32::signum))
            .collect()
    } else {
        scores
    };
    drop(watch);
    spinner.finish_and_clear();
    if args.json {
        outln!("{}", json!({ "moves": args.moves, "scores": scores }))?;
    } else {
        let fields: Vec<String> = scores
            .iter()
            .map(|score| score.map_or_else(|| "-".to_string(), |score| score.to_string()))
            .collect();
        outln!("{}", fields.join(" "))?;
    }
    Ok(Outcome::Found)
}

/// The score of each column for the player to move, `None` for a full column: from the
/// book where it has the successor, else solved on `threads` threads (the table kept from
/// one to the next); `starting` is told each column before it is solved.
fn column_scores(
    solver: &mut Solver<ConnectFour>,
    game: &mut ConnectFour,
    threads: usize,
    book: Option<&OpeningBook>,
    mut starting: impl FnMut(u8),
) -> Vec<Option<i32>> {
    let mut scores = vec![None; game.width() as usize];
    let mut columns = Vec::new();
    game.successors(&mut columns);
    for column in columns {
        starting(column);
        game.update(column);
        // The successor's score is the opponent's.
        let score = match book.and_then(|book| book.score(game)) {
            Some(score) => -score,
            None => -solver.solve_parallel(game, threads).score,
        };
        game.revert(column);
        scores[usize::from(column)] = Some(score);
    }
    scores
}

/// What the computer found out about one of its moves: the score for it, or bounds on it
/// when the search ran out of budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct MoveScore {
    pub(super) at_least: i32,
    pub(super) at_most: i32,
}

/// The computer's column (0-based): each move solved within `max_nodes` positions; the
/// best guaranteed score, then the best possible one, and the centre-most among equals.
pub(super) fn computer_move(
    solver: &mut Solver<ConnectFour>,
    game: &mut ConnectFour,
    max_nodes: u64,
    threads: usize,
    book: Option<&OpeningBook>,
) -> Option<(u8, MoveScore)> {
    // A win at once is the best score there is: no other move needs solving (each could
    // take the whole budget).
    let mut moves = Vec::new();
    game.successors(&mut moves);
    moves.retain(|&column| game.is_winning_move(column));
    if !moves.is_empty() {
        let scores: Vec<(u8, MoveScore)> = moves
            .into_iter()
            .map(|column| {
                let score = column_score(solver, game, column, max_nodes, threads, book);
                (column, score)
            })
            .collect();
        return best_of(game, &scores);
    }
    let scores = move_scores(solver, game, max_nodes, threads, book);
    best_of(game, &scores)
}

/// Each legal column (0-based) with its score for the player to move, from the book or
/// solved within `max_nodes` positions (bounds when the budget runs out).
pub(super) fn move_scores(
    solver: &mut Solver<ConnectFour>,
    game: &mut ConnectFour,
    max_nodes: u64,
    threads: usize,
    book: Option<&OpeningBook>,
) -> Vec<(u8, MoveScore)> {
    let mut moves = Vec::new();
    game.successors(&mut moves);
    moves
        .into_iter()
        .map(|column| {
            (
                column,
                column_score(solver, game, column, max_nodes, threads, book),
            )
        })
        .collect()
}

/// The score of `column` (0-based) for the player to move, from the book or solved within
/// `max_nodes` positions (bounds when the budget runs out).
fn column_score(
    solver: &mut Solver<ConnectFour>,
    game: &mut ConnectFour,
    column: u8,
    max_nodes: u64,
    threads: usize,
    book: Option<&OpeningBook>,
) -> MoveScore {
    game.update(column);
    // The successor's score is for the opponent: negate and swap its bounds.
    let known = book.and_then(|book| book.score(game));
    let solved = match known {
        Some(score) => Ok(score),
        None => solver
            .solve_parallel_reporting(game, threads, max_nodes, |_| {})
            .map(|solution| solution.score),
    };
    let score = match solved {
        Ok(score) => MoveScore {
            at_least: -score,
            at_most: -score,
        },
        Err(unsolved) => {
            // No win comes before a player's fourth stone: scores lie within
            // ±(max − 3), whatever interval the budget left.
            let reach = game.max_score() - 3;
            MoveScore {
                at_least: (-unsolved.at_most).clamp(-reach, reach),
                at_most: (-unsolved.at_least).clamp(-reach, reach),
            }
        }
    };
    game.revert(column);
    score
}

/// The column to play of `scores`: the best guaranteed score, then the best possible one,
/// and the centre-most among equals.
pub(super) fn best_of(game: &ConnectFour, scores: &[(u8, MoveScore)]) -> Option<(u8, MoveScore)> {
    let centre = f64::from(game.width() - 1) / 2.0;
    let distance = |column: u8| (f64::from(column) - centre).abs();
    let mut best: Option<(u8, MoveScore)> = None;
    for &(column, score) in scores {
        let better = match best {
            None => true,
            Some((best_column, best_score)) => {
                (score.at_least, score.at_most) > (best_score.at_least, best_score.at_most)
                    || ((score.at_least, score.at_most)
                        == (best_score.at_least, best_score.at_most)
                        && distance(column) < distance(best_column))
            }
        };
        if better {
            best = Some((column, score));
        }
    }
    best
}

fn play(args: &PlayArgs) -> Result<Outcome, CliError> {
    let stdin = io::stdin();
    let stdout = io::stdout();
    // Piped moves are not shown by a terminal: echo them so the transcript reads well.
    let echo = !stdin.is_terminal();
    let options = args.board.options(false)?;
    let game = args
        .board
        .position(&args.moves)
        .map_err(|error| CliError::Usage(format!("--moves {error}")))?;
    args.engine.check()?;
    if args.max_nodes == 0 {
        return Err(CliError::Usage(
            "--max-nodes 0: the computer needs to search at least one position".into(),
        ));
    }
    let threads = args.threads.count()?;
    let book = args.book.load(&args.board.empty_board()?)?;
    let mut computer = Computer::new(&args.engine, options, args.max_nodes, threads, book);
    play_game(
        game,
        &mut computer,
        args.side,
        echo,
        &mut stdin.lock(),
        &mut stdout.lock(),
    )?;
    Ok(Outcome::Found)
}

/// A person plays the computer, one column per line from `input`; bad input is answered
/// with the reason and asked for again; the end of input ends the game quietly.
fn play_game(
    mut game: ConnectFour,
    computer: &mut Computer,
    side: Option<Side>,
    echo: bool,
    input: &mut impl BufRead,
    output: &mut impl Write,
) -> Result<(), CliError> {
    let human = match side {
        Some(Side::First) => Player::Max,
        Some(Side::Second) => Player::Min,
        None => loop {
            write!(output, "Play first (X) or second (O)? [1/2] ")?;
            output.flush()?;
            let Some(answer) = prompt::read_answer(input, echo, output)? else {
                return Ok(());
            };
            match answer.to_ascii_lowercase().as_str() {
                "1" | "x" | "first" => break Player::Max,
                "2" | "o" | "second" => break Player::Min,
                _ => writeln!(output, "{answer:?} is neither 1 nor 2; try again.")?,
            }
        },
    };
    let mark = |player| if player == Player::Max { 'X' } else { 'O' };
    writeln!(
        output,
        "You are {}. Type a column number, 1 to {}.",
        mark(human),
        game.width()
    )?;
    loop {
        writeln!(output, "\n{game}\n")?;
        if game.is_over() {
            let verdict = match game.winner() {
                Some(winner) if winner == human => "You win.",
                Some(_) => "The computer wins.",
                None => "A draw.",
            };
            writeln!(output, "{verdict}")?;
            return Ok(());
        }
        if game.to_move() == human {
            loop {
                write!(output, "Your move ({}): ", mark(human))?;
                output.flush()?;
                let Some(answer) = prompt::read_answer(input, echo, output)? else {
                    return Ok(());
                };
                let played = match answer.parse::<u32>() {
                    Ok(column) => game
                        .play(column)
                        .map(|()| column)
                        .map_err(|error| error.to_string()),
                    Err(_) => Err(format!(
                        "{answer:?} is not a column number 1 to {}",
                        game.width()
                    )),
                };
                match played {
                    Ok(column) => {
                        // `play` accepted it: a column 1 to the width, at most 64.
                        let index = u8::try_from(column - 1).expect("invariant: a played column");
                        computer.played(index);
                        break;
                    }
                    Err(reason) => writeln!(output, "{reason}; try again.")?,
                }
            }
        } else {
            let spinner = progress::spinner("thinking");
            spinner.set_message(computer.describe());
            let choice = computer
                .choose(&mut game)
                .expect("invariant: a game that is not over has a move");
            spinner.finish_and_clear();
            let (column, score) = match choice {
                Choice::Solved(column, score) => (column, score),
                Choice::Sampled(column, result) => {
                    let visits = result
                        .moves
                        .iter()
                        .find(|statistics| statistics.mv == column)
                        .map_or(0, |statistics| statistics.visits);
                    writeln!(
                        output,
                        "The computer ({}) plays {} ({visits} of {} playouts).",
                        mark(human.opponent()),
                        column + 1,
                        result.root_visits
                    )?;
                    game.update(column);
                    computer.played(column);
                    continue;
                }
            };
            let max_nodes = computer.max_nodes;
            let verdict = if score.at_least == score.at_most {
                let outlook = match score.at_least.signum() {
                    1 => "it wins",
                    0 => "it draws",
                    _ => "it loses",
                };
                format!("score {}: with best play {outlook}", score.at_least)
            } else {
                format!(
                    "score between {} and {}: not solved within {max_nodes} positions",
                    score.at_least, score.at_most
                )
            };
            writeln!(
                output,
                "The computer ({}) plays {} ({verdict}).",
                mark(human.opponent()),
                column + 1
            )?;
            game.update(column);
            computer.played(column);
        }
    }
}

/// The computer's player: the solver within a budget of positions per move, or Monte
/// Carlo tree search keeping its tree from move to move (on `threads` threads by root
/// parallelism, which at equal playouts chose as well as one thread in
/// `examples/graded_engines.rs` and took 1.6–1.8 times less time on two cores).
struct Computer {
    solver: Solver<ConnectFour>,
    max_nodes: u64,
    threads: usize,
    book: Option<OpeningBook>,
    mcts: Option<(Box<RootParallel<ConnectFour, RandomColumns>>, Budget)>,
}

/// A move the computer chose, and how.
enum Choice {
    /// By the solver: the score's bounds.
    Solved(u8, MoveScore),
    /// By Monte Carlo tree search: what it found.
    Sampled(u8, MctsResult<u8>),
}

impl Computer {
    fn new(
        engine: &EngineArgs,
        options: SolveOptions,
        max_nodes: u64,
        threads: usize,
        book: Option<OpeningBook>,
    ) -> Self {
        let mcts = (engine.engine == Engine::Mcts).then(|| {
            (
                Box::new(RootParallel::with_policy(
                    engine.mcts_options(),
                    RandomColumns,
                    threads,
                )),
                engine.budget(),
            )
        });
        Computer {
            solver: Solver::new(options),
            max_nodes,
            threads,
            book,
            mcts,
        }
    }

    /// What the spinner says while the computer thinks.
    fn describe(&self) -> String {
        match &self.mcts {
            None => format!("each move within {} positions", self.max_nodes),
            Some((_, Budget::Playouts(playouts))) => format!("{playouts} playouts"),
            Some((_, Budget::Time(time))) => format!("{:.1} s of playouts", time.as_secs_f64()),
        }
    }

    /// The computer's move; `None` when the game is over.
    fn choose(&mut self, game: &mut ConnectFour) -> Option<Choice> {
        if game.is_over() {
            return None;
        }
        match &mut self.mcts {
            None => computer_move(
                &mut self.solver,
                game,
                self.max_nodes,
                self.threads,
                self.book.as_ref(),
            )
            .map(|(column, score)| Choice::Solved(column, score)),
            Some((search, budget)) => {
                let result = search.search(game, *budget);
                Some(Choice::Sampled(result.best_move?, result))
            }
        }
    }

    /// Tells a Monte Carlo search which move was played, so it keeps that subtree.
    fn played(&mut self, column: u8) {
        if let Some((search, _)) = &mut self.mcts {
            search.advance(column);
        }
    }
}

fn best(args: &BestArgs) -> Result<Outcome, CliError> {
    args.engine.check()?;
    let options = args.board.options(false)?;
    if args.max_nodes == 0 {
        return Err(CliError::Usage(
            "--max-nodes 0: the computer needs to search at least one position".into(),
        ));
    }
    let mut game = args.board.position(&args.moves).map_err(CliError::Usage)?;
    let threads = args.threads.count()?;
    let book = args.book.load(&args.board.empty_board()?)?;
    let mut computer = Computer::new(&args.engine, options, args.max_nodes, threads, book);
    let spinner = progress::spinner("thinking");
    spinner.set_message(computer.describe());
    let started = Instant::now();
    let choice = computer
        .choose(&mut game)
        .expect("invariant: a game that is not over has a move");
    let elapsed = started.elapsed();
    spinner.finish_and_clear();
    match choice {
        Choice::Solved(column, score) => {
            if args.json {
                outln!(
                    "{}",
                    json!({
                        "moves": args.moves,
                        "engine": "alphabeta",
                        "move": column + 1,
                        "score": (score.at_least == score.at_most).then_some(score.at_least),
                        "at_least": score.at_least,
                        "at_most": score.at_most,
                        "max_nodes": args.max_nodes,
                        "microseconds": elapsed.as_micros() as u64,
                    })
                )?;
            } else {
                let score_text = if score.at_least == score.at_most {
                    score.at_least.to_string()
                } else {
                    format!(
                        "between {} and {} (not solved within {} positions a move)",
                        score.at_least, score.at_most, args.max_nodes
                    )
                };
                outln!(
                    "best move {}\nengine    alphabeta\nscore     {score_text}",
                    column + 1
                )?;
            }
        }
        Choice::Sampled(column, result) => {
            if args.json {
                outln!(
                    "{}",
                    json!({
                        "moves": args.moves,
                        "engine": "mcts",
                        "move": column + 1,
                        "search": args.engine.mcts_json(&result, |column| json!(column + 1)),
                    })
                )?;
            } else {
                outln!(
                    "best move {}\nengine    mcts\n{}",
                    column + 1,
                    mcts_text(&result, |column| (column + 1).to_string())
                )?;
            }
        }
    }
    Ok(Outcome::Found)
}

fn prove(args: &ProveArgs) -> Result<Outcome, CliError> {
    args.board.options(true)?;
    if args.max_nodes == Some(0) {
        return Err(CliError::Usage(
            "--max-nodes 0: the search needs to visit at least one position".into(),
        ));
    }
    let mut game = args.board.position(&args.moves).map_err(CliError::Usage)?;
    let mut dfpn = DfPn::new(DfPnOptions {
        table_mib: args.board.table_mib,
        max_nodes: args.max_nodes.unwrap_or(u64::MAX),
        ..DfPnOptions::default()
    });
    let spinner = progress::spinner("proving");
    spinner.set_message(format!("{} by df-pn", gametree::text::excerpt(&args.moves)));
    let weak = dfpn.weak_value(&mut game);
    spinner.finish_and_clear();
    // df-pn's value is MAX's (the first player's); print it for the player to move.
    let value = weak.value.map(|value| match game.to_move() {
        Player::Max => value,
        Player::Min => -value,
    });
    if args.json {
        outln!(
            "{}",
            json!({
                "moves": args.moves,
                "value": value,
                "nodes": weak.stats.nodes,
                "microseconds": weak.stats.elapsed.as_micros() as u64,
            })
        )?;
    } else {
        let verdict = match value {
            Some(1) => "1 (the player to move wins)",
            Some(0) => "0 (a draw)",
            Some(_) => "-1 (the player to move loses)",
            None => "unknown (the node budget ran out)",
        };
        outln!("value     {verdict}\nnodes     {}", weak.stats.nodes)?;
    }
    Ok(if value.is_some() {
        Outcome::Found
    } else {
        Outcome::NotFound
    })
}

/// Per-file figures of `bench`.
struct FileFigures {
    positions: usize,
    total_time: Duration,
    total_nodes: u64,
    wrong: usize,
}

fn bench(args: &BenchArgs) -> Result<Outcome, CliError> {
    let mut solver = Solver::new(args.board.options(args.weak)?);
    let threads = args.threads.count()?;
    let mut any_wrong = false;
    // The file column is as wide as the longest name (Pons' names fit in 14).
    let width = args
        .files
        .iter()
        .filter_map(|path| path.file_name())
        .map(|name| name.to_string_lossy().chars().count())
        .max()
        .unwrap_or(0)
        .max(14);
    for (index, path) in args.files.iter().enumerate() {
        let mut reader = PositionReader::open(Some(path))?;
        let name = path.file_name().map_or_else(
            || reader.source.clone(),
            |name| name.to_string_lossy().into_owned(),
        );
        let mut figures = FileFigures {
            positions: 0,
            total_time: Duration::ZERO,
            total_nodes: 0,
            wrong: 0,
        };
        let bar = progress::bar(
            args.lines
                .map_or_else(|| count_lines(path), |lines| lines as u64),
            &name,
        );
        let cpu_before = process_cpu_time();
        while args.lines.is_none_or(|limit| figures.positions < limit) {
            let Some(mut position) = reader.next_position(&args.board)? else {
                break;
            };
            if position.expected.is_none() {
                return Err(CliError::Usage(format!(
                    "{} line {}: no SCORE to check (bench reads `MOVES SCORE` lines)",
                    reader.source, position.number
                )));
            }
            let (solution, elapsed) = solve_fresh(&mut solver, &mut position.game, threads);
            figures.positions += 1;
            figures.total_time += elapsed;
            figures.total_nodes += solution.stats.nodes;
            if reader.check(&position, solution.score, args.weak) {
                figures.wrong += 1;
            }
            bar.inc(1);
        }
        bar.finish_and_clear();
        if figures.positions == 0 {
            return Err(CliError::Usage(format!(
                "{}: no positions to solve (bench reads `MOVES SCORE` lines)",
                reader.source
            )));
        }
        let cpu = process_cpu_time()
            .zip(cpu_before)
            .map(|(after, before)| after.saturating_sub(before));
        any_wrong |= figures.wrong > 0;
        let count = figures.positions as f64;
        let seconds = figures.total_time.as_secs_f64();
        let positions_per_second = if seconds > 0.0 {
            figures.total_nodes as f64 / seconds
        } else {
            0.0
        };
        let mean_cpu_ms = cpu.map(|cpu| cpu.as_secs_f64() * 1000.0 / count);
        // The whole process's peak so far: after the largest file it is that file's.
        let peak_memory = peak_memory_bytes();
        if args.json {
            outln!(
                "{}",
                json!({
                    "file": name,
                    "positions": figures.positions,
                    "mean_ms": seconds * 1000.0 / count,
                    "mean_cpu_ms": mean_cpu_ms,
                    "mean_nodes": figures.total_nodes as f64 / count,
                    "nodes_per_second": positions_per_second.round() as u64,
                    "peak_memory_mib": peak_memory.map(|bytes| bytes >> 20),
                    "threads": threads,
                    "wrong": figures.wrong,
                })
            )?;
            continue;
        }
        let verdict = if figures.wrong == 0 {
            "all correct".to_string()
        } else {
            format!("{} WRONG", figures.wrong)
        };
        let cpu_text = mean_cpu_ms.map_or_else(|| "-".to_string(), |ms| format!("{ms:.3} ms"));
        let memory_text =
            peak_memory.map_or_else(|| "-".to_string(), |bytes| format!("{} MiB", bytes >> 20));
        if index == 0 {
            outln!(
                "{:<width$} {:>9} {:>12} {:>12} {:>16} {:>12} {:>11}  scores",
                "file",
                "positions",
                "mean time",
                "mean CPU",
                "mean positions",
                "positions/s",
                "peak memory"
            )?;
        }
        outln!(
            "{name:<width$} {:>9} {:>9.3} ms {cpu_text:>12} {:>16.0} {:>10.2} M {memory_text:>11}  {verdict}",
            figures.positions,
            seconds * 1000.0 / count,
            figures.total_nodes as f64 / count,
            positions_per_second / 1e6,
        )?;
    }
    Ok(if any_wrong {
        Outcome::NotFound
    } else {
        Outcome::Found
    })
}

/// The lines of a file, for a progress bar's length (0 when it cannot be read: the reader
/// reports that).
fn count_lines(path: &Path) -> u64 {
    File::open(path).map_or(0, |file| BufReader::new(file).lines().count() as u64)
}

/// The most stones `connect4 book --plies` takes: 10 stones are about 1.6 million
/// positions on 7×6 (held in memory while the book is made), far more than a few hours of
/// solving here.
const MAX_BOOK_PLIES: u32 = 10;

fn book(args: &BookArgs) -> Result<Outcome, CliError> {
    let options = args.board.options(false)?;
    let threads = args.threads.count()?;
    if args.plies > MAX_BOOK_PLIES {
        return Err(CliError::Usage(format!(
            "--plies {}: at most {MAX_BOOK_PLIES} (about 1.6 million positions on 7×6)",
            args.plies
        )));
    }
    let empty = args.board.empty_board()?;
    let path = &args.file;
    let mut book = read_book(path, &empty)?;
    let kept = book.len();
    let positions = positions_up_to(&empty, args.plies);
    let missing: Vec<_> = positions
        .iter()
        .rev()
        .filter(|position| book.score(&position.game).is_none())
        .collect();
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|error| CliError::Usage(format!("cannot write {}: {error}", path.display())))?;
    let write_error =
        |error: io::Error| CliError::Usage(format!("cannot write {}: {error}", path.display()));
    let mut solver = Solver::new(options);
    let bar = progress::bar(missing.len() as u64, "book");
    for position in &missing {
        bar.set_message(format!(
            "{} ({} stones)",
            gametree::text::excerpt(&position.moves),
            position.game.moves_played()
        ));
        let mut game = position.game;
        let score = match score_from_successors(&book, &mut game) {
            Some(score) => score,
            None => solver.solve_parallel(&mut game, threads).score,
        };
        // A blank before the score of the empty board: the line has no moves.
        // One write a line, so that a stop leaves whole lines or a last one cut short.
        let line = format!("{} {score}\n", position.moves);
        file.write_all(line.as_bytes()).map_err(write_error)?;
        file.flush().map_err(write_error)?;
        book.insert(&position.game, score);
        bar.inc(1);
    }
    file.sync_all().map_err(write_error)?;
    bar.finish_and_clear();
    let solved = missing.len();
    if args.json {
        outln!(
            "{}",
            json!({
                "file": path.display().to_string(),
                "plies": args.plies,
                "positions": positions.len(),
                "solved": solved,
                "kept": kept,
            })
        )?;
    } else {
        outln!(
            "book {}: {} positions of up to {} stones ({solved} solved now, {kept} already there)",
            path.display(),
            positions.len(),
            args.plies
        )?;
    }
    Ok(Outcome::Found)
}

/// Negamax over the book: the score of `game` when the book has every unfinished successor
/// (the best of their negated scores; a move that wins at once scores the win).
fn score_from_successors(book: &OpeningBook, game: &mut ConnectFour) -> Option<i32> {
    let mut columns = Vec::new();
    game.successors(&mut columns);
    // Pons' score of a win at once: (cells + 1 − stones played before it) / 2.
    let win = (game.width() * game.height() + 1 - game.moves_played()) as i32 / 2;
    let mut best = None;
    for column in columns {
        let score = if game.is_winning_move(column) {
            win
        } else {
            game.update(column);
            let successor = if game.is_over() {
                Some(0)
            } else {
                book.score(game).map(|score| -score)
            };
            game.revert(column);
            successor?
        };
        best = Some(best.map_or(score, |best: i32| best.max(score)));
    }
    best
}

/// The book in `path` so far (empty when there is no such file). A last line cut short
/// (the run was stopped while writing it) is dropped from the file, and said so.
fn read_book(path: &Path, empty: &ConnectFour) -> Result<OpeningBook, CliError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(error) if error.kind() == io::ErrorKind::NotFound => String::new(),
        Err(error) => {
            return Err(CliError::Usage(format!(
                "cannot read {}: {error}",
                path.display()
            )));
        }
    };
    let whole = match text.rfind('\n') {
        Some(end) => &text[..=end],
        None => "",
    };
    if whole.len() < text.len() {
        eprintln!(
            "gametree: {}: the last line was cut short; it is solved again",
            path.display()
        );
        std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|file| file.set_len(whole.len() as u64))
            .map_err(|error| {
                CliError::Usage(format!("cannot write {}: {error}", path.display()))
            })?;
    }
    OpeningBook::parse(whole, empty)
        .map_err(|error| CliError::Usage(format!("{}: {error}", path.display())))
}
