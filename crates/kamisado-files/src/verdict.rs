//! What checking a certificate (a word file of entries and claims, see [`crate::words`])
//! comes to, in the same shape for every game: either every entry and claim held, or the
//! first part that does not, in one line.

/// A certificate whose every entry and claim checked: its claims (each game's own type)
/// and how many entries proved them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified<Claim> {
    pub claims: Vec<Claim>,
    pub entries: usize,
}

/// The first part of a certificate that does not check, in one line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CheckFailure {
    /// `index` counts from 0 in the file's order.
    #[error("entry {index} ({statement}, in {position}) fails: {reason}")]
    Entry {
        index: usize,
        position: String,
        statement: String,
        reason: String,
    },
    /// `index` counts from 1.
    #[error("claim {index} ({claim}) is not proved: {reason}")]
    Claim {
        index: usize,
        claim: String,
        reason: String,
    },
}
