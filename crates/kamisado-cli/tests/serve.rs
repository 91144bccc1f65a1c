//! `kamisado serve` end to end: the JSON API over real HTTP, and the page in a real
//! headless Chromium driven over WebDriver, both checked against `kamisado query --json`.
//!
//! The browser test needs Chromium and its driver (`apt-get install -y chromium
//! chromium-driver`, which `.ci/run` does); without them it fails and says so.

use std::io::{BufRead, BufReader};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use http_body_util::BodyExt;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde_json::{json, Value as Json};

mod common;
use common::kamisado;

/// A `kamisado serve --port 0` process, killed when dropped.
struct Server {
    child: Child,
    /// Kept open: the server's stdout is never closed under it.
    _stdout: BufReader<ChildStdout>,
    /// `http://127.0.0.1:PORT/`
    url: String,
}

impl Server {
    fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kamisado"))
            .args(["serve", "--port", "0"])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the binary runs");
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        let Some(url) = line.split_whitespace().find(|w| w.starts_with("http://")) else {
            let _ = child.kill();
            panic!("`kamisado serve` printed no address: `{line}`");
        };
        assert!(url.starts_with("http://127.0.0.1:"), "{line}");
        assert!(
            !url.ends_with(":0/"),
            "port 0 must be replaced by the real one: {line}"
        );
        Server {
            url: url.to_owned(),
            child,
            _stdout: stdout,
        }
    }

    /// Whether the process is still running.
    fn alive(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Percent-encodes a query-string value (spaces as `+`, as forms and the page send them).
fn encode(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'/' => {
                out.push(b as char)
            }
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// GET `url`: the status and the body as JSON.
async fn get(url: &str) -> (u16, Json) {
    let client =
        hyper_util::client::legacy::Client::builder(TokioExecutor::new()).build_http::<String>();
    let response = client
        .get(url.parse().unwrap())
        .await
        .unwrap_or_else(|e| panic!("GET {url}: {e}"));
    let status = response.status().as_u16();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let body = serde_json::from_slice(&bytes).unwrap_or_else(|e| {
        panic!(
            "GET {url}: not JSON ({e}): {}",
            String::from_utf8_lossy(&bytes)
        )
    });
    (status, body)
}

/// `kamisado query --json` for a move list from the start.
fn query(moves: &str) -> Json {
    let run = kamisado(&["query", "--json", "--moves", moves], "");
    assert_eq!(run.code, 0, "query --moves {moves}: {}", run.stderr);
    run.json()
}

/// What the command line says about bad input, without its `error: ` prefix.
fn cli_error(args: &[&str]) -> String {
    let run = kamisado(args, "");
    run.assert_one_line_error(2, "");
    run.stderr.trim().trim_start_matches("error: ").to_owned()
}

/// Each request (`api` of its parameters) gets HTTP 400 with the one-line message the
/// command line prints for its arguments.
async fn refused_as_the_cli_refuses(api: &dyn Fn(&str) -> String, garbage: &[(&str, &[&str])]) {
    for &(params, cli_args) in garbage {
        let (status, body) = get(&api(params)).await;
        assert_eq!(status, 400, "{params}: {body}");
        assert_eq!(
            body["error"].as_str().unwrap(),
            cli_error(cli_args),
            "{params}"
        );
    }
}

/// Every field `query --json` prints has the same value in the API's answer, except the
/// time taken and where answers came from (the server has the opening table built in).
fn assert_same_report(api: &Json, cli: &Json) {
    for (field, value) in cli.as_object().unwrap() {
        match field.as_str() {
            "seconds" => assert!(api[field].is_number()),
            "source" => assert!(api[field].is_string()),
            "moves" => {
                let strip = |moves: &Json| -> Vec<Json> {
                    moves
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|m| json!([m["move"], m["value"], m["remoteness"]]))
                        .collect()
                };
                assert_eq!(strip(&api[field]), strip(value), "moves");
            }
            _ => assert_eq!(&api[field], value, "field `{field}`"),
        }
    }
}

#[tokio::test]
async fn the_api_answers_as_query_and_refuses_garbage_with_its_message() {
    let mut server = Server::start(&["--threads", "1", "--hash-mb", "32"]);
    let base = server.url.clone();
    let api = |params: &str| format!("{base}api/query?{params}");

    // Garbage of every kind: 400, the command line's one-line message, and the server
    // goes on serving.
    let garbage: [(&str, &[&str]); 6] = [
        ("moves=zz", &["query", "--moves", "zz"]),
        // A control character is escaped in the message, as on the terminal.
        ("moves=a1-a5+%01b", &["query", "--moves", "a1-a5 \u{1}b"]),
        ("moves=a1-a5+a1-a6", &["query", "--moves", "a1-a5 a1-a6"]),
        ("position=garbage", &["query", "--position", "garbage"]),
        (
            "position=obupyrgn/8/8/8/8/8/8/NGRYPUBO+x+-",
            &["query", "--position", "obupyrgn/8/8/8/8/8/8/NGRYPUBO x -"],
        ),
        (
            "position=obupyrgn/8/8/8/8/8/8/NGRYPUBB+b+-",
            &["query", "--position", "obupyrgn/8/8/8/8/8/8/NGRYPUBB b -"],
        ),
    ];
    refused_as_the_cli_refuses(&api, &garbage).await;
    for params in [
        "game=chess",
        "seed=1",
        "layout=x",
        "moves=%FF%FE",
        "moves=a1-a5&moves=b1-b2",
    ] {
        let (status, body) = get(&api(params)).await;
        assert_eq!(status, 400, "{params}: {body}");
        let message = body["error"].as_str().unwrap();
        assert!(!message.is_empty() && !message.contains('\n'), "{message}");
    }
    let (status, _) = get(&format!("{base}no/such/page")).await;
    assert_eq!(status, 404);
    assert!(server.alive(), "the server died on bad input");

    // A good request after all that: every field of `query --json`, with the same values.
    let moves = "h1-h7 c8-c4 b1-b2 h8-d4 a1-a6 g8-g4";
    let (status, body) = get(&api(&format!("moves={}", encode(moves)))).await;
    assert_eq!(status, 200, "{body}");
    assert_same_report(&body, &query(moves));
    assert_eq!(body["game"], "kamisado");
    assert_eq!(body["complete"], true);
    // The perfect line is exactly `remoteness` moves and starts with a best move.
    let pv = body["pv"].as_array().unwrap();
    assert_eq!(body["pv_complete"], true);
    assert_eq!(pv.len() as u64, body["remoteness"].as_u64().unwrap());
    assert!(body["best"].as_array().unwrap().contains(&pv[0]));
    // The legal moves are the answered ones.
    let mut legal: Vec<&Json> = body["legal_moves"].as_array().unwrap().iter().collect();
    let mut answered: Vec<&Json> = body["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| &m["move"])
        .collect();
    legal.sort_by_key(|m| m.to_string());
    answered.sort_by_key(|m| m.to_string());
    assert_eq!(legal, answered);

    // The games for the selector: single-round Kamisado, match play and Kamon are served.
    let (status, games) = get(&format!("{base}api/games")).await;
    assert_eq!(status, 200);
    let served: Vec<&str> = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["available"] == true)
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(served, ["kamisado", "match", "kamon"]);
}

/// The zero-length moves the API lists after a move are exactly the forced chain: the line
/// replayed with them written out is accepted by the rules core (which checks each is the
/// forced one) and leaves nothing pending.
#[tokio::test]
async fn the_api_lists_the_zero_length_moves_each_move_causes() {
    let server = Server::start(&["--threads", "1", "--hash-mb", "16"]);
    // c8-c6 lands on orange: Black's orange tower on h7 is blocked and passes, and its
    // square (purple) hands White a second move.
    let moves = ["h1-h7", "c8-c6"];
    let (status, body) = get(&format!(
        "{}api/query?moves={}",
        server.url,
        encode(&moves.join(" "))
    ))
    .await;
    assert_eq!(status, 200, "{body}");
    let played = body["line"]["moves"].as_array().unwrap();
    assert_eq!(played.len(), 2);
    let mut written = Vec::new();
    for (m, p) in moves.iter().zip(played) {
        assert_eq!(p["move"], *m);
        written.push(m.to_string());
        written.extend(
            p["zero_length_moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|z| z.as_str().unwrap().to_owned()),
        );
    }
    assert_eq!(played[1]["zero_length_moves"], json!(["h7-h7"]));
    assert_eq!(
        (&played[0]["side"], &played[1]["side"]),
        (&json!("black"), &json!("white"))
    );
    let line =
        kamisado_core::notation::play_line(&kamisado_core::Position::start(), &written.join(" "))
            .expect("the listed zero-length moves are the forced ones");
    assert!(line.end.pending_zero_moves().is_empty());
    assert_eq!(line.end.to_string(), body["position"]);
    assert_eq!(body["to_move"], "white");
    assert_same_report(&body, &query(&moves.join(" ")));
}

/// The start comes from the opening table compiled into the program; two of its moves
/// are checked against live searches of the positions they lead to.
#[tokio::test]
async fn the_start_is_answered_at_once_from_the_built_in_opening_table() {
    let server = Server::start(&["--threads", "1", "--hash-mb", "32"]);
    let (status, body) = get(&format!("{}api/query", server.url)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        (&body["value"], &body["remoteness"]),
        (&json!("win"), &json!(17))
    );
    assert_eq!(body["source"], "db");
    assert_eq!(body["complete"], true);
    let moves = body["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 102);
    assert!(moves.iter().all(|m| m["source"] == "db"));
    for mv in ["h1-h5", "a1-a7"] {
        let ours = moves.iter().find(|m| m["move"] == mv).unwrap();
        // Searched afresh: the position after the move, for White (the turn passes).
        let after = query(mv);
        assert_eq!(after["to_move"], "white");
        let flipped = if after["value"] == "win" {
            "loss"
        } else {
            "win"
        };
        assert_eq!(ours["value"], flipped, "{mv}");
        assert_eq!(
            ours["remoteness"].as_u64(),
            after["remoteness"].as_u64().map(|r| r + 1),
            "{mv}"
        );
    }
}

/// A position no table holds, whose every move's value takes several seconds of CPU: a
/// round-2 start of a Standard match with White's yellow Sumo (the first 1-0 round start of
/// seeded random play; see benches/all_moves.rs). The single round's starts no longer
/// serve: every move's value and the best moves' remoteness come in about a second.
const SLOW_POSITION: &str = "obprgnuy/8/8/8/8/8/8/Y+GNRPUBO w - 3";

/// Searches are bounded: by the time limit (the answer then says what it has), and in
/// number (a request finding every permit taken waits a second, then gets 503). Neither
/// blocks the rest of the server.
#[tokio::test]
async fn searches_are_bounded_in_time_and_number() {
    // A small table and one thread: the search below takes far longer than the limit.
    let server = Server::start(&[
        "--threads",
        "1",
        "--hash-mb",
        "4",
        "--time-limit",
        "2",
        "--searches",
        "1",
    ]);
    let slow = format!(
        "{}api/query?game=match&position={}",
        server.url,
        encode(SLOW_POSITION)
    );
    let started = Instant::now();
    let search = tokio::spawn(async move { get(&slow).await });
    tokio::time::sleep(Duration::from_millis(300)).await;

    // The page and the games list answer at once while the search runs.
    let quick = Instant::now();
    let (status, _) = get(&format!("{}api/games", server.url)).await;
    assert_eq!(status, 200);
    assert!(
        quick.elapsed() < Duration::from_millis(700),
        "{:?}",
        quick.elapsed()
    );

    // An answer the database gives whole (the start's, from the built-in opening table)
    // needs no search: it does not wait for a permit.
    let quick = Instant::now();
    let (status, body) = get(&format!("{}api/query", server.url)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["complete"], true, "{body}");
    assert!(
        quick.elapsed() < Duration::from_millis(700),
        "{:?}",
        quick.elapsed()
    );

    // The one permit is taken: a request that needs a search gets 503, after a short
    // wait, not after the search.
    let (status, body) = get(&format!(
        "{}api/query?game=match&position={}",
        server.url,
        encode(SLOW_POSITION)
    ))
    .await;
    assert_eq!(status, 503, "{body}");
    assert!(body["error"].as_str().unwrap().starts_with("busy"));
    assert!(started.elapsed() < Duration::from_millis(1900));

    let (status, partial) = search.await.unwrap();
    let took = started.elapsed();
    assert_eq!(status, 200, "{partial}");
    assert!(took < Duration::from_secs(5), "the 2 s limit took {took:?}");
    assert_eq!(partial["complete"], false);
    assert!(partial["message"]
        .as_str()
        .unwrap()
        .contains("time limit of 2 s"));
    // What it did answer is exact: each answered move agrees with a solve of the position
    // it leads to (the mover's value is the opposite of the value there, one move longer).
    // (The first few: each solve of a move of a round start takes a second or more.)
    for m in partial["moves"].as_array().unwrap().iter().take(4) {
        let mv = m["move"].as_str().unwrap();
        let run = kamisado(
            &[
                "solve",
                "--json",
                "--position",
                SLOW_POSITION,
                "--moves",
                mv,
            ],
            "",
        );
        assert_eq!(run.code, 0, "solve after {mv}: {}", run.stderr);
        let after = run.json();
        let opposite = match after["value"].as_str().unwrap() {
            "win" => "loss",
            "loss" => "win",
            other => other,
        };
        assert_eq!(m["value"], opposite, "{mv}: {m}, solved after it: {after}");
        if let Some(r) = m["remoteness"].as_u64() {
            assert_eq!(Some(r), after["remoteness"].as_u64().map(|r| r + 1), "{mv}");
        }
    }
    assert_eq!(partial["legal_moves"].as_array().unwrap().len(), 102);

    // The permit is back.
    let (status, _) = get(&format!("{}api/query", server.url)).await;
    assert_eq!(status, 200);
}

/// A search whose client goes away is stopped at once: its permit is free for the next
/// request long before the time limit.
#[tokio::test]
async fn a_search_stops_when_its_client_goes_away() {
    let server = Server::start(&[
        "--threads",
        "1",
        "--hash-mb",
        "4",
        "--time-limit",
        "60",
        "--searches",
        "1",
    ]);
    let slow = format!(
        "{}api/query?game=match&position={}",
        server.url,
        encode(SLOW_POSITION)
    );
    let gave_up = tokio::time::timeout(Duration::from_millis(400), get(&slow)).await;
    assert!(gave_up.is_err(), "the search was expected to take longer");
    let started = Instant::now();
    let (status, body) = get(&format!("{}api/query", server.url)).await;
    assert_eq!(status, 200, "{body}");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
}

// ---- The page in a real browser ------------------------------------------------------------

/// A program on `PATH` (or where the environment variable `env` says).
fn program(name: &str, env: &str) -> Option<PathBuf> {
    if let Some(path) = std::env::var_os(env) {
        return Some(PathBuf::from(path)).filter(|p| p.is_file());
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// The paths of headless Chromium and chromedriver; the browser tests fail (they are not
/// skipped) where they are missing.
fn chromium_and_driver() -> (PathBuf, PathBuf) {
    let (Some(chromium), Some(chromedriver)) = (
        program("chromium", "CHROMIUM"),
        program("chromedriver", "CHROMEDRIVER"),
    ) else {
        panic!(
            "this test needs headless Chromium and chromedriver, which are not installed: \
             run `apt-get install -y chromium chromium-driver` (.ci/run does), or set \
             CHROMIUM and CHROMEDRIVER to their paths"
        );
    };
    (chromium, chromedriver)
}

/// A chromedriver process on a free port, killed when dropped.
struct Driver {
    child: Child,
    url: String,
}

impl Driver {
    fn start(chromedriver: &PathBuf) -> Driver {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let mut child = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{} does not start: {e}", chromedriver.display()));
        let deadline = Instant::now() + Duration::from_secs(30);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            if let Ok(Some(status)) = child.try_wait() {
                panic!("chromedriver exited at once: {status}");
            }
            assert!(
                Instant::now() < deadline,
                "chromedriver does not listen on port {port}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Driver {
            child,
            url: format!("http://127.0.0.1:{port}"),
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Headless Chromium in a new empty profile, through chromedriver.
async fn browser(driver: &Driver, chromium: &PathBuf) -> Client {
    // A profile of its own for each browser: the tests run side by side in one process.
    static BROWSERS: AtomicUsize = AtomicUsize::new(0);
    let profile = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "chromium-profile-{}-{}",
        std::process::id(),
        BROWSERS.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&profile);
    std::fs::create_dir_all(&profile).unwrap();
    let mut capabilities = serde_json::Map::new();
    capabilities.insert(
        "goog:chromeOptions".to_owned(),
        json!({
            "binary": chromium,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--hide-scrollbars",
                "--window-size=1120,1000", "--force-device-scale-factor=1",
                format!("--user-data-dir={}", profile.display()),
            ],
        }),
    );
    ClientBuilder::new(HttpConnector::new())
        .capabilities(capabilities)
        .connect(&driver.url)
        .await
        .unwrap_or_else(|e| panic!("cannot start headless Chromium through chromedriver: {e}"))
}

/// A failed check in the browser session, said in words; the session is closed before
/// the test fails.
type Checked<T> = Result<T, String>;

macro_rules! ensure {
    ($cond:expr, $($msg:tt)+) => {
        if !$cond {
            return Err(format!($($msg)+));
        }
    };
}

fn webdriver<E: std::fmt::Display>(what: &str) -> impl FnOnce(E) -> String + '_ {
    move |e| format!("{what}: {e}")
}

/// Waits until the page shows `moves_played` moves and has its answer.
async fn wait_for_answer(client: &Client, moves_played: usize) -> Checked<()> {
    let current = if moves_played == 0 {
        r#"#history li.empty"#.to_owned()
    } else {
        format!(r#"#history li.current[data-index="{moves_played}"]"#)
    };
    for selector in [current.as_str(), r#"#status[data-state="ready"]"#] {
        client
            .wait()
            .at_most(Duration::from_secs(120))
            .for_element(Locator::Css(selector))
            .await
            .map_err(webdriver(&format!("waiting for `{selector}`")))?;
    }
    Ok(())
}

/// The value and remoteness the page shows for the side to move.
async fn shown_value(client: &Client) -> Checked<(String, String)> {
    let value = client
        .find(Locator::Css("#value"))
        .await
        .map_err(webdriver("#value"))?;
    let attr = |name: &'static str| {
        let value = value.clone();
        async move {
            value
                .attr(name)
                .await
                .map_err(webdriver(name))
                .map(Option::unwrap_or_default)
        }
    };
    Ok((attr("data-value").await?, attr("data-remoteness").await?))
}

fn expected_value(report: &Json) -> (String, String) {
    (
        report["value"].as_str().unwrap_or_default().to_owned(),
        report["remoteness"].to_string(),
    )
}

async fn text_of(client: &Client, selector: &str) -> Checked<String> {
    client
        .find(Locator::Css(selector))
        .await
        .map_err(webdriver(selector))?
        .text()
        .await
        .map_err(webdriver(selector))
}

async fn click(client: &Client, selector: &str) -> Checked<()> {
    client
        .find(Locator::Css(selector))
        .await
        .map_err(webdriver(selector))?
        .click()
        .await
        .map_err(webdriver(selector))
}

/// What a visitor does: open a shared line, click a tower and a destination, go back,
/// watch a zero-length move happen, paste a bad and a good move list.
async fn visit(client: &Client, server: &str) -> Checked<()> {
    // The start, a free move: nothing is shown until a tower is clicked; then its
    // destinations carry the opening table's results (the table is checked against a
    // fresh computation by the CLI tests), and clicking one plays it.
    client
        .goto(server)
        .await
        .map_err(webdriver("opening the page"))?;
    wait_for_answer(client, 0).await?;
    // A round of Kamisado cannot be drawn: the legend offers no draw.
    let legend = text_of(client, ".legend.only-kamisado").await?;
    ensure!(!legend.contains("draw"), "the legend: {legend}");
    let badges = client
        .find_all(Locator::Css("#board .badge"))
        .await
        .map_err(webdriver("badges"))?;
    ensure!(
        badges.is_empty(),
        "{} destinations shown before a click",
        badges.len()
    );
    click(client, r#"[data-square="h1"] .tower"#).await?;
    let table: Json = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../data/openings.json"
        ))
        .unwrap(),
    )
    .unwrap();
    let from_h1: Vec<&Json> = table["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["move"].as_str().unwrap().starts_with("h1-"))
        .collect();
    let badges = client
        .find_all(Locator::Css("#board .badge"))
        .await
        .map_err(webdriver("badges"))?;
    ensure!(
        badges.len() == from_h1.len(),
        "{} destinations shown for h1, the table has {}",
        badges.len(),
        from_h1.len()
    );
    for m in &from_h1 {
        let to = &m["move"].as_str().unwrap()[3..];
        badge_agrees(client, to, m).await?;
    }
    click(client, r#"[data-square="h5"]"#).await?;
    wait_for_answer(client, 1).await?;
    ensure!(
        shown_value(client).await? == expected_value(&query("h1-h5")),
        "after h1-h5 the page shows {:?}",
        shown_value(client).await?
    );

    let opening = "h1-h7 c8-c4";
    client
        .goto(&format!("{server}?moves={}", encode(opening)))
        .await
        .map_err(webdriver("opening the page"))?;
    wait_for_answer(client, 2).await?;
    let before = query(opening);
    ensure!(
        shown_value(client).await? == expected_value(&before),
        "after {opening} the page shows {:?}, query says {:?}",
        shown_value(client).await?,
        expected_value(&before)
    );

    // Click the tower of the best move: every destination shows the move's value and
    // remoteness for the mover, as query has them.
    let moves = before["moves"].as_array().unwrap();
    let best = moves[0]["move"].as_str().unwrap().to_owned();
    let (from, to) = best.split_once('-').unwrap();
    click(client, &format!(r#"[data-square="{from}"] .tower"#)).await?;
    for m in moves {
        let mv = m["move"].as_str().unwrap();
        let (f, t) = mv.split_once('-').unwrap();
        if f != from {
            continue;
        }
        badge_agrees(client, t, m).await?;
    }

    // Play it by clicking its destination.
    click(client, &format!(r#"[data-square="{to}"]"#)).await?;
    wait_for_answer(client, 3).await?;
    let line = format!("{opening} {best}");
    let after = query(&line);
    ensure!(
        shown_value(client).await? == expected_value(&after),
        "after {line} the page shows {:?}, query says {:?}",
        shown_value(client).await?,
        expected_value(&after)
    );
    let share = client
        .find(Locator::Css("#share"))
        .await
        .map_err(webdriver("#share"))?
        .attr("href")
        .await
        .map_err(webdriver("#share"))?
        .unwrap_or_default();
    ensure!(
        share == format!("{server}?moves={}", encode(&line)),
        "the share link is {share}"
    );
    let pv = client
        .find_all(Locator::Css("#pv button"))
        .await
        .map_err(webdriver("#pv"))?;
    ensure!(
        pv.len() as u64 == after["remoteness"].as_u64().unwrap(),
        "the perfect line has {} moves, the remoteness is {}",
        pv.len(),
        after["remoteness"]
    );

    let screenshot = client.screenshot().await.map_err(webdriver("screenshot"))?;
    let target = std::env::var_os("KAMISADO_SCREENSHOT")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("serve.png"));
    std::fs::write(&target, screenshot).map_err(|e| format!("{}: {e}", target.display()))?;

    // Back one move: the earlier position and its value again.
    click(client, "#back").await?;
    wait_for_answer(client, 2).await?;
    ensure!(
        shown_value(client).await? == expected_value(&before),
        "back at {opening} the page shows {:?}",
        shown_value(client).await?
    );

    // A zero-length move, shown as it happens: White's c8-c6 blocks Black's orange tower,
    // which passes, and White moves again.
    let zero = "h1-h7 c8-c6";
    client
        .goto(&format!("{server}?moves={}", encode(zero)))
        .await
        .map_err(webdriver("opening the page"))?;
    wait_for_answer(client, 2).await?;
    let event = text_of(client, "#event").await?;
    ensure!(
        event.contains("zero-length move h7-h7") && event.contains("White moves next"),
        "the page says `{event}` after {zero}"
    );
    let item = text_of(client, r#"#history li[data-index="2"]"#).await?;
    ensure!(item.contains("(h7-h7)"), "the move list shows `{item}`");
    ensure!(
        shown_value(client).await? == expected_value(&query(zero)),
        "after {zero} the page shows {:?}",
        shown_value(client).await?
    );

    // Pasting: a bad move list is refused with the command line's message (in the page's
    // words), a good one is shown.
    let paste = paste_is_refused(client, "h1-h5 zz", &["query", "--moves", "h1-h5 zz"]).await?;
    paste.clear().await.map_err(webdriver("clearing"))?;
    paste
        .send_keys("h1-h5")
        .await
        .map_err(webdriver("typing"))?;
    click(client, "#load button").await?;
    wait_for_answer(client, 1).await?;
    ensure!(
        shown_value(client).await? == expected_value(&query("h1-h5")),
        "after pasting h1-h5 the page shows {:?}",
        shown_value(client).await?
    );
    Ok(())
}

/// Runs `script` (the body of a function returning a string) in the page.
async fn in_page(client: &Client, script: &str) -> Checked<String> {
    let value = client
        .execute(script, Vec::new())
        .await
        .map_err(webdriver("running a script"))?;
    Ok(value.as_str().unwrap_or_default().to_owned())
}

/// The page on a phone's width (420 px): it opens at its top, the header and the game
/// selector in view, even for a long line (whose current move is at the end of the list).
async fn narrow_page_opens_at_the_top(client: &Client, server: &str) -> Checked<()> {
    client
        .set_window_size(420, 900)
        .await
        .map_err(webdriver("narrowing the window"))?;
    let line = "h1-h7 c8-c4 b1-b2 h8-d4 a1-a7 f8-g7 g7-f6 f6-e5";
    client
        .goto(&format!("{server}?moves={}", encode(line)))
        .await
        .map_err(webdriver("opening the page"))?;
    wait_for_answer(client, line.split(' ').count()).await?;
    let seen = in_page(
        client,
        "const game = document.getElementById('game').getBoundingClientRect();
         return [window.innerWidth, window.scrollY, game.top, game.bottom, window.innerHeight].join(' ');",
    )
    .await?;
    let n: Vec<f64> = seen.split(' ').map(|x| x.parse().unwrap()).collect();
    ensure!((n[0] as i64) <= 440, "the window is {} px wide", n[0]);
    ensure!(
        n[1] == 0.0 && n[2] >= 0.0 && n[3] <= n[4],
        "at 420 px the page is scrolled to {} and the game selector is at {}-{} of {}",
        n[1],
        n[2],
        n[3],
        n[4]
    );
    client
        .set_window_size(1120, 1000)
        .await
        .map_err(webdriver("widening the window"))
}

/// The badge the page shows on square `to` says the value and remoteness of `m`, a move
/// of `query --json`'s list.
async fn badge_agrees(client: &Client, to: &str, m: &Json) -> Result<(), String> {
    let badge = client
        .find(Locator::Css(&format!(r#"[data-square="{to}"] .badge"#)))
        .await
        .map_err(webdriver(&format!("the badge on {to}")))?;
    let value = badge.attr("data-value").await.map_err(webdriver("badge"))?;
    let remoteness = badge
        .attr("data-remoteness")
        .await
        .map_err(webdriver("badge"))?;
    // A move with only bounds on its remoteness has none in the badge's data.
    let exact = m["remoteness"]
        .as_u64()
        .map_or(String::new(), |r| r.to_string());
    ensure!(
        value.as_deref() == m["value"].as_str() && remoteness == Some(exact),
        "{}: the board shows {value:?} {remoteness:?}, query says {} {}",
        m["move"],
        m["value"],
        m["remoteness"]
    );
    Ok(())
}

/// Pastes `text` into the page's field and loads it: the page must refuse it with the
/// message the command line gives for `cli_args`. Returns the field, for the next paste.
async fn paste_is_refused(
    client: &Client,
    text: &str,
    cli_args: &[&str],
) -> Result<fantoccini::elements::Element, String> {
    let paste = client
        .find(Locator::Css("#paste"))
        .await
        .map_err(webdriver("#paste"))?;
    paste.send_keys(text).await.map_err(webdriver("typing"))?;
    click(client, "#load button").await?;
    client
        .wait()
        .at_most(Duration::from_secs(30))
        .for_element(Locator::Css("#load-error:not([hidden])"))
        .await
        .map_err(webdriver("waiting for the paste error"))?;
    let error = text_of(client, "#load-error").await?;
    // The command line's message, in the page's words: what was pasted, not a flag.
    let cli = cli_error(cli_args);
    let (flag, reason) = cli.split_once(": ").unwrap();
    let pasted = match flag {
        "--moves" => "the move list",
        "--layout" => "the layout",
        "--position" => "the position text",
        other => panic!("{other}: a flag the test does not expect"),
    };
    let expected = format!("{pasted}: {reason}");
    ensure!(
        error == expected && !error.contains("--"),
        "the page says `{error}`, the command line `{cli}`"
    );
    Ok(paste)
}

#[tokio::test]
async fn the_board_in_headless_chromium_agrees_with_query() {
    let (chromium, chromedriver) = chromium_and_driver();
    let mut server = Server::start(&["--time-limit", "120"]);
    let driver = Driver::start(&chromedriver);
    let client = browser(&driver, &chromium).await;
    let mut result = visit(&client, &server.url).await;
    if result.is_ok() {
        result = narrow_page_opens_at_the_top(&client, &server.url).await;
    }
    let _ = client.close().await;
    if let Err(e) = result {
        panic!("{e}");
    }
    assert!(server.alive());
}

// ---- Kamon --------------------------------------------------------------------------------

/// `kamisado kamon solve --json` with these arguments, on one thread.
fn kamon_solve(args: &[&str]) -> Json {
    let mut all = vec![
        "kamon",
        "solve",
        "--json",
        "--threads",
        "1",
        "--hash-mb",
        "32",
    ];
    all.extend_from_slice(args);
    let run = kamisado(&all, "");
    assert_eq!(run.code, 0, "{all:?}: {}", run.stderr);
    run.json()
}

/// The fields of `kamisado kamon solve --json` about the position (not the search's cost).
const KAMON_REPORT_FIELDS: [&str; 9] = [
    "layout",
    "moves",
    "to_move",
    "value",
    "winner",
    "remoteness",
    "best",
    "pv",
    "ends_by",
];

fn opposite(value: &Json) -> Json {
    match value.as_str().unwrap() {
        "win" => json!("loss"),
        "loss" => json!("win"),
        other => json!(other),
    }
}

/// Every legal cell's result in `answer` agrees with `kamisado kamon solve` of the
/// position the placement leads to: the opposite value, one placement longer. The cells
/// marked best are the report's best cells.
fn assert_cells_agree_with_kamon_solve(answer: &Json) {
    let layout = answer["layout"].as_str().unwrap();
    let moves: Vec<&str> = answer["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let cells = answer["cells"].as_array().unwrap();
    let mut answered: Vec<&str> = cells.iter().map(|c| c["cell"].as_str().unwrap()).collect();
    let mut legal: Vec<&str> = answer["legal_cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    answered.sort_unstable();
    legal.sort_unstable();
    assert_eq!(answered, legal, "every legal cell is answered");
    let mut best: Vec<&str> = cells
        .iter()
        .filter(|c| c["best"] == true)
        .map(|c| c["cell"].as_str().unwrap())
        .collect();
    best.sort_unstable();
    let mut report_best: Vec<&str> = answer["best"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    report_best.sort_unstable();
    assert_eq!(best, report_best);
    for c in cells {
        let cell = c["cell"].as_str().unwrap();
        let line = format!("{} {cell}", moves.join(" "));
        let after = kamon_solve(&["--layout", layout, "--moves", &line]);
        assert_eq!(
            c["value"],
            opposite(&after["value"]),
            "{cell}: {c} / {after}"
        );
        assert_eq!(
            c["remoteness"].as_u64(),
            after["remoteness"].as_u64().map(|r| r + 1),
            "{cell}: {c} / {after}"
        );
    }
}

#[tokio::test]
async fn the_kamon_api_answers_as_kamon_solve_and_refuses_garbage_with_its_message() {
    let mut server = Server::start(&["--threads", "1", "--hash-mb", "32"]);
    let base = server.url.clone();
    let api = |params: &str| format!("{base}api/query?game=kamon&{params}");

    // Garbage: 400 with `kamisado kamon solve`'s one-line message; the server goes on.
    let garbage: [(&str, &[&str]); 4] = [
        ("layout=garbage", &["kamon", "solve", "--layout", "garbage"]),
        (
            "layout=1a2b3c4d%2F5e6f1b2c3d",
            &["kamon", "solve", "--layout", "1a2b3c4d/5e6f1b2c3d"],
        ),
        (
            "seed=3&moves=a1",
            &["kamon", "solve", "--seed", "3", "--moves", "a1"],
        ),
        (
            "seed=3&moves=b1+b1",
            &["kamon", "solve", "--seed", "3", "--moves", "b1 b1"],
        ),
    ];
    refused_as_the_cli_refuses(&api, &garbage).await;
    // What clap refuses on the command line: refused in words of the same kind.
    for params in [
        "",
        "seed=abc",
        "seed=-1",
        "seed=1&after=36",
        "after=3",
        "seed=1&layout=x",
        "seed=1&position=obupyrgn/8/8/8/8/8/8/NGRYPUBO+b+-",
    ] {
        let (status, body) = get(&api(params)).await;
        assert_eq!(status, 400, "{params}: {body}");
        let message = body["error"].as_str().unwrap();
        assert!(!message.is_empty() && !message.contains('\n'), "{message}");
    }
    assert!(server.alive(), "the server died on bad input");

    // Late positions of random layouts: every field of `kamisado kamon solve --json` as
    // the command has it, and every legal cell as a solve of the position it leads to.
    for (seed, after) in [("1", "14"), ("5", "16")] {
        let (status, body) = get(&api(&format!("seed={seed}&after={after}"))).await;
        assert_eq!(status, 200, "{body}");
        let cli = kamon_solve(&["--seed", seed, "--after", after]);
        for field in KAMON_REPORT_FIELDS {
            assert_eq!(
                body[field], cli[field],
                "seed {seed} after {after}: `{field}`"
            );
        }
        assert_eq!(body["game"], "kamon");
        assert_eq!(
            (&body["complete"], &body["pv_complete"]),
            (&json!(true), &json!(true))
        );
        assert!(body.get("message").is_none(), "{body}");
        assert_eq!(body["board"].as_array().unwrap().len(), 37);
        assert_cells_agree_with_kamon_solve(&body);

        // The same game as a layout text and placements.
        let (status, again) = get(&api(&format!(
            "layout={}&moves={}",
            encode(body["layout"].as_str().unwrap()),
            encode(
                &cli["moves"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| m.as_str().unwrap())
                    .collect::<Vec<_>>()
                    .join(" ")
            )
        )))
        .await;
        assert_eq!(status, 200, "{again}");
        for field in KAMON_REPORT_FIELDS {
            assert_eq!(again[field], body[field], "`{field}`");
        }
        assert_eq!(again["cells"], body["cells"]);

        // The end of the perfect line: the game is over, as the rules and `kamon solve` say.
        let line: Vec<&str> = body["moves"]
            .as_array()
            .unwrap()
            .iter()
            .chain(body["pv"].as_array().unwrap())
            .map(|m| m.as_str().unwrap())
            .collect();
        let (status, end) = get(&api(&format!(
            "seed={seed}&moves={}",
            encode(&line.join(" "))
        )))
        .await;
        assert_eq!(status, 200, "{end}");
        let cli_end = kamon_solve(&["--seed", seed, "--moves", &line.join(" ")]);
        for field in KAMON_REPORT_FIELDS {
            assert_eq!(end[field], cli_end[field], "the end: `{field}`");
        }
        assert_eq!(end["remoteness"], 0);
        assert_eq!(end["end"]["reason"], body["ends_by"]);
        let winner = if body["value"] == "draw" {
            json!(null)
        } else {
            body["winner"].clone()
        };
        assert_eq!(end["end"]["winner"], winner);
        assert_eq!(end["legal_cells"], json!([]));
    }
}

/// An empty board is far beyond a short time limit: the answer comes back in time,
/// incomplete, and claims nothing it does not know.
#[tokio::test]
async fn a_kamon_search_past_the_time_limit_says_so_and_claims_nothing() {
    let server = Server::start(&["--threads", "1", "--hash-mb", "16", "--time-limit", "2"]);
    let started = Instant::now();
    let (status, body) = get(&format!("{}api/query?game=kamon&seed=1", server.url)).await;
    let took = started.elapsed();
    assert_eq!(status, 200, "{body}");
    assert!(took < Duration::from_secs(5), "the 2 s limit took {took:?}");
    assert_eq!(body["complete"], false);
    assert_eq!(
        (&body["value"], &body["winner"]),
        (&json!(null), &json!(null))
    );
    for field in ["remoteness", "best", "pv", "ends_by"] {
        assert!(body.get(field).is_none(), "`{field}` in {body}");
    }
    assert!(body["message"]
        .as_str()
        .unwrap()
        .starts_with("not solved within the time limit of 2 s"));
    // The first placement: the edge cells that are not corners, unless forbidden.
    let legal = body["legal_cells"].as_array().unwrap().len();
    assert!((11..=12).contains(&legal), "{body}");
    assert!(body["cells"].as_array().unwrap().len() < legal, "{body}");
    assert!(body["cells"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["best"] == false));
}

/// The value and remoteness the page shows on the badge of a Kamon cell.
async fn cell_badge(client: &Client, cell: &str) -> Checked<(Option<String>, Option<String>)> {
    let badge = client
        .find(Locator::Css(&format!(r#"[data-cell="{cell}"] .badge"#)))
        .await
        .map_err(webdriver(&format!("the badge on {cell}")))?;
    Ok((
        badge.attr("data-value").await.map_err(webdriver("badge"))?,
        badge
            .attr("data-remoteness")
            .await
            .map_err(webdriver("badge"))?,
    ))
}

/// The page's share link.
async fn share_link(client: &Client) -> Checked<String> {
    Ok(client
        .find(Locator::Css("#share"))
        .await
        .map_err(webdriver("#share"))?
        .attr("href")
        .await
        .map_err(webdriver("#share"))?
        .unwrap_or_default())
}

/// Clicking the legal cell `cell` of the position of `layout` after `moves`: its badge
/// shows what `kamisado kamon solve` says of the position it leads to, and the page then
/// shows that position's value.
async fn click_kamon_cell(
    client: &Client,
    layout: &str,
    moves: &[String],
    cell: &str,
) -> Checked<Json> {
    let line = moves
        .iter()
        .map(String::as_str)
        .chain([cell])
        .collect::<Vec<_>>()
        .join(" ");
    let after = kamon_solve(&["--layout", layout, "--moves", &line]);
    let expected = (
        Some(opposite(&after["value"]).as_str().unwrap().to_owned()),
        after["remoteness"].as_u64().map(|r| (r + 1).to_string()),
    );
    let shown = cell_badge(client, cell).await?;
    ensure!(
        shown == expected,
        "{cell}: the badge shows {shown:?}, kamon solve after it says {expected:?}"
    );
    click(client, &format!(r#"#hexboard [data-cell="{cell}"]"#)).await?;
    wait_for_answer(client, moves.len() + 1).await?;
    ensure!(
        shown_value(client).await? == expected_value(&after),
        "after {line} the page shows {:?}, kamon solve says {:?}",
        shown_value(client).await?,
        expected_value(&after)
    );
    Ok(after)
}

fn texts(list: &Json) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_owned())
        .collect()
}

/// What a Kamon visitor does: choose Kamon, see the late position the server offers,
/// click a cell, go back, paste a layout with placements and a garbage one, and on a
/// server with a short limit, an empty board.
async fn visit_kamon(client: &Client, server: &str, hurried_server: &str) -> Checked<()> {
    client
        .goto(server)
        .await
        .map_err(webdriver("opening the page"))?;
    wait_for_answer(client, 0).await?;
    client
        .find(Locator::Css("#game"))
        .await
        .map_err(webdriver("#game"))?
        .select_by_value("kamon")
        .await
        .map_err(webdriver("choosing Kamon"))?;
    // The server's first Kamon position: the random layout of seed 1 after 14 placements.
    let start = kamon_solve(&["--seed", "1", "--after", "14"]);
    let layout = start["layout"].as_str().unwrap().to_owned();
    let moves = texts(&start["moves"]);
    wait_for_answer(client, moves.len()).await?;
    ensure!(
        shown_value(client).await? == expected_value(&start),
        "seed 1 after 14: the page shows {:?}, kamon solve says {:?}",
        shown_value(client).await?,
        expected_value(&start)
    );
    let hexes = client
        .find_all(Locator::Css("#hexboard .hex"))
        .await
        .map_err(webdriver("hexes"))?;
    ensure!(hexes.len() == 37, "{} cells drawn", hexes.len());
    let pieces = client
        .find_all(Locator::Css("#hexboard .piece"))
        .await
        .map_err(webdriver("pieces"))?;
    ensure!(
        pieces.len() == moves.len(),
        "{} pieces drawn after {} placements",
        pieces.len(),
        moves.len()
    );
    // Both players named on one line, neither given an edge of the board (in Kamon no
    // edge is a player's), and no piece hides its cell's chip code.
    let players = text_of(client, "#player-top").await?;
    ensure!(
        players.contains("Black") && players.contains("White"),
        "the players above the board: `{players}`"
    );
    let bottom = in_page(
        client,
        "const b = document.getElementById('player-bottom'); return b.hidden ? '' : b.textContent;",
    )
    .await?;
    ensure!(bottom.is_empty(), "below the board: {bottom}");
    let hidden = in_page(
        client,
        "const hidden = [];
         for (const hex of document.querySelectorAll('#hexboard .hex')) {
           if (!hex.querySelector('.piece')) continue;
           const code = hex.querySelector('.chip-name');
           const r = code.getBoundingClientRect();
           const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
           if (top !== code || !code.textContent) hidden.push(hex.dataset.cell);
         }
         return hidden.join(' ');",
    )
    .await?;
    ensure!(hidden.is_empty(), "pieces hide the chip codes of {hidden}");

    // A legal cell that is not best, then back, then the best one.
    let best = texts(&start["best"]);
    let legal = client
        .find_all(Locator::Css("#hexboard .hex.legal"))
        .await
        .map_err(webdriver("legal cells"))?;
    let mut other = None;
    for hex in &legal {
        let cell = hex
            .attr("data-cell")
            .await
            .map_err(webdriver("cell"))?
            .unwrap_or_default();
        if !best.contains(&cell) {
            other = Some(cell);
        }
    }
    if let Some(cell) = other {
        click_kamon_cell(client, &layout, &moves, &cell).await?;
        click(client, "#back").await?;
        wait_for_answer(client, moves.len()).await?;
        ensure!(
            shown_value(client).await? == expected_value(&start),
            "back at seed 1 after 14 the page shows {:?}",
            shown_value(client).await?
        );
    }
    let after_best = click_kamon_cell(client, &layout, &moves, &best[0]).await?;
    let line: Vec<String> = moves.iter().cloned().chain([best[0].clone()]).collect();
    let share = share_link(client).await?;
    ensure!(
        share
            == format!(
                "{server}?game=kamon&seed=1&moves={}",
                encode(&line.join(" "))
            ),
        "the share link is {share}"
    );
    let pv = client
        .find_all(Locator::Css("#pv button"))
        .await
        .map_err(webdriver("#pv"))?;
    ensure!(
        pv.len() as u64 == after_best["remoteness"].as_u64().unwrap(),
        "the perfect line has {} placements, the remoteness is {}",
        pv.len(),
        after_best["remoteness"]
    );
    if let Some(target) = std::env::var_os("KAMISADO_KAMON_SCREENSHOT") {
        let screenshot = client.screenshot().await.map_err(webdriver("screenshot"))?;
        std::fs::write(&target, screenshot).map_err(|e| format!("{target:?}: {e}"))?;
    }

    // Pasting: garbage is refused with the command line's message; a layout text with
    // placements after it is shown, and a cell of it played.
    let paste = paste_is_refused(
        client,
        "1a2b/garbage b1",
        &["kamon", "solve", "--layout", "1a2b/garbage"],
    )
    .await?;
    let other = kamon_solve(&["--seed", "5", "--after", "16"]);
    let other_layout = other["layout"].as_str().unwrap().to_owned();
    let other_moves = texts(&other["moves"]);
    paste.clear().await.map_err(webdriver("clearing"))?;
    paste
        .send_keys(&format!("{other_layout} {}", other_moves.join(" ")))
        .await
        .map_err(webdriver("typing"))?;
    click(client, "#load button").await?;
    wait_for_answer(client, other_moves.len()).await?;
    ensure!(
        shown_value(client).await? == expected_value(&other),
        "the pasted layout: the page shows {:?}, kamon solve says {:?}",
        shown_value(client).await?,
        expected_value(&other)
    );
    let share = share_link(client).await?;
    ensure!(
        share
            == format!(
                "{server}?game=kamon&layout={}&moves={}",
                // The page's links encode the slashes too.
                encode(&other_layout).replace('/', "%2F"),
                encode(&other_moves.join(" "))
            ),
        "the share link is {share}"
    );
    let other_best = texts(&other["best"]);
    click_kamon_cell(
        client,
        &other_layout,
        &other_moves,
        &other_best[other_best.len() - 1],
    )
    .await?;

    // Back to Kamisado: its board and the start of a round, as before.
    client
        .find(Locator::Css("#game"))
        .await
        .map_err(webdriver("#game"))?
        .select_by_value("kamisado")
        .await
        .map_err(webdriver("choosing Kamisado"))?;
    wait_for_answer(client, 0).await?;
    let squares = client
        .find_all(Locator::Css("#board .sq"))
        .await
        .map_err(webdriver("squares"))?;
    ensure!(squares.len() == 64, "{} squares drawn", squares.len());
    // The opening table (checked against fresh solves by the CLI tests) has the start.
    let table: Json = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../data/openings.json"
        ))
        .unwrap(),
    )
    .unwrap();
    ensure!(
        shown_value(client).await? == expected_value(&table),
        "back on Kamisado's start the page shows {:?}",
        shown_value(client).await?
    );

    // An empty board on a server with a one-second limit: no value, the page says so.
    client
        .goto(&format!("{hurried_server}?game=kamon&seed=1"))
        .await
        .map_err(webdriver("opening the page"))?;
    wait_for_answer(client, 0).await?;
    let value = text_of(client, "#value").await?;
    ensure!(
        value == "not solved within the limit"
            && shown_value(client).await? == (String::new(), String::new()),
        "the empty board shows `{value}` {:?}",
        shown_value(client).await?
    );
    let message = text_of(client, "#message").await?;
    ensure!(
        message.starts_with("not solved within the time limit of 1 s"),
        "the message is `{message}`"
    );
    Ok(())
}

#[tokio::test]
async fn the_kamon_board_in_headless_chromium_agrees_with_kamon_solve() {
    let (chromium, chromedriver) = chromium_and_driver();
    let mut server = Server::start(&["--time-limit", "120", "--hash-mb", "64"]);
    let hurried = Server::start(&["--time-limit", "1", "--hash-mb", "16"]);
    let driver = Driver::start(&chromedriver);
    let client = browser(&driver, &chromium).await;
    let result = visit_kamon(&client, &server.url, &hurried.url).await;
    let _ = client.close().await;
    if let Err(e) = result {
        panic!("{e}");
    }
    assert!(server.alive());
}

// ---- Match play -----------------------------------------------------------------------------

/// Round 1 of a Standard match that Black's blue tower wins on its second move: it becomes
/// a Sumo, and Black chooses the refill.
const ROUND_ONE: &str = "g1-g7 h8-h6 g7-h8";
/// Round 2 after the refill from the left: Black's blue Sumo on h1, White to start.
const ROUND_TWO: &str = "g1-g7 h8-h6 g7-h8 left";
/// Round 2, Black to move with the blue Sumo on f3, which may push White's orange tower
/// on f4 (f3-f4) to f5.
const PUSH_POSSIBLE: &str = "g1-g7 h8-h6 g7-h8 left d8-d5 g1-a7 g8-g6 d1-a4 f8-e7 h1-f3 b8-f4";
/// The position of `PUSH_POSSIBLE`, as a match position text.
const PUSH_POSITION: &str = "n1b1p2g/O3y3/6r1/3u4/Y4o2/5B+2/8/NGR1PU2 b b 3";
/// The blue Sumo wins round 2 on a8: 1 + 2 points, the match is Black's.
const MATCH_OVER: &str = "g1-g7 h8-h6 g7-h8 left a8-a3 h1-c6 b8-f4 c6-a8";

/// `kamisado <command> --json --target 3 --moves MOVES` (a Standard match).
fn match_report(command: &str, moves: &str) -> Json {
    let run = kamisado(&[command, "--json", "--target", "3", "--moves", moves], "");
    assert_eq!(
        run.code, 0,
        "{command} --target 3 --moves {moves}: {}",
        run.stderr
    );
    run.json()
}

/// The value for the player who made a move, from the value of the position it leads to.
fn for_the_mover(after: &Json, turn_passed: bool) -> (Json, Option<u64>) {
    let value = if turn_passed {
        opposite(&after["value"])
    } else {
        after["value"].clone()
    };
    (value, after["remoteness"].as_u64().map(|r| r + 1))
}

#[tokio::test]
async fn the_match_api_answers_as_query_target_and_refuses_garbage_with_its_message() {
    let mut server = Server::start(&["--threads", "1", "--hash-mb", "32", "--time-limit", "2"]);
    let base = server.url.clone();
    let api = |params: &str| format!("{base}api/query?game=match&{params}");

    // Records and a position, each answered in moments: every field of `query --target 3
    // --json` has the same value.
    for moves in [
        ROUND_ONE,
        PUSH_POSSIBLE,
        &format!("{PUSH_POSSIBLE} f3-f4"),
        MATCH_OVER,
    ] {
        let (status, body) = get(&api(&format!("target=3&moves={}", encode(moves)))).await;
        assert_eq!(status, 200, "{moves}: {body}");
        assert_same_report(&body, &match_report("query", moves));
        assert_eq!(
            (&body["game"], &body["complete"]),
            (&json!("match"), &json!(true))
        );
        assert_eq!(
            body["pv"].as_array().unwrap().len() as u64,
            body["remoteness"].as_u64().unwrap(),
            "{moves}"
        );
    }
    let (status, body) = get(&api(&format!("position={}", encode(PUSH_POSITION)))).await;
    assert_eq!(status, 200, "{body}");
    let run = kamisado(&["query", "--json", "--position", PUSH_POSITION], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_same_report(&body, &run.json());
    assert!(body["legal_moves"]
        .as_array()
        .unwrap()
        .contains(&json!("f3-f4")));

    // The round over, awaiting the winner's refill choice: nothing to move, Black chooses.
    let (_, over) = get(&api(&format!("target=3&moves={}", encode(ROUND_ONE)))).await;
    assert_eq!(
        (
            &over["round_over"],
            &over["match_over"],
            &over["refill_by"],
            &over["refill_choices"]
        ),
        (
            &json!(true),
            &json!(false),
            &json!("black"),
            &json!(["left", "right"])
        )
    );
    assert_eq!(over["legal_moves"], json!([]));
    // The winning tower with its gain: a Sumo now.
    assert_eq!(
        over["sumos"],
        json!([{"square": "h8", "side": "black", "colour": "blue", "rank": 1, "promoted": true}])
    );

    // The push, as the line shows it: the pushed tower one square back, Black again.
    let (_, pushed) = get(&api(&format!(
        "target=3&moves={}",
        encode(&format!("{PUSH_POSSIBLE} f3-f4"))
    )))
    .await;
    let last = pushed["line"]["moves"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert_eq!(
        (&last["move"], &last["side"], &last["pushed"]),
        (
            &json!("f3-f4"),
            &json!("black"),
            &json!([{"side": "white", "colour": "orange", "from": "f4", "to": "f5"}])
        )
    );
    assert_eq!(pushed["to_move"], "black");

    // The match over: Black's Double Sumo, 3 points to 0, no refill.
    let (_, done) = get(&api(&format!("target=3&moves={}", encode(MATCH_OVER)))).await;
    assert_eq!(
        (&done["match_over"], &done["match_winner"], &done["score"]),
        (
            &json!(true),
            &json!("black"),
            &json!({"black": 3, "white": 0})
        )
    );
    assert!(done.get("refill_by").is_none(), "{done}");

    // Round 2's start: every move solved takes a minute, far past the 2 s limit; the
    // round's value comes first and is exact (`solve` says the same), and so is every move
    // answered in time (the opposite of `query` after it, one move longer).
    let (status, start) = get(&api(&format!("target=3&moves={}", encode(ROUND_TWO)))).await;
    assert_eq!(status, 200, "{start}");
    let shown = match_report("show", ROUND_TWO);
    for field in [
        "position",
        "to_move",
        "legal_moves",
        "target",
        "round",
        "score",
    ] {
        assert_eq!(start[field], shown[field], "{field}");
    }
    assert_eq!(start["round"], 2);
    assert_eq!(
        start["sumos"],
        json!([{"square": "h1", "side": "black", "colour": "blue", "rank": 1}])
    );
    let solved = match_report("solve", ROUND_TWO);
    assert_eq!(expected_value(&start), expected_value(&solved));
    assert_eq!(start["pv"], solved["pv"]);
    // Every move answered has its value exactly; its remoteness exactly, or (not a best
    // move) bounds that hold it.
    for m in start["moves"].as_array().unwrap() {
        let mv = m["move"].as_str().unwrap();
        let after = match_report("query", &format!("{ROUND_TWO} {mv}"));
        let (value, remoteness) = for_the_mover(&after, after["to_move"] != "white");
        assert_eq!(m["value"], value, "{mv}");
        let r = remoteness.unwrap();
        match m["remoteness"].as_u64() {
            Some(exact) => assert_eq!(exact, r, "{mv}"),
            None => {
                let at_least = m["remoteness_at_least"].as_u64().unwrap();
                let at_most = m["remoteness_at_most"].as_u64().unwrap_or(u64::MAX);
                assert!(at_least <= r && r <= at_most, "{mv}: {r} outside {m}");
            }
        }
    }

    // Garbage: 400 and the command line's message.
    let garbage: [(&str, &[&str]); 6] = [
        (
            "target=3&moves=zz",
            &["query", "--target", "3", "--moves", "zz"],
        ),
        (
            "target=3&moves=g1-g7+h8-h6+g7-h8+a1-a2",
            &[
                "query",
                "--target",
                "3",
                "--moves",
                "g1-g7 h8-h6 g7-h8 a1-a2",
            ],
        ),
        (
            "target=7&moves=g1-g7+left",
            &["query", "--target", "7", "--moves", "g1-g7 left"],
        ),
        (
            "target=3&moves=g1-g7+h8-h6+g7-h8+left+a8-a3+h1-c6+b8-f4+c6-a8+right",
            &[
                "query",
                "--target",
                "3",
                "--moves",
                &format!("{MATCH_OVER} right"),
            ],
        ),
        (
            "position=obupyrgn/8/8/8/8/8/8/N%2B%2BGRYPUBO+w+-+3",
            &[
                "query",
                "--position",
                "obupyrgn/8/8/8/8/8/8/N++GRYPUBO w - 3",
            ],
        ),
        (
            "position=n1b1p2g/O3y3/6r1/3u4/Y4o2/5B%2B2/8/NGR1PU2+b+b+3&moves=f3-f5",
            &["query", "--position", PUSH_POSITION, "--moves", "f3-f5"],
        ),
    ];
    refused_as_the_cli_refuses(&api, &garbage).await;
    // What only the server reads: the target, and games that take none.
    for params in [
        "game=match&target=4",
        "game=match&target=1",
        "game=match&target=x%01",
        "game=match&target=3&position=obupyrgn/8/8/8/8/8/8/NGRYPUBO+b+-+3",
        "game=match&position=obupyrgn/8/8/8/8/8/8/NGRYPUBO+b+-",
        "game=kamisado&target=3",
        "game=kamisado&moves=g1-g7+h8-h6+g7-h8+left",
        "game=kamon&target=3",
    ] {
        let (status, body) = get(&format!("{base}api/query?{params}")).await;
        assert_eq!(status, 400, "{params}: {body}");
        let message = body["error"].as_str().unwrap();
        assert!(!message.is_empty() && !message.contains('\n'), "{message}");
    }
    assert!(server.alive(), "the server died on bad input");
}

/// Round 1 of a Standard match (White wins it) after which both refill choices lead to
/// round starts solved in moments, every move in seconds: found by random play.
const CHEAP_REFILLS: &str = "c1-f4 b8-b2 a1-a7 f8-h6 g1-c5 b2-a1";

/// `refill`, an entry of an answer's `refills` for a round won by `chooser`, agrees with
/// `query --target 3 --json` of the next round's start it names: the same position, its
/// value seen from the chooser, the same remoteness, the winner. With `exact`, the
/// value and the remoteness must be there; without, each may be missing (`null`).
fn assert_refill_is_query_s(refill: &Json, record: &str, chooser: &str, exact: bool) {
    let choice = refill["choice"].as_str().unwrap();
    let next = match_report("query", &format!("{record} {choice}"));
    assert_eq!(refill["position"], next["position"], "{choice}");
    assert_ne!(
        next["to_move"], chooser,
        "the round's loser starts the next"
    );
    let value = opposite(&next["value"]);
    if exact || !refill["value"].is_null() {
        assert_eq!(refill["value"], value, "{choice}: {refill}");
        let winner = if value == "win" {
            chooser
        } else {
            next["to_move"].as_str().unwrap()
        };
        assert_eq!(refill["winner"], winner, "{choice}: {refill}");
    } else {
        assert!(refill["winner"].is_null(), "{choice}: {refill}");
    }
    if exact || !refill["remoteness"].is_null() {
        assert_eq!(
            refill["remoteness"], next["remoteness"],
            "{choice}: {refill}"
        );
    }
    if refill["value"].is_null() {
        assert!(refill["remoteness"].is_null(), "{choice}: {refill}");
    }
}

#[tokio::test]
async fn the_refill_choices_carry_the_values_of_the_next_round_starts() {
    // Time enough for both next rounds: each entry is `query`'s of the start it leads to.
    let server = Server::start(&["--threads", "1", "--hash-mb", "32", "--time-limit", "300"]);
    let url = |base: &str, moves: &str| {
        format!(
            "{base}api/query?game=match&target=3&moves={}",
            encode(moves)
        )
    };
    let (status, over) = get(&url(&server.url, CHEAP_REFILLS)).await;
    assert_eq!(status, 200, "{over}");
    let chooser = over["refill_by"].as_str().unwrap().to_owned();
    let refills = over["refills"]
        .as_array()
        .expect("a finished round lists its refills");
    let choices: Vec<&Json> = refills.iter().map(|r| &r["choice"]).collect();
    assert_eq!(json!(choices), over["refill_choices"]);
    for refill in refills {
        assert_refill_is_query_s(refill, CHEAP_REFILLS, &chooser, true);
    }
    assert!(over.get("message").is_none(), "{over}");

    // A limit too short for a search: what is there is exact, what is missing is said.
    let hurried = Server::start(&["--threads", "1", "--hash-mb", "16", "--time-limit", "0.001"]);
    let (status, cut) = get(&url(&hurried.url, CHEAP_REFILLS)).await;
    assert_eq!(status, 200, "{cut}");
    let refills = cut["refills"].as_array().unwrap();
    assert_eq!(refills.len(), 2, "{cut}");
    for refill in refills {
        assert_refill_is_query_s(refill, CHEAP_REFILLS, &chooser, false);
    }
    let missing = refills
        .iter()
        .any(|r| r["value"].is_null() || r["remoteness"].is_null());
    let message = cut["message"].as_str().unwrap_or_default();
    assert_eq!(missing, message.contains("time limit"), "{cut}");

    // No refill where no choice is due: inside a round, the match over, a single round.
    for moves in ["g1-g7 h8-h6", MATCH_OVER] {
        let (_, body) = get(&url(&server.url, moves)).await;
        assert!(body.get("refills").is_none(), "{moves}: {body}");
    }
    let (_, single) = get(&format!("{}api/query?moves=g1-g7+h8-h6+g7-h8", server.url)).await;
    assert!(single.get("refills").is_none(), "{single}");
}

/// A final round (2-2) that `whole-match solve` proves in moments (seed 6 of
/// data/match-standard.json) and whose 99 moves' match values `whole-match query` finds in
/// seconds. (A 2-1 round start's moves take `whole-match query` more than ten minutes: the
/// leader's losing moves each need the final rounds they can lead to.)
const MATCH_PROVEN_START: &str = "g+oybpn+ru/8/8/8/8/8/8/U+GNOBPR+Y w - 3";

/// A proof file of [`MATCH_PROVEN_START`], made by `whole-match solve --db`.
fn match_proof_file(dir: &std::path::Path) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let file = dir.join("proofs.kmp");
    let solved = kamisado(
        &[
            "whole-match",
            "solve",
            "--position",
            MATCH_PROVEN_START,
            "--threads",
            "1",
            "--hash-mb",
            "64",
            "--db",
            file.to_str().unwrap(),
            "--json",
        ],
        "",
    );
    assert_eq!(solved.code, 0, "{}", solved.stderr);
    assert_eq!(solved.json()["proven"], true, "{}", solved.stdout);
    file
}

/// `whole-match query --json` of `position` with a copy of `proofs` (which it writes).
fn whole_match_query(position: &str, proofs: &std::path::Path) -> Json {
    let copy = proofs.with_extension("query.kmp");
    std::fs::copy(proofs, &copy).unwrap();
    let run = kamisado(
        &[
            "whole-match",
            "query",
            "--position",
            position,
            "--threads",
            "1",
            "--hash-mb",
            "64",
            "--db",
            copy.to_str().unwrap(),
            "--json",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    run.json()
}

#[tokio::test]
async fn the_match_values_are_whole_match_querys_where_a_proof_file_covers_the_round() {
    let dir = std::env::temp_dir().join(format!("kamisado-serve-match-db-{}", std::process::id()));
    let proofs = match_proof_file(&dir);
    let before = std::fs::read(&proofs).unwrap();
    let queried = whole_match_query(MATCH_PROVEN_START, &proofs);
    let server = Server::start(&[
        "--match-db",
        proofs.to_str().unwrap(),
        "--threads",
        "1",
        "--hash-mb",
        "32",
        "--time-limit",
        "300",
    ]);
    let url = |position: &str| {
        format!(
            "{}api/query?game=match&position={}",
            server.url,
            encode(position)
        )
    };
    let (status, body) = get(&url(MATCH_PROVEN_START)).await;
    assert_eq!(status, 200, "{body}");
    let values = &body["match_values"];
    assert_eq!(values["complete"], true, "{body}");
    assert_eq!(values["value"], queried["value"], "{body}");
    let moves = values["moves"].as_array().unwrap();
    assert_eq!(moves.len(), queried["moves"].as_array().unwrap().len());
    for m in moves {
        let q = queried["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|q| q["move"] == m["move"])
            .unwrap_or_else(|| panic!("{m} is not among whole-match query's moves"));
        assert_eq!(
            (&m["value"], &m["winner"]),
            (&q["value"], &q["winner"]),
            "{}",
            m["move"]
        );
        // At 2-2 the round's winner wins the match: the move's round value is its match value.
        let round = body["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["move"] == m["move"])
            .unwrap_or_else(|| panic!("{} has no round value: {body}", m["move"]));
        assert_eq!(round["value"], m["value"], "{}", m["move"]);
    }
    // Every legal move is there, with the round's answer beside it.
    let legal: Vec<&Json> = body["legal_moves"].as_array().unwrap().iter().collect();
    assert_eq!(moves.len(), legal.len(), "{body}");
    assert!(moves.iter().all(|m| legal.contains(&&m["move"])));
    assert!(values.get("message").is_none(), "{body}");

    // A round the file has not proved: no search, and the answer says why.
    let (status, other) = get(&url(PUSH_POSITION)).await;
    assert_eq!(status, 200, "{other}");
    let values = &other["match_values"];
    assert_eq!(values["moves"], json!([]), "{other}");
    assert_eq!(values["complete"], false, "{other}");
    assert!(
        values["message"]
            .as_str()
            .unwrap()
            .contains("holds no proof of this round's start"),
        "{other}"
    );
    // No match values in a single round, or without --match-db.
    let (_, single) = get(&format!("{}api/query?moves=g1-g7", server.url)).await;
    assert!(single.get("match_values").is_none(), "{single}");
    let plain = Server::start(&["--threads", "1", "--hash-mb", "16", "--time-limit", "1"]);
    let (_, without) = get(&format!(
        "{}api/query?game=match&position={}",
        plain.url,
        encode(MATCH_PROVEN_START)
    ))
    .await;
    assert!(without.get("match_values").is_none(), "{without}");
    // The server never writes the file it reads.
    drop(server);
    assert_eq!(std::fs::read(&proofs).unwrap(), before);

    // A file that is not a proof file, or is missing, is refused before serving.
    let damaged = dir.join("damaged.kmp");
    std::fs::write(&damaged, &before[..before.len() - 1]).unwrap();
    kamisado(
        &[
            "serve",
            "--port",
            "0",
            "--match-db",
            damaged.to_str().unwrap(),
        ],
        "",
    )
    .assert_one_line_error(2, "damaged.kmp is damaged");
    let missing = dir.join("missing.kmp");
    kamisado(
        &[
            "serve",
            "--port",
            "0",
            "--match-db",
            missing.to_str().unwrap(),
        ],
        "",
    )
    .assert_one_line_error(2, "--match-db");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every row of the move list: its move, and attribute `attr` of its cell `cell`.
async fn each_moves_cell(
    client: &Client,
    cell: &str,
    attr: &str,
) -> Checked<Vec<(Option<String>, Option<String>)>> {
    let rows = client
        .find_all(Locator::Css("#moves tbody tr"))
        .await
        .map_err(webdriver("the moves list"))?;
    let mut cells = Vec::with_capacity(rows.len());
    for row in rows {
        let mv = row
            .attr("data-move")
            .await
            .map_err(webdriver("a move's row"))?;
        let shown = row
            .find(Locator::Css(cell))
            .await
            .map_err(webdriver(cell))?
            .attr(attr)
            .await
            .map_err(webdriver(cell))?;
        cells.push((mv, shown));
    }
    Ok(cells)
}

/// The `value` that a JSON list of moves (`query`'s or `match_values`') gives `mv`.
fn value_of_move<'a>(moves: &'a Json, mv: Option<&str>) -> Option<&'a Json> {
    moves
        .as_array()?
        .iter()
        .find(|m| m["move"].as_str() == mv)
        .map(|m| &m["value"])
}

/// The match board with a proof file: every move's row shows the API's match value, and
/// the header the position's.
async fn visit_match_values(client: &Client, server: &str, answer: &Json) -> Checked<()> {
    client
        .goto(&format!(
            "{server}?game=match&position={}",
            encode(MATCH_PROVEN_START)
        ))
        .await
        .map_err(webdriver("opening the page"))?;
    wait_for_answer(client, 0).await?;
    let values = &answer["match_values"];
    let header = client
        .find(Locator::Css("#moves-match"))
        .await
        .map_err(webdriver("the match column"))?;
    ensure!(
        header
            .is_displayed()
            .await
            .map_err(webdriver("the match column"))?,
        "the match column is hidden"
    );
    let shown = client
        .find(Locator::Css("#match-value"))
        .await
        .map_err(webdriver("the position's match value"))?
        .attr("data-value")
        .await
        .map_err(webdriver("the position's match value"))?;
    ensure!(
        shown.as_deref() == values["value"].as_str(),
        "the header shows the match value {shown:?}, the API {}",
        values["value"]
    );
    let rows = each_moves_cell(client, "td.match", "data-match-value").await?;
    let expected = values["moves"].as_array().map_or(0, Vec::len);
    ensure!(
        rows.len() == expected,
        "{} rows for {expected} moves",
        rows.len()
    );
    for (mv, shown) in rows {
        let api = value_of_move(&values["moves"], mv.as_deref())
            .map(|v| v.as_str().unwrap_or_default().to_owned());
        ensure!(
            api.is_some() && shown == api,
            "{mv:?} shows the match value {shown:?}, the API {api:?}"
        );
    }
    Ok(())
}

#[tokio::test]
async fn the_match_board_shows_each_moves_match_value_from_a_proof_file() {
    let (chromium, chromedriver) = chromium_and_driver();
    let dir = std::env::temp_dir().join(format!("kamisado-board-match-db-{}", std::process::id()));
    let proofs = match_proof_file(&dir);
    let mut server = Server::start(&[
        "--match-db",
        proofs.to_str().unwrap(),
        "--threads",
        "1",
        "--hash-mb",
        "32",
        "--time-limit",
        "300",
    ]);
    // The API's answer first: the page, asking the same, then answers from what the
    // server's solver has kept (the same values, at once).
    let (status, answer) = get(&format!(
        "{}api/query?game=match&position={}",
        server.url,
        encode(MATCH_PROVEN_START)
    ))
    .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["match_values"]["complete"], true, "{answer}");
    let driver = Driver::start(&chromedriver);
    let client = browser(&driver, &chromium).await;
    let result = visit_match_values(&client, &server.url, &answer).await;
    let _ = client.close().await;
    if let Err(e) = result {
        panic!("{e}");
    }
    assert!(server.alive());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The standing the page shows: round, Black's and White's points.
async fn shown_standing(client: &Client) -> Checked<(String, String, String)> {
    let standing = client
        .find(Locator::Css("#standing"))
        .await
        .map_err(webdriver("#standing"))?;
    let mut out = Vec::new();
    for name in ["data-round", "data-black", "data-white"] {
        out.push(
            standing
                .attr(name)
                .await
                .map_err(webdriver(name))?
                .unwrap_or_default(),
        );
    }
    Ok((out[0].clone(), out[1].clone(), out[2].clone()))
}

fn expected_standing(report: &Json) -> (String, String, String) {
    (
        report["round"].to_string(),
        report["score"]["black"].to_string(),
        report["score"]["white"].to_string(),
    )
}

/// The teeth drawn on the tower on `square`: its rank as the page shows it.
async fn teeth_on(client: &Client, square: &str) -> Checked<(usize, Option<String>)> {
    let tower = client
        .find(Locator::Css(&format!(
            r#"#board [data-square="{square}"] .tower"#
        )))
        .await
        .map_err(webdriver(&format!("the tower on {square}")))?;
    let teeth = tower
        .find_all(Locator::Css(".teeth i"))
        .await
        .map_err(webdriver("teeth"))?;
    let rank = tower
        .attr("data-rank")
        .await
        .map_err(webdriver("data-rank"))?;
    Ok((teeth.len(), rank))
}

/// Plays `mv` by clicking its tower (unless its moves already show) and its destination;
/// then the page shows `played` moves and the value `query --target 3` gives after `line`.
async fn click_match_move(client: &Client, mv: &str, played: usize, line: &str) -> Checked<Json> {
    let (from, to) = mv.split_once('-').unwrap();
    if client
        .find(Locator::Css(&format!(r#"[data-square="{to}"] .badge"#)))
        .await
        .is_err()
    {
        click(client, &format!(r#"[data-square="{from}"] .tower"#)).await?;
    }
    click(client, &format!(r#"[data-square="{to}"]"#)).await?;
    wait_for_answer(client, played).await?;
    let expected = match_report("query", line);
    ensure!(
        shown_value(client).await? == expected_value(&expected),
        "after {line} the page shows {:?}, query --target 3 says {:?}",
        shown_value(client).await?,
        expected_value(&expected)
    );
    ensure!(
        shown_standing(client).await? == expected_standing(&expected),
        "after {line} the page shows the standing {:?}, query says {:?}",
        shown_standing(client).await?,
        expected_standing(&expected)
    );
    Ok(expected)
}

/// What a visitor of match play does: choose it, play a round to its end by clicking, choose
/// the refill, play on in round 2, go back, paste a record with a push and a bad one.
async fn visit_match(client: &Client, server: &str) -> Checked<()> {
    client
        .goto(server)
        .await
        .map_err(webdriver("opening the page"))?;
    wait_for_answer(client, 0).await?;
    client
        .find(Locator::Css("#game"))
        .await
        .map_err(webdriver("#game"))?
        .select_by_value("match")
        .await
        .map_err(webdriver("choosing match play"))?;
    wait_for_answer(client, 0).await?;
    let target = client
        .find(Locator::Css("#target"))
        .await
        .map_err(webdriver("#target"))?
        .prop("value")
        .await
        .map_err(webdriver("#target"))?;
    ensure!(
        target.as_deref() == Some("3"),
        "the target chosen is {target:?}"
    );
    ensure!(
        shown_standing(client).await? == ("1".into(), "0".into(), "0".into()),
        "a new match shows {:?}",
        shown_standing(client).await?
    );

    // Round 1: three clicked moves, the last reaching White's home row.
    let mut line = String::new();
    for (i, mv) in ROUND_ONE.split(' ').enumerate() {
        line = if line.is_empty() {
            mv.to_owned()
        } else {
            format!("{line} {mv}")
        };
        click_match_move(client, mv, i + 1, &line).await?;
    }
    let value = text_of(client, "#value").await?;
    ensure!(
        value.starts_with("Black won the round"),
        "the round's end shows `{value}`"
    );
    // The winner is a Sumo at once, with its tooth.
    ensure!(
        teeth_on(client, "h8").await? == (1, Some("1".into())),
        "the new Sumo on h8 shows {:?}",
        teeth_on(client, "h8").await?
    );

    // Each refill button carries what it leads to for Black, the chooser, coloured as the
    // move list colours a move: the value the API gives (checked against `query` by the
    // API's test), and the remoteness when the page's answer found it in time (a later
    // request may find one the page's did not: the table has learnt meanwhile).
    let (_, api) = get(&format!(
        "{server}api/query?game=match&target=3&moves={}",
        encode(ROUND_ONE)
    ))
    .await;
    let refills = api["refills"].as_array().cloned().unwrap_or_default();
    ensure!(
        refills.len() == 2,
        "the API lists the refills {} at the round's end",
        api["refills"]
    );
    for refill in &refills {
        let choice = refill["choice"].as_str().unwrap();
        let shown = client
            .find(Locator::Css(&format!("#refill-{choice} .res")))
            .await
            .map_err(webdriver(&format!(
                "the value on the {choice} refill button"
            )))?;
        let class = shown.attr("class").await.map_err(webdriver("class"))?;
        let text = shown.text().await.map_err(webdriver("text"))?;
        let remoteness = shown
            .attr("data-remoteness")
            .await
            .map_err(webdriver("data-remoteness"))?
            .unwrap_or_default();
        let value = refill["value"].as_str().unwrap_or("unknown");
        ensure!(
            value != "unknown" && class == Some(format!("res {value}")),
            "the {choice} refill button shows {class:?} `{text}`, the API says {refill}"
        );
        let said = format!(
            "Black {} round 2",
            if value == "win" { "wins" } else { "loses" }
        );
        ensure!(
            text.contains(&said)
                && (remoteness.is_empty() || text.contains(&format!("{said} in {remoteness}"))),
            "the {choice} refill button says `{text}`, not `{said}`"
        );
        ensure!(
            remoteness.is_empty()
                || refill["remoteness"].is_null()
                || remoteness.parse::<u64>().ok() == refill["remoteness"].as_u64(),
            "the {choice} refill button says `{text}`, the API {refill}"
        );
    }
    let after_left = match_report("solve", ROUND_TWO);
    let said = format!(
        "Black {} round 2 in {}",
        if after_left["value"] == "win" {
            "loses"
        } else {
            "wins"
        },
        after_left["remoteness"]
    );
    let left = text_of(client, "#refill-left .res").await?;
    ensure!(
        left.contains(&said),
        "the left refill button says `{left}`; after it solve --target 3 says {} {} in {}",
        after_left["to_move"],
        after_left["value"],
        after_left["remoteness"]
    );

    // The refill: from the left. Round 2 starts, White to move, the Sumo on h1.
    click(client, "#refill-left").await?;
    wait_for_answer(client, 4).await?;
    let shown = match_report("show", ROUND_TWO);
    ensure!(
        shown_standing(client).await? == expected_standing(&shown),
        "round 2 shows the standing {:?}, show says {:?}",
        shown_standing(client).await?,
        expected_standing(&shown)
    );
    ensure!(
        text_of(client, "#fen").await? == shown["position"].as_str().unwrap(),
        "round 2 starts at {}",
        text_of(client, "#fen").await?
    );
    ensure!(
        teeth_on(client, "h1").await? == (1, Some("1".into())),
        "the Sumo on h1 shows {:?}",
        teeth_on(client, "h1").await?
    );
    // The round's value is `solve`'s, and every move of the round's start has its value
    // in the moves list (none "not answered"), as `query` gives it.
    let solved = match_report("solve", ROUND_TWO);
    ensure!(
        shown_value(client).await? == expected_value(&solved),
        "round 2's start shows {:?}, solve --target 3 says {:?}",
        shown_value(client).await?,
        expected_value(&solved)
    );
    // The header, the list's first move ("best first") and the perfect line's first move
    // say the same: the line starts with an answered move of the header's value.
    let agreement = in_page(
        client,
        "const rows = [...document.querySelectorAll('#moves tbody tr')];
         const res = (row) => row ? row.querySelector('td.res').textContent : 'missing';
         const pv = document.querySelector('#pv button');
         const header = document.getElementById('value').firstChild.textContent;
         return [header, res(rows[0]), res(pv && rows.find((r) => r.dataset.move === pv.textContent))].join('|');",
    )
    .await?;
    let said: Vec<&str> = agreement.split('|').collect();
    ensure!(
        said[0].ends_with(said[1]) && said[1] == said[2] && said[1].starts_with("wins in "),
        "round 2's start: the header `{}`, the first move `{}`, the perfect line's first move `{}`",
        said[0],
        said[1],
        said[2]
    );
    let queried = match_report("query", ROUND_TWO);
    let rows = each_moves_cell(client, "td.res", "class").await?;
    ensure!(
        rows.len() == queried["moves"].as_array().map_or(0, Vec::len),
        "{} moves listed at round 2's start",
        rows.len()
    );
    for (mv, class) in rows {
        let expected =
            value_of_move(&queried["moves"], mv.as_deref()).map(|v| v.as_str().unwrap().to_owned());
        ensure!(
            expected.is_some() && class == Some(format!("res {}", expected.clone().unwrap())),
            "{mv:?} shows {class:?} at round 2's start, query says {expected:?}"
        );
    }
    let plain = client
        .find_all(Locator::Css("#board .tower:not(.sumo)"))
        .await
        .map_err(webdriver("towers"))?;
    ensure!(
        plain.len() == 15,
        "{} plain towers drawn beside the Sumo",
        plain.len()
    );

    // Round 2's first move, then every destination of Black's Sumo as query has it.
    let after = click_match_move(client, "a8-a3", 5, &format!("{ROUND_TWO} a8-a3")).await?;
    for m in after["moves"].as_array().unwrap() {
        badge_agrees(client, &m["move"].as_str().unwrap()[3..], m).await?;
    }
    let share = share_link(client).await?;
    ensure!(
        share
            == format!(
                "{server}?game=match&target=3&moves={}",
                encode(&format!("{ROUND_TWO} a8-a3"))
            ),
        "the share link is {share}"
    );

    // Back across the refill: the round's end and its choice again.
    click(client, "#back").await?;
    wait_for_answer(client, 4).await?;
    click(client, "#back").await?;
    wait_for_answer(client, 3).await?;
    let buttons = client
        .find_all(Locator::Css("#refill:not([hidden]) button"))
        .await
        .map_err(webdriver("refill buttons"))?;
    ensure!(
        buttons.len() == 2,
        "{} refill buttons at the round's end",
        buttons.len()
    );

    // A pasted record with a push: the pushed tower is shown where it went, Black moves
    // again.
    let pushed_line = format!("{PUSH_POSSIBLE} f3-f4");
    let paste = client
        .find(Locator::Css("#paste"))
        .await
        .map_err(webdriver("#paste"))?;
    paste
        .send_keys(&pushed_line)
        .await
        .map_err(webdriver("typing"))?;
    click(client, "#load button").await?;
    wait_for_answer(client, pushed_line.split(' ').count()).await?;
    let event = text_of(client, "#event").await?;
    ensure!(
        event.contains("Sumo push f3-f4")
            && event.contains("from f4 to f5")
            && event.contains("Black moves again"),
        "after the push the page says `{event}`"
    );
    client
        .find(Locator::Css(r#"[data-square="f5"] .tower.pushed"#))
        .await
        .map_err(webdriver("the pushed tower on f5"))?;
    ensure!(
        shown_value(client).await? == expected_value(&match_report("query", &pushed_line)),
        "after the push the page shows {:?}",
        shown_value(client).await?
    );
    ensure!(
        teeth_on(client, "f4").await? == (1, Some("1".into())),
        "the pushing Sumo on f4 shows {:?}",
        teeth_on(client, "f4").await?
    );
    if let Some(target) = std::env::var_os("KAMISADO_MATCH_SCREENSHOT") {
        // The paste field scrolled the page: the board and the standing from the top.
        client
            .execute(
                "document.activeElement.blur(); window.scrollTo(0, 0);",
                Vec::new(),
            )
            .await
            .map_err(webdriver("scrolling"))?;
        let screenshot = client.screenshot().await.map_err(webdriver("screenshot"))?;
        std::fs::write(&target, screenshot).map_err(|e| format!("{target:?}: {e}"))?;
    }

    // A bad record: the command line's message.
    paste.clear().await.map_err(webdriver("clearing"))?;
    paste_is_refused(
        client,
        "g1-g7 left",
        &["query", "--target", "3", "--moves", "g1-g7 left"],
    )
    .await?;
    Ok(())
}

#[tokio::test]
async fn the_match_board_in_headless_chromium_agrees_with_query_target() {
    let (chromium, chromedriver) = chromium_and_driver();
    // Round 2's start is answered within the limit: its value, every move's value, and
    // the moves it reaches. (Every move's value takes a few seconds of CPU; the limit
    // leaves room for a machine shared with other work.)
    let mut server = Server::start(&["--time-limit", "30", "--hash-mb", "64"]);
    let driver = Driver::start(&chromedriver);
    let client = browser(&driver, &chromium).await;
    let result = visit_match(&client, &server.url).await;
    let _ = client.close().await;
    if let Err(e) = result {
        panic!("{e}");
    }
    assert!(server.alive());
}

/// `--bind localhost` is this machine's loopback address, as everywhere.
#[tokio::test]
async fn bind_localhost_is_the_loopback_address() {
    let server = Server::start(&["--bind", "localhost", "--threads", "1", "--hash-mb", "16"]);
    let (status, body) = get(&format!("{}api/query", server.url)).await;
    assert_eq!(status, 200, "{body}");
}
