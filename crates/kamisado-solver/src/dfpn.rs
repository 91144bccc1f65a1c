//! Depth-first proof-number search (df-pn) deciding whether the side to move wins.
//!
//! Nagai's df-pn in negamax form: a node's proof number is the smallest disproof number
//! of its children, its disproof number the sum of their proof numbers, and the search
//! descends into the child with the smallest disproof number until its numbers pass
//! thresholds derived from the parent's. A child where the same player moves again (after
//! automatic zero-length moves) keeps its numbers' roles instead of swapping them. Pawlewicz and Lew's 1+epsilon trick widens the
//! child's threshold so the search does not hop between siblings of similar promise.
//! Numbers live in the shared [`Table`], so threads working on neighbouring problems
//! reuse each other's proofs. The game graph is acyclic, so no cycle handling is needed.

use crate::cancel::Cancel;
use crate::table::{Entry, Table};
use crate::{Game, Value};

/// Infinity for proof and disproof numbers.
pub const INF: u32 = u32::MAX;
/// Largest finite proof number; sums saturate here so that they never fake a proof.
const MAX_FINITE: u32 = INF - 1;

/// Score bounds of an entry the remoteness search has not touched.
pub const FULL_RANGE: (i16, i16) = (i16::MIN, i16::MAX);

/// A child and its numbers seen from the parent: `proof` is what it contributes to the
/// parent's proof number, `disproof` to its disproof number.
struct Child<G: Game> {
    pos: G::Position,
    key: u128,
    /// Whether the opponent moves next (the child's numbers swap roles), or the same player
    /// moves again after automatic moves (they keep them).
    passed: bool,
    proof: u32,
    disproof: u32,
}

impl<G: Game> Child<G> {
    /// Sets the parent-view numbers from the child's own (pn, dn).
    #[inline]
    fn set(&mut self, (pn, dn): (u32, u32)) {
        (self.proof, self.disproof) = if self.passed { (dn, pn) } else { (pn, dn) };
    }
}

/// One thread's df-pn state over a shared table.
pub struct Prover<'a, G: Game> {
    game: &'a G,
    table: &'a Table,
    stop: &'a Cancel<'a>,
    nodes: u64,
    /// Children lists by depth, reused to keep allocation off the hot path.
    frames: Vec<Vec<Child<G>>>,
    moves: Vec<G::Move>,
}

impl<'a, G: Game> Prover<'a, G> {
    pub fn new(game: &'a G, table: &'a Table, stop: &'a Cancel<'a>) -> Prover<'a, G> {
        Prover {
            game,
            table,
            stop,
            nodes: 0,
            frames: Vec::new(),
            moves: Vec::new(),
        }
    }

    /// Nodes expanded so far by this prover.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The value of `pos` for the side to move, or `None` if stopped first.
    pub fn prove(&mut self, pos: &G::Position) -> Option<Value> {
        let (pn, dn) = self.evaluate(pos).1;
        let (pn, dn) = if pn == 0 || dn == 0 {
            (pn, dn)
        } else {
            let key = self.game.key(pos);
            self.mid(pos, key, INF, INF, 0)
        };
        match (pn, dn) {
            (0, _) => Some(Value::Win),
            (_, 0) => Some(Value::Loss),
            _ => None,
        }
    }

    /// The rules' (or the table's) proof and disproof numbers of a position, and its key
    /// (0 when the rules decide it: such a position is never searched).
    #[inline]
    fn evaluate(&self, pos: &G::Position) -> (u128, (u32, u32)) {
        match self.evaluate_by_rules(pos) {
            (key, Some(numbers)) => (key, numbers),
            (key, None) => match self.table.get(key) {
                Some(e) => (key, (e.pn, e.dn)),
                None => (key, self.game.estimate(pos)),
            },
        }
    }

    /// The numbers of a finished game or a win in one, which need no table; otherwise the
    /// key to look the position up under.
    #[inline]
    fn evaluate_by_rules(&self, pos: &G::Position) -> (u128, Option<(u32, u32)>) {
        match self.game.outcome(pos) {
            Some(Value::Win) => (0, Some((0, INF))),
            Some(Value::Loss) => (0, Some((INF, 0))),
            // A win in one needs no table: the rules alone prove it, and cheaply.
            None if self.game.winning_move(pos).is_some() => (0, Some((0, INF))),
            None => (self.game.key(pos), None),
        }
    }

    /// Multiple-iterative deepening at one node: search until its proof number reaches
    /// `th_pn` or its disproof number reaches `th_dn`, and return both numbers.
    fn mid(
        &mut self,
        pos: &G::Position,
        key: u128,
        th_pn: u32,
        th_dn: u32,
        depth: usize,
    ) -> (u32, u32) {
        self.nodes += 1;
        let start_nodes = self.nodes;
        if self.frames.len() <= depth {
            self.frames.resize_with(depth + 1, Vec::new);
        }
        let mut children = std::mem::take(&mut self.frames[depth]);
        children.clear();

        self.game.moves(pos, &mut self.moves);
        let player = self.game.player(pos);
        let mut won = false;
        for i in 0..self.moves.len() {
            let child_pos = self.game.play(pos, self.moves[i]);
            let (child_key, numbers) = self.evaluate_by_rules(&child_pos);
            let mut child = Child {
                pos: child_pos,
                key: child_key,
                passed: self.game.player(&child_pos) != player,
                proof: 0,
                disproof: 0,
            };
            match numbers {
                Some(numbers) => child.set(numbers),
                None => self.table.prefetch(child_key),
            }
            if numbers.is_some() && child.proof == 0 {
                // This move wins: no need to look further.
                won = true;
                break;
            }
            children.push(child);
        }
        if !won {
            // The table lookups, once every bucket is on its way.
            for child in children.iter_mut().filter(|c| c.key != 0) {
                let numbers = match self.table.get(child.key) {
                    Some(e) => (e.pn, e.dn),
                    None => self.game.estimate(&child.pos),
                };
                child.set(numbers);
                won |= child.proof == 0;
            }
        }

        let (mut pn, mut dn) = (0, INF);
        if !won {
            loop {
                // pn = smallest child proof, dn = sum of child disproofs; find the best two.
                let (mut best, mut best_proof, mut second_proof) = (0, INF, INF);
                let mut sum: u32 = 0;
                for (i, c) in children.iter().enumerate() {
                    if c.proof < best_proof {
                        second_proof = best_proof;
                        best_proof = c.proof;
                        best = i;
                    } else if c.proof < second_proof {
                        second_proof = c.proof;
                    }
                    sum = add(sum, c.disproof);
                }
                pn = best_proof;
                dn = sum;
                if pn == 0 || dn == 0 || pn >= th_pn || dn >= th_dn || self.stop.is_cancelled() {
                    break;
                }
                let c = &children[best];
                // Thresholds in the parent's view, then in the child's own.
                let th_proof = th_pn.min(widen(second_proof));
                let th_disproof = if th_dn == INF {
                    INF
                } else {
                    th_dn - dn + c.disproof
                };
                let (child_th_pn, child_th_dn) = if c.passed {
                    (th_disproof, th_proof)
                } else {
                    (th_proof, th_disproof)
                };
                let (c_pos, c_key) = (c.pos, c.key);
                let numbers = self.mid(&c_pos, c_key, child_th_pn, child_th_dn, depth + 1);
                children[best].set(numbers);
            }
        }

        let work = (self.nodes - start_nodes + 1).min(u32::MAX as u64) as u32;
        self.table.update(key, |e| {
            let (low, high) = e.map_or(FULL_RANGE, |e| (e.low, e.high));
            let work = e.map_or(work, |e| e.work.saturating_add(work));
            *e = Some(Entry {
                pn,
                dn,
                work,
                low,
                high,
            });
        });
        self.frames[depth] = children;
        (pn, dn)
    }
}

/// Sum of proof numbers: infinity absorbs, finite sums saturate below infinity.
#[inline]
fn add(a: u32, b: u32) -> u32 {
    if a == INF || b == INF {
        INF
    } else {
        a.saturating_add(b).min(MAX_FINITE)
    }
}

/// The 1+epsilon threshold (epsilon = 1/4): stay with a child until its disproof number
/// exceeds the second best's by a quarter, not by one.
#[inline]
fn widen(second: u32) -> u32 {
    if second >= MAX_FINITE {
        INF
    } else {
        second.saturating_add(second / 4 + 1).min(MAX_FINITE)
    }
}
