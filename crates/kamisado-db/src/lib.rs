//! Solved-position databases: what the solver proved, on disk. Storage only: the answers
//! given from them (the oracle) are `kamisado-analysis`'s.
//!
//! A solve or an opening table proves the value of many positions on the way; this crate
//! keeps them so that an analyst, a program or a player gets perfect answers without
//! solving again.
//!
//! - [`collect`] turns a [`Solver`](kamisado_solver::Solver)'s table (and results the
//!   caller knows, [`Solved`]) into [`Record`]s: one `u128` per position, keyed by the
//!   canonical key so that the up to four symmetric images of a position share one record.
//! - [`write()`] stores them: a small header (magic `KAMISADB`, format version, rules
//!   variant, counts, CRC-32), the records, raw, sorted by key, and a CRC-32 per block of
//!   256 records. The file is written under a temporary name, flushed and renamed, so an
//!   interrupted run never leaves half a file and a reader of the old file keeps it.
//! - [`Database::open`] reads a file up to [`READ_LIMIT`] into memory and checks every
//!   byte once; a larger file is memory-mapped and each block is checked when a lookup
//!   first reads it, so a cold process answers from a large file in milliseconds. A
//!   lookup finds a position by binary search. Damaged files give a [`DbError`], never a
//!   wrong answer or a panic; [`check`] finds what checksums cannot (wrong values
//!   written by a faulty program).
//! - [`book`] builds the opening book: every position of the first moves, exactly.
//!
//! ```
//! use kamisado_core::{notation::play_line, Kamisado, Position};
//! use kamisado_db::{collect, encode, Database};
//! use kamisado_solver::{Cancel, Options, Solver};
//!
//! let pos = play_line(&Position::start(), "h1-h7 c8-c4 b1-b2 h8-d4 a1-a6 g8-g4").unwrap().end;
//! let options = Options { threads: 1, table_bytes: 1 << 20 };
//! let solver = Solver::new(Kamisado, options).unwrap();
//! solver.score(&pos, &Cancel::new()).unwrap();
//! let bytes = encode(&collect(&solver, &[]), "example").unwrap();
//!
//! let db = Database::from_bytes(bytes).unwrap();
//! let stored = db.lookup(&pos).unwrap().unwrap();
//! assert_eq!(stored.value, solver.score(&pos, &Cancel::new()).unwrap().value());
//! ```

pub mod book;
mod check;
mod collect;
mod error;
mod file;
mod header;
mod record;

pub use check::{check, check_by_search, CheckReport, Disagreement, Selection, MAX_LISTED};
pub use collect::{collect, Solved};
pub use error::DbError;
pub use file::{
    encode, write, write_book, write_book_records, write_records, Database, Stored, READ_LIMIT,
};
pub use header::{
    Header, BLOCK_RECORDS, FORMAT_VERSION, MAGIC, OLDEST_READ_VERSION, RULES_VARIANT,
};
pub use record::{Record, MAX_STORED_REMOTENESS, RECORD_BYTES};
