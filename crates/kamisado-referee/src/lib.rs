//! Judging Kamisado played by others, with the exact solver as the judge.
//!
//! An engine author wants to know where their engine plays imperfectly; a tournament
//! organiser wants a referee that enforces the rules and a perfect opponent. This crate
//! holds both, on top of the [`Oracle`](kamisado_analysis::Oracle) (rules, then a database,
//! then live search), so every verdict it gives is exact:
//!
//! - [`record`]: game records, one game per line (`a1-a5 d8-d3 ...`, optionally starting
//!   `position <text> moves ...`; in a match, every round with the refill choices
//!   `left`/`right` between them), with comments, and their replay with the first
//!   illegal move located by round, move number and reason.
//! - [`judge`]: every move of a game judged for its mover (value and remoteness before
//!   and after), marked as a *blunder* (a win given away) or an *inaccuracy* (the value
//!   kept but the game made longer by the winner or shorter by the loser than perfect play
//!   would), with per-game and per-file tallies.
//! - [`protocol`]: KEI, the line-based engine protocol modelled on UCI (`kei`/`keiok`,
//!   `position`, `go`/`bestmove`, `quit`), specified for engine authors in `PROTOCOL.md`
//!   beside this crate's `Cargo.toml`.
//! - [`engine`]: the KEI engine loop of the perfect player (fastest win, slowest loss,
//!   `kamisado-analysis`'s [`PerfectPlayer`]).
//! - [`process`] and [`match_play`]: an external engine as a child process (time limits,
//!   crashes, garbage), and a match of the perfect player against it, each game's record
//!   judged afterwards.
//!
//! The binary `kamisado-random-engine` is a deliberately weak KEI engine (a random legal
//! mover, with switches to misbehave) for tests and demonstrations.
//!
//! ```
//! use kamisado_referee::{Command, PlayedGame, RecordError, Reply};
//!
//! // A record stops at its first illegal move, which is named by its number.
//! let game = PlayedGame::parse("h1-h7 c8-c4 a1-h8");
//! assert_eq!(game.moves.len(), 2);
//! assert!(matches!(game.error, Some(RecordError::Move { number: 3, .. })));
//!
//! // Both directions of the protocol parse and print.
//! let go = Command::parse("go movetime 500").unwrap().unwrap();
//! assert_eq!(go.to_string(), "go movetime 500");
//! let answer = Reply::parse("bestmove b1-b2").unwrap();
//! assert_eq!(answer, Some(Reply::BestMove(Some("b1-b2".parse().unwrap()))));
//!
//! // Between the rounds of a match, the winner's refill choice.
//! let choice = Reply::parse("bestmove left").unwrap();
//! assert_eq!(choice, Some(Reply::BestMove(Some("left".parse().unwrap()))));
//! ```

pub mod engine;
mod input_line;
pub mod judge;
pub mod match_play;
pub mod process;
pub mod protocol;
pub mod record;
mod text_serde;

pub use engine::{serve, Identity};
pub use input_line::{read_line, InputLine};
pub use judge::{
    summarise, FileSummary, GameJudgement, GameResult, Judge, Mark, MoveJudgement, Points,
    RefillJudgement, Tally,
};
pub use kamisado_analysis::{PerfectMove, PerfectPlayer, RefillChoice};
pub use match_play::{
    run_match, Ending, EngineSides, GameReport, MatchEvent, MatchOptions, MatchReport, MatchSummary,
};
pub use process::{EngineFault, EngineProcess};
pub use protocol::{Action, Command, PositionSpec, Reply};
pub use record::{record_lines, PlayedGame, RecordError, RecordLine};
