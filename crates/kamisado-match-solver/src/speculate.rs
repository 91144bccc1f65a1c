//! Speculate, then verify: a match proof whose later round starts are first assumed, then
//! checked, only those the proof needs.
//!
//! Why: a round start one round from a final round (2-1 with the trailing side to move)
//! is settled by the final rounds its round can end in, and the plain match search asks
//! the round solver about every final round it meets, at about 200,000 round nodes each
//! (measured: 286 of them in 300 s, root still unproven). Most of those questions are
//! for lines the finished proof does not use. Final rounds are very often won by the side
//! that opens them, and a round start with a leader is very often won by the leader, so:
//!
//! 1. search the match with every round start after the root's round that the store has
//!    not proved assumed to have its predicted value ([`OracleMatch::assuming_after`]; the
//!    side with more points wins, with equal points the side to move): no round solver
//!    question for them; each has a price (a proof number,
//!    [`OracleMatch::pricing_assumptions`]), so the search prefers proofs that rest on
//!    few of them;
//! 2. walk the proof that search found (one winning move where the winner moves, every
//!    move where the loser does) and collect the assumed round starts it rests on;
//! 3. ask the round solver about exactly those (its clinch questions settle every final
//!    round, and most round starts of other tiers); one it does not settle is verified by
//!    a speculative proof of its own, one tier further on, over the same store. If every
//!    assumption holds, the proof is a proof, and its round boundaries go to the store as
//!    facts. If one was wrong, the store now knows it, the table (whose values rested on
//!    it) is thrown away, and the search runs again.
//!
//! So the match is solved by tiers of the score (2-2, then 2-1 and 1-2, then 2-0, 1-1 and
//! 0-2, ...), each round start's proof resting on round starts of the next tier, and only
//! on those its proof needs (README: "Solving by tiers").
//!
//! Rejected: keeping the table across a wrong assumption and undoing only the entries that
//! depended on it (the table does not record what an entry depended on), and verifying
//! only until the first wrong assumption (every answer is a fact kept in the store for the
//! next round of speculation, which usually needs most of the same final rounds).

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use kamisado_match::{MatchMove, MatchPosition, WholeMatch};
use kamisado_solver::{Cancel, Game, Options, Score, SolveError, Solver, Value};

use crate::game::OracleMatch;
use crate::run::{MatchSolveError, MatchSolver, Progress, Proof, Run};
use crate::store::{Fact, Source};

/// A match value proved by speculation: the proof, and what speculating took.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpeculativeProof {
    /// The value and the work, summed over every search and verification.
    pub proof: Proof,
    pub speculation: Speculation,
}

/// A speculative proof's first search and walk, verifying nothing (see
/// [`MatchSolver::count_by_speculation`]).
#[derive(Clone, Debug, PartialEq)]
pub struct SpeculativeCount {
    /// The value as speculated (not proven) and the work.
    pub proof: SpeculativeProof,
    /// The assumed round starts the proof rests on, in key order.
    pub relied_on: Vec<MatchPosition>,
}

/// One share of a speculative proof's verification (see
/// [`MatchSolver::verify_share_by_speculation`]): `index` of `count`, from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Share {
    index: u32,
    count: u32,
}

impl Share {
    /// Share `index` of `count`; `None` unless 1 <= index <= count.
    pub fn new(index: u32, count: u32) -> Option<Share> {
        (1..=count)
            .contains(&index)
            .then_some(Share { index, count })
    }
}

impl std::fmt::Display for Share {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Which of the assumptions a speculative proof rests on a run verifies.
#[derive(Clone, Copy)]
enum Verifying {
    All,
    Share(Share),
    /// None: the run stops after the first search and walk.
    Nothing,
}

/// How one share of a speculative proof's verification ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ShareOutcome {
    /// The search's proof rested on no unverified assumption: it is a proof, and its
    /// round boundaries are facts in the proof file.
    Proven(SpeculativeProof),
    /// The share's assumptions are verified; the value (`proof.value`, as the search
    /// speculated it) is not proven yet. The counts are the share's.
    Verified(SpeculativeProof),
}

/// What speculation and verification did (see the module's notes), proven or not.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Speculation {
    /// Searches run (one more after each round of verification that found a wrong
    /// assumption).
    pub searches: u32,
    /// Round starts assumed to have their predicted value, summed over the searches (the
    /// walks' searches and the proofs apart included).
    pub assumed: u64,
    /// Of `assumed`, those first assumed by a walk's own searches (a winning position whose
    /// winning move neither the rules, the store nor the table showed), and how many such
    /// searches the walks ran.
    #[serde(default)]
    pub walk_assumed: u64,
    #[serde(default)]
    pub walk_searches: u64,
    /// Assumed round starts the last proof rested on (each verified).
    pub relied_on: u64,
    /// Assumptions verified in all (each a question to the round solver, or a proof of
    /// its own), and how many of them were wrong.
    pub verified: u64,
    pub wrong: u64,
    /// Of `verified`, the round starts the round solver did not settle (neither side can
    /// clinch the match in that round), each verified by a speculative proof of its own.
    #[serde(default)]
    pub proved_apart: u64,
    /// Positions of the last proof, as walked (transpositions once).
    pub proof_positions: u64,
}

impl MatchSolver {
    /// The match value of `pos` for its side to move, by speculation and verification
    /// (see the module's notes); `run`'s time limit is for the whole. `Err(Stopped)`
    /// after the time limit or an interrupt; the proof file gets every fact verified.
    pub fn value_by_speculation(
        &mut self,
        pos: &MatchPosition,
        run: &Run,
    ) -> Result<SpeculativeProof, MatchSolveError> {
        self.value_by_speculation_guessing(pos, run, Value::Win)
    }

    /// [`MatchSolver::value_by_speculation`] with `guess` `Win` (every assumed round start
    /// takes its predicted value) or `Loss` (the opposite of it): a worse guess only costs
    /// more searches (a test runs the loop with the wrong guess everywhere).
    pub fn value_by_speculation_guessing(
        &mut self,
        pos: &MatchPosition,
        run: &Run,
        guess: Value,
    ) -> Result<SpeculativeProof, MatchSolveError> {
        let (result, proof) = self.timed_speculation(pos, run, guess, Verifying::All);
        result.map(|proven| {
            debug_assert!(
                proven,
                "without a share, speculation ends proven or stopped"
            );
            proof
        })
    }

    /// One share of [`MatchSolver::value_by_speculation`]'s verification, for a proof
    /// verified by separate processes (array tasks on a cluster): the assumed search runs
    /// once (on one thread, as always, so that every share given the same proof file finds
    /// the same proof); its assumed round starts are put in key order and `share` (`index` of
    /// `count`, from 1) verifies those whose place is `index - 1` modulo `count`, on the
    /// solver's threads, into the proof file. Once the share is verified, merge the
    /// shares' proof files and run [`MatchSolver::value_by_speculation`] from the result:
    /// it verifies only what no share did (the assumptions of a search run again after a
    /// wrong guess).
    pub fn verify_share_by_speculation(
        &mut self,
        pos: &MatchPosition,
        run: &Run,
        share: Share,
    ) -> Result<ShareOutcome, MatchSolveError> {
        let (result, proof) = self.timed_speculation(pos, run, Value::Win, Verifying::Share(share));
        result.map(|proven| match proven {
            true => ShareOutcome::Proven(proof),
            false => ShareOutcome::Verified(proof),
        })
    }

    /// How speculation's search treats a round start it assumes, one search per entry of
    /// `prices` in order (an empty list is taken as the default; a search that runs out of
    /// time after an earlier one finished is dropped for it): `None`, as a proven
    /// leaf as soon as it meets it; `Some(price)`, as a leaf of that proof number for the
    /// side it favours, assumed only if the search comes to expand it (see
    /// [`crate::OracleMatch::pricing_assumptions`]). Of the searches' proofs, the one that
    /// rests on the fewest assumptions is verified. Values are the same either way; a price
    /// makes proofs that rest on fewer assumptions where the loser's moves must all be
    /// covered, none often where the winner chooses (README: "Speculate, then verify").
    pub fn set_assumed_prices(&mut self, prices: &[Option<u32>]) {
        self.assumed_prices = match prices {
            [] => vec![ASSUMED_PRICE],
            prices => prices.to_vec(),
        };
    }

    /// [`MatchSolver::value_by_speculation`]'s first search and walk, without verifying
    /// anything: the value as speculated (`proof.value`, not proven), how many assumed
    /// round starts the proof rests on, and which (`relied_on`, in key order), for
    /// measuring what a verification would cost.
    pub fn count_by_speculation(
        &mut self,
        pos: &MatchPosition,
        run: &Run,
    ) -> Result<SpeculativeCount, MatchSolveError> {
        self.last_relied_on.clear();
        let (result, proof) = self.timed_speculation(pos, run, Value::Win, Verifying::Nothing);
        result.map(|_| SpeculativeCount {
            proof,
            relied_on: std::mem::take(&mut self.last_relied_on),
        })
    }

    /// What the last [`MatchSolver::value_by_speculation`] did, proven or not.
    pub fn last_speculation(&self) -> Option<Speculation> {
        self.last_speculation
    }

    /// [`MatchSolver::speculate`] from nothing counted, timed, and kept for
    /// [`MatchSolver::last_speculation`]: whether it proved the value, and what it did.
    fn timed_speculation(
        &mut self,
        pos: &MatchPosition,
        run: &Run,
        guess: Value,
        verifying: Verifying,
    ) -> (Result<bool, MatchSolveError>, SpeculativeProof) {
        let start = Instant::now();
        let mut proof = SpeculativeProof {
            proof: Proof::free(Value::Loss),
            speculation: Speculation::default(),
        };
        let result = self.speculate(
            &WholeMatch::root(pos),
            run,
            start,
            guess,
            verifying,
            &mut proof,
        );
        proof.proof.seconds = start.elapsed().as_secs_f64();
        self.last_speculation = Some(proof.speculation);
        (result, proof)
    }

    fn speculate(
        &mut self,
        pos: &MatchPosition,
        run: &Run,
        start: Instant,
        guess: Value,
        verifying: Verifying,
        result: &mut SpeculativeProof,
    ) -> Result<bool, MatchSolveError> {
        let deadline = run.time_limit.map(|limit| start + limit);
        loop {
            // One search and walk a price; the proof that rests on the fewest assumptions
            // is verified (the first such, so that every share picks the same one).
            let mut best: Option<(Value, ProofTree)> = None;
            for &price in &self.assumed_prices.clone() {
                let searched = self.search_and_walk(pos, run, deadline, guess, price, result);
                let (value, tree) = match searched {
                    // A later price that runs out of time is dropped for an earlier one's
                    // proof (an interrupt stops the run).
                    Err(MatchSolveError::Solve(SolveError::Stopped))
                        if best.is_some() && !(run.stop_asked)() =>
                    {
                        break;
                    }
                    searched => searched?,
                };
                if let Some((kept_value, _)) = &best {
                    debug_assert_eq!(*kept_value, value, "a price never changes a value");
                }
                if best
                    .as_ref()
                    .is_none_or(|(_, kept)| tree.assumed.len() < kept.assumed.len())
                {
                    best = Some((value, tree));
                }
            }
            let SpeculativeProof { proof, speculation } = &mut *result;
            let (searched_value, mut tree) = best.expect("there is always one price");
            speculation.relied_on = tree.assumed.len() as u64;
            speculation.proof_positions = tree.positions;
            let game = self.solver.game();
            let share = match verifying {
                Verifying::All => None,
                Verifying::Share(share) => Some(share),
                Verifying::Nothing => {
                    let mut relied: Vec<MatchPosition> = tree.assumed.into_values().collect();
                    relied.sort_unstable_by_key(|pos| pos.canonical_match_key().0);
                    self.last_relied_on = relied;
                    proof.value = searched_value;
                    self.rebuild(None, self.options.threads)?;
                    return Ok(false);
                }
            };
            let shared = share.filter(|_| !tree.assumed.is_empty());
            if let Some(share) = shared {
                let mut keys: Vec<[u64; 3]> = tree.assumed.keys().copied().collect();
                keys.sort_unstable();
                let (i, n) = (share.index as usize - 1, share.count as usize);
                let mine: HashSet<[u64; 3]> = keys.into_iter().skip(i).step_by(n).collect();
                tree.assumed.retain(|key, _| mine.contains(key));
            }
            let before = game.round_nodes();
            let (done, wrong) = (AtomicU64::new(0), AtomicU64::new(0));
            let verified = self.watched(deadline, run.stop_asked, || {
                self.verify(&tree, run, start, &done, &wrong)
            });
            let mut wrong = wrong.into_inner();
            speculation.verified += done.into_inner();
            proof.round_nodes += game.round_nodes() - before;
            proof.rounds_asked += game.counts().asked.load(Ordering::Relaxed);
            proof.rounds_settled += game.counts().settled.load(Ordering::Relaxed);
            proof.round_ends += game.counts().round_ends.load(Ordering::Relaxed);
            // What was verified is a fact whether or not the rest was reached.
            self.checkpoint()?;
            let apart = verified?;
            let proved = self.prove_apart(&apart, run, deadline, proof, speculation);
            self.checkpoint()?;
            wrong += proved?;
            speculation.wrong += wrong;
            if shared.is_some() {
                // The value as speculated: not a fact until every share held.
                proof.value = searched_value;
                self.rebuild(None, self.options.threads)?;
                return Ok(false);
            }
            if wrong == 0 {
                for &(key, value) in &tree.boundaries {
                    self.store().insert(
                        key,
                        Fact::Proven {
                            value,
                            source: Source::Search,
                        },
                    );
                }
                self.checkpoint()?;
                proof.value = searched_value;
                // Back to a solver that assumes nothing, for whatever the caller asks next.
                self.rebuild(None, self.options.threads)?;
                return Ok(true);
            }
        }
    }

    /// One assumed search of `pos` with assumptions at `price`, on a fresh table, and the
    /// walk of its proof: the value as speculated and the proof's tree. Its work goes to
    /// `result` whether or not it ended.
    fn search_and_walk(
        &mut self,
        pos: &MatchPosition,
        run: &Run,
        deadline: Option<Instant>,
        guess: Value,
        price: Option<u32>,
        result: &mut SpeculativeProof,
    ) -> Result<(Value, ProofTree), MatchSolveError> {
        let SpeculativeProof { proof, speculation } = result;
        // A fresh table: the last one's values rested on the assumptions, one of which
        // was wrong (or, the first time, on nothing speculative at all), or on another
        // price.
        self.rebuild(Some((pos.round_number(), guess, price)), SEARCH_THREADS)?;
        let remaining = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        if remaining == Some(Duration::ZERO) || (run.stop_asked)() {
            return Err(SolveError::Stopped.into());
        }
        let searched = self.value(pos, &run.with_time_limit(remaining));
        let game = self.solver.game();
        speculation.searches += 1;
        let searched_assumed = game.assumed_count() as u64;
        let searched = searched.inspect_err(|_| {
            speculation.assumed += searched_assumed;
            proof.round_nodes += game.round_nodes();
        })?;
        proof.nodes += searched.nodes;
        let walk_start = self.solver.nodes();
        let walked = self.watched(deadline, run.stop_asked, || {
            Walk::new(&self.solver).proof(pos, searched.value)
        });
        // The walk's searches assume assumptions too: counted, whether or not it ended.
        let game = self.solver.game();
        let walk_assumed = game.assumed_count() as u64 - searched_assumed;
        speculation.assumed += searched_assumed + walk_assumed;
        speculation.walk_assumed += walk_assumed;
        proof.round_nodes += game.round_nodes();
        proof.nodes += self.solver.nodes() - walk_start;
        let tree = walked?;
        speculation.walk_searches += tree.searches;
        Ok((searched.value, tree))
    }

    /// Asks the round solver about every assumed round start of `tree`, on the match
    /// search's threads side by side, counting in `wrong` those it settled otherwise than
    /// guessed; reports progress and writes checkpoints as `run` asks. Returns the round
    /// starts it did not settle (neither side can clinch in their round), in key order:
    /// each needs a proof of its own ([`MatchSolver::prove_apart`]).
    fn verify(
        &self,
        tree: &ProofTree,
        run: &Run,
        start: Instant,
        done: &AtomicU64,
        wrong: &AtomicU64,
    ) -> Result<Vec<MatchPosition>, SolveError> {
        let game = self.solver.game();
        let leaves: Vec<&MatchPosition> = tree.assumed.values().collect();
        let next = AtomicUsize::new(0);
        let (reported, saved) = (Mutex::new(Instant::now()), Mutex::new(Instant::now()));
        let unsettled = Mutex::new(Vec::new());
        let worker = || -> Result<(), SolveError> {
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&leaf) = leaves.get(i) else {
                    return Ok(());
                };
                match game.settle_round_start(leaf)? {
                    None => {
                        unsettled
                            .lock()
                            .expect("a lock is never poisoned")
                            .push(*leaf);
                        continue;
                    }
                    Some(value) if value != game.guess_for(leaf) => {
                        wrong.fetch_add(1, Ordering::Relaxed);
                    }
                    Some(_) => {}
                }
                done.fetch_add(1, Ordering::Relaxed);
                let mut reported = reported.lock().expect("a lock is never poisoned");
                if reported.elapsed() >= run.report_every {
                    (run.progress)(&Progress {
                        verifying: Some((i as u64 + 1, leaves.len() as u64)),
                        ..self.counters(start)
                    });
                    *reported = Instant::now();
                }
                drop(reported);
                let mut saved = saved.lock().expect("a lock is never poisoned");
                if saved.elapsed() >= run.checkpoint_every {
                    // A failed checkpoint is tried again at the next one and at the end.
                    let _ = self.checkpoint();
                    *saved = Instant::now();
                }
            }
        };
        std::thread::scope(|scope| {
            let others: Vec<_> = (1..self.options.threads.max(1))
                .map(|_| scope.spawn(worker))
                .collect();
            let mine = worker();
            others
                .into_iter()
                .map(|h| h.join().expect("a verifier never panics"))
                .chain([mine])
                .collect::<Result<(), SolveError>>()
        })?;
        let mut unsettled = unsettled.into_inner().expect("a lock is never poisoned");
        unsettled.sort_unstable_by_key(|pos| pos.canonical_match_key().0);
        Ok(unsettled)
    }

    /// Verifies each assumed round start of `leaves` (ones the round solver did not
    /// settle) by a speculative proof of its own, one after another, with a solver like
    /// this one over the same store and proof file (so every fact either learns is the
    /// other's, and the file gets them at the inner proof's checkpoints: a proof apart
    /// takes minutes), and records its value in the store. Returns how many were not as guessed; the work goes to `proof` and
    /// `speculation`. Each such proof has a table of its own beside this solver's (the
    /// memory of a run doubles while one runs, and again for each tier below).
    fn prove_apart(
        &self,
        leaves: &[MatchPosition],
        run: &Run,
        deadline: Option<Instant>,
        proof: &mut Proof,
        speculation: &mut Speculation,
    ) -> Result<u64, MatchSolveError> {
        let mut wrong = 0;
        for leaf in leaves {
            let remaining = deadline.map(|d| d.saturating_duration_since(Instant::now()));
            if remaining == Some(Duration::ZERO) || (run.stop_asked)() {
                return Err(SolveError::Stopped.into());
            }
            let store = self.solver.game().store().clone();
            let mut apart =
                MatchSolver::with_store(self.options, store, self.proof_file.as_deref())?;
            apart.set_assumed_prices(&self.assumed_prices);
            let result = apart.value_by_speculation_guessing(
                leaf,
                &run.with_time_limit(remaining),
                self.solver.game().guess(),
            );
            // Its work counts whether or not it ended.
            if let Some(done) = apart.last_speculation() {
                speculation.assumed += done.assumed;
                speculation.walk_assumed += done.walk_assumed;
                speculation.walk_searches += done.walk_searches;
                speculation.verified += done.verified;
                speculation.wrong += done.wrong;
                speculation.proved_apart += done.proved_apart;
            }
            // (An ended proof's solver is a fresh one: its nodes are in its report.)
            let (nodes, round_nodes) = match &result {
                Ok(done) => (done.proof.nodes, done.proof.round_nodes),
                Err(_) => (apart.solver.nodes(), apart.solver.game().round_nodes()),
            };
            proof.nodes += nodes;
            proof.round_nodes += round_nodes;
            let value = result?.proof.value;
            self.store().insert(
                leaf.canonical_match_key().0,
                Fact::Proven {
                    value,
                    source: Source::Search,
                },
            );
            speculation.verified += 1;
            speculation.proved_apart += 1;
            if value != self.solver.game().guess_for(leaf) {
                wrong += 1;
            }
        }
        Ok(wrong)
    }

    /// Replaces the match search and its round solver by fresh ones over the same store,
    /// assuming the values of round starts after round `r` at `price`
    /// (`Some((r, guess, price))`) or not, searching on `threads`.
    fn rebuild(
        &mut self,
        assuming: Option<(u32, Value, Option<u32>)>,
        threads: usize,
    ) -> Result<(), MatchSolveError> {
        let options = self.options;
        let game = OracleMatch::new(
            options.round_table_bytes,
            options.ask_rounds,
            self.solver.game().store().clone(),
        )?;
        let game = match assuming {
            Some((round, guess, Some(price))) => {
                game.assuming_after(round, guess).pricing_assumptions(price)
            }
            Some((round, guess, None)) => game.assuming_after(round, guess),
            None => game,
        };
        // (The new tables' pages are not touched before the old ones are dropped.)
        self.solver = Solver::new(
            game,
            Options {
                threads,
                table_bytes: options.table_bytes,
            },
        )?;
        Ok(())
    }

    /// Runs `f` with the search's stop flag raised at `deadline` or when `stop_asked`.
    fn watched<T>(
        &self,
        deadline: Option<Instant>,
        stop_asked: &(dyn Fn() -> bool + Sync),
        f: impl FnOnce() -> T,
    ) -> T {
        let stop = self.stop();
        stop.reset();
        let (finished, wait) = channel::<()>();
        std::thread::scope(|scope| {
            scope.spawn(move || {
                while let Err(RecvTimeoutError::Timeout) =
                    wait.recv_timeout(Duration::from_millis(50))
                {
                    if deadline.is_some_and(|d| Instant::now() >= d) || stop_asked() {
                        stop.cancel();
                    }
                }
            });
            let result = f();
            drop(finished);
            result
        })
    }
}

/// The default price of an assumed round start (see [`MatchSolver::set_assumed_prices`]).
/// Measured at `uobygnrp+...` (README: "Speculate, then verify"): free, the proof rests on
/// 11,022 final rounds (745 k match nodes); priced 2, 4, 8, 16, 32: 3,256, 1,967, 976,
/// 814, 1,868 (2.8 M to 8.4 M nodes; past 16 the walk's own searches assume more).
pub const ASSUMED_PRICE: Option<u32> = Some(16);

/// The assumed search runs on one thread, so that it is deterministic: every share and the
/// run after them find the same proof from the same facts (seconds against the
/// verification's hours; the threads verify).
const SEARCH_THREADS: usize = 1;

/// A proof as walked from the searched table: its assumed round starts (the leaves to
/// verify) and its round boundaries (facts once those hold).
struct ProofTree {
    assumed: HashMap<[u64; 3], MatchPosition>,
    boundaries: Vec<([u64; 3], Value)>,
    positions: u64,
    /// Searches the walk ran for a winning move the table no longer showed.
    searches: u64,
}

/// How many positions the walk's first pass (the cheapest proof among those the table
/// holds) remembers at most; past it, the rest of the walk takes the first winning move it
/// sees. About 40 bytes each.
const COSTED: usize = 1 << 23;

/// Two passes over the proofs the table holds: the first gives every position its
/// cheapest proof's cost (the assumed round starts it needs, a shared one counted once
/// per path) and where the winner moves, the move of that proof; the second follows those
/// moves and collects the proof's assumed round starts and round boundaries. The table
/// often holds several proofs of a winning position, and they differ a lot in how many
/// assumptions they need: a win that ends the match within the round needs none.
struct Walk<'a> {
    solver: &'a Solver<OracleMatch>,
    stop: &'a Cancel<'static>,
    /// First pass: each position's cost, and where the winner moves, the chosen move's
    /// index.
    costs: HashMap<[u64; 3], (u64, u32)>,
    seen: HashSet<[u64; 3]>,
    tree: ProofTree,
}

/// One move of a position with the child it leads to and whether the turn passed.
type Children = Vec<(MatchPosition, bool)>;

impl<'a> Walk<'a> {
    fn new(solver: &'a Solver<OracleMatch>) -> Walk<'a> {
        Walk {
            solver,
            stop: solver.game().stop(),
            costs: HashMap::new(),
            seen: HashSet::new(),
            tree: ProofTree {
                assumed: HashMap::new(),
                boundaries: Vec::new(),
                positions: 0,
                searches: 0,
            },
        }
    }

    fn proof(mut self, pos: &MatchPosition, value: Value) -> Result<ProofTree, SolveError> {
        self.cost(pos, value)?;
        self.collect(pos, value)?;
        self.tree.positions = self.seen.len() as u64;
        Ok(self.tree)
    }

    /// What `pos` is in the proof, before its moves: `Some(cost)` if it is a leaf.
    fn leaf(&self, pos: &MatchPosition, key: [u64; 3]) -> Option<u64> {
        let game = self.solver.game();
        if game.outcome(pos).is_some() {
            return Some(0);
        }
        let round_start = pos.active().is_none() && !pos.is_round_over();
        if round_start || WholeMatch::is_refill_choice(pos) {
            if let Some(Fact::Proven { .. }) = game.store().get(key) {
                return Some(0);
            }
            if round_start && game.is_assumed(key) {
                return Some(1);
            }
        }
        None
    }

    fn children(&self, pos: &MatchPosition) -> Children {
        let game = self.solver.game();
        let mut moves: Vec<MatchMove> = Vec::new();
        game.moves(pos, &mut moves);
        moves
            .iter()
            .map(|&m| {
                let child = game.play(pos, m);
                (child, game.player(&child) != game.player(pos))
            })
            .collect()
    }

    /// The cost of the cheapest proof that `pos` has `value` for its side to move.
    fn cost(&mut self, pos: &MatchPosition, value: Value) -> Result<u64, SolveError> {
        let key = self.solver.game().key(pos);
        if let Some(cost) = self.leaf(pos, key) {
            return Ok(cost);
        }
        if let Some(&(cost, _)) = self.costs.get(&key) {
            return Ok(cost);
        }
        let children = self.children(pos);
        let (cost, chosen) = if value == Value::Win {
            let winning = self.winning_moves(&children)?;
            let mut best = (u64::MAX, winning[0]);
            for i in winning {
                let (child, passed) = children[i];
                // Past the memory bound, the first winning move, uncosted.
                if self.costs.len() >= COSTED {
                    best = (0, i);
                    break;
                }
                let cost = self.cost(&child, needed(value, passed))?;
                if cost < best.0 {
                    best = (cost, i);
                }
                if cost == 0 {
                    break;
                }
            }
            best
        } else {
            let mut sum = 0u64;
            for &(child, passed) in &children {
                if self.costs.len() >= COSTED {
                    break;
                }
                sum = sum.saturating_add(self.cost(&child, needed(value, passed))?);
            }
            (sum, 0)
        };
        if self.costs.len() < COSTED {
            self.costs.insert(key, (cost, chosen as u32));
        }
        Ok(cost)
    }

    /// The moves of a position its side to move wins that lead to a win: those the rules,
    /// the store or the table show, else the first a search finds.
    fn winning_moves(&mut self, children: &Children) -> Result<Vec<usize>, SolveError> {
        let shown: Vec<usize> = (0..children.len())
            .filter(|&i| {
                let (child, passed) = children[i];
                self.cheap_value(&child) == Some(needed(Value::Win, passed))
            })
            .collect();
        if !shown.is_empty() {
            return Ok(shown);
        }
        for (i, &(child, passed)) in children.iter().enumerate() {
            self.tree.searches += 1;
            if self.solver.value(&child, self.stop)? == needed(Value::Win, passed) {
                return Ok(vec![i]);
            }
        }
        unreachable!("a position proven won has a winning move")
    }

    /// Follows the chosen moves of the proof that `pos` has `value`, collecting its
    /// assumed round starts and round boundaries.
    fn collect(&mut self, pos: &MatchPosition, value: Value) -> Result<(), SolveError> {
        let game = self.solver.game();
        let key = game.key(pos);
        if game.outcome(pos).is_some() || !self.seen.insert(key) {
            return Ok(());
        }
        match self.leaf(pos, key) {
            Some(0) => return Ok(()),
            Some(_) => {
                self.tree.assumed.insert(key, *pos);
                return Ok(());
            }
            None => {}
        }
        if pos.is_round_over() || pos.active().is_none() {
            self.tree.boundaries.push((key, value));
        }
        let children = self.children(pos);
        if value == Value::Win {
            let i = match self.costs.get(&key) {
                Some(&(_, i)) => i as usize,
                None => self.winning_moves(&children)?[0],
            };
            let (child, passed) = children[i];
            self.collect(&child, needed(value, passed))
        } else {
            for &(child, passed) in &children {
                self.collect(&child, needed(value, passed))?;
            }
            Ok(())
        }
    }

    /// The value of `child` for its side to move if known without searching: by the
    /// rules (a finished match, or a win at once as the search judges it: such a child
    /// has no table entry, and a position the search proved won through it would
    /// otherwise be searched again, its winning move the first any search finds), from
    /// the store, or from the table.
    fn cheap_value(&self, child: &MatchPosition) -> Option<Value> {
        let game = self.solver.game();
        if let Some(score) = Score::by_rules(game, child) {
            return Some(score.value());
        }
        let key = game.key(child);
        if let Some(Fact::Proven { value, .. }) = game.store().get(key) {
            return Some(value);
        }
        self.solver.table().get(key)?.proven_value()
    }
}

/// The value a child must have for its own side to move in a proof that its parent has
/// `value` for the parent's side to move: the mover's value, seen from whoever moves next.
fn needed(value: Value, passed: bool) -> Value {
    if passed {
        value.flip()
    } else {
        value
    }
}
