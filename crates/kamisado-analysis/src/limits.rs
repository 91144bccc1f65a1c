//! The bounds every front end puts on what it is asked, each checked once, with its
//! message: the search settings (`threads`, `hash_mb`), a time limit, a match target,
//! where answers come from before a search (`db`), the size of a text input, and what a
//! search out of time says.
//!
//! The command line's value parsers call these (clap wraps the message: "invalid value
//! '0' for '--hash-mb <M>': expected a positive whole number, at most 1048576"), and so
//! does the Python package (which names the keyword: "hash_mb: invalid value 0:
//! expected a positive whole number, at most 1048576").

use std::fmt::Display;
use std::path::Path;
use std::time::Duration;

use kamisado_match::Target;
use kamisado_solver::{Options, SolveError};

use crate::request::RequestError;

/// The default transposition table size limit (`--hash-mb`), in MiB: room for a hard
/// position's search, little of this machine's memory.
pub const DEFAULT_HASH_MB: u64 = 128;

/// The default table of each unit of a Kamon split (`kamon units solve`, `kamon solve` of
/// a whole game), in MiB. A unit is a long search (0.1 to 5 G nodes), where a bigger table
/// saves re-searches but makes each node's lookups slower. Measured on seed 1's unit
/// `b1 b2` (one thread, 2026-12-05): 414 M nodes in 266 s of CPU with 128 MiB, 356 M in
/// 238 s with 512 MiB; with 2 and 8 GiB fewer nodes again (349 M, 326 M) but more time
/// (a node cost 24% and 57% more than with 128 MiB). Two units side by side take 1 GiB.
pub const DEFAULT_UNIT_HASH_MB: u64 = 512;

/// The search threads one may ask for (`--threads`).
pub const THREADS: Whole = Whole { min: 1, max: 1024 };

/// The table sizes one may ask for (`--hash-mb`), in MiB: up to a TiB, so that a typo
/// is refused before the allocation fails.
pub const HASH_MB: Whole = Whole {
    min: 1,
    max: 1_048_576,
};

/// The largest text input read (a games file, a survey): far more than any this
/// project writes (the largest survey is well under a megabyte), and little memory.
pub const MAX_TEXT_BYTES: u64 = 256 << 20;

/// The opening book the repository ships, where answers come from by default (a path
/// from the repository's top).
pub const BOOK: &str = "data/book.kdb";

/// A range of whole numbers an argument may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Whole {
    pub min: u64,
    pub max: u64,
}

impl Whole {
    /// What the range expects, in words (clap's own message says "-1 is not in 1..=1024").
    pub fn expected(self) -> String {
        match (self.min, self.max) {
            (0, u64::MAX) => "expected a whole number, 0 or more".to_owned(),
            (1, u64::MAX) => "expected a positive whole number".to_owned(),
            (1, max) => format!("expected a positive whole number, at most {max}"),
            (min, max) => format!("expected a whole number from {min} to {max}"),
        }
    }

    /// `n`, if in the range.
    pub fn check(self, n: u64) -> Result<u64, String> {
        if (self.min..=self.max).contains(&n) {
            Ok(n)
        } else {
            Err(self.expected())
        }
    }

    /// The whole number `text` says (spaces around allowed), if in the range.
    pub fn parse(self, text: &str) -> Result<u64, String> {
        text.trim()
            .parse::<u64>()
            .map_err(|_| self.expected())
            .and_then(|n| self.check(n))
    }
}

/// What a time limit must be. (The command line quotes the value in its message: this
/// says only what is expected, so that the value is not echoed twice.)
pub const TIME_LIMIT_EXPECTED: &str =
    "not a time limit: expected a number of seconds from 0.001 to 1e9, like 2 or 0.5";

/// A time limit of `seconds`, if it is one: finite, from a millisecond (below that no
/// search does anything, and the number would print with hundreds of decimals) to 1e9.
pub fn seconds(seconds: f64) -> Result<f64, String> {
    if seconds.is_finite() && (1e-3..=1e9).contains(&seconds) {
        Ok(seconds)
    } else {
        Err(TIME_LIMIT_EXPECTED.to_owned())
    }
}

/// The time limit `text` says (see [`seconds`]).
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .map_err(|_| TIME_LIMIT_EXPECTED.to_owned())
        .and_then(seconds)
}

/// What a match target must be.
pub const TARGET_EXPECTED: &str = "expected a match target: 1, 3, 7 or 15 points";

/// The match target of `points`, if it is one.
pub fn target(points: u32) -> Result<Target, String> {
    Target::from_points(points).ok_or_else(|| TARGET_EXPECTED.to_owned())
}

/// The match target `text` says (see [`target`]).
pub fn parse_target(text: &str) -> Result<Target, String> {
    text.trim().parse().map_err(|_| TARGET_EXPECTED.to_owned())
}

/// An argument out of its bounds, for a front end without a parser of its own: `name`
/// (as the front end calls it), the value given and what is expected.
fn out_of_bounds(name: &str, value: impl Display, expected: String) -> RequestError {
    RequestError::Invalid(format!("{name}: invalid value {value}: {expected}"))
}

/// The solver settings `threads` (all cores by default) and `hash_mb` ask for, each
/// checked against its bounds ([`THREADS`], [`HASH_MB`]).
pub fn search_options(threads: Option<u64>, hash_mb: u64) -> Result<Options, RequestError> {
    let hash_mb = HASH_MB
        .check(hash_mb)
        .map_err(|e| out_of_bounds("hash_mb", hash_mb, e))?;
    let mut options = Options {
        table_bytes: (hash_mb as usize) << 20,
        ..Options::default()
    };
    if let Some(threads) = threads {
        options.threads = THREADS
            .check(threads)
            .map_err(|e| out_of_bounds("threads", threads, e))? as usize;
    }
    Ok(options)
}

/// The time limit of `seconds` (none if none), checked as [`seconds`] checks it.
pub fn time_limit(seconds: Option<f64>) -> Result<Option<Duration>, RequestError> {
    seconds
        .map(|s| {
            self::seconds(s)
                .map(Duration::from_secs_f64)
                .map_err(|e| out_of_bounds("time_limit", s, e))
        })
        .transpose()
}

/// The match target of `points` for a line from `position` (none if none): a position's
/// text has its own target, so both is an error.
pub fn target_for(
    position: Option<&str>,
    points: Option<u32>,
) -> Result<Option<Target>, RequestError> {
    match points {
        None => Ok(None),
        Some(_) if position.is_some() => Err(RequestError::Invalid(
            "target: give a position or a target, not both (a position's text has its target)"
                .to_owned(),
        )),
        Some(points) => target(points)
            .map(Some)
            .map_err(|e| out_of_bounds("target", points, e)),
    }
}

/// Where answers come from before a search, as `db` names it: `None` for the book
/// ([`BOOK`]) if there is one here, `"none"` for none, else the database file at the
/// path (opened and checked; an error names the file).
pub fn database(db: Option<&Path>) -> Result<Option<kamisado_db::Database>, RequestError> {
    let open = |path: &Path| {
        kamisado_db::Database::open(path).map_err(|error| RequestError::Database {
            path: path.display().to_string(),
            error,
        })
    };
    let book = Path::new(BOOK);
    match db {
        Some(path) if path.as_os_str() == "none" => Ok(None),
        Some(path) => open(path).map(Some),
        None if book.is_file() => open(book).map(Some),
        None => Ok(None),
    }
}

/// What a search that found no answer within its time limit of `seconds` says, with the
/// nodes it searched.
pub fn no_answer_in_time(seconds: f64, nodes: u64) -> String {
    format!(
        "no answer within the time limit of {seconds} s ({} nodes searched)",
        crate::thousands(nodes)
    )
}

/// A solver's failure to start, as `hash_mb` (named `name` by the front end) asked for
/// it: a table too big for this machine is the caller's to change (bad input: `Ok`),
/// anything else is the search's (`Err`, the error itself).
pub fn table_too_big(name: &str, hash_mb: u64, e: SolveError) -> Result<String, SolveError> {
    match e {
        SolveError::Memory(_) => Ok(format!("{name} {hash_mb}: {e}")),
        e => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_out_of_their_range_say_what_is_expected() {
        assert_eq!(THREADS.parse(" 2 "), Ok(2));
        assert_eq!(
            THREADS.parse("0"),
            Err("expected a positive whole number, at most 1024".to_owned())
        );
        assert_eq!(THREADS.parse("-1"), THREADS.parse("1025"));
        assert_eq!(
            Whole { min: 0, max: 36 }.check(37),
            Err("expected a whole number from 0 to 36".to_owned())
        );
        assert_eq!(HASH_MB.check(1_048_576), Ok(1_048_576));
        assert!(HASH_MB.check(1_048_577).is_err());
    }

    #[test]
    fn search_options_name_the_argument_out_of_bounds() {
        let options = search_options(Some(3), 2).unwrap();
        assert_eq!((options.threads, options.table_bytes), (3, 2 << 20));
        assert_eq!(
            search_options(None, 0).unwrap_err().to_string(),
            "hash_mb: invalid value 0: expected a positive whole number, at most 1048576"
        );
        assert_eq!(
            search_options(Some(0), 1).unwrap_err().to_string(),
            "threads: invalid value 0: expected a positive whole number, at most 1024"
        );
    }

    #[test]
    fn time_limits_are_finite_from_a_millisecond() {
        assert_eq!(parse_seconds("0.5"), Ok(0.5));
        for bad in ["0", "-1", "nan", "inf", "1e10", "x", "0.0001"] {
            assert_eq!(
                parse_seconds(bad),
                Err(TIME_LIMIT_EXPECTED.to_owned()),
                "{bad}"
            );
        }
        assert_eq!(time_limit(None).unwrap(), None);
        assert_eq!(time_limit(Some(2.0)).unwrap(), Some(Duration::from_secs(2)));
        let e = time_limit(Some(f64::NAN)).unwrap_err().to_string();
        assert_eq!(
            e,
            format!("time_limit: invalid value NaN: {TIME_LIMIT_EXPECTED}")
        );
    }

    #[test]
    fn targets_are_match_lengths_and_not_with_a_position() {
        assert_eq!(parse_target(" 3"), Ok(Target::Standard));
        assert_eq!(parse_target("5"), Err(TARGET_EXPECTED.to_owned()));
        assert_eq!(target(15), Ok(Target::Marathon));
        assert_eq!(target_for(None, Some(7)).unwrap(), Some(Target::Long));
        assert!(target_for(Some("x"), Some(3)).is_err());
        assert!(target_for(None, Some(2)).is_err());
    }

    #[test]
    fn a_database_is_none_the_book_or_a_checked_file() {
        assert!(database(Some(Path::new("none"))).unwrap().is_none());
        let Err(e) = database(Some(Path::new("no-such-file.kdb"))) else {
            panic!("a missing file opened");
        };
        assert!(e.to_string().starts_with("no-such-file.kdb: "), "{e}");
    }

    #[test]
    fn out_of_time_says_the_limit_and_the_nodes() {
        assert_eq!(
            no_answer_in_time(0.5, 12_345),
            "no answer within the time limit of 0.5 s (12,345 nodes searched)"
        );
    }
}
