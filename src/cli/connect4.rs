//! `gametree connect4`: Connect Four solved by the generic solver (null-window narrowing,
//! transposition table, the game's pruning), on Pascal Pons' benchmark files, move by move,
//! and against a person in the terminal.

use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::{Args, Subcommand, ValueEnum};

use gametree::{ConnectFour, Game, Player, Solution, SolveOptions, Solver};

use super::prompt;
use super::{CliError, Outcome};

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
    #[command(
        after_help = "Example:\n  echo '2252576253462244111563365343671351441 -1' \
        | gametree connect4 solve\n  2252576253462244111563365343671351441 -1 5 6"
    )]
    Solve(SolveArgs),
    /// The score of every move from a position (for the player to move), one field per
    /// column, `-` for a full column
    #[command(
        after_help = "Example:\n  gametree connect4 analyze 5554224333234511764415115\n  \
        -8 -8 -8 -8 - 4 -8"
    )]
    Analyze(AnalyzeArgs),
    /// Play against the computer, which solves each move it considers within a budget
    /// (and so plays perfectly once the game is small enough); type a column number per
    /// move
    #[command(after_help = "Example:\n  gametree connect4 play --width 5 --height 4 --as first")]
    Play(PlayArgs),
    /// Solve whole benchmark files and report per file the mean time per position (wall
    /// clock of the solving; CPU time of the whole file where the system reports it), the
    /// mean positions searched, and whether every score was right
    #[command(
        after_help = "Example:\n  gametree connect4 bench ../shared/data/connect4/Test_L3_R1"
    )]
    Bench(BenchArgs),
}

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
    /// search needs)
    #[arg(long, value_name = "MIB", default_value_t = SolveOptions::default().table_mib)]
    table_mib: usize,
    /// Turn off enhanced transposition cutoffs (for comparison)
    #[arg(long)]
    no_etc: bool,
}

impl BoardArgs {
    fn empty_board(&self) -> Result<ConnectFour, CliError> {
        ConnectFour::with_size(self.width, self.height)
            .map_err(|error| CliError::Usage(error.to_string()))
    }

    fn options(&self, weak: bool) -> Result<SolveOptions, CliError> {
        if self.table_mib == 0 {
            return Err(CliError::Usage(
                "--table-mib 0: the table needs at least 1 MiB".into(),
            ));
        }
        Ok(SolveOptions {
            weak,
            enhanced_transposition_cutoffs: !self.no_etc,
            table_mib: self.table_mib,
        })
    }

    /// The board after `moves`, or a usage error naming the bad move.
    fn position(&self, moves: &str) -> Result<ConnectFour, CliError> {
        let mut game = self.empty_board()?;
        game.play_moves(moves)
            .map_err(|error| CliError::Usage(format!("{moves:?}: {error}")))?;
        Ok(game)
    }
}

#[derive(Args, Debug)]
struct SolveArgs {
    /// The positions, one per line; `-` or nothing for standard input
    file: Option<PathBuf>,
    /// Weak solving: only win (1), draw (0) or loss (-1); a given SCORE is compared by sign
    #[arg(long)]
    weak: bool,
    #[command(flatten)]
    board: BoardArgs,
}

#[derive(Args, Debug)]
struct AnalyzeArgs {
    /// The moves played: 1-based columns, first player first (empty: the empty board)
    #[arg(allow_hyphen_values = false)]
    moves: String,
    /// Weak solving: only win (1), draw (0) or loss (-1)
    #[arg(long)]
    weak: bool,
    #[command(flatten)]
    board: BoardArgs,
}

#[derive(Args, Debug)]
struct PlayArgs {
    /// Whether you play first (X) or second (O); asked for when absent
    #[arg(long = "as", value_enum, value_name = "SIDE")]
    side: Option<Side>,
    /// The most positions the computer searches for each move it considers; a move not
    /// solved within them is judged by the bounds proved on its score (the opening of a
    /// 7×6 game is far too large to solve in a turn)
    #[arg(long, value_name = "N", default_value_t = 2_000_000)]
    max_nodes: u64,
    #[command(flatten)]
    board: BoardArgs,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Side {
    First,
    Second,
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
    #[command(flatten)]
    board: BoardArgs,
}

/// Runs `gametree connect4`.
pub fn run(args: Connect4Args) -> Result<Outcome, CliError> {
    match args.command {
        Connect4Command::Solve(args) => solve(&args),
        Connect4Command::Analyze(args) => analyze(&args),
        Connect4Command::Play(args) => play(&args),
        Connect4Command::Bench(args) => bench(&args),
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

/// Reads `MOVES` or `MOVES SCORE` lines (Pons' benchmark format), skipping blank ones;
/// every error names the source and the line.
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
        for (index, line) in self.lines.by_ref() {
            let number = index + 1;
            let source = &self.source;
            let at =
                |message: String| CliError::Usage(format!("{source} line {number}: {message}"));
            let line = line.map_err(|error| at(format!("cannot read: {error}")))?;
            let mut fields = line.split_whitespace();
            let Some(moves) = fields.next() else {
                continue;
            };
            let expected = match fields.next() {
                None => None,
                Some(text) => Some(
                    text.parse::<i32>()
                        .map_err(|_| at(format!("score {text:?} is not an integer")))?,
                ),
            };
            if let Some(extra) = fields.next() {
                return Err(at(format!("unexpected {extra:?} after MOVES SCORE")));
            }
            let game = board
                .position(moves)
                .map_err(|CliError::Usage(error)| at(error))?;
            return Ok(Some(FilePosition {
                number,
                moves: moves.to_string(),
                expected,
                game,
            }));
        }
        Ok(None)
    }

    /// Reports on stderr a score that differs from the expected one; whether it did.
    fn check(&self, position: &FilePosition, score: i32, weak: bool) -> bool {
        match position.expected {
            Some(expected) if !agrees(score, expected, weak) => {
                eprintln!(
                    "gametree: {} line {}: {} scores {score}, not {expected}",
                    self.source, position.number, position.moves
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

/// Solves one position from a cleared table, timing the clearing and the solving.
fn solve_fresh(solver: &mut Solver<ConnectFour>, game: &mut ConnectFour) -> (Solution, Duration) {
    let started = Instant::now();
    solver.clear();
    let solution = solver.solve(game);
    (solution, started.elapsed())
}

fn solve(args: &SolveArgs) -> Result<Outcome, CliError> {
    let mut solver = Solver::new(args.board.options(args.weak)?);
    let mut reader = PositionReader::open(args.file.as_deref())?;
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut mismatches = 0usize;
    while let Some(mut position) = reader.next_position(&args.board)? {
        let (solution, elapsed) = solve_fresh(&mut solver, &mut position.game);
        // A closed pipe (`| head`) ends the output, not the program with a panic.
        if writeln!(
            out,
            "{} {} {} {}",
            position.moves,
            solution.score,
            solution.stats.nodes,
            elapsed.as_micros()
        )
        .is_err()
        {
            break;
        }
        if reader.check(&position, solution.score, args.weak) {
            mismatches += 1;
        }
    }
    Ok(if mismatches == 0 {
        Outcome::Found
    } else {
        Outcome::NotFound
    })
}

fn analyze(args: &AnalyzeArgs) -> Result<Outcome, CliError> {
    let mut game = args.board.position(&args.moves)?;
    if game.is_over() {
        return Err(CliError::Usage(format!(
            "{:?}: the game is already over",
            args.moves
        )));
    }
    let mut solver = Solver::new(args.board.options(args.weak)?);
    let scores = column_scores(&mut solver, &mut game);
    let fields: Vec<String> = scores
        .iter()
        .map(|score| score.map_or_else(|| "-".to_string(), |score| score.to_string()))
        .collect();
    let _ = writeln!(io::stdout(), "{}", fields.join(" "));
    Ok(Outcome::Found)
}

/// The score of each column for the player to move, `None` for a full column.
fn column_scores(solver: &mut Solver<ConnectFour>, game: &mut ConnectFour) -> Vec<Option<i32>> {
    let mut scores = vec![None; game.width() as usize];
    for (column, solution) in solver.analyze(game) {
        scores[usize::from(column)] = Some(solution.score);
    }
    scores
}

/// What the computer found out about one of its moves: the score for it, or bounds on it
/// when the search ran out of budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct MoveScore {
    at_least: i32,
    at_most: i32,
}

/// The computer's column (0-based): each move solved within `max_nodes` positions; the
/// best guaranteed score, then the best possible one, and the centre-most among equals.
fn computer_move(
    solver: &mut Solver<ConnectFour>,
    game: &mut ConnectFour,
    max_nodes: u64,
) -> Option<(u8, MoveScore)> {
    let mut moves = Vec::new();
    game.successors(&mut moves);
    let centre = f64::from(game.width() - 1) / 2.0;
    let distance = |column: u8| (f64::from(column) - centre).abs();
    let mut best: Option<(u8, MoveScore)> = None;
    for column in moves {
        game.update(column);
        // The successor's score is for the opponent: negate and swap its bounds.
        let score = match solver.solve_within(game, max_nodes) {
            Ok(solution) => MoveScore {
                at_least: -solution.score,
                at_most: -solution.score,
            },
            Err(unsolved) => MoveScore {
                at_least: -unsolved.at_most,
                at_most: -unsolved.at_least,
            },
        };
        game.revert(column);
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
    let game = args.board.empty_board()?;
    let options = args.board.options(false)?;
    if args.max_nodes == 0 {
        return Err(CliError::Usage(
            "--max-nodes 0: the computer needs to search at least one position".into(),
        ));
    }
    play_game(
        game,
        options,
        args.max_nodes,
        args.side,
        echo,
        &mut stdin.lock(),
        &mut stdout.lock(),
    )
    .map_err(|error| CliError::Usage(format!("connect4 play: {error}")))?;
    Ok(Outcome::Found)
}

/// A person plays the computer, one column per line from `input`; bad input is answered
/// with the reason and asked for again; the end of input ends the game quietly.
fn play_game(
    mut game: ConnectFour,
    options: SolveOptions,
    max_nodes: u64,
    side: Option<Side>,
    echo: bool,
    input: &mut impl BufRead,
    output: &mut impl Write,
) -> io::Result<()> {
    let human = match side {
        Some(Side::First) => Player::Max,
        Some(Side::Second) => Player::Min,
        None => loop {
            write!(output, "Play first (X) or second (O)? [1/2] ")?;
            output.flush()?;
            let Some(answer) = prompt::read_line(input, echo, output)? else {
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
    let mut solver = Solver::new(options);
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
                let Some(answer) = prompt::read_line(input, echo, output)? else {
                    return Ok(());
                };
                let played = match answer.parse::<u32>() {
                    Ok(column) => game.play(column).map_err(|error| error.to_string()),
                    Err(_) => Err(format!(
                        "{answer:?} is not a column number 1 to {}",
                        game.width()
                    )),
                };
                match played {
                    Ok(()) => break,
                    Err(reason) => writeln!(output, "{reason}; try again.")?,
                }
            }
        } else {
            let (column, score) = computer_move(&mut solver, &mut game, max_nodes)
                .expect("invariant: a game that is not over has a move");
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
        }
    }
}

/// The CPU time the current thread has used, where the system keeps a clock of it (POSIX's
/// `CLOCK_THREAD_CPUTIME_ID`, to the nanosecond, including the time since the thread was
/// last scheduled): on a shared machine it leaves out the time spent waiting for a core.
#[cfg(unix)]
fn thread_cpu_time() -> Option<Duration> {
    use nix::time::{ClockId, clock_gettime};
    clock_gettime(ClockId::CLOCK_THREAD_CPUTIME_ID)
        .ok()
        .map(Duration::from)
}

/// No thread CPU clock here: the CPU column stays empty.
#[cfg(not(unix))]
fn thread_cpu_time() -> Option<Duration> {
    None
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
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let _ = writeln!(
        out,
        "{:<14} {:>9} {:>12} {:>12} {:>16} {:>12}  scores",
        "file", "positions", "mean time", "mean CPU", "mean positions", "positions/s"
    );
    let mut any_wrong = false;
    for path in &args.files {
        let mut reader = PositionReader::open(Some(path))?;
        let mut figures = FileFigures {
            positions: 0,
            total_time: Duration::ZERO,
            total_nodes: 0,
            wrong: 0,
        };
        let cpu_before = thread_cpu_time();
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
            let (solution, elapsed) = solve_fresh(&mut solver, &mut position.game);
            figures.positions += 1;
            figures.total_time += elapsed;
            figures.total_nodes += solution.stats.nodes;
            if reader.check(&position, solution.score, args.weak) {
                figures.wrong += 1;
            }
        }
        let cpu = thread_cpu_time()
            .zip(cpu_before)
            .map(|(after, before)| after.saturating_sub(before));
        any_wrong |= figures.wrong > 0;
        let name = path.file_name().map_or_else(
            || reader.source.clone(),
            |name| name.to_string_lossy().into_owned(),
        );
        let count = figures.positions.max(1) as f64;
        let seconds = figures.total_time.as_secs_f64();
        let verdict = if figures.wrong == 0 {
            "all correct".to_string()
        } else {
            format!("{} WRONG", figures.wrong)
        };
        let cpu_text = cpu.map_or_else(
            || "-".to_string(),
            |cpu| format!("{:.3} ms", cpu.as_secs_f64() * 1000.0 / count),
        );
        let _ = writeln!(
            out,
            "{name:<14} {:>9} {:>9.3} ms {cpu_text:>12} {:>16.0} {:>10.2} M  {verdict}",
            figures.positions,
            seconds * 1000.0 / count,
            figures.total_nodes as f64 / count,
            if seconds > 0.0 {
                figures.total_nodes as f64 / seconds / 1e6
            } else {
                0.0
            },
        );
    }
    Ok(if any_wrong {
        Outcome::NotFound
    } else {
        Outcome::Found
    })
}
