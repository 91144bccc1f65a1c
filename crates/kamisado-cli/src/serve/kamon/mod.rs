//! Kamon on the analysis board: `/api/query?game=kamon&layout=TEXT&moves=b1+d4` (or
//! `seed=N`, and `after=K` as `kamisado kamon random --after K` plays them).
//!
//! Why it is built from `kamisado kamon`'s parts: the request is read by the analysis
//! library's reader (the command line's too), the solver made as `kamisado kamon solve` makes it, and the answer
//! is that command's JSON report with the board's fields beside it, so the page and the
//! command line can never disagree on a record, an error or a value.

mod answer;
mod solvers;

pub use answer::answer;
pub use solvers::KamonSolvers;
