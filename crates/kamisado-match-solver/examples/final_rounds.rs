//! What one final-round question costs, as the speculative proof's verifier asks it: a
//! sample of the final rounds (round starts where every round win of either side ends the
//! match) whose facts a proof file holds, each settled by
//! [`OracleMatch::settle_round_start`] with an empty store, so that the round solver is
//! asked. Prints each question's round nodes and seconds, then the distribution.
//!
//! ```text
//! cargo run --release -p kamisado-match-solver --example final_rounds -- \
//!     data/match-proofs/urgnob.kmp 200 [--fresh] [--round-game] [--table-mb 256]
//! ```
//!
//! By default one round solver (one table, as the verifier has) answers the whole sample
//! in key order; `--fresh` gives every question a new solver and table, to see what the
//! shared table saves; `--round-game` asks the plain round game (`MatchRound`) instead of
//! the clinch question, which in a final round has the same value (every round win ends
//! the match), to see what the clinch question's rules cost. The values are checked
//! against the file's.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use kamisado_match::{KeyStage, MatchPosition, MatchRound};
use kamisado_match_solver::{file, Fact, OracleMatch, Store};
use kamisado_solver::{Cancel, Options, Solver};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: final_rounds PROOF-FILE SAMPLE [--fresh] [--round-game] [--table-mb N]";
    let (Some(path), Some(sample)) = (args.first(), args.get(1)) else {
        eprintln!("{usage}");
        return ExitCode::from(2);
    };
    let sample = match sample.parse::<usize>() {
        Ok(n) if n >= 1 => n,
        _ => {
            eprintln!("the sample size {sample:?} is not a whole number of at least 1; {usage}");
            return ExitCode::from(2);
        }
    };
    let fresh = args.iter().any(|a| a == "--fresh");
    let table_mb = match args.iter().position(|a| a == "--table-mb") {
        Some(i) => match args.get(i + 1).and_then(|t| t.parse::<usize>().ok()) {
            Some(mb) if mb >= 1 => mb,
            _ => {
                eprintln!("--table-mb needs a whole number of MiB, at least 1; {usage}");
                return ExitCode::from(2);
            }
        },
        None => 256,
    };
    let facts = match file::read(&PathBuf::from(path)) {
        Ok(facts) => facts,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let finals: Vec<(MatchPosition, Fact)> = facts
        .iter()
        .filter(|(key, fact)| {
            MatchPosition::key_stage(*key) == KeyStage::RoundStart && fact.value().is_some()
        })
        .filter_map(|&(key, fact)| Some((MatchPosition::from_match_key(key).ok()?, fact)))
        .filter(|(pos, _)| OracleMatch::is_final_round(pos))
        .collect();
    if finals.is_empty() {
        eprintln!("{path} holds no proven final round");
        return ExitCode::from(2);
    }
    // Evenly spread over the key order, the same sample every run.
    let step = (finals.len() / sample).max(1);
    let chosen: Vec<&(MatchPosition, Fact)> = finals.iter().step_by(step).take(sample).collect();
    println!(
        "{} proven final rounds in {path}; {} sampled; table {table_mb} MiB, {}",
        finals.len(),
        chosen.len(),
        if fresh {
            "fresh per question"
        } else {
            "one for all"
        }
    );
    let table_bytes = table_mb << 20;
    let make = || OracleMatch::new(table_bytes, true, Arc::new(Store::new())).expect("a table");
    let mut game = make();
    let round_game = args.iter().any(|a| a == "--round-game");
    let rounds = Solver::new(
        MatchRound,
        Options {
            threads: 1,
            table_bytes,
        },
    )
    .expect("a table");
    let mut rows: Vec<(u64, f64)> = Vec::new();
    let started = Instant::now();
    for (i, (pos, fact)) in chosen.iter().enumerate() {
        if fresh {
            game = make();
        }
        let t = Instant::now();
        let (value, nodes) = if round_game {
            let before = rounds.nodes();
            let value = rounds.value(pos, &Cancel::new()).expect("not stopped");
            (Some(value), rounds.nodes() - before)
        } else {
            let before = game.round_nodes();
            let value = game.settle_round_start(pos).expect("not stopped");
            (value, game.round_nodes() - before)
        };
        let seconds = t.elapsed().as_secs_f64();
        if value != fact.value() {
            eprintln!("question {i}: the round solver says {value:?}, the file {fact:?}");
            return ExitCode::from(1);
        }
        rows.push((nodes, seconds));
        println!(
            "{i:4} {nodes:10} nodes {seconds:8.4} s {:8.0} knodes/s  {pos}",
            nodes as f64 / seconds / 1e3
        );
    }
    let total = started.elapsed().as_secs_f64();
    let mut nodes: Vec<u64> = rows.iter().map(|r| r.0).collect();
    nodes.sort_unstable();
    let mut secs: Vec<f64> = rows.iter().map(|r| r.1).collect();
    secs.sort_by(f64::total_cmp);
    let n = rows.len();
    let sum: u64 = nodes.iter().sum();
    println!(
        "nodes: median {} mean {} p90 {} total {sum}",
        nodes[n / 2],
        sum / n as u64,
        nodes[n * 9 / 10]
    );
    println!(
        "seconds: median {:.4} mean {:.4} p90 {:.4} total {total:.1}; {:.0} knodes/s",
        secs[n / 2],
        total / n as f64,
        secs[n * 9 / 10],
        sum as f64 / total / 1e3
    );
    ExitCode::SUCCESS
}
