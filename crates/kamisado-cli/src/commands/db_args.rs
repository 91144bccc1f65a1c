//! Arguments of the database commands: `db info`, `db check`, `query`, `play`, and the
//! `--db FILE` that `solve` and `openings` take.

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};
use kamisado_core::Side;

use crate::args::{parse_seconds, whole, OutputArgs, PositionArgs, SearchArgs};

/// `--db FILE` on the commands that solve.
#[derive(Args, Debug, Clone, Default)]
pub struct WriteDbArgs {
    /// Also write every position the solver proved to this database file (`none`: no
    /// database, as every command that reads one takes it)
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
}

impl WriteDbArgs {
    /// The file to write, if any: `--db none` is no database, as it is for the
    /// commands that read one.
    pub fn path(&self) -> Option<&std::path::Path> {
        self.db.as_deref().filter(|p| p.as_os_str() != "none")
    }
}

#[derive(Args, Debug)]
pub struct DbArgs {
    #[command(subcommand)]
    pub command: DbCommand,
}

#[derive(Subcommand, Debug)]
pub enum DbCommand {
    /// Header, counts and size of a database file (reads only the header)
    #[command(after_help = "Example:\n  kamisado db info data/openings.kdb --json")]
    Info(DbInfoArgs),
    /// Verify a database: checksum, layout, and stored results re-derived from their children
    #[command(
        after_help = "Records that disagree with their children are listed and the exit code is 1;\nrecords that need a child the database lacks are counted, not failed, and with\n--solve N up to N of them are solved afresh and compared (exit code 1 on a mismatch).\nA corrupted or truncated file is one line on stderr and exit code 2.\n\nExamples:\n  kamisado db check data/openings.kdb\n  kamisado db check data/openings.kdb --all --json\n  kamisado db check data/openings.kdb --solve 1000"
    )]
    Check(DbCheckArgs),
}

#[derive(Args, Debug)]
pub struct DbInfoArgs {
    /// The database file
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Print one JSON object instead of text
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct DbCheckArgs {
    /// The database file
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Re-derive every record, not a sample
    #[arg(long, conflicts_with = "sample")]
    pub all: bool,
    /// Re-derive about N records, evenly spread over the file (the same ones every run)
    #[arg(long, value_name = "N", default_value_t = 10_000, allow_negative_numbers = true, value_parser = whole::<u64>(1, u64::MAX))]
    pub sample: u64,
    /// Also solve afresh up to N of the checked records the file cannot settle (a child
    /// missing) and compare their value, remoteness and best move
    #[arg(long, value_name = "N", default_value_t = 0, allow_negative_numbers = true, value_parser = whole::<u64>(0, u64::MAX))]
    pub solve: u64,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Print one JSON object instead of text
    #[arg(long)]
    pub json: bool,
    /// No progress bar
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(Args, Debug)]
pub struct QueryArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Answer from this database first; search only what it lacks [default:
    /// data/book.kdb if present; `none` for no database]
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
    /// Stop searching after this many seconds (exit code 1 if the answer is incomplete)
    #[arg(long = "time-limit", value_name = "SECS", allow_negative_numbers = true, value_parser = parse_seconds)]
    pub time_limit: Option<f64>,
    /// Search every move's exact remoteness, not only the best moves' (the others get
    /// bounds: `remoteness_at_least`, `remoteness_at_most` in --json)
    #[arg(long = "all-remoteness")]
    pub all_remoteness: bool,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// A player, as typed.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SideArg {
    Black,
    White,
}

impl From<SideArg> for Side {
    fn from(side: SideArg) -> Side {
        match side {
            SideArg::Black => Side::Black,
            SideArg::White => Side::White,
        }
    }
}

#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The side you play; the perfect player takes the other
    #[arg(long = "as", value_enum, value_name = "SIDE", default_value = "black")]
    pub side: SideArg,
    /// Start from this position instead of the start of a round
    #[command(flatten)]
    pub position: PositionArgs,
    /// Answer from this database first; search only what it lacks [default:
    /// data/book.kdb if present; `none` for no database]
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
    #[command(flatten)]
    pub search: SearchArgs,
    /// No colour, even on a terminal
    #[arg(long = "no-color")]
    pub no_color: bool,
    /// No progress bar while the perfect player thinks
    #[arg(long, short)]
    pub quiet: bool,
}
