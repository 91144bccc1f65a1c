//! The command line, as clap sees it.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use kamisado_analysis::limits;
use kamisado_match::Target;

use crate::commands::book::{BookArgs, BOOK_HELP};
use crate::commands::certificate::CertificateArgs;
use crate::commands::db_args::{DbArgs, PlayArgs, QueryArgs, WriteDbArgs};
use crate::commands::prove::{ProveArgs, PROVE_HELP};
use crate::commands::referee_args::{
    EngineArgs, MatchArgs, VerifyArgs, ENGINE_HELP, MATCH_HELP, VERIFY_HELP,
};
use crate::commands::serve::{ServeArgs, SERVE_HELP};

#[derive(Parser, Debug)]
#[command(
    name = "kamisado",
    version,
    about = "Solve Kamisado exactly, single rounds and the rounds of matches: perft, values, remoteness, perfect moves, opening tables.",
    after_help = "Examples:\n  kamisado openings                # the value of every opening move\n  kamisado solve --moves \"a1-a7\"   # one position, exactly\n  kamisado perft 5 --divide        # count move sequences\n  kamisado play --target 3         # a Standard match against the perfect player"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Count the legal move sequences of a given length (compare move generators)
    #[command(after_help = "Example:\n  kamisado perft 5 --divide --moves \"a1-a5\"")]
    Perft(PerftArgs),
    /// Solve one position: value, remoteness, best moves, a perfect line
    #[command(
        after_help = "Example:\n  kamisado solve --moves \"a1-a7 c8-c4\" --threads 2 --json"
    )]
    Solve(SolveArgs),
    /// Solve every first move of Black and write the opening table as JSON
    #[command(
        after_help = "Examples:\n  kamisado openings --out data/openings.json\n  kamisado openings --values-only --json   # who wins after each move, in a fraction of a second"
    )]
    Openings(OpeningsArgs),
    /// Print a position: the board in colour and its text
    #[command(
        after_help = "Examples:\n  kamisado show --moves \"a1-a5 d8-d3\"\n  kamisado show --target 3 --moves \"g1-g7 h8-h6 g7-h8 left\" --json   # round 2 of a Standard match"
    )]
    Show(ShowArgs),
    /// Inspect and verify solved-position databases
    #[command(
        after_help = "Examples:\n  kamisado db info data/openings.kdb\n  kamisado db check data/openings.kdb --all"
    )]
    Db(DbArgs),
    /// Every move of a position with its value and remoteness: from a database, else searched
    #[command(
        after_help = "Example:\n  kamisado query --db data/openings.kdb --moves \"h1-h7 c8-c4\" --time-limit 10 --json"
    )]
    Query(QueryArgs),
    /// Play against the perfect player in the terminal (moves typed like a1-a5), a round or a whole match
    #[command(
        after_help = "Type a move like a1-a5, `undo` to take back your last move, `quit` to stop.\nIn a match (--target 3, 7 or 15), the round's winner chooses how the home rows are\nrefilled: type `left` or `right` when asked.\n\nExamples:\n  kamisado play --as white --db data/openings.kdb\n  kamisado play --target 3"
    )]
    Play(PlayArgs),
    /// Judge every move of recorded games: blunders, inaccuracies, illegal moves
    #[command(after_help = VERIFY_HELP)]
    Verify(VerifyArgs),
    /// Play perfectly as an engine over KEI, the line protocol on stdin/stdout
    #[command(after_help = ENGINE_HELP)]
    Engine(EngineArgs),
    /// Referee games between the perfect player and an external KEI engine
    #[command(after_help = MATCH_HELP)]
    Match(MatchArgs),
    /// Write a certificate: a proof of a position's value and remoteness that anyone can check
    #[command(after_help = PROVE_HELP)]
    Prove(ProveArgs),
    /// Check certificates with the rules alone
    #[command(after_help = "Example:\n  kamisado certificate check data/certificates/start.kcert")]
    Certificate(CertificateArgs),
    /// Build the opening book: every position of the first moves, exactly, in one database
    #[command(after_help = BOOK_HELP)]
    Book(BookArgs),
    /// An analysis board in the browser: a local web server, every move's value shown
    #[command(after_help = SERVE_HELP)]
    Serve(ServeArgs),
    /// The sister game Kamon: perft, solve, random layouts, show, play, survey
    #[command(
        after_help = "Example:\n  kamisado kamon solve --layout \"$(kamisado kamon random --seed 1)\" --moves \"f1 a4 c5 g1 g4 g2\""
    )]
    Kamon(crate::commands::kamon::KamonArgs),
    /// Who wins a whole match (rounds, refill choices, the target): solve, survey
    #[command(
        after_help = "Examples:\n  kamisado whole-match solve --position \"yrgpnob+u+/8/8/8/8/8/8/Y+O+UNRPGB b - 3\" --time-limit 60 --db proofs.kmp\n  kamisado whole-match query --target 3 --moves \"h1-h5 e8-e3\" --time-limit 10"
    )]
    WholeMatch(crate::commands::whole_match::WholeMatchArgs),
}

/// Where a command starts: a position text, a move list, or both (moves played from the
/// position), defaulting to the start of a single round (or of a match, with `--target`).
#[derive(Args, Debug, Clone, Default)]
pub struct PositionArgs {
    /// Position text `<board> <side> <active> [<target>]`, e.g.
    /// "obupyrgn/8/8/8/8/8/8/NGRYPUBO b -"; in match play a `+` per rank after a tower's
    /// letter and the target: "obupyrgn/8/8/8/8/8/8/N+GRYPUBO w - 3"
    #[arg(long, value_name = "TEXT")]
    pub position: Option<String>,
    /// Moves played from the position (or the start), e.g. "a1-a5 d8-d3"; in a match, a
    /// match record: the refill choice `left` or `right` after each round's last move
    #[arg(long, value_name = "MOVES")]
    pub moves: Option<String>,
    /// Start a match to this many points from the standard start: 1 (a single round, the
    /// default), 3 (Standard), 7 (Long) or 15 (Marathon)
    #[arg(long, value_name = "POINTS", conflicts_with = "position", value_parser = parse_target)]
    pub target: Option<Target>,
}

/// A match target: 1, 3, 7 or 15 points (the analysis library's check and message).
pub fn parse_target(text: &str) -> Result<Target, String> {
    limits::parse_target(text)
}

#[derive(Args, Debug, Clone)]
pub struct SearchArgs {
    /// Worker threads (default: all cores; one for a Kamon value alone, which more threads slow down)
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = within::<u16>(limits::THREADS))]
    pub threads: Option<u16>,
    /// Transposition table size limit in MiB; the table never grows past it [default: 128; 512 for each unit of a Kamon split]
    #[arg(long = "hash-mb", value_name = "M", allow_negative_numbers = true, value_parser = within::<u64>(limits::HASH_MB))]
    pub hash_mb: Option<u64>,
}

impl SearchArgs {
    /// `--hash-mb`, or the default table of one search.
    pub fn hash_mb(&self) -> u64 {
        self.hash_mb.unwrap_or(limits::DEFAULT_HASH_MB)
    }

    /// These arguments for the units of a Kamon split: `--hash-mb`, or the default table
    /// of a unit ([`limits::DEFAULT_UNIT_HASH_MB`]).
    pub fn for_units(&self) -> SearchArgs {
        SearchArgs {
            threads: self.threads,
            hash_mb: Some(self.hash_mb.unwrap_or(limits::DEFAULT_UNIT_HASH_MB)),
        }
    }
}

#[derive(Args, Debug, Clone)]
pub struct OutputArgs {
    /// Print one JSON object instead of text
    #[arg(long)]
    pub json: bool,
    /// No progress bar
    #[arg(long, short)]
    pub quiet: bool,
    /// No colour, even on a terminal
    #[arg(long = "no-color")]
    pub no_color: bool,
}

#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Number of moves in each sequence
    #[arg(allow_negative_numbers = true, value_parser = whole::<u32>(0, 40))]
    pub depth: u32,
    #[command(flatten)]
    pub position: PositionArgs,
    /// Count each zero-length move as a ply (and end a deadlock right after its cause)
    #[arg(long = "zero-moves-as-plies")]
    pub zero_moves_as_plies: bool,
    /// Print the count under each first move, one `a1-a5: N` line per move
    #[arg(long)]
    pub divide: bool,
    /// Print one JSON object instead of text
    #[arg(long)]
    pub json: bool,
    /// No progress bar
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub db: WriteDbArgs,
}

#[derive(Args, Debug)]
pub struct OpeningsArgs {
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub output: OutputArgs,
    /// Where to write the opening table
    #[arg(long, value_name = "FILE", default_value = "data/openings.json")]
    pub out: PathBuf,
    #[command(flatten)]
    pub db: WriteDbArgs,
    /// Only who wins after each move (proof-number search, no remoteness or lines); prints
    /// the values and writes no file
    #[arg(long = "values-only", conflicts_with_all = ["out", "db"])]
    pub values_only: bool,
    /// Instead of the table, write certificates of the start's and every first move's
    /// value and remoteness to DIR/start.kcert and DIR/openings.kcert (DIR is made if missing)
    #[arg(long, value_name = "DIR", conflicts_with_all = ["out", "db", "values_only"])]
    pub certify: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct ShowArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// A positive, finite number of seconds (the analysis library's check and message).
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    limits::parse_seconds(text)
}

/// A parser for a whole number from `min` to `max`, whose error says what is expected in
/// words (see [`limits::Whole`]). Arguments that take one also allow a leading `-`, so
/// that `--threads -1` reaches the parser instead of being taken for an unknown flag.
pub fn whole<T>(min: u64, max: u64) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync
where
    T: TryFrom<u64>,
{
    within(limits::Whole { min, max })
}

/// A parser for a whole number in `range` (see [`whole`]).
pub fn within<T>(range: limits::Whole) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync
where
    T: TryFrom<u64>,
{
    move |text| {
        range
            .parse(text)
            .and_then(|n| T::try_from(n).map_err(|_| range.expected()))
    }
}

/// A shard `i/n` with 1 <= i <= n (of a survey or a book build).
pub fn parse_shard(text: &str) -> std::result::Result<(u64, u64), String> {
    let bad = || {
        format!(
            "`{text}` is not a shard: expected i/n with 1 <= i <= n, like 2/4 (the second of four)"
        )
    };
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (i, n): (u64, u64) = (
        i.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if i == 0 || i > n {
        return Err(bad());
    }
    Ok((i, n))
}
