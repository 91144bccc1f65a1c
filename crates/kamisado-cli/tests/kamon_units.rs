//! `kamisado kamon units`: a position split at its first placements, the units solved
//! apart and merged, end to end through the binary, against the plain solver's value of
//! the position and of its first placements; resuming; `--index` and `--known` as a job
//! array's tasks use them; damaged, forged and mismatched results files.

use kamisado_analysis::units_file::{Split, UnitsFile};
use kamisado_solver::{Cancel, Options, Solver, Value};
use kamon_core::{Cell, KamonGame, Record};

mod common;
use common::kamisado;

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("kamon-units-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn solver(record: &Record) -> Solver<KamonGame> {
    let options = Options {
        threads: 1,
        table_bytes: 16 << 20,
    };
    Solver::new(KamonGame::new(record.layout().clone()), options).unwrap()
}

/// The plain solver's value of `record`'s position and of each of its placements.
fn direct(record: &Record) -> (Value, Vec<(String, Value)>) {
    let solver = solver(record);
    let node = solver.game().node(record.position());
    let value = solver.value(&node, &Cancel::new()).unwrap();
    let moves = solver
        .move_values(&node, &Cancel::new())
        .unwrap()
        .into_iter()
        .map(|(cell, v)| (cell.to_string(), v))
        .collect();
    (value, moves)
}

/// The results file at `path`, read and checked by the library's one definition.
fn read_units(path: &std::path::Path) -> (UnitsFile, Split) {
    let text = std::fs::read_to_string(path).unwrap();
    UnitsFile::parse(&text, &path.display().to_string()).unwrap()
}

fn position_args(record: &Record) -> Vec<String> {
    let mut args = vec!["--layout".to_string(), record.layout().to_string()];
    if !record.moves().is_empty() {
        args.push("--moves".into());
        args.push(record.moves_text());
    }
    args
}

fn run(args: &[String]) -> common::Run {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    kamisado(&args, "")
}

fn units_solve(
    record: &Record,
    depth: u32,
    results: &std::path::Path,
    extra: &[&str],
) -> common::Run {
    let mut args: Vec<String> = vec!["kamon".into(), "units".into(), "solve".into()];
    args.extend(position_args(record));
    args.extend(["--depth".into(), depth.to_string(), "--results".into()]);
    args.push(results.display().to_string());
    args.extend(
        ["--threads", "1", "--hash-mb", "16", "--json", "--quiet"]
            .iter()
            .map(|s| s.to_string()),
    );
    args.extend(extra.iter().map(|s| s.to_string()));
    run(&args)
}

/// Late positions (some Black to move, some White), split one and two placements deep,
/// the units solved one at a time and three side by side (`--jobs 3`, with saved tables,
/// so that each unit is asked only the question the root needs): the units the split
/// solves prove the plain solver's value, every first cell they settle has the plain
/// solver's value, a unit abandoned beside others is recorded without a value or bound,
/// a unit that answered only the question asked of it holds the bound it answered, and
/// `units merge` of the file says the same.
#[test]
fn the_split_proves_the_plain_solvers_value() {
    let dir = scratch("value");
    for (seed, after) in [(1, 12), (3, 12), (2, 13), (189, 12), (4, 11)] {
        let record = Record::random(seed, after).unwrap();
        let (value, moves) = direct(&record);
        for (depth, jobs) in [(1, "1"), (2, "1"), (1, "3"), (2, "3")] {
            let results = dir.join(format!("s{seed}-{after}-{depth}-{jobs}.json"));
            // Side by side, with saved tables: each unit asked only what the root needs.
            let tables = dir.join(format!("tables-{seed}-{after}-{depth}"));
            let tables_arg = tables.display().to_string();
            let mut extra = vec!["--jobs", jobs];
            if jobs != "1" {
                extra.extend(["--checkpoints", &tables_arg]);
            }
            let solved = units_solve(&record, depth, &results, &extra);
            assert_eq!(solved.code, 0, "{}", solved.stderr);
            let summary = &solved.json()["summary"];
            let what = format!("seed {seed} after {after} depth {depth} jobs {jobs}: {summary}");
            for unit in solved.json()["solved_now"].as_array().unwrap() {
                let abandoned = unit["abandoned"] == true;
                let answered = unit["at_least"] != "loss" || unit["at_most"] != "win";
                assert_eq!(answered, !abandoned, "{what}: {unit}");
                assert!(jobs != "1" || !abandoned, "{what}: {unit}");
                if unit["value"].is_null() {
                    assert_ne!(unit["at_least"], unit["at_most"], "{what}: {unit}");
                } else {
                    assert_eq!(unit["at_least"], unit["value"], "{what}: {unit}");
                    assert_eq!(unit["at_most"], unit["value"], "{what}: {unit}");
                }
            }
            assert_eq!(summary["value"], value.name(), "{what}");
            assert_eq!(summary["units_needed"], 0, "{what}");
            assert!(
                summary["units_solved"].as_u64() <= summary["units"].as_u64(),
                "{what}"
            );
            for cell in summary["first_cells"].as_array().unwrap() {
                let (_, v) = moves
                    .iter()
                    .find(|(c, _)| c == cell["cell"].as_str().unwrap())
                    .unwrap_or_else(|| panic!("{what}: {cell} is not a legal placement"));
                if !cell["value"].is_null() {
                    assert_eq!(cell["value"], v.name(), "{what}: {cell}");
                }
                let rank = |v: &serde_json::Value| {
                    ["loss", "draw", "win"].iter().position(|x| v == x).unwrap()
                };
                let r = rank(&serde_json::json!(v.name()));
                assert!(
                    rank(&cell["at_least"]) <= r && r <= rank(&cell["at_most"]),
                    "{what}: {cell}"
                );
            }
            let merged = run(&[
                "kamon".into(),
                "units".into(),
                "merge".into(),
                results.display().to_string(),
                "--json".into(),
            ]);
            assert_eq!(merged.code, 0, "{}", merged.stderr);
            assert_eq!(merged.json()["summary"], *summary, "{what}");
        }
    }
}

/// `units proof` lists the units a proven root's proof rests on (a draw's too: both its
/// halves), and those units alone, solved again one by one into a fresh file (`--index`),
/// prove the root's value; a file that proves no value yet is refused in one line, exit
/// code 1.
#[test]
fn the_proofs_units_alone_prove_the_root() {
    let dir = scratch("proof");
    let (mut listed_some, mut drawn) = (0, 0);
    for (seed, after) in [(1, 12), (3, 12), (2, 13), (4, 11), (45, 12)] {
        let record = Record::random(seed, after).unwrap();
        let (value, _) = direct(&record);
        let results = dir.join(format!("s{seed}.json"));
        assert_eq!(units_solve(&record, 2, &results, &[]).code, 0);
        let proof = run(&[
            "kamon".into(),
            "units".into(),
            "proof".into(),
            results.display().to_string(),
            "--json".into(),
        ]);
        let what = format!("seed {seed} after {after}");
        drawn += usize::from(value == Value::Draw);
        assert_eq!(proof.code, 0, "{what}: {}", proof.stderr);
        let units = proof.json()["units"].as_array().unwrap().clone();
        let alone = dir.join(format!("s{seed}-alone.json"));
        for unit in &units {
            let index = unit["index"].to_string();
            let solved = units_solve(&record, 2, &alone, &["--index", &index]);
            assert_eq!(solved.code, 0, "{what}: {}", solved.stderr);
        }
        let (file, split) = read_units(&alone);
        let summary = file.summary(&split);
        assert_eq!(summary.value, Some(value.name()), "{what}: {units:?}");
        assert_eq!(summary.units_solved, units.len(), "{what}");
        listed_some += usize::from(!units.is_empty());
    }
    assert!(listed_some >= 3, "{listed_some}");
    assert!(drawn >= 1, "a drawn root among them");
    // One unit of a root that needs more: nothing proven, nothing listed.
    let record = Record::random(2, 13).unwrap();
    let partial = dir.join("partial.json");
    assert_eq!(
        units_solve(&record, 2, &partial, &["--max-units", "1"]).code,
        0
    );
    let refused = run(&[
        "kamon".into(),
        "units".into(),
        "proof".into(),
        partial.display().to_string(),
    ]);
    refused.assert_one_line_error(1, "do not prove the root's value yet");
}

/// `--every-first-cell` goes on past the root's value until every first placement is
/// proven, each the plain solver's value of that placement, resuming a file the root's
/// question alone left (the units it holds are not solved again).
#[test]
fn every_first_cell_proves_each_first_placement() {
    let dir = scratch("every-first-cell");
    let mut went_further = 0;
    for (seed, after) in [(1, 12), (3, 12), (2, 13), (4, 11), (45, 12)] {
        let record = Record::random(seed, after).unwrap();
        let (value, moves) = direct(&record);
        let results = dir.join(format!("s{seed}-{after}.json"));
        let root_only = units_solve(&record, 2, &results, &[]);
        assert_eq!(root_only.code, 0, "{}", root_only.stderr);
        let before = root_only.json()["summary"]["units_solved"]
            .as_u64()
            .unwrap();
        let every = units_solve(&record, 2, &results, &["--every-first-cell"]);
        assert_eq!(every.code, 0, "{}", every.stderr);
        let summary = &every.json()["summary"];
        let what = format!("seed {seed} after {after}: {summary}");
        assert_eq!(summary["value"], value.name(), "{what}");
        let after_units = summary["units_solved"].as_u64().unwrap();
        assert_eq!(summary["first_cells_needed"], 0, "{what}");
        assert!(summary["first_cells_next_unit"].is_null(), "{what}");
        // The second run searched only units the first had not solved (it may ask a unit
        // the first bounded the other question), and solved as many more as it says.
        let index = |u: &serde_json::Value| u["index"].as_u64().unwrap();
        let solved = |u: &&serde_json::Value| !u["value"].is_null();
        let first: Vec<u64> = root_only.json()["solved_now"]
            .as_array()
            .unwrap()
            .iter()
            .filter(solved)
            .map(index)
            .collect();
        let second = every.json()["solved_now"].as_array().unwrap().clone();
        let mut solved_second: Vec<u64> = second.iter().filter(solved).map(index).collect();
        solved_second.dedup();
        assert_eq!(before + solved_second.len() as u64, after_units, "{what}");
        assert!(second.iter().all(|u| !first.contains(&index(u))), "{what}");
        if !second.is_empty() {
            // The root's run left first cells open, and said so.
            let open = &root_only.json()["summary"];
            assert!(
                open["first_cells_needed"].as_u64() > Some(0),
                "{what}: {open}"
            );
            assert_eq!(open["first_cells_next_unit"], second[0]["index"], "{what}");
            went_further += 1;
        }
        let first_cells = summary["first_cells"].as_array().unwrap();
        assert_eq!(first_cells.len(), moves.len(), "{what}");
        for (cell, v) in &moves {
            let entry = first_cells
                .iter()
                .find(|c| c["cell"] == cell.as_str())
                .unwrap_or_else(|| panic!("{what}: first cell {cell} missing"));
            assert_eq!(entry["value"], v.name(), "{what}: {entry}");
        }
    }
    // The root's question alone leaves first cells open in some of these positions, so
    // the mode is tested on units the root never needed.
    assert!(went_further > 0);
}

/// Every unit listed is a position text `kamon solve` takes, and each unit's result in a
/// file is the plain solver's value of that position, or bounds around it.
#[test]
fn the_units_are_positions_and_their_results_are_their_values() {
    let dir = scratch("list");
    let record = Record::random(2, 12).unwrap();
    let mut args = vec!["kamon".to_string(), "units".into()];
    args.extend(position_args(&record));
    args.extend(["--depth".into(), "2".into(), "--json".into()]);
    let listed = run(&args);
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    let listed = listed.json();
    let units = listed["units"].as_array().unwrap();
    assert!(units.len() > 1);
    let results = dir.join("all.json");
    let solved = units_solve(&record, 2, &results, &[]);
    assert_eq!(solved.code, 0, "{}", solved.stderr);
    let (file, split) = read_units(&results);
    assert_eq!(split.len(), units.len());
    for result in &file.units {
        let moves: Vec<&str> = result.moves.iter().map(String::as_str).collect();
        let unit = units
            .iter()
            .find(|u| {
                u["moves"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| m.as_str().unwrap())
                    .collect::<Vec<_>>()
                    == moves
            })
            .unwrap();
        let text: Record = unit["position"].as_str().unwrap().parse().unwrap();
        let (value, _) = direct(&text);
        let (lo, hi) = result.bounds();
        assert!(
            lo <= value && value <= hi && lo != hi || result.value() == Some(value),
            "{unit}"
        );
    }
}

/// A run stopped after one unit resumes where it stopped and ends with the file one run
/// writes; a job array's task (`--index` with the other parts as `--known`) passes over
/// a unit the finished parts make unnecessary, and `units merge` of the parts proves
/// the value.
#[test]
fn a_split_resumes_and_runs_as_separate_tasks() {
    let dir = scratch("resume");
    let record = Record::random(1, 12).unwrap();
    let once = dir.join("once.json");
    assert_eq!(units_solve(&record, 2, &once, &[]).code, 0);
    let twice = dir.join("twice.json");
    let first = units_solve(&record, 2, &twice, &["--max-units", "1"]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert_eq!(first.json()["solved_now"].as_array().unwrap().len(), 1);
    let second = units_solve(&record, 2, &twice, &[]);
    assert_eq!(second.code, 0, "{}", second.stderr);
    let units = |path: &std::path::Path| -> Vec<(Vec<String>, Option<Value>)> {
        read_units(path)
            .0
            .units
            .into_iter()
            .map(|u| (u.moves.clone(), u.value()))
            .collect()
    };
    assert_eq!(units(&once), units(&twice));
    let solved_again = second.json()["solved_now"].as_array().unwrap().clone();
    assert_eq!(solved_again.len() + 1, units(&once).len());

    // Task by task, as the job array runs them: each sees the parts before it.
    let total = second.json()["summary"]["units"].as_u64().unwrap() as usize;
    let mut parts: Vec<std::path::PathBuf> = Vec::new();
    let mut skipped = 0;
    for index in 1..=total {
        let part = dir.join(format!("part-{index}.json"));
        let mut extra: Vec<String> = vec!["--index".into(), index.to_string()];
        for p in &parts {
            extra.push("--known".into());
            extra.push(p.display().to_string());
        }
        let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
        let task = units_solve(&record, 2, &part, &extra);
        assert_eq!(task.code, 0, "{}", task.stderr);
        if task.json()["skipped"].is_string() {
            skipped += 1;
        }
        parts.push(part);
    }
    let mut args = vec!["kamon".to_string(), "units".into(), "merge".into()];
    args.extend(parts.iter().map(|p| p.display().to_string()));
    args.push("--json".into());
    args.push("--out".into());
    args.push(dir.join("merged.json").display().to_string());
    let merged = run(&args);
    assert_eq!(merged.code, 0, "{}", merged.stderr);
    assert_eq!(merged.json()["summary"]["value"], direct(&record).0.name());
    assert_eq!(
        skipped + units(&once).len(),
        total,
        "the tasks solved what one run solves"
    );
}

/// A damaged results file, a forged one (a value its winner contradicts, a placement that
/// is not a unit, a unit twice, a loss for a side that can win at once), a file of
/// another split, and two files that disagree are each refused in one line, exit code 2.
#[test]
fn damaged_forged_and_mismatched_results_are_refused() {
    let dir = scratch("forged");
    let record = Record::random(3, 12).unwrap();
    let good = dir.join("good.json");
    assert_eq!(units_solve(&record, 1, &good, &[]).code, 0);
    let text = std::fs::read_to_string(&good).unwrap();
    let merge = |path: &std::path::Path| {
        run(&[
            "kamon".into(),
            "units".into(),
            "merge".into(),
            path.display().to_string(),
        ])
    };
    assert_eq!(merge(&good).code, 0);
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    let truncated = write("truncated.json", &text[..text.len() / 2]);
    merge(&truncated).assert_one_line_error(2, "not a units results file");
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let forge = |name: &str, change: &dyn Fn(&mut serde_json::Value)| {
        let mut forged = json.clone();
        change(&mut forged);
        write(name, &serde_json::to_string_pretty(&forged).unwrap())
    };
    let winner = forge("winner.json", &|f| {
        let unit = &mut f["units"][0];
        let flipped = if unit["value"] == "win" {
            "loss"
        } else {
            "win"
        };
        unit["value"] = flipped.into();
    });
    merge(&winner).assert_one_line_error(2, "as the value says");
    let not_unit = forge("not-unit.json", &|f| {
        f["units"][0]["moves"] = serde_json::json!(["a1", "a1"]);
    });
    merge(&not_unit).assert_one_line_error(2, "not a unit of this split");
    let twice = forge("twice.json", &|f| {
        let unit = f["units"][0].clone();
        f["units"].as_array_mut().unwrap().push(unit);
    });
    merge(&twice).assert_one_line_error(2, "is there twice");
    let format = forge("format.json", &|f| {
        f["format"] = "kamisado kamon units 0".into()
    });
    merge(&format).assert_one_line_error(2, "of this version");

    // A unit whose side to move can win at once, claimed lost (its winner forged too).
    let immediate = (0..json["units"].as_array().unwrap().len()).find(|&i| {
        let mut r = record.clone();
        r.play_text(
            &json["units"][i]["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap())
                .collect::<Vec<_>>()
                .join(" "),
        )
        .unwrap();
        r.position().winning_move(r.layout()).is_some()
    });
    if let Some(i) = immediate {
        let lost = forge("lost.json", &|f| {
            let unit = &mut f["units"][i];
            let to_move = unit["to_move"].as_str().unwrap().to_string();
            unit["value"] = "loss".into();
            unit["winner"] = if to_move == "black" { "white" } else { "black" }.into();
        });
        merge(&lost).assert_one_line_error(2, "who can win at once");
    }

    // Disagreeing files: the same unit won in one, lost in the other (winners consistent).
    let other = forge("other.json", &|f| {
        let unit = &mut f["units"][0];
        let to_move = unit["to_move"].as_str().unwrap().to_string();
        let (value, winner) = if unit["value"] == "win" {
            ("loss", if to_move == "black" { "white" } else { "black" })
        } else {
            ("win", to_move.as_str())
        };
        unit["value"] = value.into();
        unit["winner"] = winner.into();
    });
    let both = run(&[
        "kamon".into(),
        "units".into(),
        "merge".into(),
        good.display().to_string(),
        other.display().to_string(),
    ]);
    if merge(&other).code == 0 {
        both.assert_one_line_error(2, "in the results read before");
    }

    // Results of another split as --results, and a --known of another split.
    let deeper = units_solve(&record, 2, &good, &[]);
    deeper.assert_one_line_error(2, "the results of another split");
    let fresh = dir.join("fresh.json");
    let mut extra = vec!["--known", good.to_str().unwrap()];
    extra.push("--max-units");
    extra.push("1");
    units_solve(&record, 2, &fresh, &extra)
        .assert_one_line_error(2, "the results of another split");
    assert!(!fresh.exists(), "a refused run writes nothing");
    // A file that is not JSON at all, and bad arguments.
    merge(&write("empty.json", "")).assert_one_line_error(2, "not a units results file");
    units_solve(&record, 2, &dir.join("x.json"), &["--index", "100000"])
        .assert_one_line_error(2, "the split has units 1 to");
    let mut args = vec!["kamon".to_string(), "units".into()];
    args.extend(position_args(&record));
    args.extend(["--depth".into(), "4".into()]);
    assert_eq!(run(&args).code, 2);
}

/// An interrupt stops the unit in progress: the run saves it as interrupted (no value,
/// its nodes so far) and its table (`--checkpoints`), reports, and ends as Ctrl-C ends a
/// program; the file reads back, and a rerun tries that unit again.
#[test]
fn an_interrupted_unit_is_saved_as_interrupted() {
    use std::process::{Command, Stdio};
    let dir = scratch("interrupt");
    // One placement into the empty board: each unit takes minutes. One unit at a time,
    // then two side by side: every unit running is saved as interrupted.
    for jobs in [1, 2] {
        let results = dir.join(format!("interrupted-{jobs}.json"));
        let tables = dir.join(format!("tables-{jobs}"));
        let child = Command::new(env!("CARGO_BIN_EXE_kamisado"))
            .args(["kamon", "units", "solve", "--seed", "1", "--depth", "1"])
            .args(["--threads", "1", "--hash-mb", "64", "--json", "--results"])
            .arg(&results)
            .args(["--jobs", &jobs.to_string(), "--checkpoints"])
            .arg(&tables)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_secs(2));
        let killed = Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(130), "{out:?}");
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let solved_now = report["solved_now"].as_array().unwrap();
        assert_eq!(solved_now.len(), jobs, "{report}");
        for unit in solved_now {
            assert_eq!(unit["interrupted"], true, "{report}");
            assert!(unit["value"].is_null(), "{report}");
            assert!(unit["nodes"].as_u64().unwrap() > 0, "{report}");
        }
        let (file, _) = read_units(&results);
        assert_eq!(file.units.len(), jobs);
        assert!(file
            .units
            .iter()
            .all(|u| u.interrupted && !u.abandoned && u.value.is_none()));
        // Each interrupted unit's table is saved, for the next run to go on from, whole
        // and kept (its costliest entries, small enough to take to another machine).
        for extension in ["table", "kept"] {
            assert_eq!(saved_files(&tables, extension).len(), jobs, "{extension}");
        }
        assert_eq!(std::fs::read_dir(&tables).unwrap().count(), 2 * jobs);
        let merged = kamisado(
            &[
                "kamon",
                "units",
                "merge",
                results.to_str().unwrap(),
                "--json",
            ],
            "",
        );
        assert_eq!(merged.code, 0, "{}", merged.stderr);
        assert_eq!(merged.json()["summary"]["next_unit"], 1, "tried again");
    }
}

/// A unit stopped by its time limit with `--checkpoints` is resumed by the next run from
/// its saved table: the value the plain solver gives, the nodes and seconds of both runs
/// in its record, and no table left once it is solved. A damaged saved table stops the
/// run in one line naming it (exit 2).
#[test]
fn a_unit_goes_on_from_its_saved_table() {
    let dir = scratch("checkpoints");
    let record = Record::random(1, 8).unwrap();
    let (_, first_cells) = direct(&record);
    let results = dir.join("resumed.json");
    let tables = dir.join("tables");
    let tables_arg = tables.display().to_string();
    let with_tables = ["--max-units", "1", "--checkpoints", &tables_arg];
    let stopped = units_solve(
        &record,
        1,
        &results,
        &[&with_tables[..], &["--time-limit", "0.5"]].concat(),
    );
    assert_eq!(stopped.code, 0, "{}", stopped.stderr);
    let unit = &stopped.json()["solved_now"][0];
    assert!(unit["value"].is_null(), "{unit}");
    let saved = saved_files(&tables, "table");
    assert_eq!(saved.len(), 1);
    let kept = saved_files(&tables, "kept");
    assert_eq!(kept.len(), 1);
    let bytes = std::fs::read(&saved[0]).unwrap();
    assert!(std::fs::metadata(&kept[0]).unwrap().len() < bytes.len() as u64);

    let mut damaged = bytes.clone();
    let middle = damaged.len() / 2;
    damaged[middle] ^= 0x40;
    std::fs::write(&saved[0], &damaged).unwrap();
    let refused = units_solve(&record, 1, &results, &with_tables);
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    assert_eq!(
        refused.stderr.trim().lines().count(),
        1,
        "{}",
        refused.stderr
    );
    assert!(
        refused.stderr.contains("checksum") && refused.stderr.contains(".table"),
        "{}",
        refused.stderr
    );

    std::fs::write(&saved[0], &bytes).unwrap();
    let resumed = units_solve(&record, 1, &results, &with_tables);
    assert_eq!(resumed.code, 0, "{}", resumed.stderr);
    let report = resumed.json();
    let unit = &report["solved_now"][0];
    let (first, _) = read_units(&results);
    let solved = first
        .units
        .iter()
        .find(|u| u.value.is_some())
        .expect("solved");
    let cell = &solved.moves[0];
    let plain = first_cells.iter().find(|(c, _)| c == cell).unwrap().1;
    // The unit's value is for the side to move after the first placement: the other side.
    assert_ne!(solved.to_move, record.position().turn().name());
    assert_eq!(solved.value().map(Value::flip), Some(plain), "{report}");
    assert!(
        unit["nodes"].as_u64() > stopped.json()["solved_now"][0]["nodes"].as_u64(),
        "{report}"
    );
    assert!(solved.seconds > 0.5, "{report}");
    assert_eq!(std::fs::read_dir(&tables).unwrap().count(), 0, "tidied");
}

/// The files in `dir` whose names end in `.extension`.
fn saved_files(dir: &std::path::Path, extension: &str) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == extension))
        .collect()
}

/// `kamon whole` on the shipped units files writes the shipped whole-games file, so the
/// file can never fall behind the units it is built from; its answer is what the units
/// say by the AND/OR rule (recomputed here from the units alone), and the chart reads it.
/// A split of a late position, a damaged units file and a damaged whole-games file are
/// refused in one line.
#[test]
fn the_whole_games_file_is_what_the_shipped_units_prove() {
    fn seed_in_name(path: &str) -> u64 {
        let name = path.rsplit('/').next().unwrap();
        let digits: String = name
            .split("seed")
            .nth(1)
            .unwrap()
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        digits.parse().unwrap()
    }
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let mut units: Vec<std::path::PathBuf> = std::fs::read_dir(format!("{root}/data/kamon-units"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    // The whole-games file lists layouts by seed (seed 2 before seed 10), and the shipped
    // files are named by theirs: `seedN.json`, `kamon-seedN.kwalk`.
    units.sort_by_key(|p| seed_in_name(p.to_str().unwrap()));
    let dir = scratch("whole");
    let out = dir.join("whole.json");
    // Run from the root with relative names, as the README's command does, so the file
    // names recorded are the shipped ones.
    let names: Vec<String> = units
        .iter()
        .map(|p| {
            format!(
                "data/kamon-units/{}",
                p.file_name().unwrap().to_str().unwrap()
            )
        })
        .collect();
    let mut args = vec!["kamon".to_string(), "whole".into()];
    args.extend(names.iter().cloned());
    // The shipped walk certificates of empty boards, named in their layouts' entries
    // (their proofs are checked in tests/kamon_certificates_vs_reference.rs).
    let mut certificates: Vec<String> = std::fs::read_dir(format!("{root}/data/certificates"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_str().unwrap().to_owned())
        .filter(|name| name.ends_with(".kwalk"))
        .filter(|name| {
            let walk = kamon_cert::WalkCertificate::read(std::path::Path::new(&format!(
                "{root}/data/certificates/{name}"
            )))
            .unwrap();
            walk.claims.iter().all(|c| c.position.placed() == 0)
        })
        .map(|name| format!("data/certificates/{name}"))
        .collect();
    certificates.sort_by_key(|name| seed_in_name(name));
    assert!(
        !certificates.is_empty(),
        "no whole-layout walk certificate shipped"
    );
    for c in &certificates {
        args.extend(["--certificate".into(), c.clone()]);
    }
    args.extend(["--out".into(), out.display().to_string(), "--json".into()]);
    let run = common::kamisado_in(
        root,
        &args.iter().map(String::as_str).collect::<Vec<_>>(),
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let written = std::fs::read_to_string(&out).unwrap();
    let shipped = std::fs::read_to_string(format!("{root}/data/kamon-whole.json")).unwrap();
    assert_eq!(
        written, shipped,
        "data/kamon-whole.json is stale: rebuild it with `kamon whole`"
    );

    let report = run.json();
    let layouts = report["layouts"].as_array().unwrap();
    assert_eq!(layouts.len(), units.len());
    let named: Vec<&str> = layouts
        .iter()
        .filter_map(|l| l["certificate"].as_str())
        .collect();
    assert_eq!(
        named, certificates,
        "every whole-layout certificate named once"
    );
    let (mut proven_wins, mut proven_draws) = (0, 0);
    // Every units file, parsed once: for the answers here and the timed runs below.
    let parsed: Vec<(UnitsFile, Split)> = units.iter().map(|p| read_units(p)).collect();
    for ((layout, path), (file, split)) in layouts.iter().zip(&units).zip(&parsed) {
        // Per first cell, Black's bounds from its replies' units (each for Black, to move
        // there: a value, or the one bound a unit's question answered), as 0 loss, 1 draw,
        // 2 win: at least the worst reply's lower bound once every reply is known, at most
        // the worst upper bound. The empty board is the best first cell's.
        let names = ["loss", "draw", "win"];
        let rank = |v: &str| names.iter().position(|n| *n == v).unwrap();
        let cells: Vec<Cell> = split
            .root
            .position()
            .legal_cells(split.root.layout())
            .collect();
        let bounds_of = |cell: &Cell| {
            let replies: Vec<(usize, usize)> = file
                .units
                .iter()
                .filter(|u| u.moves[0] == cell.to_string())
                .filter_map(|u| match (&u.value, &u.at_least, &u.at_most) {
                    (Some(v), _, _) => Some((rank(v), rank(v))),
                    (None, Some(lo), _) => Some((rank(lo), 2)),
                    (None, None, Some(hi)) => Some((0, rank(hi))),
                    _ => None,
                })
                .collect();
            let all = (0..split.len())
                .filter(|&i| split.unit_moves(i)[0] == *cell)
                .count();
            let lo = if replies.len() == all {
                replies.iter().map(|r| r.0).min().unwrap_or(2)
            } else {
                0
            };
            (lo, replies.iter().map(|r| r.1).min().unwrap_or(2))
        };
        let (lo, hi) = cells
            .iter()
            .map(bounds_of)
            .fold((0, 0), |(l, h), (cl, ch)| (l.max(cl), h.max(ch)));
        let value = layout["value"].as_str();
        let expected = (lo == hi).then(|| names[lo]);
        assert_eq!(value, expected, "{}", path.display());
        proven_wins += usize::from(expected == Some("win"));
        proven_draws += usize::from(expected == Some("draw"));
        for cell in layout["first_cells"].as_array().unwrap() {
            let c: Cell = cell["cell"].as_str().unwrap().parse().unwrap();
            let (lo, hi) = bounds_of(&c);
            if lo == hi {
                assert_eq!(cell["value"].as_str(), Some(names[lo]), "{c}");
            }
        }
    }
    assert_eq!(report["summary"]["first_player_wins"]["count"], proven_wins);
    assert_eq!(report["summary"]["draws"]["count"], proven_draws);

    // The timed runs of `kamon solve` (data/kamon-timing/, `seedS.json` or `seedS-LABEL.json`
    // beside its report): each proves its layout's value on its own, and every unit it
    // solved has the same value in the layout's units file (a run that went into the units
    // file holds its very results; a run timed again from nothing, its own).
    for entry in std::fs::read_dir(format!("{root}/data/kamon-timing")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        if name.ends_with("-report.json") {
            continue;
        }
        let (timed, split) = read_units(&path);
        let (shipped_units, shipped_split) = parsed
            .iter()
            .find(|(_, s)| s.root.to_string() == split.root.to_string())
            .unwrap_or_else(|| panic!("{name}: no units file of its layout"));
        assert_eq!(split.depth, shipped_split.depth, "{name}");
        let value = timed.summary(&split).value;
        assert!(value.is_some(), "{name}: the timed run proves nothing");
        assert_eq!(value, shipped_units.summary(shipped_split).value, "{name}");
        for unit in timed.units.iter().filter(|u| u.value.is_some()) {
            let same = shipped_units.units.iter().find(|u| u.moves == unit.moves);
            assert_eq!(
                same.and_then(|u| u.value.clone()),
                unit.value,
                "{name}: {:?}",
                unit.moves
            );
        }
        let report =
            std::fs::read_to_string(path.with_file_name(name.replace(".json", "-report.json")))
                .unwrap();
        let report: serde_json::Value = serde_json::from_str(&report).unwrap();
        assert_eq!(report["value"].as_str(), value, "{name}");
        assert_eq!(
            report["by_units"]["summary"]["nodes"],
            timed.summary(&split).nodes,
            "{name}"
        );
    }

    let svg = dir.join("chart.svg");
    let plot = common::kamisado_in(
        root,
        &[
            "kamon",
            "survey",
            "plot",
            "data/kamon-survey.json",
            "--whole",
            "data/kamon-whole.json",
            "--out",
            svg.to_str().unwrap(),
            "--json",
        ],
        "",
    );
    assert_eq!(plot.code, 0, "{}", plot.stderr);
    assert_eq!(plot.json()["whole"]["after"], 0);
    // The empty board's cost is its proofs' units: the median over the proven layouts of
    // the nodes each value rests on, worked out here from the whole-games file.
    let whole: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(format!("{root}/data/kamon-whole.json")).unwrap(),
    )
    .unwrap();
    let mut proofs: Vec<f64> = whole["layouts"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|l| l["proof_nodes"].as_f64())
        .collect();
    proofs.sort_by(f64::total_cmp);
    let n = proofs.len();
    assert!(n > 0);
    let median = (proofs[(n - 1) / 2] + proofs[n / 2]) / 2.0;
    assert_eq!(plot.json()["whole"]["median_nodes"].as_f64(), Some(median));
    assert!(std::fs::read_to_string(&svg)
        .unwrap()
        .contains("empty board"));

    // A split of a late position is not a whole game.
    let late = Record::random(1, 14).unwrap();
    let late_units = dir.join("late.json");
    assert_eq!(units_solve(&late, 1, &late_units, &[]).code, 0);
    run_whole(&[late_units.to_str().unwrap()]).assert_one_line_error(2, "not an empty board");
    // A damaged units file, and a damaged whole-games file for the chart.
    let damaged = dir.join("damaged.json");
    let text = std::fs::read_to_string(&units[0]).unwrap();
    std::fs::write(&damaged, &text[..text.len() / 3]).unwrap();
    run_whole(&[damaged.to_str().unwrap()]).assert_one_line_error(2, "damaged.json");
    std::fs::write(&damaged, shipped.replace("kamon whole 1", "kamon whole 7")).unwrap();
    common::kamisado_in(
        root,
        &[
            "kamon",
            "survey",
            "plot",
            "data/kamon-survey.json",
            "--whole",
            damaged.to_str().unwrap(),
            "--out",
            svg.to_str().unwrap(),
        ],
        "",
    )
    .assert_one_line_error(2, "format");
    std::fs::remove_dir_all(&dir).unwrap();
}

fn run_whole(files: &[&str]) -> common::Run {
    let mut args = vec!["kamon", "whole"];
    args.extend(files);
    kamisado(&args, "")
}

fn kamon_solve(record: &Record, extra: &[&str]) -> common::Run {
    let mut args: Vec<String> = vec!["kamon".into(), "solve".into()];
    args.extend(position_args(record));
    args.extend(
        ["--value-only", "--hash-mb", "16", "--json", "--quiet"]
            .iter()
            .chain(extra)
            .map(|s| s.to_string()),
    );
    run(&args)
}

/// With `--checkpoints` a unit is asked only the question the root needs, and asked again
/// (from its saved table) when the root's second question comes: on a lost and a drawn
/// root some units are asked twice, a run's nodes are its units' nodes in the file (each
/// search counted once), and once the root is proven no saved table is left. Without,
/// each unit's search finds its value and no unit is asked twice.
#[test]
fn units_asked_twice_count_their_nodes_once_and_leave_no_table() {
    let dir = scratch("asked-twice");
    for (seed, after) in [(1, 9), (6, 9)] {
        let record = Record::random(seed, after).unwrap();
        let (value, _) = direct(&record);
        for checkpoints in [false, true] {
            let tables = dir.join(format!("tables-{seed}-{checkpoints}"));
            let tables_arg = tables.display().to_string();
            let results = dir.join(format!("s{seed}-{checkpoints}.json"));
            let mut extra = vec!["--jobs", "2"];
            if checkpoints {
                extra.extend(["--checkpoints", &tables_arg]);
            }
            let solved = units_solve(&record, 2, &results, &extra);
            assert_eq!(solved.code, 0, "{}", solved.stderr);
            let json = solved.json();
            let what = format!("seed {seed} after {after} checkpoints {checkpoints}: {json}");
            assert_eq!(json["summary"]["value"], value.name(), "{what}");
            let mut indices: Vec<u64> = json["solved_now"]
                .as_array()
                .unwrap()
                .iter()
                .map(|u| u["index"].as_u64().unwrap())
                .collect();
            let started = indices.len();
            indices.sort_unstable();
            indices.dedup();
            assert_eq!(indices.len() < started, checkpoints, "{what}: asked twice");
            let (file, _) = read_units(&results);
            let in_file: u64 = file.units.iter().map(|u| u.nodes).sum();
            assert_eq!(json["nodes_now"].as_u64(), Some(in_file), "{what}");
            if checkpoints {
                assert_eq!(std::fs::read_dir(&tables).unwrap().count(), 0, "{what}");
            }
        }
    }
}

/// `kamon solve --value-only` proves a position too early for one search by its units
/// (`--split D`, or on its own before the second placement): the plain solver's value of
/// late positions, split one, two and three deep, the units' report beside it; on the
/// empty board it splits two deep by itself, and a run stopped by its time limit says
/// so (exit 1) and leaves its units in `--results` for a later run.
#[test]
fn kamon_solve_proves_an_early_position_by_its_units() {
    let dir = scratch("solve-split");
    for (seed, after) in [(1, 12), (2, 13), (189, 12)] {
        let record = Record::random(seed, after).unwrap();
        let (value, _) = direct(&record);
        for (depth, threads) in [("1", "1"), ("2", "2"), ("3", "2")] {
            let solved = kamon_solve(&record, &["--split", depth, "--threads", threads]);
            assert_eq!(solved.code, 0, "{}", solved.stderr);
            let json = solved.json();
            let what = format!("seed {seed} after {after} split {depth}: {json}");
            assert_eq!(json["value"], value.name(), "{what}");
            assert_eq!(
                json["by_units"]["depth"],
                depth.parse::<u32>().unwrap(),
                "{what}"
            );
            assert_eq!(
                json["by_units"]["jobs"],
                threads.parse::<u32>().unwrap(),
                "{what}"
            );
            assert_eq!(json["by_units"]["summary"]["value"], value.name(), "{what}");
            // A first run's nodes are all its units' nodes, its rate over its own time.
            assert_eq!(
                json["nodes"], json["by_units"]["summary"]["nodes"],
                "{what}"
            );
            let number = |key: &str| json[key].as_f64().unwrap();
            let rate = number("nodes") / number("seconds");
            assert!(
                (number("nodes_per_second") - rate).abs() <= 1.0 + rate * 1e-6,
                "{what}"
            );
            assert!(json.get("table_fill").is_none(), "{what}");
        }
        // A rerun over a finished results file searches nothing and says the same.
        let results = dir.join(format!("s{seed}-{after}.json"));
        let results_arg = results.to_str().unwrap();
        let first = kamon_solve(&record, &["--split", "2", "--results", results_arg]);
        let again = kamon_solve(&record, &["--split", "2", "--results", results_arg]);
        assert_eq!((first.code, again.code), (0, 0), "{}", again.stderr);
        let (first, again) = (first.json(), again.json());
        assert_eq!(again["nodes"], 0, "{again}");
        assert_eq!(again["value"], value.name(), "{again}");
        assert_eq!(again["by_units"]["summary"], first["by_units"]["summary"]);
        // Late positions are one search unless a split is asked for.
        let plain = kamon_solve(&record, &[]);
        assert_eq!(plain.code, 0, "{}", plain.stderr);
        assert!(plain.json().get("by_units").is_none(), "{}", plain.stdout);
        assert_eq!(plain.json()["value"], value.name());
    }
    let empty = Record::random(1, 0).unwrap();
    let results = dir.join("empty.json");
    let stopped = kamon_solve(
        &empty,
        &[
            "--time-limit",
            "1.5",
            "--threads",
            "2",
            "--results",
            results.to_str().unwrap(),
        ],
    );
    stopped.assert_one_line_error(1, "no answer within the time limit");
    assert!(stopped.stderr.contains("empty.json"), "{}", stopped.stderr);
    assert!(
        stopped.stderr.contains("for a later run"),
        "{}",
        stopped.stderr
    );
    let (file, split) = read_units(&results);
    assert_eq!((split.depth, split.len()), (2, 110));
    assert!(!file.units.is_empty());
    assert!(file
        .units
        .iter()
        .all(|u| u.interrupted && u.value.is_none()));
    // Bad combinations are refused in one line.
    let late = Record::random(1, 12).unwrap();
    kamon_solve(&late, &["--results", results.to_str().unwrap()])
        .assert_one_line_error(2, "--results");
    kamon_solve(&late, &["--checkpoints", dir.to_str().unwrap()])
        .assert_one_line_error(2, "--checkpoints");
    let mut args: Vec<String> = vec!["kamon".into(), "solve".into(), "--value-only".into()];
    args.extend(position_args(&late));
    let too_big = ["--split", "1", "--threads", "1024", "--hash-mb", "1048576"];
    args.extend(too_big.iter().map(|s| s.to_string()));
    run(&args).assert_one_line_error(2, "the units' tables would take");
    let mut args: Vec<String> = vec!["kamon".into(), "solve".into()];
    args.extend(position_args(&late));
    args.extend(["--split".into(), "2".into()]);
    assert_eq!(run(&args).code, 2);
}

#[test]
fn a_whole_games_certificate_must_claim_what_its_layouts_units_prove() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let dir = scratch("whole-cert");
    let whole = |cert: &str| {
        common::kamisado_in(
            root,
            &[
                "kamon",
                "whole",
                "data/kamon-units/seed1.json",
                "--certificate",
                cert,
            ],
            "",
        )
    };
    // A walk of a position 8 placements in is no whole game's.
    whole("data/certificates/kamon-seed1-after8.kwalk")
        .assert_one_line_error(2, "does not claim the empty board");
    // A walk of another layout has no units file here.
    whole("tests/fuzz-corpus/kamon-walk/seed4-after20.kwalk")
        .assert_one_line_error(2, "no units file is of its layout");
    // The seed 1 walk with its claim turned to a loss.
    let mut forged = kamon_cert::WalkCertificate::read(std::path::Path::new(&format!(
        "{root}/data/certificates/kamon-seed1.kwalk"
    )))
    .unwrap();
    let claim = forged.claims[0];
    forged.claims[0] = kamon_cert::Claim::value(claim.position, claim.low.flip());
    let path = dir.join("forged.kwalk");
    std::fs::write(&path, forged.encode()).unwrap();
    whole(path.to_str().unwrap()).assert_one_line_error(2, "claims a loss for Black");
    let run = whole("data/certificates/kamon-seed1.kwalk");
    assert_eq!(run.code, 0, "{}", run.stderr);
    std::fs::remove_dir_all(dir).ok();
}

/// A unit's table is 512 MiB unless `--hash-mb` says otherwise, in `units solve` and in a
/// split `kamon solve` (both record it per unit and report it), while one search keeps the
/// default of 128 MiB.
#[test]
fn a_units_table_is_512_mib_unless_given() {
    let dir = scratch("unit-table");
    let record = Record::random(1, 14).unwrap();
    // `command` on the record with `options`, a results file and `--hash-mb` if given: the
    // run, and the table sizes its results file records.
    let solve = |command: &[&str], options: &[&str], name: &str, given: Option<&str>| {
        let results = dir.join(name);
        let mut args: Vec<String> = command.iter().map(|s| s.to_string()).collect();
        args.extend(position_args(&record));
        args.extend(options.iter().map(|s| s.to_string()));
        args.extend(["--json", "--quiet", "--results"].map(String::from));
        args.push(results.display().to_string());
        if let Some(mb) = given {
            args.extend(["--hash-mb".to_string(), mb.to_string()]);
        }
        let solved = run(&args);
        assert_eq!(solved.code, 0, "{}", solved.stderr);
        let (file, _) = read_units(&results);
        let recorded: Vec<u64> = file.units.iter().map(|u| u.hash_mb).collect();
        (solved, recorded)
    };
    for (given, expected) in [(None, 512), (Some("32"), 32)] {
        let units = ["kamon", "units", "solve"];
        let (_, recorded) = solve(
            &units,
            &["--depth", "1", "--threads", "1"],
            &format!("units-{expected}.json"),
            given,
        );
        assert!(
            !recorded.is_empty() && recorded.iter().all(|&mb| mb == expected),
            "{recorded:?}"
        );
        let split = ["--value-only", "--split", "1", "--threads", "2"];
        let (solved, recorded) = solve(
            &["kamon", "solve"],
            &split,
            &format!("solve-{expected}.json"),
            given,
        );
        assert_eq!(solved.json()["hash_mb"], expected, "{}", solved.stdout);
        assert!(
            !recorded.is_empty() && recorded.iter().all(|&mb| mb == expected),
            "{recorded:?}"
        );
    }
    let mut args: Vec<String> = vec!["kamon".into(), "solve".into()];
    args.extend(position_args(&record));
    args.extend(["--value-only", "--json", "--quiet"].map(String::from));
    let one_search = run(&args);
    assert_eq!(one_search.code, 0, "{}", one_search.stderr);
    assert_eq!(one_search.json()["hash_mb"], 128, "{}", one_search.stdout);
}
