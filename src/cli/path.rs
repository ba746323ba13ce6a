//! `gametree path`: paths in a graph file by McCarthy's depth-first `search` (seed 001).

use std::io::{self, BufWriter, Read, Write};
use std::path::PathBuf;

use clap::Args;
use gametree::puzzles::graph_path::{
    Graph, GraphError, PathPosition, all_paths, first_path_with_stats,
};
use serde_json::{Value, json};

use super::{CliError, Outcome};

/// Arguments of `gametree path`.
#[derive(Args, Debug)]
pub struct PathArgs {
    /// The graph file, `-` for standard input: one line per node, `A B C` for the edges
    /// A→B and A→C; names are any tokens without spaces; `#` starts a comment; a node
    /// heading several lines has the edges of all of them.
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
    /// Print JSON: {"path": [names...] | null, "expanded": N}; with --all, one
    /// {"path": [names...]} per line (JSON Lines) and nothing else.
    #[arg(long)]
    json: bool,
}

/// Runs `gametree path`: prints the first path found (or every path with `--all`), or
/// `no path` with exit status 1.
pub fn run(args: PathArgs) -> Result<Outcome, CliError> {
    let usage = |error: GraphError| CliError::Usage(error.to_string());
    let graph = read_graph(&args.graph)?;
    let from = graph.node(&args.from).map_err(usage)?;
    let to = graph.node(&args.to).map_err(usage)?;
    let mut out = BufWriter::new(io::stdout().lock());
    let found = if args.all {
        let mut count: u64 = 0;
        for path in all_paths(&graph, from, to) {
            count += 1;
            // A reader gone away (a closed pipe) ends the program quietly; any other
            // write error is reported (cli::output).
            if args.json {
                writeln!(out, "{}", json!({ "path": names(&graph, &path) }))?;
            } else {
                writeln!(out, "{}", graph.format_path(&path))?;
            }
        }
        if count > 0 && !args.json {
            let plural = if count == 1 { "" } else { "s" };
            writeln!(out, "{count} path{plural}")?;
        }
        count > 0
    } else {
        let outcome = first_path_with_stats(&graph, from, to);
        if args.json {
            let path = outcome
                .solution
                .as_ref()
                .map_or(Value::Null, |path| names(&graph, path));
            // Keys in the order the documentation gives them (serde_json sorts a map's).
            writeln!(
                out,
                "{{\"path\":{path},\"expanded\":{}}}",
                outcome.stats.expanded
            )?;
        } else if let Some(path) = &outcome.solution {
            writeln!(out, "{}", graph.format_path(path))?;
        }
        outcome.solution.is_some()
    };
    if !found && !args.json {
        writeln!(out, "no path")?;
    }
    out.flush()?;
    Ok(if found {
        Outcome::Found
    } else {
        Outcome::NotFound
    })
}

/// The graph file, or standard input for `-` (named `<stdin>` in messages).
fn read_graph(file: &std::path::Path) -> Result<Graph, CliError> {
    let usage = |error: GraphError| CliError::Usage(error.to_string());
    if file.as_os_str() != "-" {
        return Graph::read(file).map_err(usage);
    }
    let mut bytes = Vec::new();
    io::stdin()
        .read_to_end(&mut bytes)
        .map_err(|error| CliError::Usage(format!("cannot read standard input: {error}")))?;
    Graph::parse("<stdin>", &bytes).map_err(usage)
}

/// A path's node names, oldest first, as a JSON array.
fn names(graph: &Graph, path: &PathPosition) -> Value {
    Value::Array(
        path.to_vec()
            .into_iter()
            .map(|node| Value::String(graph.name(node).to_string()))
            .collect(),
    )
}
