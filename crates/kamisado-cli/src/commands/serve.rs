//! `kamisado serve`: the analysis board in the browser. The arguments and the process
//! around the server (runtime, listening socket, the address printed, Ctrl-C); the server
//! itself is `crate::serve`.

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use crate::args::{parse_seconds, SearchArgs};
use crate::failure::{Failure, Result};
use crate::input;
use crate::serve::{self, Settings};

pub const SERVE_HELP: &str =
    "Open the printed address in a browser: click a tower to see its moves, coloured by \
their result for the mover with the number of moves to the end, click a destination to play it.
The game selector also offers match play (to 3, 7 or 15 points: Sumos, pushes, the refill
choice; every value is the round's) and Kamon: its hexagonal board, every legal cell coloured by its result.
The page's JSON API: GET /api/query?moves=a1-a5+d8-d3 (or position=TEXT&moves=...), the fields of
`query --json`; GET /api/query?game=match&target=3&moves=g1-g7+h8-h6+g7-h8+left (or position=TEXT),
the fields of `query --target N --json`; GET /api/query?game=kamon&seed=1&moves=b1+d4 (or layout=TEXT), the fields of
`kamisado kamon solve --json` and every legal cell's result; GET /api/games. With --match-db,
match answers also carry `match_values`: each move's match value, as `whole-match query --json`.

Without --db the opening table built into the program answers the start and its perfect lines
at once; every other position is solved live, within --time-limit. Kamon is always solved live:
late positions in moments, the empty board not within any sensible limit (the page says so).

Examples:
  kamisado serve
  kamisado serve --db data/openings.kdb --port 8080 --time-limit 10
  kamisado serve --match-db proofs.kmp --time-limit 30";

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Answer from this database first (default: the opening table built into the program)
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
    /// Match play: give each move its match value too, from this whole-match proof file
    /// (`whole-match solve --db FILE` writes one; read, never written), in the rounds whose
    /// start it has proved
    #[arg(long = "match-db", value_name = "FILE")]
    pub match_db: Option<PathBuf>,
    /// Port to listen on; 0 picks a free one (the address is printed either way)
    #[arg(long, value_name = "N", default_value_t = 8080)]
    pub port: u16,
    /// Address to listen on (an IP address, or `localhost`); the default keeps the board to this machine
    #[arg(long, value_name = "ADDR", default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST), value_parser = parse_bind)]
    pub bind: IpAddr,
    /// Stop each request's search after this many seconds; the page then shows the moves
    /// answered so far
    #[arg(long = "time-limit", value_name = "SECS", default_value = "10", allow_negative_numbers = true, value_parser = parse_seconds)]
    pub time_limit: f64,
    /// Searches run at once, at most; a request that finds them all busy waits up to a
    /// second, then gets 503 (try again)
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub searches: u16,
    #[command(flatten)]
    pub search: SearchArgs,
}

pub fn run(args: ServeArgs) -> Result<()> {
    let solver = input::solver(&args.search)?;
    let db = match &args.db {
        Some(path) => crate::commands::db::open_optional(Some(path))?,
        None => Some(serve::opening_table::database(&solver).map_err(Failure::internal)?),
    };
    let settings = Settings {
        time_limit: Duration::from_secs_f64(args.time_limit),
        searches: usize::from(args.searches),
    };
    let mut app = serve::App::new(
        kamisado_analysis::Oracle::new(db, solver),
        input::solver_options(&args.search),
        settings,
    );
    if let Some(path) = &args.match_db {
        app = app.with_match_proofs(serve::MatchProofs::new(
            match_solver(&args.search, path)?,
            path,
        ));
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        // The searches, and room for the timers of those waiting for one.
        .max_blocking_threads(usize::from(args.searches) + 2)
        .build()
        .map_err(|e| Failure::internal(format!("cannot start the server's runtime: {e}")))?;
    runtime.block_on(async {
        let wanted = SocketAddr::new(args.bind, args.port);
        let listener = tokio::net::TcpListener::bind(wanted).await.map_err(|e| {
            Failure::input(format!(
                "--bind {} --port {}: cannot listen there: {e}{}",
                args.bind,
                args.port,
                if e.kind() == std::io::ErrorKind::AddrInUse {
                    " (--port 0 picks a free port)"
                } else {
                    ""
                }
            ))
        })?;
        let address = listener
            .local_addr()
            .map_err(|e| Failure::internal(format!("cannot read the listening address: {e}")))?;
        let source = match &args.db {
            Some(path) => format!("database {}", path.display()),
            None => "the built-in opening table".to_owned(),
        };
        // The address is the one line a script (or a test) waits for; stdout may be
        // closed by then, which must not stop the server.
        let _ = writeln!(
            std::io::stdout(),
            "kamisado serve: open http://{address}/ in a browser (answers from {source}, then search; Ctrl-C stops)"
        );
        serve::run(listener, app)
            .await
            .map_err(|e| Failure::internal(format!("the server stopped: {e}")))
    })
}

/// `--match-db`'s solver: one thread (one search at a time, see `serve::MatchProofs`),
/// `--hash-mb` for the match search's table and a quarter of it for the round solver's.
fn match_solver(
    search: &SearchArgs,
    path: &std::path::Path,
) -> Result<kamisado_match_solver::MatchSolver> {
    let bytes = usize::try_from(search.hash_mb() << 20).unwrap_or(usize::MAX);
    let options = kamisado_match_solver::MatchOptions {
        threads: 1,
        table_bytes: bytes,
        round_table_bytes: (bytes / 4).max(1 << 20),
        ask_rounds: true,
    };
    kamisado_match_solver::MatchSolver::reading(options, path).map_err(|e| match e {
        kamisado_match_solver::MatchSolveError::ProofFile(e) => {
            Failure::input(format!("--match-db: {e}"))
        }
        e => Failure::internal(e),
    })
}

/// `--bind`: an IP address, or `localhost` (this machine's loopback address, which is
/// what the name means everywhere; other names are not looked up).
fn parse_bind(text: &str) -> std::result::Result<IpAddr, String> {
    if text.eq_ignore_ascii_case("localhost") {
        return Ok(IpAddr::V4(Ipv4Addr::LOCALHOST));
    }
    text.parse()
        .map_err(|_| "expected an IP address like 127.0.0.1 or ::1, or localhost".to_owned())
}
