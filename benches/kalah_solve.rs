//! Solving Kalah from the start, as Irving, Donkers and Uiterwijk ("Solving Kalah", ICGA
//! Journal 23(3), 2000) did: the time, positions and memory of each solve, the endgame
//! table's time reported apart.
//!
//! ```sh
//! cargo bench --bench kalah_solve         # Kalah(6,4), 25-seed table (1.2 GiB, 7 min to build)
//! KALAH_BENCH_SEEDS=4,5 KALAH_BENCH_ENDGAME=29 cargo bench --bench kalah_solve
//! ```
//!
//! The second solves Kalah(6,4) and Kalah(6,5) with a 29-seed table (5.2 GiB of memory;
//! about 50 minutes to build on two cores, once).
//!
//! Settings, from the environment:
//! - `KALAH_BENCH_SEEDS`: the seeds a house of the problems solved, comma separated
//!   (default `4`);
//! - `KALAH_BENCH_ENDGAME`: the endgame table's seeds: positions with fewer seeds in the
//!   houses are valued in it (default 25: 1.25 G positions, a byte each);
//! - `KALAH_BENCH_THREADS`: search threads, comma separated (default `1,2`);
//! - `KALAH_BENCH_TABLE_MIB`: the transposition table's greatest size (default 1024).
//!
//! The endgame table is built once (minutes for 25 seeds) and kept in
//! `target/kalah-endgame/`, from where later runs read it.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use gametree::games::kalah::KalahRules;
use gametree::search::retrograde::{Endgame, EndgameTable};
use gametree::{Kalah, SolveOptions, Solver};

fn setting(name: &str, default: &str) -> Vec<usize> {
    let text = std::env::var(name).unwrap_or_else(|_| default.to_string());
    let parsed: Result<Vec<usize>, _> = text.split(',').map(|field| field.trim().parse()).collect();
    parsed.unwrap_or_else(|_| {
        eprintln!("{name}={text}: expected numbers separated by commas");
        std::process::exit(2);
    })
}

/// The endgame table of `seeds` seeds for six houses, from `target/kalah-endgame/` or
/// built and saved there; and the seconds it took to build or read.
fn endgame_table(board: &Kalah, seeds: usize) -> (EndgameTable, f64, &'static str) {
    let directory = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/kalah-endgame");
    let path = directory.join(format!("kalah-6-irving-{seeds}.db"));
    let started = Instant::now();
    if let Ok(file) = std::fs::File::open(&path)
        && let Ok(table) =
            EndgameTable::read_from(std::io::BufReader::new(file), &board.endgame_id())
    {
        return (table, started.elapsed().as_secs_f64(), "read");
    }
    eprintln!(
        "building the {seeds}-seed endgame table into {} (once)",
        path.display()
    );
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let table = EndgameTable::build_parallel(board, seeds, cores, |_| {})
        .expect("a six-house table of at most 30 seeds fits");
    let seconds = started.elapsed().as_secs_f64();
    std::fs::create_dir_all(&directory).expect("target/ is writable");
    let file = std::fs::File::create(&path).expect("target/ is writable");
    table
        .write_to(std::io::BufWriter::new(file))
        .expect("the table is written");
    (table, seconds, "built")
}

fn main() {
    let problems = setting("KALAH_BENCH_SEEDS", "4");
    let endgame_seeds = setting("KALAH_BENCH_ENDGAME", "25")[0];
    let thread_counts = setting("KALAH_BENCH_THREADS", "1,2");
    let table_mib = setting("KALAH_BENCH_TABLE_MIB", "1024")[0];
    let rules = KalahRules::default();
    let board = Kalah::new(6, 1, rules).expect("six houses");
    let (table, table_seconds, how) = endgame_table(&board, endgame_seeds);
    println!(
        "endgame table: fewer than {endgame_seeds} seeds in the houses, {} positions, {:.0} MiB, {how} in {table_seconds:.1} s",
        table.positions(),
        table.memory_bytes() as f64 / f64::from(1 << 20),
    );
    let table = Arc::new(table);
    println!(
        "{:<11} {:>7} {:>6} {:>14} {:>10} {:>12} {:>10}",
        "problem", "threads", "value", "positions", "seconds", "positions/s", "table MiB"
    );
    for &seeds in &problems {
        for &threads in &thread_counts {
            let seeds_a_house = u8::try_from(seeds).expect("a few seeds a house");
            let mut game = Kalah::new(6, seeds_a_house, rules)
                .and_then(|game| game.with_endgame(Arc::clone(&table)))
                .expect("Kalah(6, seeds) with a six-house table");
            let mut solver = Solver::new(SolveOptions {
                table_mib,
                enhanced_transposition_cutoffs: false,
                ..SolveOptions::default()
            });
            let started = Instant::now();
            let solution = solver.solve_parallel(&mut game, threads);
            let seconds = started.elapsed().as_secs_f64();
            println!(
                "{:<11} {:>7} {:>6} {:>14} {:>10.3} {:>11.2}M {:>10}",
                format!("Kalah(6,{seeds})"),
                threads,
                solution.value,
                solution.stats.nodes,
                seconds,
                solution.stats.nodes as f64 / seconds / 1e6,
                solver.table_memory_bytes() >> 20
            );
        }
    }
}
