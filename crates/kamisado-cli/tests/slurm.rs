//! The job scripts of cluster/slurm/ on a real Slurm: 4-task arrays of a small Kamon
//! survey and of an opening book from a late position, each with its merge job, give the
//! single-process results; a failed task keeps the merge from running, and resubmitting
//! that task alone (`submit.sh resume`) completes the merge with every finished part kept.
//! A 2-task array verifies a speculative match proof in shares, and an array of Kamon
//! units (a split of a position at its first placements) merges to the plain value.
//!
//! It needs a Slurm cluster answering on this machine: `.ci/run` starts a one-node one
//! (cluster/one-node-slurm.sh) and sets KAMISADO_SLURM_TEST=required, which makes a
//! missing cluster a failure. Without that variable and without a cluster the test says
//! it is skipped and passes. The cluster is found through SLURM_CONF, else the
//! one-node script's directory ($KAMISADO_SLURM_DIR, default /tmp/kamisado-slurm).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

use kamisado_analysis::survey_file::{Entry, SurveyFile};
use kamisado_analysis::units_file::UnitsFile;
use kamisado_match_solver::Speculation;

mod common;
use common::kamisado;

/// Six moves into a perfect game: a book of two plies from here builds in seconds.
const LATE: &str = "h1-h7 c8-c4 b1-b2 h8-d4 a1-a6 g8-g4";
/// Kamon layouts after this many random placements solve in about a second each (debug build).
const AFTER: &str = "14";
const LAYOUTS: &str = "8";

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The SLURM_CONF of a cluster that answers, if any.
fn cluster() -> Option<String> {
    let conf = std::env::var("SLURM_CONF").ok().unwrap_or_else(|| {
        let dir =
            std::env::var("KAMISADO_SLURM_DIR").unwrap_or_else(|_| "/tmp/kamisado-slurm".into());
        format!("{dir}/etc/slurm.conf")
    });
    if !Path::new(&conf).exists() {
        return None;
    }
    // sinfo retries an absent controller for a minute; ten seconds tell.
    let answers = Command::new("timeout")
        .args(["10", "sinfo", "-h", "-o", "%t"])
        .env("SLURM_CONF", &conf)
        .output()
        .is_ok_and(|out| out.status.success() && !out.stdout.is_empty());
    answers.then_some(conf)
}

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs cluster/slurm/submit.sh with the test's binary and small resources.
fn submit(conf: &str, args: &[&str]) -> Out {
    let out = Command::new(repository().join("cluster/slurm/submit.sh"))
        .args(args)
        .env("SLURM_CONF", conf)
        .env("KAMISADO", env!("CARGO_BIN_EXE_kamisado"))
        .env("SBATCH_EXTRA", "--cpus-per-task=1 --mem=256M")
        .output()
        .unwrap();
    Out {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn ok(out: Out, what: &str) -> String {
    assert_eq!(out.code, 0, "{what}: {}{}", out.stdout, out.stderr);
    out.stdout
}

/// The job ids a run submitted, as `array ID INDICES` and `merge ID` lines.
fn jobs(run: &Path) -> Vec<Vec<String>> {
    std::fs::read_to_string(run.join("jobs"))
        .unwrap()
        .lines()
        .map(|l| l.split_whitespace().map(str::to_owned).collect())
        .collect()
}

/// The final state of a job from the jobcomp/filetxt log, where the cluster keeps one.
fn final_state(conf: &str, job: &str) -> Option<String> {
    let config = Command::new("scontrol")
        .args(["show", "config"])
        .env("SLURM_CONF", conf)
        .output()
        .ok()?;
    let config = String::from_utf8_lossy(&config.stdout).into_owned();
    let log = config
        .lines()
        .find(|l| l.starts_with("JobCompLoc"))?
        .split('=')
        .nth(1)?
        .trim()
        .to_owned();
    let text = std::fs::read_to_string(log).ok()?;
    let line = text
        .lines()
        .find(|l| l.starts_with(&format!("JobId={job} ")))?;
    let state = line.split("JobState=").nth(1)?.split_whitespace().next()?;
    Some(state.to_owned())
}

/// What a survey file's entries say about their layouts (not what they cost), read by
/// the library's one definition of the file (which also checks every entry).
fn results(path: &Path) -> Vec<Entry> {
    let text = std::fs::read_to_string(path).unwrap();
    let survey = SurveyFile::parse(&text, &path.display().to_string()).unwrap();
    assert_eq!(survey.runs.len(), 1, "{}: one run", path.display());
    survey.runs[0]
        .entries
        .iter()
        .map(|e| Entry {
            nodes: 0,
            seconds: 0.0,
            threads: 0,
            hash_mb: 0,
            load: None,
            ..e.clone()
        })
        .collect()
}

fn stamp(path: &Path) -> (Vec<u8>, SystemTime) {
    (
        std::fs::read(path).unwrap(),
        std::fs::metadata(path).unwrap().modified().unwrap(),
    )
}

/// The cluster's SLURM_CONF; `None` (the test is skipped) if none answers and none is
/// required.
fn cluster_unless_skipped() -> Option<String> {
    let conf = cluster();
    if conf.is_none() {
        if std::env::var("KAMISADO_SLURM_TEST").as_deref() == Ok("required") {
            panic!("KAMISADO_SLURM_TEST=required but no Slurm cluster answers (sinfo fails); start one with cluster/one-node-slurm.sh up");
        }
        eprintln!("slurm test skipped: no Slurm cluster answers on this machine (start one with cluster/one-node-slurm.sh up; .ci/run does, and makes this test mandatory)");
    }
    conf
}

/// A late position of a Standard match at 2-1 whose speculative proof rests on eight
/// final rounds (found by tests/whole_match_vs_reference.rs's random walks).
const TWO_ONE_LATE: &str = "8/gU2R+1u1/5Grn+/8/N+Bb5/3y4/4p2o/2Y3OP b y 3";

/// A speculative match proof verified by a 2-task array (`submit.sh speculate`): the
/// shares split the final rounds the proof rests on, each verified once, and a run from
/// the merged proof file proves the value the plain match search gives, verifying nothing
/// more.
#[test]
fn a_speculative_proof_verified_in_shares_is_the_single_process_value() {
    let Some(conf) = cluster_unless_skipped() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("kamisado-slurm-spec-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let run = dir.join("speculate");
    let submitted = Command::new(repository().join("cluster/slurm/submit.sh"))
        .args([
            "speculate",
            run.to_str().unwrap(),
            "2",
            "--position",
            TWO_ONE_LATE,
        ])
        .env("SLURM_CONF", &conf)
        .env("KAMISADO", env!("CARGO_BIN_EXE_kamisado"))
        .env("SBATCH_EXTRA", "--cpus-per-task=1 --mem=512M")
        .output()
        .unwrap();
    assert!(
        submitted.status.success(),
        "{}",
        String::from_utf8_lossy(&submitted.stderr)
    );
    // Meanwhile, the plain match search in one process.
    let plain = kamisado(
        &[
            "whole-match",
            "solve",
            "--position",
            TWO_ONE_LATE,
            "--json",
            "--quiet",
        ],
        "",
    );
    assert_eq!(plain.code, 0, "{}", plain.stderr);
    let plain: serde_json::Value = serde_json::from_str(&plain.stdout).unwrap();
    ok(
        submit(&conf, &["wait", run.to_str().unwrap()]),
        "the speculate run",
    );

    // Each task's report (the last JSON object of its log): its share, verified.
    let mut shares = Vec::new();
    for entry in std::fs::read_dir(run.join("logs")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with("task-") {
            let text = std::fs::read_to_string(&path).unwrap();
            let json = &text[text.find('{').unwrap_or_else(|| panic!("{name}: {text}"))..];
            shares.push(serde_json::from_str::<serde_json::Value>(json).unwrap());
        }
    }
    shares.sort_by_key(|s| s["share"].as_str().unwrap_or_default().to_owned());
    assert_eq!(shares.len(), 2, "{shares:?}");
    // The report itself is the binary's (`whole-match solve --json`); its speculation
    // counts are the match solver's type.
    let counts: Vec<(u64, u64, u64)> = shares
        .iter()
        .map(|s| {
            let c: Speculation = serde_json::from_value(s["speculation"].clone()).unwrap();
            (c.relied_on, c.verified, c.wrong)
        })
        .collect();
    assert_eq!(shares[0]["share"], "1/2");
    assert_eq!(shares[1]["share"], "2/2");
    let relied_on = counts[0].0;
    assert!(relied_on >= 2, "{counts:?}");
    assert_eq!(counts[1].0, relied_on, "both shares found the same proof");
    assert_eq!(
        (counts[0].1, counts[1].1),
        (relied_on.div_ceil(2), relied_on / 2),
        "the shares split the final rounds"
    );

    let last = kamisado(
        &[
            "whole-match",
            "solve",
            "--position",
            TWO_ONE_LATE,
            "--speculate",
            "--db",
            run.join("result.kmp").to_str().unwrap(),
            "--json",
            "--quiet",
        ],
        "",
    );
    assert_eq!(last.code, 0, "{}", last.stderr);
    let last: serde_json::Value = serde_json::from_str(&last.stdout).unwrap();
    assert_eq!(last["proven"], true);
    assert_eq!(last["winner"], plain["winner"]);
    if counts[0].2 + counts[1].2 == 0 {
        let speculation: Speculation = serde_json::from_value(last["speculation"].clone()).unwrap();
        assert_eq!(speculation.verified, 0, "{last}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn job_arrays_and_their_merges_give_the_single_process_results() {
    let Some(conf) = cluster_unless_skipped() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("kamisado-slurm-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (survey_run, book_run) = (dir.join("survey"), dir.join("book"));

    // The book's task 3 cannot write its part (a directory is in the way): it fails.
    std::fs::create_dir_all(book_run.join("parts/part-3.kbp")).unwrap();
    let survey_args = ["--layouts", LAYOUTS, "--seed", "1", "--after", AFTER];
    let book_args = ["--moves", LATE, "--plies", "2"];
    let mut args = vec!["survey", survey_run.to_str().unwrap(), "4"];
    args.extend_from_slice(&survey_args);
    ok(submit(&conf, &args), "submit the survey");
    let mut args = vec!["book", book_run.to_str().unwrap(), "4"];
    args.extend_from_slice(&book_args);
    ok(submit(&conf, &args), "submit the book");

    // Meanwhile, the same computations in one process each.
    let single_survey = dir.join("single-survey.json");
    let mut args = vec!["kamon", "survey"];
    args.extend_from_slice(&survey_args);
    args.extend_from_slice(&["--out", single_survey.to_str().unwrap(), "--quiet"]);
    let run = kamisado(&args, "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let single_book = dir.join("single-book.kdb");
    let mut args = vec!["book"];
    args.extend_from_slice(&book_args);
    args.extend_from_slice(&[
        "--hash-mb",
        "64",
        "--out",
        single_book.to_str().unwrap(),
        "--quiet",
    ]);
    let run = kamisado(&args, "");
    assert_eq!(run.code, 0, "{}", run.stderr);

    ok(
        submit(&conf, &["wait", survey_run.to_str().unwrap()]),
        "the survey run",
    );
    assert_eq!(
        results(&survey_run.join("result.json")),
        results(&single_survey),
        "the merged survey holds the single process's results"
    );

    // The book's merge did not run: task 3 failed.
    let waited = submit(&conf, &["wait", book_run.to_str().unwrap()]);
    assert_eq!(waited.code, 1, "{}{}", waited.stdout, waited.stderr);
    assert!(
        waited.stderr.contains("tasks unfinished: 3"),
        "{}",
        waited.stderr
    );
    assert!(!book_run.join("result.kdb").exists());
    let first = jobs(&book_run);
    let merge_job = &first[1][1];
    assert!(
        !book_run
            .join(format!("logs/merge-{merge_job}.out"))
            .exists(),
        "the merge job never started"
    );
    if let Some(state) = final_state(&conf, merge_job) {
        assert_eq!(state, "CANCELLED", "merge job {merge_job}");
    }
    let kept: Vec<_> = [1, 2, 4]
        .iter()
        .map(|i| book_run.join(format!("parts/part-{i}.kbp")))
        .collect();
    let before: Vec<_> = kept.iter().map(|p| stamp(p)).collect();

    // Resubmitted alone, task 3 finishes and the merge runs.
    std::fs::remove_dir(book_run.join("parts/part-3.kbp")).unwrap();
    ok(
        submit(&conf, &["resume", book_run.to_str().unwrap()]),
        "resume the book",
    );
    let second = jobs(&book_run);
    assert_eq!(second.len(), 4, "{second:?}");
    assert_eq!(
        (second[2][0].as_str(), second[2][2].as_str()),
        ("array", "3")
    );
    ok(
        submit(&conf, &["wait", book_run.to_str().unwrap()]),
        "the resumed book run",
    );
    assert_eq!(
        std::fs::read(book_run.join("result.kdb")).unwrap(),
        std::fs::read(&single_book).unwrap(),
        "the merged book is the single build's, byte for byte"
    );
    for (part, earlier) in kept.iter().zip(&before) {
        assert_eq!(
            &stamp(part),
            earlier,
            "{} was kept as it was",
            part.display()
        );
    }
    let status = ok(
        submit(&conf, &["status", book_run.to_str().unwrap()]),
        "status",
    );
    assert!(status.contains("0 of 4 tasks unfinished"), "{status}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A Kamon split as a job array (`submit.sh kamon-units`): one task per unit, each
/// passing over its unit when the parts finished before it make it unnecessary, and a
/// merge whose root value is the plain solver's, from the units one process solves.
#[test]
fn a_kamon_split_runs_as_a_job_array() {
    let Some(conf) = cluster_unless_skipped() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("kamisado-slurm-units-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let run = dir.join("split");
    let split = ["--seed", "1", "--after", "12", "--depth", "1"];
    let mut args = vec!["kamon-units", run.to_str().unwrap()];
    args.extend_from_slice(&split);
    ok(submit(&conf, &args), "submit the split");
    let single = dir.join("single.json");
    let mut args = vec!["kamon", "units", "solve"];
    args.extend_from_slice(&split);
    args.extend_from_slice(&[
        "--results",
        single.to_str().unwrap(),
        "--hash-mb",
        "64",
        "--quiet",
    ]);
    let solved = kamisado(&args, "");
    assert_eq!(solved.code, 0, "{}", solved.stderr);
    ok(
        submit(&conf, &["wait", run.to_str().unwrap()]),
        "the split run",
    );
    let units = std::fs::read_to_string(run.join("units.txt")).unwrap();
    // The results files, read and checked by the library's one definition.
    let read_units = |path: &Path| {
        let text = std::fs::read_to_string(path).unwrap();
        UnitsFile::parse(&text, &path.display().to_string()).unwrap()
    };
    let (merged, merged_split) = read_units(&run.join("result.json"));
    let summary = merged.summary(&merged_split);
    let direct = kamisado(
        &[
            "kamon",
            "solve",
            "--seed",
            "1",
            "--after",
            "12",
            "--value-only",
            "--json",
        ],
        "",
    );
    assert_eq!(summary.value, direct.json()["value"].as_str());
    assert_eq!(summary.units, units.lines().count());
    // Which units each side solves depends on timing: Slurm may start a later task
    // before an earlier one, whose unit its finished part then makes unnecessary (CI saw
    // the array solve d4 where one process, going in order, solved e3). What must hold:
    // the root value (above), and every unit's value on either side is the plain
    // solver's for that unit's position.
    let solved_units = |file: &UnitsFile| -> Vec<(Vec<String>, String)> {
        file.units
            .iter()
            .filter_map(|u| Some((u.moves.clone(), u.value.clone()?)))
            .collect()
    };
    let (array, one) = (solved_units(&merged), solved_units(&read_units(&single).0));
    assert!(!array.is_empty() && !one.is_empty(), "{array:?} {one:?}");
    for (moves, value) in array.iter().chain(&one) {
        let placements = moves.join(" ");
        let mut args = vec!["kamon", "solve"];
        args.extend_from_slice(&split[..4]);
        args.extend_from_slice(&["--moves", &placements, "--value-only", "--json"]);
        let plain = kamisado(&args, "");
        assert_eq!(
            plain.json()["value"].as_str(),
            Some(value.as_str()),
            "{moves:?}"
        );
    }
    if one.len() + 2 < units.lines().count() {
        assert!(
            array.len() < units.lines().count(),
            "some tasks passed over their units: {array:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A Kamon proof certified by a job array (`submit.sh kamon-certify`): the units a
/// split's results prove the root with (`kamon units proof`), one certificate proved per
/// task (a drawn root: some units proved only "at least a draw" or "at most a draw", as
/// the list says), packed by the merge job under the root into one walk certificate that
/// checks and claims the value one process solved.
#[test]
fn a_kamon_proof_is_certified_by_a_job_array() {
    let Some(conf) = cluster_unless_skipped() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("kamisado-slurm-certify-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let split = ["--seed", "45", "--after", "12", "--depth", "2"];
    let results = dir.join("results.json");
    let mut args = vec!["kamon", "units", "solve"];
    args.extend_from_slice(&split);
    args.extend_from_slice(&[
        "--results",
        results.to_str().unwrap(),
        "--hash-mb",
        "32",
        "--quiet",
    ]);
    let solved = kamisado(&args, "");
    assert_eq!(solved.code, 0, "{}", solved.stderr);
    let listed = kamisado(&["kamon", "units", "proof", results.to_str().unwrap()], "");
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    assert!(
        listed
            .stdout
            .lines()
            .any(|l| l.starts_with("at-least-draw "))
            && listed
                .stdout
                .lines()
                .any(|l| l.starts_with("at-most-draw ")),
        "{}",
        listed.stdout
    );
    let run = dir.join("certify");
    ok(
        submit(
            &conf,
            &[
                "kamon-certify",
                run.to_str().unwrap(),
                results.to_str().unwrap(),
            ],
        ),
        "submit the proof",
    );
    ok(
        submit(&conf, &["wait", run.to_str().unwrap()]),
        "the proof run",
    );
    assert_eq!(
        std::fs::read_to_string(run.join("units.txt")).unwrap(),
        listed.stdout
    );
    let checked = kamisado(
        &[
            "certificate",
            "check",
            run.join("result.kwalk").to_str().unwrap(),
            "--json",
        ],
        "",
    );
    assert_eq!(checked.code, 0, "{}", checked.stderr);
    // The same claim as a certificate of the root proved by one process: the position
    // 12 placements in (its key) and its value.
    let direct = dir.join("direct.kcert");
    let proved = kamisado(
        &[
            "kamon",
            "prove",
            "--seed",
            "45",
            "--after",
            "12",
            "--out",
            direct.to_str().unwrap(),
            "--threads",
            "1",
            "--hash-mb",
            "32",
        ],
        "",
    );
    assert_eq!(proved.code, 0, "{}", proved.stderr);
    let direct = kamisado(
        &["certificate", "check", direct.to_str().unwrap(), "--json"],
        "",
    );
    assert_eq!(direct.code, 0, "{}", direct.stderr);
    let (claim, expected) = (&checked.json()["claims"], &direct.json()["claims"]);
    assert_eq!(claim.as_array().map(Vec::len), Some(1));
    assert_eq!(claim[0]["key"], expected[0]["key"]);
    assert_eq!(claim[0]["value"], expected[0]["value"]);
    assert_eq!(claim[0]["value"], "draw");
    let _ = std::fs::remove_dir_all(&dir);
}
