//! `kamisado kamon`: the sister game Kamon, on the same solver. Every subcommand lives in
//! its own file here and shares the arguments below; the Kamisado commands are untouched.

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};

use crate::args::{parse_seconds, parse_shard, whole, OutputArgs, SearchArgs};
use crate::failure::Result;

pub(crate) mod board;
pub(crate) mod certificate;
// Read, searched and reported the same way by `kamisado serve`'s Kamon board.
pub(crate) mod input;
mod pack;
mod perft;
mod play;
mod prove;
mod random;
pub(crate) mod search;
mod show;
pub(crate) mod solve;
mod survey;
mod survey_file;
mod survey_plot;
mod units;
mod units_file;
mod whole_games;

#[derive(Args, Debug)]
pub struct KamonArgs {
    #[command(subcommand)]
    pub command: KamonCommand,
}

#[derive(Subcommand, Debug)]
pub enum KamonCommand {
    /// Count the placement sequences of a given length (compare move generators)
    #[command(
        after_help = "Example:\n  kamisado kamon perft 4 --layout \"$(kamisado kamon random --seed 1)\" --moves \"b1\" --divide"
    )]
    Perft(PerftArgs),
    /// Solve one position: win, draw or loss for the side to move, remoteness, best moves, a perfect line
    #[command(
        after_help = "Examples:\n  kamisado kamon solve --seed 1 --after 12 --json\n  kamisado kamon solve --layout \"$(kamisado kamon random --seed 1)\" --moves \"f1 a4 c5 g1\" --threads 2 --hash-mb 1024\n  kamisado kamon solve --seed 1 --after 8 --value-only --time-limit 60\n  kamisado kamon solve --layout \"$(kamisado kamon random --seed 1)\" --value-only --results seed1.json\n\nThe last proves a whole game: the empty board is too early for one search on this machine, so its value is proven by its units two placements in (see `kamisado kamon units --help`); with --results a run stopped part way resumes."
    )]
    Solve(SolveArgs),
    /// Write a certificate of a position's value (win, draw or loss) that `kamisado certificate check` verifies
    #[command(after_help = prove::PROVE_HELP)]
    Prove(ProveArgs),
    /// Pack certificates (the units' of a whole game, or one) into one walk certificate, a few bits per placement
    #[command(after_help = pack::PACK_HELP)]
    Pack(PackArgs),
    /// Print the random layout of a seed (the generator is documented in `kamisado kamon random --help`)
    #[command(
        long_about = "Print the random layout of a seed.\n\nThe layout of seed N is SplitMix64 seeded with N driving a Fisher-Yates shuffle of the 37 chips in the order 1a 1b .. 1f 2a .. 6f -- (for i from 36 down to 1: j = next() % (i + 1), swap chips i and j), laid on the cells in reading order a1 a2 .. g4. With --after K, the same generator goes on to play K random placements, each among the legal cells (in reading order) that do not end the game; an attempt that runs out of such cells starts again from the empty board.",
        after_help = "Examples:\n  kamisado kamon random --seed 1\n  kamisado kamon random --seed 1 --after 10 --json"
    )]
    Random(RandomArgs),
    /// Draw a position: the hexagonal board with its chips and pieces, and the cells to play
    #[command(after_help = "Example:\n  kamisado kamon show --seed 1 --moves \"f1 a4 c5\"")]
    Show(ShowArgs),
    /// Play against the perfect player in the terminal (type a cell like b1)
    #[command(
        after_help = "Type a cell like b1, `moves` for the legal cells, `undo` to take back your last placement, `quit` to stop.\nEarly in a game the perfect player may not finish its proof within --time-limit; it then says so and plays a safe-looking placement.\n\nExample:\n  kamisado kamon play --seed 1 --after 14 --as white"
    )]
    Play(PlayArgs),
    /// Solve many random layouts: who wins, how fast, how games end, which first moves win
    #[command(
        after_help = "Layout i of a survey is the random layout of seed S+i (see `kamisado kamon random`), and with --after K the position after its K random placements. Results go to --out after every layout: run the same command again to resume; give each shard its own --out and join them with `survey merge`.\n\nExamples:\n  kamisado kamon survey --layouts 200 --seed 1 --after 12 --out survey-12.json\n  kamisado kamon survey --layouts 200 --seed 1 --after 12 --shard 1/4 --out part1.json\n  kamisado kamon survey merge part1.json part2.json part3.json part4.json --out survey-12.json"
    )]
    Survey(SurveyArgs),
    /// Split a position (the empty board) at its first placements into units solved apart, and merge their values
    #[command(after_help = UNITS_HELP)]
    Units(UnitsArgs),
    /// The whole games the units files prove: each empty board's value and first cells, and who wins over the layouts
    #[command(
        after_help = "Reads units files of empty boards (`kamon units solve` results), one per layout, and writes the whole-games file: per layout its value for Black (who places first) or the bounds proven, every first cell's, nodes and seconds; and the shares of proven layouts won by the first player, drawn and won by the second (95% Wilson intervals).\n\nA walk certificate given with --certificate is named in the entry of its layout, after checking that it claims the value the units prove for the empty board (its proof is checked by `kamisado certificate check`).\n\nExample:\n  kamisado kamon whole data/kamon-units/*.json --certificate data/certificates/kamon-seed1.kwalk --out data/kamon-whole.json"
    )]
    Whole(WholeArgs),
}

#[derive(Args, Debug)]
pub struct WholeArgs {
    /// Units files, one per layout, each split from an empty board
    #[arg(value_name = "FILES", required = true)]
    pub files: Vec<PathBuf>,
    /// Where to write the whole-games file (JSON)
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// A walk certificate of an empty board's value (`kamon pack --root start`), named in its layout's entry; repeat for more layouts
    #[arg(long = "certificate", value_name = "FILE")]
    pub certificates: Vec<PathBuf>,
    #[command(flatten)]
    pub output: OutputArgs,
}

const UNITS_HELP: &str = "Without a subcommand, lists the units: the positions --depth placements below the position given, one position text (the layout, then the placements) a line, in the order `units solve` takes them (the first cells cheapest to prove won first, and under each the replies likeliest to refute it: nearest the centre first). `units solve` solves them one by one, or --jobs side by side, each with its own table (as `kamon solve --value-only`), adding each result to --results as it finishes and passing over the units the results so far make unnecessary; run it again to resume (with --checkpoints, a unit stopped unfinished goes on from its saved table). `units merge` says what the results prove of the root, by the AND/OR rule with draws, or what is missing.\n\nExamples:\n  kamisado kamon units --layout \"$(kamisado kamon random --seed 1)\" --depth 2\n  kamisado kamon units solve --seed 1 --depth 2 --results seed1.json --jobs 2 --checkpoints tables\n  kamisado kamon units solve --seed 1 --depth 2 --index 3 --results part-3.json --known part-1.json --known part-2.json\n  kamisado kamon units merge part-*.json --out seed1.json\n  unit=$(kamisado kamon units --seed 1 --depth 2 | sed -n 1p); kamisado kamon solve --layout \"${unit%% *}\" --moves \"${unit#* }\" --value-only";

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct UnitsArgs {
    #[command(subcommand)]
    pub command: Option<UnitsCommand>,
    #[command(flatten)]
    pub list: UnitsListArgs,
}

#[derive(Subcommand, Debug)]
pub enum UnitsCommand {
    /// Solve the split's units (all that are needed, or one by --index) into a results file
    #[command(after_help = UNITS_HELP)]
    Solve(UnitsSolveArgs),
    /// What results files prove of the split's root: its value, or what is missing
    #[command(after_help = UNITS_HELP)]
    Merge(UnitsMergeArgs),
    /// The units a proof of the root's value rests on (the cheapest set), one position text a line
    #[command(after_help = UNITS_PROOF_HELP)]
    Proof(UnitsProofArgs),
}

const UNITS_PROOF_HELP: &str = "Lists the solved units whose results prove the root's value (a win: the replies of the cheapest winning first cell; a loss: one refuting reply per first cell; a draw: the replies of a first cell that draws at least, with one reply per first cell that holds it to a draw, each half the cheapest and shared units listed once), the cheapest such set by the units' nodes, one unit a line: what its certificate must show, as `kamon prove --claim` takes it (`value`; for a draw's units `at-least-draw` or `at-most-draw` where one bound of the unit is all the proof needs), then its position text as `kamon units` lists it. Prove each as a certificate (`kamon prove --claim`) and pack them under the root (`kamon pack --root`): one certificate of the root's value. Exit code 1 if the results do not prove the root's value.\n\nExamples:\n  kamisado kamon units proof data/kamon-units/seed1.json\n  kamisado kamon units proof seed2.json | while read -r claim layout moves; do kamisado kamon prove --claim \"$claim\" --layout \"$layout\" --moves \"$moves\" --out \"${moves// /-}.kcert\" --threads 1; done\n  kamisado kamon pack *.kcert --root start --out seed2.kwalk\n  cluster/slurm/submit.sh kamon-certify runs/seed2 seed2.json   # the same on a cluster";

#[derive(Args, Debug)]
pub struct UnitsProofArgs {
    /// Results files of one split
    #[arg(value_name = "FILES", required = true)]
    pub files: Vec<PathBuf>,
    /// Print one JSON object instead of text
    #[arg(long)]
    pub json: bool,
}

/// The position split and how deep.
#[derive(Args, Debug)]
pub struct SplitArgs {
    #[command(flatten)]
    pub position: KamonPositionArgs,
    /// The units are the positions this many placements below (1 to 3)
    #[arg(long, value_name = "D", default_value_t = 2, allow_negative_numbers = true, value_parser = whole::<u32>(1, 3))]
    pub depth: u32,
}

#[derive(Args, Debug)]
pub struct UnitsListArgs {
    #[command(flatten)]
    pub split: SplitArgs,
    /// Print one JSON object instead of text
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct UnitsSolveArgs {
    #[command(flatten)]
    pub split: SplitArgs,
    /// The results file: each unit's result is added as it finishes; units it holds are not solved again
    #[arg(long, value_name = "FILE")]
    pub results: PathBuf,
    /// Solve only this unit (1-based, as listed), unless the results make it unnecessary
    #[arg(long, value_name = "I", allow_negative_numbers = true, value_parser = whole::<usize>(1, 1_000_000))]
    pub index: Option<usize>,
    /// Other results files of the same split (read, not written): their units are not solved again
    #[arg(long, value_name = "FILE")]
    pub known: Vec<PathBuf>,
    /// Solve for every first placement's value, not only the position's (its openings, as `openings` gives Kamisado's); with --index, only whether that unit is needed changes
    #[arg(long = "every-first-cell")]
    pub every_first_cell: bool,
    /// Start at most this many units (those abandoned or interrupted count)
    #[arg(long = "max-units", value_name = "N", allow_negative_numbers = true, value_parser = whole::<usize>(1, 1_000_000))]
    pub max_units: Option<usize>,
    /// Give up on a unit after this many seconds (it is recorded as not solved in time, and tried again by a later run)
    #[arg(long = "time-limit", value_name = "SECS", allow_negative_numbers = true, value_parser = parse_seconds)]
    pub time_limit: Option<f64>,
    /// Units solved side by side, each on its own --threads with its own table of --hash-mb, 512 MiB unless given (so the tables take JOBS times that); a first cell none of whose units is solved yet runs one unit at a time (the others take the next first cell's); a unit made unnecessary by one finished beside it is stopped and recorded as abandoned
    #[arg(long, value_name = "JOBS", default_value_t = 1, allow_negative_numbers = true, value_parser = whole::<usize>(1, 64))]
    pub jobs: usize,
    /// Save each running unit's table in this directory (every --checkpoint-every seconds, and when the unit stops unfinished: an interrupt, --time-limit) and resume a unit from its saved table, so that a unit longer than one run goes on where it stopped; a file takes --hash-mb MiB and is removed when its unit is solved or no longer needed. Beside it goes the unit's kept table (unit-….kept, its costliest entries, 4 MiB), from which a unit whose whole table is missing starts: copy the .kept files to another machine to go on there
    #[arg(long, value_name = "DIR")]
    pub checkpoints: Option<PathBuf>,
    /// With --checkpoints: seconds between saves of a running unit's table
    #[arg(long = "checkpoint-every", value_name = "SECS", default_value_t = 600.0, allow_negative_numbers = true, value_parser = parse_seconds)]
    pub checkpoint_every: f64,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Args, Debug)]
pub struct UnitsMergeArgs {
    /// Results files of one split
    #[arg(value_name = "FILES", required = true)]
    pub files: Vec<PathBuf>,
    /// Write the joined results here
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// Where a Kamon command starts: a layout (given, or the random one of a seed, possibly
/// after random placements) and placements played from there.
#[derive(Args, Debug, Clone)]
pub struct KamonPositionArgs {
    /// Layout text: rows a..g separated by `/`, chips like `5a` and `--`
    // A layout may start with `--` (the first player's chip on a1).
    #[arg(
        long,
        value_name = "TEXT",
        required_unless_present = "seed",
        conflicts_with = "seed",
        allow_hyphen_values = true
    )]
    pub layout: Option<String>,
    /// The random layout of this seed instead (as `kamisado kamon random --seed N` prints)
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// With --seed: first play the K random placements of `kamisado kamon random --after K`
    #[arg(long, value_name = "K", requires = "seed", value_parser = clap::value_parser!(u32).range(0..=35))]
    pub after: Option<u32>,
    /// Placements played from there, e.g. "b1 d4"
    #[arg(long, value_name = "MOVES")]
    pub moves: Option<String>,
}

#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Number of placements in each sequence
    #[arg(allow_negative_numbers = true, value_parser = whole::<u32>(0, 36))]
    pub depth: u32,
    #[command(flatten)]
    pub position: KamonPositionArgs,
    /// Print the count under each first placement, one `b1: N` line per cell
    #[arg(long)]
    pub divide: bool,
    /// Print one JSON object instead of text
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    pub position: KamonPositionArgs,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub output: OutputArgs,
    /// Only the value (proof-number search): no remoteness, best moves or line
    #[arg(long = "value-only")]
    pub value_only: bool,
    /// Give up after this many seconds (exit code 1, with the nodes searched)
    #[arg(long = "time-limit", value_name = "SECS", allow_negative_numbers = true, value_parser = parse_seconds)]
    pub time_limit: Option<f64>,
    /// With --value-only: prove the value by splitting the position into the units this many placements below, solved apart and merged (as `kamon units solve`), --threads of them side by side (default: all cores) on one thread and a --hash-mb table each (512 MiB unless given); without it, a position with fewer than two placements made is split so that its units are two placements in, and any other is one search
    #[arg(long, value_name = "D", requires = "value_only", allow_negative_numbers = true, value_parser = whole::<u32>(1, 3))]
    pub split: Option<u32>,
    /// With a split: keep the units' results in this file (as `kamon units solve --results`), so that a run stopped part way goes on from the units it solved
    #[arg(long, value_name = "FILE", requires = "value_only")]
    pub results: Option<PathBuf>,
    /// With a split: save each running unit's table in this directory (as `kamon units solve --checkpoints`), so that a unit stopped part way goes on where it stopped (its .kept file, 4 MiB, is enough to go on elsewhere)
    #[arg(long, value_name = "DIR", requires = "value_only")]
    pub checkpoints: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct ProveArgs {
    #[command(flatten)]
    pub position: KamonPositionArgs,
    /// Where to write the certificate
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub output: OutputArgs,
    /// Give up on the value after this many seconds (exit code 1, nothing written)
    #[arg(long = "time-limit", value_name = "SECS", value_parser = parse_seconds)]
    pub time_limit: Option<f64>,
    /// What to prove: the value, or one bound of it for the side to move (what a drawn root's proof needs of some units: `kamon units proof` names it); a bound that does not hold is proved the other way, as the value it leaves (not at least a draw: a loss; not at most a draw: a win)
    #[arg(long, value_enum, default_value_t = ClaimArg::Value)]
    pub claim: ClaimArg,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClaimArg {
    Value,
    AtLeastDraw,
    AtMostDraw,
}

impl From<ClaimArg> for kamon_cert::Aim {
    fn from(claim: ClaimArg) -> kamon_cert::Aim {
        match claim {
            ClaimArg::Value => kamon_cert::Aim::Value,
            ClaimArg::AtLeastDraw => kamon_cert::Aim::AtLeastDraw,
            ClaimArg::AtMostDraw => kamon_cert::Aim::AtMostDraw,
        }
    }
}

#[derive(Args, Debug)]
pub struct PackArgs {
    /// Certificates of entries (`kamon prove`'s files), all of one layout; a walk certificate (`.kwalk`, of an older format version too) is read as the entries of its choices, so packing it alone writes it again in the newest format
    #[arg(value_name = "CERT", required = true)]
    pub certs: Vec<PathBuf>,
    /// Where to write the walk certificate
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Claim the value of this position, above the certificates' claims, instead of theirs: its placements from the empty board ("b1 d4"), or `start` for the empty board
    #[arg(long, value_name = "MOVES")]
    pub root: Option<String>,
    /// The most positions the walk may remember (20 to 40 bytes each), and between the root and the claims
    #[arg(long = "max-positions", value_name = "N", default_value_t = kamon_cert::WalkLimits::default().positions, value_parser = whole::<usize>(1, u64::MAX))]
    pub max_positions: usize,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Args, Debug)]
pub struct RandomArgs {
    /// The seed: any number from 0 to 2^64 - 1
    #[arg(long, value_name = "N")]
    pub seed: u64,
    /// Then play K random placements that do not end the game, and print them too
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(0..=35))]
    pub after: Option<u32>,
    /// Print one JSON object instead of text
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct ShowArgs {
    #[command(flatten)]
    pub position: KamonPositionArgs,
    /// Print one JSON object instead of text
    #[arg(long)]
    pub json: bool,
    /// No colour, even on a terminal
    #[arg(long = "no-color")]
    pub no_color: bool,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum PlayerArg {
    Black,
    White,
}

impl From<PlayerArg> for kamon_core::Player {
    fn from(player: PlayerArg) -> kamon_core::Player {
        match player {
            PlayerArg::Black => kamon_core::Player::Black,
            PlayerArg::White => kamon_core::Player::White,
        }
    }
}

#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The player you are (black moves first); the perfect player takes the other
    #[arg(
        long = "as",
        value_enum,
        value_name = "PLAYER",
        default_value = "black"
    )]
    pub player: PlayerArg,
    #[command(flatten)]
    pub position: KamonPositionArgs,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Seconds the perfect player may think per placement before playing an unproven one
    #[arg(long = "time-limit", value_name = "SECS", default_value = "10", allow_negative_numbers = true, value_parser = parse_seconds)]
    pub time_limit: f64,
    /// No colour, even on a terminal
    #[arg(long = "no-color")]
    pub no_color: bool,
    /// No progress messages while the perfect player thinks
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct SurveyArgs {
    #[command(subcommand)]
    pub merge: Option<SurveyCommand>,
    #[command(flatten)]
    pub run: SurveyRunArgs,
}

#[derive(Subcommand, Debug)]
pub enum SurveyCommand {
    /// Join survey files (shards, or runs with other seeds or K) into one
    #[command(
        after_help = "Example:\n  kamisado kamon survey merge part1.json part2.json --out survey.json"
    )]
    Merge(SurveyMergeArgs),
    /// Draw the survey's headline as an SVG chart: who wins, and nodes per layout, against K
    #[command(
        after_help = "Example:\n  kamisado kamon survey plot data/kamon-survey.json --whole data/kamon-whole.json --out docs/kamon-survey.svg"
    )]
    Plot(SurveyPlotArgs),
}

#[derive(Args, Debug)]
pub struct SurveyPlotArgs {
    /// Survey files (runs with the same K add up)
    #[arg(value_name = "FILES", required = true)]
    pub files: Vec<PathBuf>,
    /// Where to write the chart (SVG)
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// The whole-games file (`kamon whole`): its proven layouts are the empty board's point, K = 0
    #[arg(long, value_name = "FILE")]
    pub whole: Option<PathBuf>,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Args, Debug)]
pub struct SurveyRunArgs {
    /// How many layouts: layout i (from 0) is the random layout of seed S+i
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub layouts: Option<u64>,
    /// The first layout's seed, S
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Solve each layout after K random placements that do not end the game (as `kamisado kamon random --after K`)
    #[arg(long, value_name = "K", default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=35))]
    pub after: u32,
    /// Do only every n-th layout, starting with the i-th (1 <= i <= n), e.g. 2/4
    #[arg(long, value_name = "i/n", value_parser = parse_shard)]
    pub shard: Option<(u64, u64)>,
    /// The survey file: results are added after every layout, and layouts it holds are skipped
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Give up on a layout after this many seconds (it is recorded as unsolved)
    #[arg(long = "time-limit-per-layout", value_name = "SECS", allow_negative_numbers = true, value_parser = parse_seconds)]
    pub time_limit: Option<f64>,
    /// Only values: no remoteness, perfect line or game end
    #[arg(long = "value-only")]
    pub value_only: bool,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Args, Debug)]
pub struct SurveyMergeArgs {
    /// Survey files to join
    #[arg(value_name = "PARTS", required = true)]
    pub parts: Vec<PathBuf>,
    /// Where to write the joined survey
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    #[command(flatten)]
    pub output: OutputArgs,
}

pub fn run(args: KamonArgs) -> Result<()> {
    match args.command {
        KamonCommand::Perft(a) => perft::run(a),
        KamonCommand::Solve(a) => solve::run(a),
        KamonCommand::Prove(a) => prove::run(a),
        KamonCommand::Pack(a) => pack::run(a),
        KamonCommand::Random(a) => random::run(a),
        KamonCommand::Show(a) => show::run(a),
        KamonCommand::Play(a) => play::run(a),
        KamonCommand::Survey(a) => match a.merge {
            Some(SurveyCommand::Merge(m)) => survey::merge(m),
            Some(SurveyCommand::Plot(p)) => survey_plot::run(p),
            None => survey::run(a.run),
        },
        KamonCommand::Units(a) => match a.command {
            Some(UnitsCommand::Solve(s)) => units::solve(s),
            Some(UnitsCommand::Merge(m)) => units::merge(m),
            Some(UnitsCommand::Proof(p)) => units::proof(p),
            None => units::list(a.list),
        },
        KamonCommand::Whole(a) => whole_games::run(a),
    }
}
