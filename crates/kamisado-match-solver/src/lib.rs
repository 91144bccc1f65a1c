//! Solving whole matches of Kamisado: who wins a match, not a round, with perfect play.
//!
//! The match is one game ([`kamisado_match::WholeMatch`]: rounds, the winner's refill
//! choice between them, the match's winner at the end) searched by the generic solver's
//! df-pn. What makes it tractable is that most rounds need not be looked past: at the first
//! position of each round the round solver asks whether either side can force a round win
//! that ends the match ([`kamisado_match::ClinchRound`]), and a yes is the match's value
//! there, given to the search through the solver's `Game::known` hook. Only rounds that
//! neither side can clinch are searched through to the rounds after them.
//!
//! - [`OracleMatch`]: the match game with the round solver and the [`Store`] of facts at
//!   round boundaries behind `Game::known`.
//! - [`MatchSolver`]: a run with a time limit, progress reports ([`Progress`]) and
//!   checkpoints to a proof file ([`file`]) from which a later run resumes.
//! - [`estimate`]: what a proof by tiers would cost, from a sample of its tiers.
//!
//! The round solver and the match search have tables of their own: round positions and
//! match positions have different keys and different values (a round won is not a match
//! won), and the round solver's are cheap to find again.

mod estimate;
pub mod file;
mod game;
mod run;
mod speculate;
mod store;

pub use estimate::{estimate, Estimate, EstimateOptions, Measured, TierEstimate};
pub use file::ProofFileError;
pub use game::{OracleMatch, RoundCounts};
pub use run::{MatchOptions, MatchSolveError, MatchSolver, MoveSearch, Progress, Proof, Run};
pub use speculate::{Share, ShareOutcome, Speculation, SpeculativeCount, SpeculativeProof};
pub use store::{Fact, Source, Store, StoreCounts};
