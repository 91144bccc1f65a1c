//! `kamisado kamon` end to end through the binary: every subcommand's output against the
//! libraries, the survey's resume, shards and merge, and bad input.

use kamisado_solver::{Cancel, Options, Solver};
use kamon_core::perft::perft;
use kamon_core::{KamonGame, Layout, Record};

mod common;
use common::kamisado;

fn record(seed: u64, after: u32) -> Record {
    Record::random(seed, after).unwrap()
}

#[test]
fn random_prints_the_layout_of_the_seed_and_its_opening() {
    let run = kamisado(&["kamon", "random", "--seed", "7"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout.trim(), Layout::random(7).to_string());
    let run = kamisado(
        &["kamon", "random", "--seed", "7", "--after", "12", "--json"],
        "",
    );
    let json = run.json();
    let expected = record(7, 12);
    assert_eq!(json["layout"], expected.layout().to_string());
    assert_eq!(json["moves"].as_array().unwrap().len(), 12);
    let moves: Vec<&str> = json["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(moves.join(" "), expected.moves_text());
}

#[test]
fn perft_and_divide_count_what_the_library_counts() {
    let layout = Layout::random(3).to_string();
    let run = kamisado(
        &[
            "kamon", "perft", "4", "--layout", &layout, "--moves", "b1", "--json",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let r: Record = format!("{layout} b1").parse().unwrap();
    assert_eq!(
        run.json()["nodes"].as_u64(),
        Some(perft(r.layout(), r.position(), 4))
    );
    let run = kamisado(
        &[
            "kamon", "perft", "3", "--layout", &layout, "--moves", "b1", "--divide",
        ],
        "",
    );
    let lines: Vec<&str> = run.stdout.lines().filter(|l| l.contains(": ")).collect();
    assert_eq!(lines.len() as u32, r.position().count_moves(r.layout()));
    let mut total = 0;
    for line in lines {
        let (cell, n) = line.split_once(": ").unwrap();
        let child = r
            .position()
            .play(r.layout(), cell.parse().unwrap())
            .unwrap();
        let n: u64 = n.parse().unwrap();
        assert_eq!(n, perft(r.layout(), &child, 2), "{line}");
        total += n;
    }
    assert!(run.stdout.contains(&format!("perft(3) = {total}")));
}

#[test]
fn solve_reports_what_the_library_finds() {
    let r = record(5, 18);
    let run = kamisado(
        &[
            "kamon",
            "solve",
            "--seed",
            "5",
            "--after",
            "18",
            "--threads",
            "2",
            "--hash-mb",
            "16",
            "--json",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json = run.json();
    let solver = Solver::new(
        KamonGame::new(r.layout().clone()),
        Options {
            threads: 1,
            table_bytes: 16 << 20,
        },
    )
    .unwrap();
    let node = solver.game().node(r.position());
    let solution = solver.solve(&node, &Cancel::new()).unwrap();
    assert_eq!(json["value"], solution.outcome.value.name());
    assert_eq!(
        json["remoteness"].as_u64(),
        Some(solution.outcome.remoteness as u64)
    );
    assert!(json["nodes"].as_u64().unwrap() > 0);
    assert!(json["seconds"].as_f64().is_some());
    // The printed line is legal, as long as the remoteness, and ends the game as the value
    // says; every best move is one of the library's.
    let pv: Vec<String> = json["pv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    assert_eq!(pv.len() as u32, solution.outcome.remoteness);
    let mut line = r.clone();
    line.play_text(&pv.join(" ")).unwrap();
    let end = line.position().end().unwrap();
    assert_eq!(
        json["winner"],
        end.winner.map_or("draw", |w| w.name()),
        "{line}"
    );
    assert_eq!(json["ends_by"], end.reason.name());
    let best: Vec<String> = solution.best.iter().map(|c| c.to_string()).collect();
    assert_eq!(json["best"], serde_json::json!(best));

    // Value only: the same value, nothing else.
    let run = kamisado(
        &[
            "kamon",
            "solve",
            "--seed",
            "5",
            "--after",
            "18",
            "--value-only",
            "--json",
        ],
        "",
    );
    let json = run.json();
    assert_eq!(json["value"], solution.outcome.value.name());
    assert!(json.get("remoteness").is_none() && json.get("pv").is_none());
}

#[test]
fn a_time_limit_that_runs_out_says_so() {
    let run = kamisado(
        &[
            "kamon",
            "solve",
            "--seed",
            "1",
            "--value-only",
            "--time-limit",
            "0.3",
        ],
        "",
    );
    run.assert_one_line_error(1, "no answer within the time limit of 0.3 s");
}

#[test]
fn show_draws_every_cell_and_says_who_moves() {
    let run = kamisado(
        &[
            "kamon",
            "show",
            "--seed",
            "1",
            "--moves",
            "f1 a4 c5",
            "--no-color",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let board: Vec<&str> = run.stdout.lines().take(15).collect();
    // Seven rows of cells between eight rows of slashes.
    let cells: Vec<&str> = board.iter().copied().filter(|l| l.contains('|')).collect();
    assert_eq!(cells.len(), 7);
    for (line, n) in cells.iter().zip([4, 5, 6, 7, 6, 5, 4]) {
        assert_eq!(line.matches('|').count(), n + 1, "{line}");
    }
    // Two black pieces (the last one marked), one white, the forbidden cell.
    let drawn = board.join("\n");
    assert_eq!(drawn.matches(" X ").count(), 1, "{drawn}");
    assert_eq!(drawn.matches("[X]").count(), 1, "{drawn}");
    assert_eq!(drawn.matches(" O ").count(), 1, "{drawn}");
    assert_eq!(drawn.matches("##").count(), 1, "{drawn}");
    assert!(run.stdout.contains("white to move, placement 4"));
    let json = kamisado(
        &[
            "kamon", "show", "--seed", "1", "--moves", "f1 a4 c5", "--json",
        ],
        "",
    )
    .json();
    let r: Record = format!("{} f1 a4 c5", Layout::random(1)).parse().unwrap();
    let legal: Vec<String> = r
        .position()
        .legal_cells(r.layout())
        .map(|c| c.to_string())
        .collect();
    assert_eq!(json["legal"], serde_json::json!(legal));
    // Every legal cell, and no other, is marked `+`.
    assert_eq!(drawn.matches('+').count(), legal.len(), "{drawn}");
}

#[test]
fn play_takes_cells_refuses_bad_ones_and_undoes() {
    let r = record(1, 16);
    let legal: Vec<String> = r
        .position()
        .legal_cells(r.layout())
        .map(|c| c.to_string())
        .collect();
    let input = format!("zz\na1\nmoves\n{}\nundo\nquit\n", legal[0]);
    let run = kamisado(
        &[
            "kamon",
            "play",
            "--seed",
            "1",
            "--after",
            "16",
            "--as",
            "black",
            "--quiet",
            "--no-color",
        ],
        &input,
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("`zz` is not a cell"), "{}", run.stdout);
    assert!(run.stdout.contains(&legal.join(" ")), "{}", run.stdout);
    assert!(
        run.stdout.contains("white plays") && run.stdout.contains("perfect play:"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(&format!("Took back {}.", legal[0])),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("Game abandoned."));
}

#[test]
fn a_survey_resumes_shards_and_merges() {
    let dir = std::env::temp_dir().join(format!("kamon-survey-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).display().to_string();
    let survey = |layouts: &str, extra: &[&str], out: &str| {
        let mut args = vec![
            "kamon",
            "survey",
            "--layouts",
            layouts,
            "--seed",
            "40",
            "--after",
            "18",
            "--hash-mb",
            "16",
            "--json",
            "--out",
            out,
        ];
        args.extend_from_slice(extra);
        let run = kamisado(&args, "");
        assert_eq!(run.code, 0, "{}", run.stderr);
        run.json()
    };
    let whole = path("whole.json");
    let first = survey("4", &[], &whole);
    assert_eq!(first["solved_now"], 4);
    // Resuming with more layouts solves only the new ones.
    let again = survey("6", &[], &whole);
    assert_eq!(again["solved_now"], 2);
    assert_eq!(again["summary"]["solved"], 6);
    // Two shards, merged, give the same entries.
    let (one, two) = (path("one.json"), path("two.json"));
    assert_eq!(survey("6", &["--shard", "1/2"], &one)["solved_now"], 3);
    assert_eq!(survey("6", &["--shard", "2/2"], &two)["solved_now"], 3);
    let merged = path("merged.json");
    let run = kamisado(
        &["kamon", "survey", "merge", &one, &two, "--out", &merged],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let read = |p: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
    };
    let results = |doc: &serde_json::Value| -> Vec<(u64, String, u64)> {
        doc["runs"][0]["entries"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                (
                    e["seed"].as_u64().unwrap(),
                    e["value"].as_str().unwrap().to_string(),
                    e["remoteness"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(results(&read(&merged)), results(&read(&whole)));
    assert_eq!(results(&read(&whole)).len(), 6);
    // Entry i is layout seed 40 + i after its 18 random placements.
    let doc = read(&whole);
    let entry = &doc["runs"][0]["entries"][3];
    assert_eq!(entry["seed"], 43);
    let moves: Vec<&str> = entry["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(moves.join(" "), record(43, 18).moves_text());
    // A file that is not a survey is refused in one line.
    std::fs::write(path("bad.json"), "{\"format\": 3}").unwrap();
    kamisado(
        &[
            "kamon",
            "survey",
            "merge",
            &path("bad.json"),
            "--out",
            &merged,
        ],
        "",
    )
    .assert_one_line_error(2, "not a survey file");
    // A shard of the same layouts with another time limit is a part of another run.
    let limited = path("limited.json");
    survey(
        "6",
        &["--shard", "2/2", "--time-limit-per-layout", "50"],
        &limited,
    );
    kamisado(
        &["kamon", "survey", "merge", &one, &limited, "--out", &merged],
        "",
    )
    .assert_one_line_error(
        2,
        &format!("{limited}: run seed 40 after 18: layout 1 was solved with a time limit of 50 s"),
    );
    assert_eq!(
        results(&read(&merged)),
        results(&read(&whole)),
        "the merged file is kept"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_is_one_line_and_exit_code_2() {
    kamisado(&["kamon", "solve", "--layout", "1a2b"], "")
        .assert_one_line_error(2, "--layout: a layout has 7 rows");
    kamisado(&["kamon", "solve", "--seed", "1", "--moves", "b1 b1"], "")
        .assert_one_line_error(2, "--moves: move 2 `b1`: illegal: b1 is already taken");
    kamisado(&["kamon", "perft", "2"], "").assert_one_line_error(2, "--layout");
    kamisado(&["kamon", "survey", "--layouts", "2", "--shard", "3/2"], "")
        .assert_one_line_error(2, "is not a shard");
    let twice = Layout::random(1).to_string().replacen("2c", "2f", 1);
    kamisado(&["kamon", "show", "--layout", &twice], "").assert_one_line_error(2, "is on both");
}

/// `--after` plays a seed's random placements: with `--layout` it is refused, as the API
/// refuses it, not ignored. A layout text may start with `--` (a1 holds the `--` chip).
#[test]
fn after_needs_a_seed_and_a_layout_may_start_with_dashes() {
    let layout = kamisado(&["kamon", "random", "--seed", "50"], "");
    assert_eq!(layout.code, 0, "{}", layout.stderr);
    let layout = layout.stdout.trim().to_owned();
    assert!(layout.starts_with("--"), "{layout}");
    for command in ["show", "solve"] {
        kamisado(&["kamon", command, "--layout", &layout, "--after", "3"], "")
            .assert_one_line_error(2, "--after plays the random placements of a seed");
    }
    let shown = kamisado(
        &[
            "kamon", "show", "--layout", &layout, "--json", "--moves", "b1",
        ],
        "",
    );
    assert_eq!(shown.code, 0, "{}", shown.stderr);
    assert_eq!(shown.json()["layout"], layout.as_str(), "{}", shown.stdout);
}

/// `survey merge` checks every entry it reads as the survey's own test does: the shipped
/// survey merges; an entry with a forged layout, moves, `after` or a missing value is
/// refused in one line naming the file and the entry.
#[test]
fn survey_merge_checks_every_entry() {
    let repository = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let shipped = repository.join("data/kamon-survey.json");
    let dir = std::env::temp_dir().join(format!("kamisado-kamon-merge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("merged.json");
    let out = out.to_str().unwrap();
    let run = kamisado(
        &[
            "kamon",
            "survey",
            "merge",
            shipped.to_str().unwrap(),
            "--out",
            out,
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let survey: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&shipped).unwrap()).unwrap();
    type Forge = fn(&mut serde_json::Value);
    let forgeries: [(&str, Forge); 5] = [
        ("layout", |e| e["layout"] = "garbage".into()),
        ("moves", |e| e["moves"] = serde_json::json!(["z9"])),
        ("value", |e| {
            e.as_object_mut().unwrap().remove("value");
        }),
        ("winner", |e| e["winner"] = "nobody".into()),
        ("pv", |e| {
            e["pv"].as_array_mut().unwrap().pop().map(drop).unwrap()
        }),
    ];
    for (what, forge) in forgeries {
        let mut forged = survey.clone();
        forge(&mut forged["runs"][0]["entries"][1]);
        let part = dir.join(format!("forged-{what}.json"));
        std::fs::write(&part, forged.to_string()).unwrap();
        let run = kamisado(
            &[
                "kamon",
                "survey",
                "merge",
                part.to_str().unwrap(),
                "--out",
                out,
            ],
            "",
        );
        run.assert_one_line_error(
            2,
            &format!("forged-{what}.json: run seed 1 after 8, entry 1: "),
        );
    }
    let mut forged = survey.clone();
    forged["runs"][0]["after"] = 99.into();
    let part = dir.join("forged-after.json");
    std::fs::write(&part, forged.to_string()).unwrap();
    kamisado(
        &[
            "kamon",
            "survey",
            "merge",
            part.to_str().unwrap(),
            "--out",
            out,
        ],
        "",
    )
    .assert_one_line_error(2, "forged-after.json: run seed 1 after 99, entry 0: ");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A survey's seeds do not wrap past 2^64 - 1.
#[test]
fn survey_seeds_do_not_wrap() {
    kamisado(
        &[
            "kamon",
            "survey",
            "--layouts",
            "2",
            "--seed",
            "18446744073709551615",
        ],
        "",
    )
    .assert_one_line_error(2, "would pass 2^64 - 1");
}

#[test]
fn a_value_alone_searches_on_one_thread_unless_asked_for_more() {
    let threads = |extra: &[&str]| {
        let mut args = vec!["kamon", "solve", "--seed", "1", "--after", "16", "--json"];
        args.extend_from_slice(extra);
        let run = kamisado(&args, "");
        assert_eq!(run.code, 0, "{}", run.stderr);
        run.json()["threads"].as_u64().unwrap()
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    assert_eq!(threads(&["--value-only"]), 1);
    assert_eq!(threads(&["--value-only", "--threads", "3"]), 3);
    // The full solve keeps the solver's default of every core.
    assert_eq!(threads(&[]), cores);
    assert_eq!(threads(&["--threads", "2"]), 2);
}
