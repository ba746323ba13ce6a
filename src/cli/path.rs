//! `gametree path`: paths in a graph file by McCarthy's depth-first `search` (seed 001).

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use clap::Args;
use gametree::{Graph, all_paths, first_path};

use super::{CliError, Outcome};

/// Arguments of `gametree path`.
#[derive(Args, Debug)]
pub struct PathArgs {
    /// The graph file: one line per node, `A B C` for the edges A→B and A→C; names are any
    /// tokens without spaces; `#` starts a comment; a node heading several lines has the
    /// edges of all of them.
    graph: PathBuf,
    /// The node every path starts from.
    #[arg(long, value_name = "NODE")]
    from: String,
    /// The node every path ends at.
    #[arg(long, value_name = "NODE")]
    to: String,
    /// Print every path that visits no node twice, one per line, then `N paths`.
    #[arg(long)]
    all: bool,
}

/// Runs `gametree path`: prints the first path found (or every path with `--all`), or
/// `no path` with exit status 1.
pub fn run(args: PathArgs) -> Result<Outcome, CliError> {
    let usage = |error: gametree::GraphError| CliError::Usage(error.to_string());
    let graph = Graph::read(&args.graph).map_err(usage)?;
    let from = graph.node(&args.from).map_err(usage)?;
    let to = graph.node(&args.to).map_err(usage)?;
    let mut out = BufWriter::new(io::stdout().lock());
    let found = if args.all {
        let mut count: u64 = 0;
        for path in all_paths(&graph, from, to) {
            count += 1;
            if writeln!(out, "{}", graph.format_path(&path)).is_err() {
                // The reader went away (a closed pipe): nothing more to say.
                return Ok(Outcome::Found);
            }
        }
        if count > 0 {
            let _ = writeln!(out, "{count} paths");
        }
        count > 0
    } else {
        match first_path(&graph, from, to) {
            Some(path) => {
                let _ = writeln!(out, "{}", graph.format_path(&path));
                true
            }
            None => false,
        }
    };
    if found {
        Ok(Outcome::Found)
    } else {
        let _ = writeln!(out, "no path");
        Ok(Outcome::NotFound)
    }
}
