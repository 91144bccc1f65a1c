//! What a search cost, in every report that searched (of any game): nodes, time, the
//! tables and their fill, the process's peak memory.

use std::time::Instant;

use kamisado_solver::{Game, Solver};
use serde::Serialize;

use crate::Oracle;

/// What the search cost, in every report that searched (of any game).
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct SearchStats {
    pub nodes: u64,
    pub seconds: f64,
    pub nodes_per_second: u64,
    pub threads: usize,
    pub hash_mb: u64,
    /// The fraction of the table in use at the end; NaN (and left out of JSON) where the
    /// search's tables are gone when it reports (a split's units).
    #[serde(skip_serializing_if = "is_nan")]
    pub table_fill: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub peak_memory_bytes: Option<u64>,
}

fn is_nan(x: &f64) -> bool {
    x.is_nan()
}

impl SearchStats {
    pub fn collect<G: Game>(solver: &Solver<G>, started: Instant) -> SearchStats {
        SearchStats::since(solver, started, 0)
    }

    /// The solver's count beyond `nodes_before` (a solver kept from one search to the
    /// next, as `kamisado serve` keeps one), and the time since `started`.
    pub fn since<G: Game>(solver: &Solver<G>, started: Instant, nodes_before: u64) -> SearchStats {
        SearchStats::of_tables(
            solver.nodes().saturating_sub(nodes_before),
            solver.threads(),
            &[(solver.table().bytes(), solver.table().fill())],
            started,
        )
    }

    /// The cost of an oracle's searches: both its solvers' nodes, and the tables made.
    pub fn of_oracle(oracle: &Oracle, started: Instant) -> SearchStats {
        let mut tables = Vec::new();
        let mut threads = 1;
        if let Some(s) = oracle.single_round_solver() {
            tables.push((s.table().bytes(), s.table().fill()));
            threads = s.threads();
        }
        if let Some(s) = oracle.round_solver() {
            tables.push((s.table().bytes(), s.table().fill()));
            threads = s.threads();
        }
        SearchStats::of_tables(oracle.nodes(), threads, &tables, started)
    }

    /// `tables`: each table's bytes and fill; the fill reported is over all of them.
    fn of_tables(
        nodes: u64,
        threads: usize,
        tables: &[(usize, f64)],
        started: Instant,
    ) -> SearchStats {
        let seconds = started.elapsed().as_secs_f64();
        let bytes: usize = tables.iter().map(|t| t.0).sum();
        let filled: f64 = tables.iter().map(|t| t.0 as f64 * t.1).sum();
        let fill = if bytes == 0 {
            0.0
        } else {
            filled / bytes as f64
        };
        SearchStats {
            nodes,
            seconds,
            nodes_per_second: (nodes as f64 / seconds.max(1e-9)) as u64,
            threads,
            hash_mb: (bytes >> 20) as u64,
            table_fill: (fill * 1000.0).round() / 1000.0,
            peak_memory_bytes: peak_memory_bytes(),
        }
    }

    /// `1,234 nodes in 0.05 s (24,680 nodes/s), 2 thread(s), 16 MiB table 1% full`.
    pub fn line(&self) -> String {
        format!(
            "{} nodes in {:.2} s ({} nodes/s), {} thread(s), {} MiB table {:.0}% full{}",
            thousands(self.nodes),
            self.seconds,
            thousands(self.nodes_per_second),
            self.threads,
            self.hash_mb,
            self.table_fill * 100.0,
            self.peak_memory_bytes
                .map(|b| format!(", peak memory {} MiB", b >> 20))
                .unwrap_or_default()
        )
    }
}

/// The process's peak resident memory so far, where the system says (Linux).
pub fn peak_memory_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// The machine's one-minute load average, where the system says (Linux): what the survey
/// and units files record beside each time.
pub fn load_average() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// `1234567` as `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::thousands;

    #[test]
    fn thousands_are_grouped_by_three() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
    }
}
