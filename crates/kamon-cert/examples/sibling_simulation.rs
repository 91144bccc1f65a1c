//! Can one unit's proof prove its siblings? (Kawano's simulation, measured.) A winning
//! first cell's units differ only in the opponent's reply: `f5 d1` and `f5 d5` are the
//! same position but for White's piece on d1 instead of d5. So the winner's strategy in
//! one unit's certificate, read with the two reply cells swapped, may win the other unit
//! too. This walks the target unit's proof with the source certificate's choices (cells
//! swapped) and, where a choice is missing, illegal or fails below, searches that position
//! with the solver (its own table, shared by all such searches), and prints how many
//! positions the walk went through, how many choices the source gave and how many it
//! missed, and the solver's nodes: against the target's own search (its units file's
//! nodes), what simulation would save. At a position of the winner, the source's own
//! choice is tried first, then any placement after which the source shows the loser
//! losing (reached there by another line).
//!
//! Measured 2026-12-05 on seed 10's first cell f5 (source `f5 d1`, 80 M nodes in its
//! units search, 9.6 M entries; beside a CI run): alone, the source's choices prove no
//! sibling (`f5 e2`, `f5 f3`, `f5 b3`, `f5 d7`: each walk fails within 35 positions, the
//! reply's cell changes the connections and, once played, the chips). With the solver
//! where they fail: `f5 e2` proven with 35.4 M solver nodes in 503 k small searches
//! against its own search's 90.1 M, but the walk went through 9.7 M positions to get
//! there, 51 s in all (its own search is about a minute); `f5 f1` and `f5 d7`, where the
//! source's first choice is not legal (the reply's chip names other cells), gain nothing:
//! the search of the whole unit (335.6 M nodes for `f5 f1`). At most a factor of two on
//! some siblings, none on others, and a certificate to make first: not kept.
//!
//! ```text
//! cargo run --release -p kamon-cert --example sibling_simulation -- SOURCE.kcert "f5 d5" [MB]
//! ```
//!
//! (MB 0: no search; a position the source does not show counts as not shown.)

use std::collections::HashMap;
use std::time::Instant;

use kamisado_solver::{Cancel, Options, Solver, Value};
use kamon_cert::{Certificate, Entry, Kind};
use kamon_core::{Cell, KamonGame, Layout, Outcome, Position};

struct Simulation<'a> {
    layout: &'a Layout,
    source: &'a [Entry],
    /// The two cells swapped between the source's unit and the target's (bit numbers).
    swap: (u32, u32),
    solver: Solver<KamonGame>,
    memo: HashMap<(u128, bool), bool>,
    walked: u64,
    hinted: u64,
    missed: u64,
    searched: u64,
    failed_hints: u64,
    /// Search where the source does not show it (else count it as not shown).
    search: bool,
}

impl Simulation<'_> {
    /// The key of the source's position that `key` (a target position) stands for.
    fn mapped_key(&self, key: u128) -> u128 {
        let (a, b) = self.swap;
        let mut k = key;
        for offset in [0, 56] {
            let (ba, bb) = (k >> (a + offset) & 1, k >> (b + offset) & 1);
            k &= !(1 << (a + offset) | 1 << (b + offset));
            k |= ba << (b + offset) | bb << (a + offset);
        }
        let last = (k >> 112 & 63) as u32;
        let mapped = if last == a {
            b
        } else if last == b {
            a
        } else {
            last
        };
        k & !(63u128 << 112) | (mapped as u128) << 112
    }

    fn swapped(&self, cell: Cell) -> Cell {
        let (a, b) = self.swap;
        let bit = cell.bit();
        let other = if bit == a {
            b
        } else if bit == b {
            a
        } else {
            bit
        };
        Cell::from_bit(other).unwrap()
    }

    /// The source's entries about the position `key` (a target position) stands for.
    fn source_entries(&self, key: u128) -> &[Entry] {
        let (low, high) = Entry::range_of_key(self.mapped_key(key));
        let start = self.source.partition_point(|e| e.bits() < low);
        let end = self.source.partition_point(|e| e.bits() <= high);
        &self.source[start..end]
    }

    /// The source's winning placement at the position `key` stands for, swapped back.
    fn hint(&self, key: u128) -> Option<Cell> {
        self.source_entries(key)
            .iter()
            .find(|e| e.kind() == Kind::Wins)
            .and_then(|e| e.placement().ok().flatten())
            .map(|c| self.swapped(c))
    }

    /// Whether the source says the side to move at the position `key` stands for loses.
    fn source_loses(&self, key: u128) -> bool {
        self.source_entries(key)
            .iter()
            .any(|e| e.kind() == Kind::Loses)
    }

    /// Whether the side to move at `pos` wins (`wins`) or loses (`!wins`), shown by the
    /// source's choices where they hold and by the solver where they do not.
    fn shows(&mut self, pos: &Position, wins: bool) -> bool {
        if let Some(outcome) = pos.outcome() {
            return (outcome == Outcome::Win) == wins && outcome != Outcome::Draw;
        }
        let key = pos.key();
        if let Some(&known) = self.memo.get(&(key, wins)) {
            return known;
        }
        self.walked += 1;
        let legal = pos.legal_cells(self.layout);
        let result = if wins {
            // (Bitboard's own `any` asks whether it is empty.)
            let at_once = Iterator::any(&mut legal.into_iter(), |c| {
                pos.play_unchecked(self.layout, c).outcome() == Some(Outcome::Loss)
            });
            if at_once {
                true
            } else {
                // The source's own choice first, then any placement after which the source
                // shows the opponent losing (the source may have reached that position by
                // another line).
                let hint = self.hint(key).filter(|&c| legal.contains(c));
                let mut candidates: Vec<Cell> = hint.into_iter().collect();
                for c in legal {
                    let child_key = pos.play_unchecked(self.layout, c).key();
                    if Some(c) != hint && self.source_loses(child_key) {
                        candidates.push(c);
                    }
                }
                if candidates.is_empty() {
                    self.missed += 1;
                }
                let mut by_hint = false;
                for cell in candidates {
                    self.hinted += 1;
                    let child = pos.play_unchecked(self.layout, cell);
                    if self.shows(&child, false) {
                        by_hint = true;
                        break;
                    }
                    self.failed_hints += 1;
                }
                by_hint
                    || self.search && {
                        self.searched += 1;
                        let node = self.solver.game().node(pos);
                        self.solver
                            .value_at_least(&node, Value::Win, &Cancel::new())
                            .unwrap()
                    }
            }
        } else {
            Iterator::all(&mut legal.into_iter(), |c| {
                let child = pos.play_unchecked(self.layout, c);
                self.shows(&child, true)
            })
        };
        self.memo.insert((key, wins), result);
        result
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let source = Certificate::read(std::path::Path::new(&args[0])).unwrap();
    let moves: Vec<Cell> = args[1]
        .split_whitespace()
        .map(|m| m.parse().unwrap())
        .collect();
    let mb: usize = args.get(2).map_or(512, |m| m.parse().unwrap());
    let layout = source.layout.clone();
    let claim = source.claims[0];
    assert_eq!(
        claim.exact(),
        Some(Outcome::Win),
        "a won unit's certificate"
    );
    let mut target = Position::start(&layout);
    for &m in &moves {
        target = target.play(&layout, m).unwrap();
    }
    // The cells the two units differ in: the source's and the target's last placement.
    let from = Cell::from_bit((claim.position.key() >> 112 & 63) as u32).unwrap();
    let to = *moves.last().unwrap();
    let solver = Solver::new(
        KamonGame::new(layout.clone()),
        Options {
            threads: 1,
            table_bytes: mb.max(1) << 20,
        },
    )
    .unwrap();
    let mut sim = Simulation {
        layout: &layout,
        source: &source.entries,
        swap: (from.bit(), to.bit()),
        solver,
        memo: HashMap::new(),
        walked: 0,
        hinted: 0,
        missed: 0,
        searched: 0,
        failed_hints: 0,
        search: mb > 0,
    };
    let started = Instant::now();
    let wins = sim.shows(&target, true);
    println!(
        "{} from {from} to {to}: wins {wins}; walked {} positions, {} hints used ({} failed below), {} missing, {} searches, {} solver nodes, {:.1} s",
        args[1],
        sim.walked,
        sim.hinted,
        sim.failed_hints,
        sim.missed,
        sim.searched,
        sim.solver.nodes(),
        started.elapsed().as_secs_f64()
    );
}
