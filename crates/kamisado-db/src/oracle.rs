//! Perfect answers: from the rules where they decide, from a database where it knows,
//! from a live search for the rest.

use kamisado_core::{IllegalMove, Kamisado, Move, Position};
use kamisado_solver::{Cancel, Outcome, Score, SolveError, Solver};

use crate::Database;

/// Where an answer came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Source {
    /// The rules alone: a finished game, or a win in one move.
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

/// The exact result of a position for its side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The position the verdict is about: the one asked about with its pending
    /// zero-length moves played, so its side to move may differ from the one asked about.
    pub position: Position,
    /// For the side to move.
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
    /// The position after the move and the zero-length moves that follow it.
    pub next: Position,
}

impl MoveVerdict {
    /// The outcome as one score, for the mover.
    pub fn score(&self) -> Score {
        Score::of(self.outcome)
    }
}

/// A position and all its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OracleAnalysis {
    pub verdict: Verdict,
    /// Every legal move, in the order [`Position::legal_moves`] lists them. Empty for a
    /// finished game.
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
    Illegal(#[from] IllegalMove),
    #[error("{0}")]
    Solver(SolveError),
    /// The database could not answer: a block of it failed its checksum.
    #[error("the database cannot be trusted: {0}")]
    Database(String),
}

impl From<crate::DbError> for OracleError {
    fn from(e: crate::DbError) -> OracleError {
        OracleError::Database(e.to_string())
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

/// Answers "what is this position worth, and each of its moves?" exactly.
///
/// Each question goes to the rules first (finished games, wins in one), then to the
/// database if there is one, and only then to the solver, whose table keeps everything it
/// learns for later questions. Every answer carries its [`Source`]. A search stops when
/// the [`Cancel`] passed in is raised (a time limit, an interrupt) with
/// [`OracleError::Stopped`].
///
/// Positions may have pending zero-length moves; they are played first
/// ([`Kamisado::root`]) and the answer names the position it is about.
pub struct Oracle {
    db: Option<Database>,
    solver: Solver<Kamisado>,
}

impl Oracle {
    pub fn new(db: Option<Database>, solver: Solver<Kamisado>) -> Oracle {
        Oracle { db, solver }
    }

    pub fn database(&self) -> Option<&Database> {
        self.db.as_ref()
    }

    pub fn solver(&self) -> &Solver<Kamisado> {
        &self.solver
    }

    /// The exact score of a resolved position from the rules or the database, without
    /// searching.
    fn known(&self, pos: &Position) -> Result<Option<(Score, Source)>, OracleError> {
        if let Some(s) = Score::by_rules(&Kamisado, pos) {
            return Ok(Some((s, Source::Rules)));
        }
        let Some(db) = &self.db else {
            return Ok(None);
        };
        Ok(db.lookup(pos)?.and_then(|stored| {
            stored
                .remoteness
                .map(|r| (Score::new(stored.value, r), Source::Database))
        }))
    }

    /// The best move the database stores for `pos` (after its pending zero-length
    /// moves), if it has a database and the database one.
    pub fn stored_best_move(&self, pos: &Position) -> Result<Option<Move>, OracleError> {
        let Some(db) = &self.db else {
            return Ok(None);
        };
        Ok(db.lookup(&Kamisado::root(pos))?.and_then(|s| s.best))
    }

    /// The value and remoteness of a position for its side to move.
    pub fn position(&self, pos: &Position, cancel: &Cancel) -> Result<Verdict, OracleError> {
        let pos = Kamisado::root(pos);
        let (s, source) = match self.known(&pos)? {
            Some(known) => known,
            None => (self.solver.score(&pos, cancel)?, Source::Search),
        };
        Ok(verdict_of(pos, s, source))
    }

    /// The result of one legal move of `pos` (after its pending zero-length moves), for
    /// the player making it.
    pub fn move_verdict(
        &self,
        pos: &Position,
        mv: Move,
        cancel: &Cancel,
    ) -> Result<MoveVerdict, OracleError> {
        let pos = Kamisado::root(pos);
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
    /// [`Position::legal_moves`] lists them. Moves the rules or the database answer come
    /// first; searches follow, so a stopped search has cost no easy answer.
    pub fn moves(&self, pos: &Position, cancel: &Cancel) -> Result<Vec<MoveVerdict>, OracleError> {
        self.moves_with(pos, cancel, &mut |_| {})
    }

    /// [`Oracle::moves`], telling `done` about each move as it is answered.
    pub fn moves_with(
        &self,
        pos: &Position,
        cancel: &Cancel,
        done: &mut dyn FnMut(&MoveVerdict),
    ) -> Result<Vec<MoveVerdict>, OracleError> {
        let pos = Kamisado::root(pos);
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
                            .outcome(&Kamisado, &next)
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
    /// finished game.
    pub fn best_moves(&self, pos: &Position, cancel: &Cancel) -> Result<Vec<Move>, OracleError> {
        Ok(best_of(&self.moves(pos, cancel)?))
    }

    /// One best move, as fast as possible: the database's stored best move if it has one,
    /// else the first of [`Oracle::best_moves`]. `None` for a finished game.
    pub fn best_move(&self, pos: &Position, cancel: &Cancel) -> Result<Option<Move>, OracleError> {
        let pos = Kamisado::root(pos);
        if pos.is_over() {
            return Ok(None);
        }
        if let Some(m) = pos.winning_move() {
            return Ok(Some(m));
        }
        if let Some(m) = self.stored_best_move(&pos)? {
            return Ok(Some(m));
        }
        Ok(self.best_moves(&pos, cancel)?.first().copied())
    }

    /// The position and every move. The position's result is the best of its moves'
    /// (so the position itself is never searched), with the database named as its source
    /// when its record says the same.
    pub fn analyse(
        &self,
        pos: &Position,
        cancel: &Cancel,
        done: &mut dyn FnMut(&MoveVerdict),
    ) -> Result<OracleAnalysis, OracleError> {
        let pos = Kamisado::root(pos);
        let moves = self.moves_with(&pos, cancel, done)?;
        let best = best_of(&moves);
        // The moves are exact, so the best of them is the position's result by
        // definition; a database record that says otherwise (written by a faulty solver)
        // is not repeated.
        let verdict = match (
            self.known(&pos)?,
            moves.iter().map(MoveVerdict::score).max(),
        ) {
            (Some((s, source)), None) => verdict_of(pos, s, source),
            (Some((s, source)), Some(best)) if s == best => verdict_of(pos, s, source),
            (_, Some(s)) => {
                // Searched if any move was, else from the database if any move was.
                let source = moves.iter().map(|m| m.source).max();
                verdict_of(pos, s, source.unwrap_or(Source::Rules))
            }
            // No moves and no rule: only a finished game has no moves, and the rules
            // know those; ask the solver to be safe.
            (None, None) => self.position(&pos, cancel)?,
        };
        Ok(OracleAnalysis {
            verdict,
            moves,
            best,
        })
    }
}

fn verdict_of(position: Position, s: Score, source: Source) -> Verdict {
    Verdict {
        position,
        outcome: s.outcome(&Kamisado, &position),
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
