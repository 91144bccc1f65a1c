//! Perfect answers: from the rules where they decide, from a database where it knows,
//! from a live search for the rest.
//!
//! Questions are asked about match positions (a single round is a match to one point).
//! The answer is always about the round being played: who wins it, in how many moves.
//! Ranks change only when a round ends, so a round with no Sumo on the board is a single
//! round move for move ([`MatchPosition::single_round`]) and is answered as one: from the
//! database, whose records are keyed by the single round's key, and by the single-round
//! solver, whose smaller key makes its table denser. Only a round with a Sumo on the
//! board is searched as a match round ([`MatchRound`]); no database holds those yet.
//!
//! The two searches have a table each. [`Rounds`] says which kinds of round the oracle
//! will be asked about, so that the table budget goes where the searches will be: all of
//! it to the one table needed, or half to each when both may be (whole matches, an
//! engine). A table is made when it is first needed, so one that is never searched costs
//! nothing.

use std::sync::OnceLock;

use kamisado_core::{Kamisado, Position, Side};
use kamisado_match::{IllegalMatchMove, MatchPosition, MatchRound, Move, Refill};
use kamisado_solver::{
    Cancel, Depth, MovesAnalysis, Options, Outcome, Progress, Score, Solution, SolveError, Solver,
    Value,
};

use kamisado_db::{Database, Stored};

/// Where an answer came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Source {
    /// The rules alone: a finished round, or a win in one move.
    Rules,
    /// A database record.
    Database,
    /// A search run for this question. (The search itself does not consult the database:
    /// the solver takes no outside knowledge yet.)
    Search,
}

impl Source {
    /// `rules`, `db` or `search`, as reports print it.
    pub const fn name(self) -> &'static str {
        match self {
            Source::Rules => "rules",
            Source::Database => "db",
            Source::Search => "search",
        }
    }
}

/// Which rounds an oracle will be asked about: where its table budget goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounds {
    /// Only rounds without a Sumo on the board (single rounds, first rounds of matches):
    /// the single-round table gets the whole budget.
    Plain,
    /// Only rounds with a Sumo on the board: the match-round table gets it all.
    Sumo,
    /// Both kinds (whole matches, an engine that may be sent anything): half each.
    Both,
}

impl Rounds {
    /// The kind of round `pos` is in; every position of the round is of the same kind.
    pub fn of(pos: &MatchPosition) -> Rounds {
        if pos.has_sumo() {
            Rounds::Sumo
        } else {
            Rounds::Plain
        }
    }

    /// The rounds a whole match from `pos` may meet: those of `pos`'s round, and, if the
    /// match can go on after it, rounds with Sumos too.
    pub fn of_match_from(pos: &MatchPosition) -> Rounds {
        let this = Rounds::of(pos);
        if pos.target().points() > 1 {
            this.and(Rounds::Sumo)
        } else {
            this
        }
    }

    /// Both sets of rounds together.
    pub fn and(self, other: Rounds) -> Rounds {
        if self == other {
            self
        } else {
            Rounds::Both
        }
    }

    fn includes(self, sumo: bool) -> bool {
        match self {
            Rounds::Both => true,
            Rounds::Plain => !sumo,
            Rounds::Sumo => sumo,
        }
    }

    /// The bytes each table gets of a budget.
    fn share(self, budget: usize) -> usize {
        match self {
            Rounds::Both => budget / 2,
            _ => budget,
        }
    }
}

/// The exact result of a round's position for its side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The position the verdict is about: the one asked about with its pending
    /// zero-length moves played, so its side to move may differ from the one asked about.
    pub position: MatchPosition,
    /// For the side to move: who wins the round, and in how many moves.
    pub outcome: Outcome,
    pub source: Source,
}

impl Verdict {
    /// The outcome as one score.
    pub fn score(&self) -> Score {
        Score::of(self.outcome)
    }
}

/// The exact result of one move, for the player making it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveVerdict {
    pub mv: Move,
    /// For the player making the move; the remoteness counts this move.
    pub outcome: Outcome,
    /// Where the result of the position after the move came from.
    pub source: Source,
    /// The position after the move and the zero-length moves that follow it (after a
    /// push, the pusher is to move again).
    pub next: MatchPosition,
}

impl MoveVerdict {
    /// The outcome as one score, for the mover.
    pub fn score(&self) -> Score {
        Score::of(self.outcome)
    }
}

/// What an all-moves analysis ([`Oracle::analyse_moves`]) knows of one move, for the
/// player making it: its score lies in `low..=high`, exact when they meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveBound {
    pub mv: Move,
    pub low: Score,
    pub high: Score,
    /// Where what is known came from: the rules or the database (exact), else the search.
    pub source: Source,
    /// The position after the move and the zero-length moves that follow it.
    pub next: MatchPosition,
}

impl MoveBound {
    /// The move's value, once the bounds lie in one.
    pub fn value(&self) -> Option<Value> {
        (self.low.value() == self.high.value()).then(|| self.low.value())
    }

    /// The move's exact result, once the bounds meet.
    pub fn verdict(&self, pos: &MatchPosition) -> Option<MoveVerdict> {
        (self.low == self.high).then(|| {
            let passed = self.next.turn() != pos.turn();
            // The child's own score, back from the mover's view, for its draw length.
            let outcome = match self.low.remoteness() {
                Some(r) => Outcome::new(self.low.value(), r),
                None => Score::DRAW
                    .outcome(&MatchRound, &self.next)
                    .through_move(passed),
            };
            MoveVerdict {
                mv: self.mv,
                outcome,
                source: self.source,
                next: self.next,
            }
        })
    }
}

/// A position and all its moves as far as an all-moves analysis got.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovesReport {
    /// The position's result, if known: the best of its moves once that is exact, else
    /// what the rules or the database say.
    pub verdict: Option<Verdict>,
    /// Every legal move, in the order [`MatchPosition::legal_moves`] lists them.
    pub moves: Vec<MoveBound>,
    /// The moves that keep the verdict (empty until it is known from the moves).
    pub best: Vec<Move>,
    /// Whether the analysis did all its [`Depth`] asked.
    pub complete: bool,
}

/// What one refill choice between the rounds of a match leads to: the next round's start
/// and, as far as [`Oracle::refills`] got, who wins that round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RefillOutcome {
    pub choice: Refill,
    /// The finished round's winner, who chooses.
    pub chooser: Side,
    /// The next round's start: the finished round's loser to move, with a free choice.
    pub start: MatchPosition,
    /// For the chooser: who wins the next round; `None` if the search was stopped first.
    pub value: Option<Value>,
    /// The next round's exact remoteness (its moves to the end); `None` unless asked for
    /// and found before a stop.
    pub remoteness: Option<u32>,
    /// Where the last of `value` and `remoteness` found came from.
    pub source: Option<Source>,
}

/// A position and all its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OracleAnalysis {
    pub verdict: Verdict,
    /// Every legal move, in the order [`MatchPosition::legal_moves`] lists them. Empty for
    /// a finished round.
    pub moves: Vec<MoveVerdict>,
    /// The moves that keep the verdict: fastest win, slowest loss.
    pub best: Vec<Move>,
}

/// Why the oracle gave no answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OracleError {
    #[error("the search was stopped before it finished")]
    Stopped,
    #[error("{0}")]
    Illegal(#[from] IllegalMatchMove),
    #[error("{0}")]
    Solver(SolveError),
    /// The database could not answer: a block of it failed its checksum.
    #[error("the database cannot be trusted: {0}")]
    Database(String),
    /// The oracle was set up for the other kind of round (see [`Rounds`]).
    #[error("the position is in a round {}, and this oracle's table was set up only for rounds {}", kind(*.sumo), kind(!*.sumo))]
    NotPrepared { sumo: bool },
}

impl From<kamisado_db::DbError> for OracleError {
    fn from(e: kamisado_db::DbError) -> OracleError {
        OracleError::Database(e.to_string())
    }
}

fn kind(sumo: bool) -> &'static str {
    if sumo {
        "with a Sumo on the board"
    } else {
        "without Sumos"
    }
}

impl From<SolveError> for OracleError {
    fn from(e: SolveError) -> OracleError {
        match e {
            SolveError::Stopped => OracleError::Stopped,
            e => OracleError::Solver(e),
        }
    }
}

/// A solver made when first needed, or the reason it could not be.
type Lazy<G> = OnceLock<Result<Solver<G>, SolveError>>;

/// Answers "what is this position worth, and each of its moves?" exactly.
///
/// Each question goes to the rules first (finished rounds, wins in one), then to the
/// database if there is one (rounds without Sumos), and only then to a solver, whose
/// table keeps everything it learns for later questions. Every answer carries its
/// [`Source`]. A search stops when the [`Cancel`] passed in is raised (a time limit, an
/// interrupt) with [`OracleError::Stopped`].
///
/// Positions may have pending zero-length moves; they are played first and the answer
/// names the position it is about.
pub struct Oracle {
    db: Option<Database>,
    /// Whether a database that fails a check is set aside for search (see
    /// [`Oracle::falling_back_to_search`]) rather than an error.
    fall_back: bool,
    /// What was found wrong with the database, once set aside.
    damage: OnceLock<String>,
    rounds: Rounds,
    options: Options,
    plain: Lazy<Kamisado>,
    sumo: Lazy<MatchRound>,
}

impl Oracle {
    /// An oracle for single rounds (rounds without Sumos) around a single-round solver.
    pub fn new(db: Option<Database>, solver: Solver<Kamisado>) -> Oracle {
        let options = Options {
            threads: solver.threads(),
            table_bytes: solver.table().bytes(),
        };
        Oracle {
            db,
            fall_back: false,
            damage: OnceLock::new(),
            rounds: Rounds::Plain,
            options,
            plain: OnceLock::from(Ok(solver)),
            sumo: OnceLock::new(),
        }
    }

    /// An oracle for `rounds`, its solvers sharing `options.table_bytes`: all of it to
    /// the one table `rounds` needs, or half each for [`Rounds::Both`]. The tables needed
    /// for sure are made now, so that a budget this machine cannot give fails here; with
    /// [`Rounds::Both`] the match-round table is made when a round with a Sumo is first
    /// searched.
    pub fn with_budget(
        db: Option<Database>,
        options: Options,
        rounds: Rounds,
    ) -> Result<Oracle, SolveError> {
        let oracle = Oracle {
            db,
            fall_back: false,
            damage: OnceLock::new(),
            rounds,
            options: Options {
                threads: options.threads,
                table_bytes: rounds.share(options.table_bytes),
            },
            plain: OnceLock::new(),
            sumo: OnceLock::new(),
        };
        let made = match rounds {
            Rounds::Sumo => oracle.sumo_solver().map(drop),
            Rounds::Plain | Rounds::Both => oracle.plain_solver().map(drop),
        };
        match made {
            Err(OracleError::Solver(e)) => Err(e),
            _ => Ok(oracle),
        }
    }

    pub fn database(&self) -> Option<&Database> {
        self.db.as_ref()
    }

    /// This oracle, answering by search when its database fails a check (a damaged
    /// block of a mapped file) instead of with [`OracleError::Database`]: from then on
    /// the database is not read again, and [`Oracle::damage`] says what was wrong. For a
    /// player that must move and a judge that must judge; a command that answers from
    /// the database the user named refuses instead (the default).
    pub fn falling_back_to_search(mut self) -> Oracle {
        self.fall_back = true;
        self
    }

    /// What was found wrong with the database, if it was set aside for search.
    pub fn damage(&self) -> Option<&str> {
        self.damage.get().map(String::as_str)
    }

    /// The database's record of a round without Sumos, if it holds one; a failed check
    /// is an error naming the file, or with [`Oracle::falling_back_to_search`] sets the
    /// database aside.
    fn lookup(&self, single: &Position) -> Result<Option<Stored>, OracleError> {
        let Some(db) = self.db.as_ref().filter(|_| self.damage.get().is_none()) else {
            return Ok(None);
        };
        match db.lookup(single) {
            Ok(stored) => Ok(stored),
            Err(e) => {
                let message = match db.path() {
                    Some(path) => format!("{}: {e}", path.display()),
                    None => e.to_string(),
                };
                if !self.fall_back {
                    return Err(OracleError::Database(message));
                }
                let _ = self.damage.set(message);
                Ok(None)
            }
        }
    }

    /// The rounds this oracle was set up for.
    pub fn rounds(&self) -> Rounds {
        self.rounds
    }

    /// The single-round solver, if it has been made.
    pub fn single_round_solver(&self) -> Option<&Solver<Kamisado>> {
        self.plain.get().and_then(|s| s.as_ref().ok())
    }

    /// The match-round solver, if it has been made.
    pub fn round_solver(&self) -> Option<&Solver<MatchRound>> {
        self.sumo.get().and_then(|s| s.as_ref().ok())
    }

    /// Nodes searched by both solvers so far.
    pub fn nodes(&self) -> u64 {
        self.single_round_solver().map_or(0, Solver::nodes)
            + self.round_solver().map_or(0, Solver::nodes)
    }

    /// The bytes each table that is made gets.
    pub fn table_bytes(&self) -> usize {
        self.options.table_bytes
    }

    fn plain_solver(&self) -> Result<&Solver<Kamisado>, OracleError> {
        if !self.rounds.includes(false) {
            return Err(OracleError::NotPrepared { sumo: false });
        }
        self.plain
            .get_or_init(|| Solver::new(Kamisado, self.options))
            .as_ref()
            .map_err(|e| OracleError::from(*e))
    }

    fn sumo_solver(&self) -> Result<&Solver<MatchRound>, OracleError> {
        if !self.rounds.includes(true) {
            return Err(OracleError::NotPrepared { sumo: true });
        }
        self.sumo
            .get_or_init(|| Solver::new(MatchRound, self.options))
            .as_ref()
            .map_err(|e| OracleError::from(*e))
    }

    /// The search that answers for `pos`'s round.
    fn search(&self, pos: &MatchPosition) -> Result<Search<'_>, OracleError> {
        Ok(match pos.single_round() {
            Some(single) => Search::Plain(single, self.plain_solver()?),
            None => Search::Sumo(*pos, self.sumo_solver()?),
        })
    }

    /// The exact score of a resolved position from the rules or the database, without
    /// searching.
    fn known(&self, pos: &MatchPosition) -> Result<Option<(Score, Source)>, OracleError> {
        if let Some(s) = Score::by_rules(&MatchRound, pos) {
            return Ok(Some((s, Source::Rules)));
        }
        let Some(single) = pos.single_round() else {
            return Ok(None);
        };
        Ok(self.lookup(&single)?.and_then(|stored| {
            stored
                .remoteness
                .map(|r| (Score::new(stored.value, r), Source::Database))
        }))
    }

    /// Who wins the round from a position, for its side to move, without the remoteness:
    /// the rules, a database record, or proof-number search alone (far cheaper than the
    /// exact remoteness on a round's start).
    pub fn value(
        &self,
        pos: &MatchPosition,
        cancel: &Cancel,
    ) -> Result<(Value, Source), OracleError> {
        let pos = pos.resolve();
        if let Some(s) = Score::by_rules(&MatchRound, &pos) {
            return Ok((s.value(), Source::Rules));
        }
        let stored = match pos.single_round() {
            Some(single) => self.lookup(&single)?,
            None => None,
        };
        if let Some(stored) = stored {
            return Ok((stored.value, Source::Database));
        }
        Ok((self.search(&pos)?.value(cancel)?, Source::Search))
    }

    /// In a finished round of a match that goes on, what each refill choice leads to (in
    /// the order of [`Refill::ALL`]): both next rounds' values first (proof-number search
    /// alone, far cheaper than a remoteness), then, if `remoteness` is asked for, both
    /// exact remotenesses. A stop is not an error: what was found before it is kept and
    /// the rest is `None`. `None` when no refill choice is due.
    ///
    /// The next round always has a Sumo on the board (the winner's tower gains a rank),
    /// so the oracle must be one set up for such rounds (see [`Rounds`]).
    pub fn refills(
        &self,
        pos: &MatchPosition,
        remoteness: bool,
        cancel: &Cancel,
    ) -> Result<Option<[RefillOutcome; 2]>, OracleError> {
        let (Some(end), false) = (pos.round_end(), pos.is_match_over()) else {
            return Ok(None);
        };
        let mut outcomes = Refill::ALL.map(|choice| RefillOutcome {
            choice,
            chooser: end.winner,
            start: pos
                .refill(choice)
                .expect("a finished round of an unfinished match refills")
                .resolve(),
            value: None,
            remoteness: None,
            source: None,
        });
        for outcome in &mut outcomes {
            match self.value(&outcome.start, cancel) {
                Ok((value, source)) => {
                    // The next round's start is for its side to move, the round's loser.
                    outcome.value = Some(if outcome.start.turn() == end.winner {
                        value
                    } else {
                        value.flip()
                    });
                    outcome.source = Some(source);
                }
                Err(OracleError::Stopped) => return Ok(Some(outcomes)),
                Err(e) => return Err(e),
            }
        }
        if remoteness {
            for outcome in &mut outcomes {
                match self.position(&outcome.start, cancel) {
                    Ok(verdict) => {
                        outcome.remoteness = Some(verdict.outcome.remoteness);
                        outcome.source = Some(verdict.source);
                    }
                    Err(OracleError::Stopped) => break,
                    Err(e) => return Err(e),
                }
            }
        }
        Ok(Some(outcomes))
    }

    /// The value and remoteness of a position for its side to move.
    pub fn position(&self, pos: &MatchPosition, cancel: &Cancel) -> Result<Verdict, OracleError> {
        let pos = pos.resolve();
        let (s, source) = match self.known(&pos)? {
            Some(known) => known,
            None => (self.search(&pos)?.score(cancel)?, Source::Search),
        };
        Ok(verdict_of(pos, s, source))
    }

    /// The result of one legal move of `pos` (after its pending zero-length moves), for
    /// the player making it.
    pub fn move_verdict(
        &self,
        pos: &MatchPosition,
        mv: Move,
        cancel: &Cancel,
    ) -> Result<MoveVerdict, OracleError> {
        let pos = pos.resolve();
        pos.check_move(mv)?;
        let next = pos.play_unchecked(mv);
        let child = self.position(&next, cancel)?;
        Ok(MoveVerdict {
            mv,
            outcome: child.outcome.through_move(next.turn() != pos.turn()),
            source: child.source,
            next,
        })
    }

    /// Every legal move with its result for the mover, in the order
    /// [`MatchPosition::legal_moves`] lists them. Moves the rules or the database answer
    /// come first; searches follow, so a stopped search has cost no easy answer.
    pub fn moves(
        &self,
        pos: &MatchPosition,
        cancel: &Cancel,
    ) -> Result<Vec<MoveVerdict>, OracleError> {
        self.moves_with(pos, cancel, &mut |_| {})
    }

    /// [`Oracle::moves`], telling `done` about each move as it is answered.
    pub fn moves_with(
        &self,
        pos: &MatchPosition,
        cancel: &Cancel,
        done: &mut dyn FnMut(&MoveVerdict),
    ) -> Result<Vec<MoveVerdict>, OracleError> {
        let pos = pos.resolve();
        let moves = pos.legal_moves();
        let mut answers: Vec<Option<MoveVerdict>> = vec![None; moves.len()];
        let mut later = Vec::new();
        for (i, &m) in moves.iter().enumerate() {
            let next = pos.play_unchecked(m);
            match self.known(&next)? {
                Some((s, source)) => {
                    let answer = MoveVerdict {
                        mv: m,
                        outcome: s
                            .outcome(&MatchRound, &next)
                            .through_move(next.turn() != pos.turn()),
                        source,
                        next,
                    };
                    done(&answer);
                    answers[i] = Some(answer);
                }
                None => later.push(i),
            }
        }
        for i in later {
            let answer = self.move_verdict(&pos, moves[i], cancel)?;
            done(&answer);
            answers[i] = Some(answer);
        }
        Ok(answers.into_iter().flatten().collect())
    }

    /// The moves that keep the position's result: fastest win, slowest loss. Empty for a
    /// finished round.
    pub fn best_moves(
        &self,
        pos: &MatchPosition,
        cancel: &Cancel,
    ) -> Result<Vec<Move>, OracleError> {
        Ok(best_of(&self.moves(pos, cancel)?))
    }

    /// The moves of `pos` (resolved) that keep `score`, its exact score, found by
    /// null-window probes at that score: far cheaper than solving every move. Empty for a
    /// finished round.
    pub fn best_moves_at(
        &self,
        pos: &MatchPosition,
        score: Score,
        cancel: &Cancel,
    ) -> Result<Vec<Move>, OracleError> {
        let pos = pos.resolve();
        if pos.is_round_over() {
            return Ok(Vec::new());
        }
        self.search(&pos)?.best_moves(score, cancel)
    }

    /// The database's best move for `pos` (resolved), if its round is one the database
    /// holds and it stores one.
    pub fn stored_best_move(&self, pos: &MatchPosition) -> Result<Option<Move>, OracleError> {
        let Some(single) = pos.resolve().single_round() else {
            return Ok(None);
        };
        Ok(self.lookup(&single)?.and_then(|s| s.best))
    }

    /// The exact result of a position by search alone (the database is not asked): its
    /// outcome, every best move and a perfect line to the end of the round.
    pub fn solve(
        &self,
        pos: &MatchPosition,
        cancel: &Cancel,
    ) -> Result<Solution<Move>, OracleError> {
        let pos = pos.resolve();
        self.search(&pos)?.solve(cancel)
    }

    /// The position and every move, exactly: [`Oracle::analyse_moves`] to the end, `done`
    /// told about each move once all are answered. The position's result is the best of
    /// its moves' (so the position itself is never searched), with the database named as
    /// its source when its record says the same.
    pub fn analyse(
        &self,
        pos: &MatchPosition,
        cancel: &Cancel,
        done: &mut dyn FnMut(&MoveVerdict),
    ) -> Result<OracleAnalysis, OracleError> {
        let pos = pos.resolve();
        let report = self.analyse_moves(&pos, Depth::Every, cancel, &|_| {})?;
        if !report.complete {
            return Err(OracleError::Stopped);
        }
        let moves: Vec<MoveVerdict> = report
            .moves
            .iter()
            .map(|m| m.verdict(&pos).expect("a complete analysis is exact"))
            .collect();
        moves.iter().for_each(done);
        let verdict = match report.verdict {
            Some(v) => v,
            None => self.position(&pos, cancel)?,
        };
        Ok(OracleAnalysis {
            verdict,
            moves,
            best: report.best,
        })
    }

    /// Every move of a position at once, as far as `depth` asks: every move's value, then
    /// the best moves' exact remoteness (bounds shared between the moves), then with
    /// [`Depth::Every`] every move's (see [`Solver::analyse_moves`]). Moves the rules or
    /// the database answer are exact from the start. A stop is not an error: the report
    /// says what was found, marked incomplete. `progress` is told how far the search is.
    pub fn analyse_moves(
        &self,
        pos: &MatchPosition,
        depth: Depth,
        cancel: &Cancel,
        progress: &(dyn Fn(Progress) + Sync),
    ) -> Result<MovesReport, OracleError> {
        let pos = pos.resolve();
        let legal = pos.legal_moves();
        let mut known = Vec::with_capacity(legal.len());
        for &m in legal.iter() {
            let next = pos.play_unchecked(m);
            known.push((m, next, self.known(&next)?));
        }
        let searched = if known.iter().all(|(_, _, k)| k.is_some()) {
            None
        } else {
            Some(
                self.search(&pos)?
                    .analyse_moves(self.db.as_ref(), depth, cancel, progress),
            )
        };
        let moves: Vec<MoveBound> = known
            .iter()
            .map(|&(mv, next, k)| {
                let passed = next.turn() != pos.turn();
                match k {
                    Some((s, source)) => {
                        let s = s.through_move(passed);
                        MoveBound {
                            mv,
                            low: s,
                            high: s,
                            source,
                            next,
                        }
                    }
                    None => {
                        let b = searched
                            .as_ref()
                            .and_then(|a| a.moves.iter().find(|b| b.mv == mv))
                            .expect("the search analyses every legal move");
                        MoveBound {
                            mv,
                            low: b.low,
                            high: b.high,
                            source: Source::Search,
                            next,
                        }
                    }
                }
            })
            .collect();
        let complete = searched.as_ref().is_none_or(|a| a.complete);
        let best_low = moves.iter().map(|m| m.low).max();
        let best_high = moves.iter().map(|m| m.high).max();
        let best_score = best_low.filter(|_| best_low == best_high);
        let best: Vec<Move> = match best_score {
            Some(b) => moves
                .iter()
                .filter(|m| m.low == b && m.high == b)
                .map(|m| m.mv)
                .collect(),
            None => Vec::new(),
        };
        // The moves' best is the position's result by definition; a database record that
        // says otherwise (written by a faulty solver) is not repeated.
        let verdict = match (self.known(&pos)?, best_score) {
            (Some((s, source)), None) if moves.is_empty() => Some(verdict_of(pos, s, source)),
            (Some((s, source)), Some(b)) if s == b => Some(verdict_of(pos, s, source)),
            (_, Some(b)) => {
                // Searched if any move was, else from the database if any move was.
                let source = moves.iter().map(|m| m.source).max();
                Some(verdict_of(pos, b, source.unwrap_or(Source::Rules)))
            }
            (Some((s, source)), None) => Some(verdict_of(pos, s, source)),
            (None, None) => None,
        };
        Ok(MovesReport {
            verdict,
            moves,
            best,
            complete,
        })
    }
}

/// A resolved, unfinished position and the solver for its kind of round.
enum Search<'a> {
    Plain(Position, &'a Solver<Kamisado>),
    Sumo(MatchPosition, &'a Solver<MatchRound>),
}

impl Search<'_> {
    fn score(&self, cancel: &Cancel) -> Result<Score, OracleError> {
        Ok(match self {
            Search::Plain(pos, solver) => solver.score(pos, cancel)?,
            Search::Sumo(pos, solver) => solver.score(pos, cancel)?,
        })
    }

    fn value(&self, cancel: &Cancel) -> Result<Value, OracleError> {
        Ok(match self {
            Search::Plain(pos, solver) => solver.value(pos, cancel)?,
            Search::Sumo(pos, solver) => solver.value(pos, cancel)?,
        })
    }

    fn best_moves(&self, score: Score, cancel: &Cancel) -> Result<Vec<Move>, OracleError> {
        Ok(match self {
            Search::Plain(pos, solver) => solver.best_moves(pos, score, cancel)?,
            Search::Sumo(pos, solver) => solver.best_moves(pos, score, cancel)?,
        })
    }

    /// Every move, the database's records given to the single-round search as known.
    fn analyse_moves(
        &self,
        db: Option<&Database>,
        depth: Depth,
        cancel: &Cancel,
        progress: &(dyn Fn(Progress) + Sync),
    ) -> MovesAnalysis<Move> {
        match self {
            Search::Plain(pos, solver) => {
                // A record that fails its checksum is not known: the search answers it.
                let known = |child: &Position| {
                    let stored = db?.lookup(child).ok()??;
                    Some(Score::new(stored.value, stored.remoteness?))
                };
                solver.analyse_moves(pos, depth, &known, cancel, progress)
            }
            Search::Sumo(pos, solver) => {
                solver.analyse_moves(pos, depth, &|_| None, cancel, progress)
            }
        }
    }

    fn solve(&self, cancel: &Cancel) -> Result<Solution<Move>, OracleError> {
        Ok(match self {
            Search::Plain(pos, solver) => solver.solve(pos, cancel)?,
            Search::Sumo(pos, solver) => solver.solve(pos, cancel)?,
        })
    }
}

fn verdict_of(position: MatchPosition, s: Score, source: Source) -> Verdict {
    Verdict {
        position,
        outcome: s.outcome(&MatchRound, &position),
        source,
    }
}

/// The moves with the best score.
fn best_of(moves: &[MoveVerdict]) -> Vec<Move> {
    let best = moves.iter().map(MoveVerdict::score).max();
    moves
        .iter()
        .filter(|m| Some(m.score()) == best)
        .map(|m| m.mv)
        .collect()
}
