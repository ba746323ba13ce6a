//! Argument parsing and printing for the `gametree` binary. Only this module knows every
//! game; each subcommand lives in a file of its own.
//!
//! Every subcommand speaks one dialect (docs/cli.md): positions in the game's notation
//! (nothing is the empty board), `--side first|second` for the person's side, `--json` for
//! one compact JSON object per result (docs/json.md), progress on stderr only when it is a
//! terminal (`--quiet` turns it off), and exit status 0 done, 1 "no solution" or "wrong
//! score", 2 bad input or a failed read or write, written in each `--help`.

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

mod checkers;
mod connect4;
mod cpu_time;
mod engine;
mod experiment;
mod insanity;
mod kalah;
mod limits;
mod output;
mod path;
mod progress;
mod prompt;
#[cfg(feature = "serve")]
mod serve;
mod tree;
mod ttt;

/// Game-tree and puzzle search after McCarthy and Slagle.
#[derive(Parser, Debug)]
#[command(
    name = "gametree",
    version,
    about,
    long_about = None,
    arg_required_else_help = true,
    after_help = "Examples:\n  \
        $ gametree insanity\n  \
        ((G W R B) (R W G B) (B R G W) (W B G R))\n  \
        $ gametree ttt line --moves 2,1\n  \
        (0 5 10 6 4 7 3 11)\n\n\
        `gametree help COMMAND` or `gametree COMMAND --help` says more about each command."
)]
struct Cli {
    /// Show no progress on stderr (it is shown only when stderr is a terminal)
    #[arg(long, short, global = true)]
    quiet: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// McCarthy's tic-tac-toe (seed 000): the value, main line or proof of a position, or
    /// a game against the computer
    #[command(
        arg_required_else_help = true,
        after_help = "Example:\n  $ gametree ttt line --moves 2,1\n  (0 5 10 6 4 7 3 11)"
    )]
    Ttt(ttt::TttArgs),
    /// Find paths between two nodes of a graph file by McCarthy's depth-first search.
    ///
    /// A position is a path, kept newest node first; a path that revisits a node loses.
    #[command(
        arg_required_else_help = true,
        after_help = "Example:\n  $ gametree path tests/data/diamond.graph --from A --to D --all\n  \
        A B D\n  A C D\n  2 paths\n\n\
        The graph file has one line per node: `A B C` for the edges A→B and A→C."
    )]
    Path(path::PathArgs),
    /// Solve Instant Insanity: stack cubes so each side of the tower shows every colour.
    ///
    /// Prints the four sides of the tower, each newest cube first, as McCarthy's program
    /// does.
    #[command(after_help = "Examples:\n  $ gametree insanity\n  \
        ((G W R B) (R W G B) (B R G W) (W B G R))\n  \
        $ gametree insanity GBBWRG GGBGWR GWWRBR GGRBWW --repr list --all --quiet\n  \
        ((G W R B) (R W G B) (B R G W) (W B G R))\n  \
        ((G W R B) (R W G B) (B R G W) (W B G R))\n  \
        ((G W R B) (G R W B) (B R G W) (W G B R))\n  \
        3 solutions")]
    Insanity(insanity::InsanityArgs),
    /// Search an explicit game tree written as an S-expression: leaves are numbers,
    /// `(child child ...)` a position, MAX at the root, moves 1..k from the left.
    #[command(
        arg_required_else_help = true,
        after_help = "Examples:\n  \
        $ gametree tree proof '((3 5) (2 9))' --json\n  \
        {\"value\":3,\"bound\":\"exact\",\"move\":1,\"pfmax\":[1,[2,5],[1,3]],\"pfmin\":[[2,1,2],[1,1,3]],\"leaves\":3,\"nodes\":6,\"cutoffs\":1}\n  \
        $ echo '((3 5) (2 9))' | gametree tree alphabeta --alpha 4 --beta 10\n  \
        value: 4\n  \
        bound: upper (failed low: the value is at most this)\n  \
        leaves: 2\n  \
        nodes: 5\n  \
        cutoffs: 2\n  \
        $ gametree tree prove '((1 -1) (1 1))'\n  \
        claim: value ≥ 1\n  \
        outcome: proven\n  \
        refutation: none\n  \
        proof: (2 (2 1) (1 1))\n  \
        leaves: 6\n  \
        nodes: 11"
    )]
    Tree(tree::TreeArgs),
    /// English draughts (checkers): perft over the legal-move tree, the best move of a
    /// position, a game against the computer.
    #[command(
        arg_required_else_help = true,
        after_help = "Examples:\n  \
        $ gametree checkers perft 6 --json\n  \
        {\"position\":\"B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\",\"depth\":6,\"nodes\":36768,[..]}\n  \
        $ gametree checkers best --depth 6 | grep 'best move'\n  \
        best move 10-15"
    )]
    Checkers(checkers::CheckersArgs),
    /// Connect Four solved by the generic solver: benchmark files, move analysis, a game
    /// against the computer.
    ///
    /// Moves are 1-based columns, first player first; scores are for the player to move:
    /// 0 a draw, 22 - k a win with the k-th stone at the earliest (7×6), negative a loss.
    #[command(
        arg_required_else_help = true,
        after_help = "Example:\n  $ gametree connect4 analyze 5554224333234511764415115\n  -8 -8 -8 -8 - 4 -8"
    )]
    Connect4(connect4::Connect4Args),
    /// Kalah(h, s), the game of Slagle and Dixon's M&N experiments, solved by the generic
    /// solver: a position's value and best moves, every move's value, perft, a game against
    /// the computer.
    ///
    /// Values are South's store less North's at the end of the game (South moves first).
    #[command(
        arg_required_else_help = true,
        after_help = "Example:\n  $ gametree kalah solve --houses 4 --seeds 3 | grep value\n  value     8 (South wins by 8)"
    )]
    Kalah(kalah::KalahArgs),
    /// Slagle's proposed experiment (seed 003, section 8): learn 2&2 backing-up functions
    /// on checkers, play 2&2 against 1&1 alpha-beta, and report.
    #[command(
        arg_required_else_help = true,
        after_help = "Example:\n  \
        $ gametree experiment slagle --quick --out /tmp/gametree-slagle-quick --quiet | tail -1\n  \
        done: results in /tmp/gametree-slagle-quick; `gametree experiment report /tmp/gametree-slagle-quick` prints the report"
    )]
    Experiment(experiment::ExperimentArgs),
    /// A web page to play the games and watch the searches step by step, served on
    /// localhost (docs/serve.md)
    #[cfg(feature = "serve")]
    #[command(
        after_help = "It prints `listening on http://127.0.0.1:8080/`: open that address in \
        a browser. Ctrl-C stops the server. The page's JSON API is in docs/serve.md."
    )]
    Serve(serve::ServeArgs),
}

/// The sides of a two-player game, as every `play` subcommand takes them: `--side first`
/// or `--side second`, or the game's own names for them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Side {
    /// The player who moves first: X in tic-tac-toe and Connect Four, Black in checkers,
    /// South in Kalah
    #[value(aliases = ["x", "black", "south", "1"])]
    First,
    /// The player who moves second: O, White in checkers, North in Kalah
    #[value(aliases = ["o", "white", "north", "2"])]
    Second,
}

/// What exit status 1 means for each subcommand that uses it; every other subcommand
/// exits 0 or 2.
const NOT_FOUND_MEANINGS: [(&str, &str); 5] = [
    ("path", "no path"),
    (
        "prove",
        "the node budget (--max-nodes) ran out before the value was proven",
    ),
    ("insanity", "no solution"),
    (
        "connect4 solve",
        "a position's score differs from the SCORE given",
    ),
    (
        "bench",
        "a position's score differs from the one in the file",
    ),
];

/// Appends the exit statuses to the help of `command` and of every subcommand under it.
fn with_exit_statuses(command: clap::Command) -> clap::Command {
    with_exit_statuses_under("", command)
}

/// [`with_exit_statuses`] for a command under `parent` (`connect4` for `connect4 solve`):
/// a meaning of [`NOT_FOUND_MEANINGS`] is found by the command's name or by its parent's
/// name and its own (`kalah solve` has no score to differ from).
fn with_exit_statuses_under(parent: &str, command: clap::Command) -> clap::Command {
    let name = command.get_name().to_string();
    let full_name = if parent.is_empty() {
        name.clone()
    } else {
        format!("{parent} {name}")
    };
    let leaf = !command.has_subcommands();
    let under = if parent.is_empty() && name == "gametree" {
        String::new()
    } else {
        full_name.clone()
    };
    let command = command.mut_subcommands(|sub| with_exit_statuses_under(&under, sub));
    let mut text = command
        .get_after_help()
        .map(|help| format!("{help}\n\n"))
        .unwrap_or_default();
    if !leaf {
        text.push_str(
            "Exit status: 0 done; 1 as each command's --help says (no path, no solution, a \
             wrong score); 2 bad input, or a file or standard output that cannot be read or \
             written.",
        );
        return command.after_help(text);
    }
    text.push_str("Exit status:\n  0  done\n");
    if let Some((_, meaning)) = NOT_FOUND_MEANINGS
        .iter()
        .find(|(used_by, _)| *used_by == name || *used_by == full_name)
    {
        text.push_str(&format!("  1  {meaning}\n"));
    }
    text.push_str("  2  bad input, or a file or standard output that cannot be read or written");
    command.after_help(text)
}

/// A failure the binary reports on stderr in one line, with exit status 2.
#[derive(Debug)]
pub enum CliError {
    /// Bad input from the user, or a file the command cannot read or write: the message.
    Usage(String),
    /// Standard output could not be written. A closed pipe (the reader went away, as in
    /// `| head`) ends the program quietly with status 0; anything else is reported.
    Output(std::io::Error),
}

impl From<std::io::Error> for CliError {
    /// Only for writes to standard output or to the person playing: `?` on `writeln!`.
    /// Files and standard input report their own errors with a message that names them.
    fn from(error: std::io::Error) -> Self {
        CliError::Output(error)
    }
}

/// What a subcommand reports on success: exit status 0, or 1 when it found nothing.
pub enum Outcome {
    /// The search found what was asked for.
    Found,
    /// The search found nothing (no path, no solution): exit status 1.
    NotFound,
}

/// Parses the command line, runs the subcommand, and maps its result to an exit status:
/// 0 found, 1 not found, 2 bad input.
pub fn run() -> ExitCode {
    let command = with_negative_numbers(with_exit_statuses(Cli::command()));
    let cli = match command
        .try_get_matches()
        .and_then(|matches| Cli::from_arg_matches(&matches))
    {
        Ok(cli) => cli,
        Err(error) => return usage_error(&error),
    };
    progress::set_quiet(cli.quiet);
    let result: Result<Outcome, CliError> = match cli.command {
        Command::Ttt(args) => ttt::run(args),
        Command::Path(args) => path::run(args),
        Command::Insanity(args) => insanity::run(args),
        Command::Tree(args) => tree::run(&args),
        Command::Checkers(args) => checkers::run(args),
        Command::Connect4(args) => connect4::run(args),
        Command::Kalah(args) => kalah::run(args),
        Command::Experiment(args) => experiment::run(args),
        #[cfg(feature = "serve")]
        Command::Serve(args) => serve::run(&args),
    };
    // What is still buffered must reach the reader too (a closed pipe is not an error).
    let result = result.and_then(|outcome| {
        std::io::Write::flush(&mut std::io::stdout()).map_err(CliError::Output)?;
        Ok(outcome)
    });
    match result {
        Ok(Outcome::Found) => ExitCode::SUCCESS,
        Ok(Outcome::NotFound) => ExitCode::from(1),
        Err(CliError::Output(error)) if error.kind() == std::io::ErrorKind::BrokenPipe => {
            ExitCode::SUCCESS
        }
        Err(CliError::Output(error)) => {
            eprintln!("gametree: cannot write to standard output: {error}");
            ExitCode::from(2)
        }
        Err(CliError::Usage(message)) => {
            eprintln!("gametree: {message}");
            ExitCode::from(2)
        }
    }
}

/// What clap found wrong with the command line: help and version on stdout with status 0;
/// a command given without its subcommand or arguments prints its help on stderr; anything
/// else is one line on stderr. Status 2 for both.
fn usage_error(error: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match error.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            return match output::write(format_args!("{error}")) {
                Err(CliError::Output(error)) if error.kind() != std::io::ErrorKind::BrokenPipe => {
                    eprintln!("gametree: cannot write to standard output: {error}");
                    ExitCode::from(2)
                }
                _ => ExitCode::SUCCESS,
            };
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            eprint!("{error}");
            return ExitCode::from(2);
        }
        _ => {}
    }
    // One line on stderr: clap's first paragraph says what was wrong (for a missing
    // argument it names the argument on the lines after the first).
    let rendered = error.to_string();
    let message = rendered
        .lines()
        .take_while(|line| !line.trim().is_empty())
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ");
    let message = message.trim_start_matches("error: ");
    eprintln!(
        "gametree: {}{}",
        if message.is_empty() {
            "invalid arguments"
        } else {
            message
        },
        suggestion(error)
    );
    ExitCode::from(2)
}

/// Clap's guess at what was meant, for the one line: ` (did you mean --depth?)`, or
/// nothing.
fn suggestion(error: &clap::Error) -> String {
    use clap::error::{ContextKind, ContextValue};
    let guesses: Vec<String> = [
        ContextKind::SuggestedArg,
        ContextKind::SuggestedSubcommand,
        ContextKind::SuggestedValue,
    ]
    .into_iter()
    .filter_map(|kind| error.get(kind))
    .flat_map(|value| match value {
        ContextValue::String(text) => vec![text.clone()],
        ContextValue::Strings(texts) => texts.clone(),
        _ => Vec::new(),
    })
    .collect();
    if guesses.is_empty() {
        String::new()
    } else {
        format!(" (did you mean {}?)", guesses.join(" or "))
    }
}

/// Lets every command take a negative number as a value (`--time -1`, a one-leaf tree
/// `-5`), so that it reaches the command's own check instead of reading as a flag.
fn with_negative_numbers(command: clap::Command) -> clap::Command {
    command
        .allow_negative_numbers(true)
        .mut_subcommands(with_negative_numbers)
}
