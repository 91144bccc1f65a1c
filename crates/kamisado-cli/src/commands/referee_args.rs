//! Arguments of the commands that judge and referee others' play: `verify`, `engine`,
//! `match`.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use kamisado_referee::EngineSides;

use crate::args::{parse_seconds, whole, PositionArgs, SearchArgs};

pub const VERIFY_HELP: &str = "\
The file holds one game per line: moves like a1-a5 separated by spaces, played from the
start; or `position startpos moves ...` / `position <board> <side> <active> [<target>]
moves ...` (the lines `kamisado match` prints). A game of a match is a match record: the
round winner's `left` or `right` follows each round's last move. Zero-length moves may be
left out or written (d7-d7). `#` starts a comment; blank lines are skipped.

Every move is judged for the player who made it: its value and remoteness before the move
(the best that player could do) and after it. A blunder gives a win away; an inaccuracy
keeps the value but lets the winner win later, or the loser lose sooner, than perfect play.
In a match, values and remoteness are the round's, and a refill choice is a blunder if the
other direction wins the next round for the chooser and this one loses it.
A game with a bad word or an illegal move is judged up to it and reported with its line,
move number and reason.

Exit code: 0; 2 if a game has an illegal move (after the whole report) or the file cannot
be read; 1 if a position was not solved within --time-limit.

Examples:
  kamisado verify data/games.txt
  kamisado verify data/games.txt --db data/openings.kdb --time-limit 30 --json
  kamisado match --engine target/release/kamisado-random-engine --json | jq -r '.games[].record' | kamisado verify -";

pub const ENGINE_HELP: &str = "\
Speaks KEI, the Kamisado Engine Interface (a UCI-like line protocol; see
crates/kamisado-referee/PROTOCOL.md), on standard input and output, and plays perfectly:
the fastest win, or the slowest loss. Exits on `quit` or at the end of the input.

Example:
  printf 'kei\\nposition startpos moves h1-h7 c8-c4\\ngo\\nquit\\n' | kamisado engine --hash-mb 32";

pub const MATCH_HELP: &str = "\
The engine is started with `sh -c COMMAND` (so it may carry arguments and quotes) and spoken
to in KEI (see crates/kamisado-referee/PROTOCOL.md). The referee sends it every position
from the game's start and allows --time-limit for each answer. An illegal move, a crash or
exit, a line that is not KEI, or no answer in time ends that game: the engine loses it, and
a fresh engine process is started for the next game.

Games vary: with --as both the engine plays Black in odd games and White in even ones, and
the perfect player picks at random (seeded by --seed and the game number, so a match
repeats exactly) among all its perfect moves.

After each game its moves are judged (the record is printed, with the engine's first
blunder). Exit code 0 whatever the result; 2 if the engine never answered `kei` (the
match stops after that first game).

Examples:
  kamisado match --engine \"target/release/kamisado-random-engine --seed 3\" --games 10 --time-limit 2
  kamisado match --engine \"kamisado engine --hash-mb 32\" --moves \"h1-h7 c8-c4\" --json";

/// `kamisado verify FILE`.
#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// Game records, one game per line; `-` reads standard input
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Answer from this database first; search only what it lacks [default:
    /// data/book.kdb if present; `none` for no database]
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
    /// Give up on a position after this many seconds of search (its moves stay unjudged)
    #[arg(long = "time-limit", value_name = "SECS", allow_negative_numbers = true, value_parser = parse_seconds)]
    pub time_limit: Option<f64>,
    /// Print only marked moves (blunders, inaccuracies) and the summaries
    #[arg(long)]
    pub brief: bool,
    /// Bare move lists start a match to this many points (3, 7, 15) instead of a single
    /// round; `position ...` lines carry their own target
    #[arg(long, value_name = "POINTS", value_parser = crate::args::parse_target)]
    pub target: Option<kamisado_match::Target>,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Print one JSON object instead of text
    #[arg(long)]
    pub json: bool,
    /// No progress bar
    #[arg(long, short)]
    pub quiet: bool,
}

/// `kamisado engine`.
#[derive(Args, Debug)]
pub struct EngineArgs {
    /// Answer from this database first; search only what it lacks [default:
    /// data/book.kdb if present; `none` for no database]
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
    #[command(flatten)]
    pub search: SearchArgs,
}

/// The side the external engine plays, as typed.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineSideArg {
    Black,
    White,
    /// Black in odd-numbered games, White in even-numbered ones
    Both,
}

impl From<EngineSideArg> for EngineSides {
    fn from(side: EngineSideArg) -> EngineSides {
        match side {
            EngineSideArg::Black => EngineSides::Black,
            EngineSideArg::White => EngineSides::White,
            EngineSideArg::Both => EngineSides::Alternate,
        }
    }
}

/// `kamisado match --engine COMMAND`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// The engine's command line, run with `sh -c`, e.g. "./my-engine --level 3"
    #[arg(long, value_name = "COMMAND")]
    pub engine: String,
    /// Number of games
    #[arg(long, value_name = "N", default_value_t = 2, allow_negative_numbers = true, value_parser = whole::<u32>(1, 100_000))]
    pub games: u32,
    /// The side the ENGINE plays; the perfect player takes the other
    #[arg(long = "as", value_enum, value_name = "SIDE", default_value = "both")]
    pub side: EngineSideArg,
    /// Seconds the engine may take for each answer (keiok, every bestmove)
    #[arg(long = "time-limit", value_name = "SECS", default_value = "10", allow_negative_numbers = true, value_parser = parse_seconds)]
    pub time_limit: f64,
    /// Seed of the perfect player's choice among its perfect moves
    #[arg(long, value_name = "N", default_value_t = 1, allow_negative_numbers = true, value_parser = whole::<u64>(0, u64::MAX))]
    pub seed: u64,
    /// Every game starts here (default: the start of a round)
    #[command(flatten)]
    pub position: PositionArgs,
    /// The perfect player and the judge answer from this database first [default:
    /// data/book.kdb if present; `none` for no database]
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Print one JSON object instead of text
    #[arg(long)]
    pub json: bool,
    /// No progress bar
    #[arg(long, short)]
    pub quiet: bool,
}
