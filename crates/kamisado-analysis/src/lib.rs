//! What are the moves and values here? The one answer behind every front end.
//!
//! The command line (`query`, `play`, `solve`, `verify`), the board (`serve`) and the
//! referee's perfect player all ask the same question of a position; this crate answers
//! it once, for any round of a match (a single round is a match to one point):
//!
//! - [`Oracle`]: the value and remoteness of a position and of each of its moves, from
//!   the rules where they decide, a database (`kamisado-db`, storage only) where it
//!   knows, and a live search for the rest; every answer names its [`Source`].
//! - [`analyse`]: a position and every move as far as a [`Depth`](kamisado_solver::Depth)
//!   asks, with the partial answer a time limit leaves ([`Analysis`]: which moves are
//!   exact, which only bounded).
//! - [`perfect_line`]: a perfect line from a position, stopping (incomplete) where a time
//!   limit strikes or a database and the search disagree, never panicking.
//! - [`PerfectPlayer`]: fastest win, slowest loss, and between rounds the refill choice;
//!   its progress is the oracle's node count ([`PerfectPlayer::nodes`]), which another
//!   thread may read while it thinks.
//! - [`OpeningTable`]: the opening table's file (`data/openings.json`), read and written
//!   by one definition.
//! - [`QueryReport`] (and [`query`]): the report `query --json` prints and `serve` sends,
//!   one plain serde value built from an [`Analysis`]; [`SolveReport`] (and [`solve`]):
//!   the report `solve --json` prints, a position solved exactly; [`Standing`] for match play;
//!   [`SearchStats`], what a search cost, in every report that searched.
//! - [`kamon`]: the same for Kamon: `kamon solve --json`'s report ([`kamon::solve`]),
//!   every cell of a position ([`kamon::analyse`], [`kamon::query`]), its perfect line and
//!   the perfect player of `kamon play` ([`kamon::reply`]), and one layout of a survey
//!   solved as `kamon survey` records it ([`kamon::survey_entry`]).
//! - [`limits`]: the bounds on what a front end is asked (threads, table size, time
//!   limit, target, database, text size), each checked once with its message.
//! - [`survey_file`] and [`units_file`]: the Kamon survey's file and the file of a split's
//!   units solved apart (`kamon units`), each read, checked and written by one definition;
//!   [`units_run`]: solving those units, several side by side (`kamon units solve --jobs`);
//!   [`whole_file`]: the whole games those units prove (`kamon whole`), built from them.
//!
//! Every long call takes a [`Cancel`](kamisado_solver::Cancel): raised (a time limit, an
//! interrupt, a closed connection) the search stops with [`OracleError::Stopped`] or, for
//! [`analyse`], with what it had found. Errors are one-line messages.
//!
//! ```
//! use kamisado_analysis::{analyse, Oracle, Source};
//! use kamisado_core::{notation::play_line, Kamisado, Position};
//! use kamisado_db::{collect, encode, Database};
//! use kamisado_match::{MatchPosition, Target};
//! use kamisado_solver::{Cancel, Depth, Options, Solver};
//!
//! let pos = play_line(&Position::start(), "h1-h7 c8-c4 b1-b2 h8-d4 a1-a6 g8-g4").unwrap().end;
//! let options = Options { threads: 1, table_bytes: 1 << 20 };
//! let solver = Solver::new(Kamisado, options).unwrap();
//! solver.score(&pos, &Cancel::new()).unwrap();
//! let bytes = encode(&collect(&solver, &[]), "example").unwrap();
//!
//! let db = Database::from_bytes(bytes).unwrap();
//! let oracle = Oracle::new(Some(db), Solver::new(Kamisado, options).unwrap());
//! let asked = MatchPosition::from_single_round(&pos, Target::Single);
//! let verdict = oracle.position(&asked, &Cancel::new()).unwrap();
//! assert_eq!(verdict.source, Source::Database);
//!
//! let analysis = analyse(&oracle, &asked, Depth::Best, &Cancel::new(), &|_| {}).unwrap();
//! assert!(!analysis.timed_out);
//! assert_eq!(analysis.verdict.unwrap().outcome, verdict.outcome);
//! ```

mod analysis;
pub mod kamon;
pub mod limits;
mod opening_table;
mod oracle;
mod perfect_line;
mod player;
mod report;
pub mod request;
mod stats;
pub mod survey_file;
pub mod survey_stats;
pub mod table_file;
pub mod units_file;
pub mod units_run;
pub mod whole_file;

pub use analysis::{analyse, Analysis};
pub use opening_table::{OpeningMove, OpeningTable};
pub use oracle::{
    MoveBound, MoveVerdict, MovesReport, Oracle, OracleAnalysis, OracleError, RefillOutcome,
    Rounds, Source, Verdict,
};
pub use perfect_line::perfect_line;
pub use player::{PerfectMove, PerfectPlayer, RefillChoice};
pub use report::{query, solve, MatchScore, MoveJson, QueryReport, SolveReport, Standing};
pub use request::{GameKind, Line, Request, RequestError, RequestText};
pub use stats::{load_average, peak_memory_bytes, thousands, SearchStats};
pub use survey_file::{FileError, SurveyFile};
