//! The whole match as the match search sees it: [`WholeMatch`]'s rules, and at the
//! boundaries of rounds what is known without searching past them.
//!
//! At the first position of a round the round solver is asked the two questions that
//! settle a match without looking at the rounds after this one (see [`ClinchRound`]):
//! can the side to move force a round win that ends the match in its favour, and can the
//! other side? A yes to either is the match's value. When every round win of both sides
//! ends the match (a Standard match at 2-2), the first question alone settles it, since
//! the round is then the match. Answers, and the note that nothing was settled, go to the
//! [`Store`], as do the match search's own proofs of round boundaries at each checkpoint;
//! the search's table may forget them, the store does not.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use kamisado_match::{ClinchPosition, ClinchRound, MatchMove, MatchPosition, Side, WholeMatch};
use kamisado_solver::{Cancel, Game, Known, Options, Player, SolveError, Solver, Value, WinInOne};

use crate::store::{Fact, Source, Store};

/// Counts of what the round solver was asked and settled.
#[derive(Debug, Default)]
pub struct RoundCounts {
    /// Round starts the round solver was asked about (each once).
    pub asked: AtomicU64,
    /// Of those, the ones it settled (a clinch by one side or the other).
    pub settled: AtomicU64,
    /// Distinct round ends the match search met that do not end the match (refill
    /// choices): each leads to two round starts, often shared with other round ends.
    pub round_ends: AtomicU64,
}

/// How many distinct round ends [`RoundCounts::round_ends`] counts at most.
pub const ROUND_ENDS_COUNTED: usize = 1 << 22;

/// The disproof number of a priced assumed round start for the side it is assumed to favour, in
/// units of its price: the search must expand it to learn its value, and that gives the
/// guess, so disproving it is as good as hopeless; finite, so that sums stay finite and a
/// search never ends without an answer.
const UNPROVABLE: u32 = 1 << 12;

/// [`WholeMatch`] with the round solver and the store of facts at round boundaries.
pub struct OracleMatch {
    rounds: Solver<ClinchRound>,
    /// Whether to ask the round solver at all (else only the store answers).
    ask_rounds: bool,
    store: Arc<Store>,
    stop: Cancel<'static>,
    counts: RoundCounts,
    /// With speculation on (see [`crate::speculate`]), the round starts after the root's
    /// round that the store did not settle and that were assumed to have their predicted
    /// value ([`OracleMatch::guess_for`]), by canonical key: a search with this game
    /// proves values under those assumptions only.
    assumed: Option<Mutex<HashMap<[u64; 3], MatchPosition>>>,
    /// Round starts of rounds numbered above this are assumed (the root's round).
    assumed_after: u32,
    /// `Win`: the prediction as it is; `Loss`: every prediction turned round (for tests
    /// of the loop after a wrong guess).
    guess: Value,
    /// With speculation on, a round start is assumed only when the match search comes to
    /// expand it, not when it meets it, and until then it has this proof number for the
    /// side it is assumed to favour (see [`OracleMatch::pricing_assumptions`]).
    price: Option<u32>,
    /// The refill choices met, for [`RoundCounts::round_ends`].
    round_ends: Mutex<HashSet<[u64; 3]>>,
}

impl OracleMatch {
    /// A match game whose round solver has a table of `round_table_bytes`, answering from
    /// `store`. With `ask_rounds` off, only the store answers (for checking the match
    /// search on its own).
    pub fn new(
        round_table_bytes: usize,
        ask_rounds: bool,
        store: Arc<Store>,
    ) -> Result<OracleMatch, SolveError> {
        Ok(OracleMatch {
            rounds: Solver::new(
                ClinchRound,
                Options {
                    threads: 1,
                    table_bytes: round_table_bytes,
                },
            )?,
            ask_rounds,
            store,
            stop: Cancel::new(),
            counts: RoundCounts::default(),
            assumed: None,
            assumed_after: 0,
            guess: Value::Win,
            price: None,
            round_ends: Mutex::new(HashSet::new()),
        })
    }

    /// This game with speculation on: a round start of a round after round `round` (the
    /// root's) that the store has not proved is assumed to have its predicted value
    /// ([`OracleMatch::guess_for`]; with `guess` `Loss`, the opposite), without asking
    /// the round solver, and noted (see [`OracleMatch::is_assumed`]). For a root one
    /// round from the final round (2-1), those are the final rounds; further back, the
    /// next tier of the score (at 1-1, the round starts at 2-1 and 1-2), each verified by
    /// a proof of its own.
    pub fn assuming_after(mut self, round: u32, guess: Value) -> OracleMatch {
        self.assumed = Some(Mutex::new(HashMap::new()));
        self.assumed_after = round;
        self.guess = guess;
        self
    }

    /// This game with the round starts it assumes priced: an unproved one is not a
    /// proven leaf of the match search but one of proof number `price` for the side it
    /// is assumed to favour (disproof number `UNPROVABLE` times that), taken as assumed
    /// only when the search comes to expand it ([`Game::known_when_expanded`]). The
    /// search then prefers proofs through few assumptions (each a verification) to
    /// proofs through many; values are unchanged, since every assumption is verified.
    pub fn pricing_assumptions(mut self, price: u32) -> OracleMatch {
        self.price = Some(price.max(1));
        self
    }

    /// `Win` if assumptions take their predicted values, `Loss` if the opposite (see
    /// [`OracleMatch::assuming_after`]).
    pub fn guess(&self) -> Value {
        self.guess
    }

    /// The value a round start is assumed to have for its side to move (see
    /// [`OracleMatch::assuming_after`]): the side with more points wins the match, and
    /// with equal points the side to move (at 2-2 the opener of the final round). Measured:
    /// every sampled final round was won by its opener, and at all 8 round starts at 2-1
    /// and 1-2 of `data/match-standard.json` with the trailing side to move the leading
    /// side won (README: "Speculate, then verify").
    pub fn guess_for(&self, pos: &MatchPosition) -> Value {
        let me = pos.turn();
        let predicted = if pos.score(me) >= pos.score(!me) {
            Value::Win
        } else {
            Value::Loss
        };
        if self.guess == Value::Win {
            predicted
        } else {
            predicted.flip()
        }
    }

    /// Whether the round start with canonical key `key` was assumed, not known.
    pub fn is_assumed(&self, key: [u64; 3]) -> bool {
        self.assumed.as_ref().is_some_and(|a| {
            a.lock()
                .expect("a lock is never poisoned")
                .contains_key(&key)
        })
    }

    /// How many round starts were assumed so far.
    pub fn assumed_count(&self) -> usize {
        self.assumed
            .as_ref()
            .map_or(0, |a| a.lock().expect("a lock is never poisoned").len())
    }

    /// Whether every round win of either side ends the match: the round is the match.
    pub fn is_final_round(pos: &MatchPosition) -> bool {
        ClinchRound::every_win_clinches(pos, pos.turn())
            && ClinchRound::every_win_clinches(pos, !pos.turn())
    }

    /// The match value of the round start `pos` for its side to move by the round
    /// solver's clinch questions (the store's if it has one), stored: `None` if neither
    /// side can clinch, or if stopped.
    pub fn settle_round_start(&self, pos: &MatchPosition) -> Result<Option<Value>, SolveError> {
        let key = pos.canonical_match_key().0;
        match self.store.get(key) {
            Some(Fact::Proven { value, .. }) => return Ok(Some(value)),
            // Asked before (a stopped question leaves no note): the same answer.
            Some(Fact::Unsettled) => return Ok(None),
            None => {}
        }
        let value = self.clinches(pos)?;
        self.counts.asked.fetch_add(1, Ordering::Relaxed);
        if value.is_some() {
            self.counts.settled.fetch_add(1, Ordering::Relaxed);
        }
        self.store.insert(
            key,
            value.map_or(Fact::Unsettled, |value| Fact::Proven {
                value,
                source: Source::Clinch,
            }),
        );
        Ok(value)
    }

    /// The flag that stops the round solver's searches: a match search must be run with
    /// it (or a flag that it also raises), so that a stop reaches the searches this game
    /// starts itself.
    pub fn stop(&self) -> &Cancel<'static> {
        &self.stop
    }

    pub fn store(&self) -> &Arc<Store> {
        &self.store
    }

    pub fn counts(&self) -> &RoundCounts {
        &self.counts
    }

    /// Nodes the round solver has searched.
    pub fn round_nodes(&self) -> u64 {
        self.rounds.nodes()
    }

    /// The round solver's table, for reports.
    pub fn round_table(&self) -> &kamisado_solver::Table<[u64; 3]> {
        self.rounds.table()
    }

    /// The match value of a round's first position for its side to move, if one side can
    /// clinch the match in this round; `None` if neither can, or if stopped.
    fn round_start(&self, pos: &MatchPosition) -> Option<Value> {
        let key = pos.canonical_match_key().0;
        let fact = self.store.get(key);
        if let Some(Fact::Proven { value, .. }) = fact {
            return Some(value);
        }
        if self.is_assumable(pos) {
            // Priced, it is assumed only once the search comes to expand it. (One the
            // round solver did not settle is assumed too: its verification is a proof.)
            return match self.price {
                Some(_) => None,
                None => Some(self.assume(key, pos)),
            };
        }
        if fact.is_some() {
            return None;
        }
        if !self.ask_rounds {
            return None;
        }
        self.settle_round_start(pos).ok()?
    }

    /// Notes the round start `pos` (canonical key `key`) as assumed: its value by the guess.
    fn assume(&self, key: [u64; 3], pos: &MatchPosition) -> Value {
        if let Some(assumed) = &self.assumed {
            assumed
                .lock()
                .expect("a lock is never poisoned")
                .insert(key, *pos);
        }
        self.guess_for(pos)
    }

    /// Whether speculation assumes the round start `pos`: speculation on, and its round
    /// after the root's. (Not asked of the store: a round start it has proved is settled
    /// by [`Game::known`] before this matters.)
    fn is_assumable(&self, pos: &MatchPosition) -> bool {
        self.assumed.is_some()
            && pos.active().is_none()
            && !pos.is_round_over()
            && pos.round_number() > self.assumed_after
    }

    /// Whether `pos` is a round start the search would assume at a price.
    fn is_priced_assumption(&self, pos: &MatchPosition) -> bool {
        self.price.is_some() && self.is_assumable(pos)
    }

    /// `Some(Win)` if the side to move can clinch the match in this round, `Some(Loss)`
    /// if the other side can, `None` if neither.
    fn clinches(&self, pos: &MatchPosition) -> Result<Option<Value>, SolveError> {
        let (me, you) = (pos.turn(), !pos.turn());
        let ask = |clincher: Side| {
            self.rounds.value(
                &ClinchPosition {
                    pos: *pos,
                    clincher,
                },
                &self.stop,
            )
        };
        if ClinchRound::can_ever_clinch(pos, me) {
            if ask(me)? == Value::Win {
                return Ok(Some(Value::Win));
            }
            // The other side can keep me from clinching. If every win of mine would have
            // clinched, it wins the round; if every win of its own clinches, it has won.
            if ClinchRound::every_win_clinches(pos, me) && ClinchRound::every_win_clinches(pos, you)
            {
                return Ok(Some(Value::Loss));
            }
        }
        if ClinchRound::can_ever_clinch(pos, you) && ask(you)? == Value::Loss {
            return Ok(Some(Value::Loss));
        }
        Ok(None)
    }
}

impl Game for OracleMatch {
    type Position = MatchPosition;
    type Move = MatchMove;
    type Key = [u64; 3];

    // A match node may ask the round solver for a whole round: a run of minutes expands
    // a few hundred, and each is counted for the progress reports at once.
    const NODES_COUNTED_EVERY: u64 = 1;

    #[inline]
    fn outcome(&self, pos: &MatchPosition) -> Option<Value> {
        WholeMatch.outcome(pos)
    }

    #[inline]
    fn player(&self, pos: &MatchPosition) -> Player {
        WholeMatch.player(pos)
    }

    #[inline]
    fn moves(&self, pos: &MatchPosition, out: &mut Vec<MatchMove>) {
        WholeMatch.moves(pos, out)
    }

    #[inline]
    fn play(&self, pos: &MatchPosition, m: MatchMove) -> MatchPosition {
        WholeMatch.play(pos, m)
    }

    #[inline]
    fn key(&self, pos: &MatchPosition) -> [u64; 3] {
        WholeMatch.key(pos)
    }

    #[inline]
    fn win_in_one(&self, pos: &MatchPosition) -> WinInOne<MatchMove> {
        WholeMatch.win_in_one(pos)
    }

    #[inline]
    fn estimate(&self, pos: &MatchPosition) -> (u32, u32) {
        match self.price {
            Some(price) if self.is_priced_assumption(pos) => {
                let favoured = (price, price.saturating_mul(UNPROVABLE));
                match self.guess_for(pos) {
                    Value::Win => favoured,
                    _ => (favoured.1, favoured.0),
                }
            }
            _ => WholeMatch.estimate(pos),
        }
    }

    /// A priced round start (see [`OracleMatch::pricing_assumptions`]), assumed now that the
    /// search expands it, unless the store has proved its value meanwhile.
    fn known_when_expanded(&self, pos: &MatchPosition) -> Option<Known> {
        if !self.is_priced_assumption(pos) {
            return None;
        }
        let key = pos.canonical_match_key().0;
        let value = match self.store.get(key) {
            Some(Fact::Proven { value, .. }) => value,
            _ => self.assume(key, pos),
        };
        Some(Known::Value(value))
    }

    /// At a round's first position, the round solver's answer (or the store's); at a
    /// refill choice, the store's; elsewhere nothing.
    fn known(&self, pos: &MatchPosition) -> Option<Known> {
        let value = if WholeMatch::is_refill_choice(pos) {
            let key = pos.canonical_match_key().0;
            let mut met = self.round_ends.lock().expect("a lock is never poisoned");
            // A count for reports: past this many (about 100 MiB) it says "at least".
            if met.len() < ROUND_ENDS_COUNTED && met.insert(key) {
                self.counts.round_ends.fetch_add(1, Ordering::Relaxed);
            }
            self.store.get(key)?.value()
        } else if pos.active().is_none() && !pos.is_round_over() {
            self.round_start(pos)
        } else {
            None
        };
        value.map(Known::Value)
    }
}
