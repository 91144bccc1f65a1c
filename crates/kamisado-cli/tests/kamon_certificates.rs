//! `kamisado kamon prove`, `certificate check` of Kamon certificates and `kamon survey
//! plot`, end to end through the binary: the certificate's claim against the library's
//! value, damaged and forged files, special files, and the chart.

use kamisado_solver::{Cancel, Options, Solver};
use kamon_cert::Certificate;
use kamon_core::{KamonGame, Record};

mod common;
use common::kamisado;

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("kamon-cert-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_proof_checks_and_claims_the_value() {
    let dir = scratch("prove");
    let file = dir.join("p.kcert");
    let file_text = file.to_str().unwrap();
    for (seed, after) in [(3, 14), (5, 13), (8, 12)] {
        let run = kamisado(
            &[
                "kamon",
                "prove",
                "--seed",
                &seed.to_string(),
                "--after",
                &after.to_string(),
                "--out",
                file_text,
                "--threads",
                "1",
                "--hash-mb",
                "32",
                "--json",
            ],
            "",
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        let proved = run.json();
        let record = Record::random(seed, after).unwrap();
        let solver = Solver::new(
            KamonGame::new(record.layout().clone()),
            Options {
                threads: 1,
                table_bytes: 16 << 20,
            },
        )
        .unwrap();
        let value = solver
            .value(&solver.game().node(record.position()), &Cancel::new())
            .unwrap();
        let value = format!("{value:?}").to_lowercase();
        assert_eq!(proved["claim"]["value"], value.as_str());
        assert_eq!(proved["claim"]["layout"], record.layout().to_string());
        // The peak memory is reported where it can be read (Linux).
        if cfg!(target_os = "linux") {
            assert!(
                proved["peak_memory_bytes"].as_u64().unwrap() > 1 << 20,
                "{proved}"
            );
        }

        let check = kamisado(&["certificate", "check", file_text, "--json"], "");
        assert_eq!(check.code, 0, "{}", check.stderr);
        let checked = check.json();
        assert_eq!(checked["game"], "kamon");
        assert_eq!(checked["verified"], true);
        assert_eq!(checked["claims"][0]["value"], value.as_str());
        assert_eq!(checked["entries"], proved["entries"]);
        let text = kamisado(&["certificate", "check", file_text], "");
        assert!(text.stdout.contains("all hold"), "{}", text.stdout);
        // --quiet (no progress bar), as every long command takes it: the same verdict.
        let quiet = kamisado(&["certificate", "check", file_text, "-q"], "");
        assert_eq!(quiet.code, 0, "{}", quiet.stderr);
        assert!(quiet.stdout.contains("all hold"), "{}", quiet.stdout);
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn damaged_forged_and_special_files_are_refused() {
    let dir = scratch("damage");
    let file = dir.join("p.kcert");
    let file_text = file.to_str().unwrap();
    let run = kamisado(
        &[
            "kamon",
            "prove",
            "--seed",
            "4",
            "--after",
            "14",
            "--out",
            file_text,
            "--hash-mb",
            "32",
            "-q",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let bytes = std::fs::read(&file).unwrap();

    // A flipped byte and a cut file: damaged, exit 2, one line naming the file.
    let bad = dir.join("bad.kcert");
    let bad_text = bad.to_str().unwrap();
    let mut flipped = bytes.clone();
    let at = bytes.len() - 5;
    flipped[at] ^= 0x40;
    std::fs::write(&bad, &flipped).unwrap();
    kamisado(&["certificate", "check", bad_text], "").assert_one_line_error(2, "checksum");
    std::fs::write(&bad, &bytes[..bytes.len() - 16]).unwrap();
    kamisado(&["certificate", "check", bad_text], "").assert_one_line_error(2, "damaged");
    std::fs::write(&bad, &bytes[..20]).unwrap();
    kamisado(&["certificate", "check", bad_text], "").assert_one_line_error(2, bad_text);

    // Well formed, but claiming the opposite value: it does not check (exit 1).
    let mut forged = Certificate::decode(&bytes).unwrap();
    let claim = forged.claims[0];
    forged.claims[0] = kamon_cert::Claim::value(claim.position, claim.low.flip());
    std::fs::write(&bad, forged.encode()).unwrap();
    kamisado(&["certificate", "check", bad_text], "").assert_one_line_error(1, "not proved");

    // Special files are refused at once.
    kamisado(&["certificate", "check", "/dev/zero"], "").assert_one_line_error(2, "/dev/zero");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn units_certificates_pack_into_a_walk_of_the_position_above_them() {
    // Seed 3 after 14 placements, split two placements down: every unit proved by
    // `kamon prove`, packed under the root, and the walk checked by `certificate check`.
    let dir = scratch("pack");
    let record = Record::random(3, 14).unwrap();
    let layout = record.layout().to_string();
    let root = record.moves_text();
    let pos = record.position();
    let mut certs = Vec::new();
    for a in pos.legal_cells(record.layout()) {
        let after_a = pos.play_unchecked(record.layout(), a);
        for b in after_a.legal_cells(record.layout()) {
            if after_a.play_unchecked(record.layout(), b).is_over() {
                continue;
            }
            let file = dir.join(format!("{a}-{b}.kcert"));
            let moves = format!("{root} {a} {b}");
            let run = kamisado(
                &[
                    "kamon",
                    "prove",
                    "--layout",
                    &layout,
                    "--moves",
                    &moves,
                    "--out",
                    file.to_str().unwrap(),
                    "--hash-mb",
                    "16",
                    "-q",
                ],
                "",
            );
            assert_eq!(run.code, 0, "{}", run.stderr);
            certs.push(file.to_str().unwrap().to_owned());
        }
    }
    assert!(certs.len() > 10, "{}", certs.len());
    let walk = dir.join("root.kwalk");
    let walk_text = walk.to_str().unwrap();
    let mut args = vec!["kamon", "pack"];
    args.extend(certs.iter().map(String::as_str));
    args.extend(["--root", &root, "--out", walk_text, "--json"]);
    let run = kamisado(&args, "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let packed = run.json();
    let solve = kamisado(
        &[
            "kamon",
            "solve",
            "--seed",
            "3",
            "--after",
            "14",
            "--value-only",
            "--json",
        ],
        "",
    );
    let value = solve.json()["value"].clone();
    assert_eq!(packed["claims"][0]["value"], value);
    assert!(packed["bytes"].as_u64().unwrap() < 64 * packed["choices"].as_u64().unwrap());

    let check = kamisado(&["certificate", "check", walk_text, "--json"], "");
    assert_eq!(check.code, 0, "{}", check.stderr);
    let checked = check.json();
    assert_eq!(checked["verified"], true);
    assert_eq!(checked["claims"][0]["value"], value);
    assert_eq!(checked["walk"]["choices"], packed["choices"]);
    assert_eq!(checked["walk"]["bits"], packed["bits"]);
    let text = kamisado(&["certificate", "check", walk_text], "");
    assert!(text.stdout.contains("Kamon walk"), "{}", text.stdout);

    // A walk too large for the limit given is refused, in one line (exit 1).
    kamisado(
        &["certificate", "check", walk_text, "--max-positions", "2"],
        "",
    )
    .assert_one_line_error(1, "more than 2 positions");
    // Damage: a flipped byte (checksum) and a cut file (length), exit 2.
    let bytes = std::fs::read(&walk).unwrap();
    let bad = dir.join("bad.kwalk");
    let bad_text = bad.to_str().unwrap();
    let mut flipped = bytes.clone();
    let at = bytes.len() - 3;
    flipped[at] ^= 0x10;
    std::fs::write(&bad, &flipped).unwrap();
    kamisado(&["certificate", "check", bad_text], "").assert_one_line_error(2, "checksum");
    std::fs::write(&bad, &bytes[..bytes.len() - 16]).unwrap();
    kamisado(&["certificate", "check", bad_text], "").assert_one_line_error(2, "damaged");
    // Without the units of the proof's first placement the root is not decided (exit 1),
    // a certificate of another layout is refused (exit 2), and so is a damaged one.
    let other = dir.join("other.kcert");
    let run = kamisado(
        &[
            "kamon",
            "prove",
            "--seed",
            "4",
            "--after",
            "20",
            "--out",
            other.to_str().unwrap(),
            "-q",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mut mixed = vec!["kamon", "pack", certs[0].as_str(), other.to_str().unwrap()];
    mixed.extend(["--out", bad_text]);
    kamisado(&mixed, "").assert_one_line_error(2, "layout");
    kamisado(
        &[
            "kamon",
            "pack",
            certs[0].as_str(),
            "--root",
            &root,
            "--out",
            bad_text,
        ],
        "",
    )
    .assert_one_line_error(1, "prove nothing of the root");
    // A walk given to the packer is read as its choices: packed alone, the newest
    // format's walk is written again byte for byte; a damaged one is refused (exit 2).
    let again = dir.join("again.kwalk");
    let run = kamisado(
        &[
            "kamon",
            "pack",
            walk_text,
            "--out",
            again.to_str().unwrap(),
            "-q",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(std::fs::read(&again).unwrap(), bytes);
    kamisado(
        &["kamon", "pack", bad_text, "--out", again.to_str().unwrap()],
        "",
    )
    .assert_one_line_error(2, "damaged");
    // A walk of format version 1 (written before the rules found forced wins) still
    // checks, and packed again it is a version 2 walk of the same claim with fewer
    // choices, which checks too.
    let older = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fuzz-corpus/kamon-walk/seed4-after20.kwalk"
    );
    let old_check = kamisado(&["certificate", "check", older, "--json"], "").json();
    assert_eq!(old_check["verified"], true);
    assert_eq!(old_check["format_version"], 1);
    let run = kamisado(
        &[
            "kamon",
            "pack",
            older,
            "--out",
            again.to_str().unwrap(),
            "--json",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let new_check = kamisado(
        &["certificate", "check", again.to_str().unwrap(), "--json"],
        "",
    )
    .json();
    assert_eq!(new_check["verified"], true);
    assert_eq!(new_check["format_version"], 2);
    assert_eq!(new_check["claims"], old_check["claims"]);
    assert!(
        new_check["walk"]["choices"].as_u64().unwrap()
            < old_check["walk"]["choices"].as_u64().unwrap(),
        "{new_check} {old_check}"
    );
    kamisado(
        &[
            "kamon",
            "pack",
            certs[0].as_str(),
            "--root",
            "z9",
            "--out",
            bad_text,
        ],
        "",
    )
    .assert_one_line_error(2, "--root");
    std::fs::remove_dir_all(dir).ok();
}

/// A drawn root's proof from its units, as the README's pipeline makes it: `kamon units
/// proof` names what each unit's certificate must show (its value, or one bound: at least
/// a draw for the drawing placement's replies, at most a draw for a reply that holds a
/// placement to a draw), `kamon prove --claim` proves just that, and `kamon pack --root`
/// packs them into a walk that claims the draw and checks. Without the units that hold
/// the root to a draw, the walk claims only "at least a draw", which checks too.
#[test]
fn a_drawn_roots_units_prove_bounds_that_pack_into_its_draw() {
    let dir = scratch("drawn");
    // Seed 45 after 12: a draw for Black to move (`kamon solve`'s value, below).
    let record = Record::random(45, 12).unwrap();
    let layout = record.layout().to_string();
    let root = record.moves_text();
    let results = dir.join("units.json");
    let solved = kamisado(
        &[
            "kamon",
            "units",
            "solve",
            "--layout",
            &layout,
            "--moves",
            &root,
            "--depth",
            "2",
            "--results",
            results.to_str().unwrap(),
            "--hash-mb",
            "16",
            "--quiet",
        ],
        "",
    );
    assert_eq!(solved.code, 0, "{}", solved.stderr);
    let listed = kamisado(&["kamon", "units", "proof", results.to_str().unwrap()], "");
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    let (mut certs, mut kinds) = (Vec::new(), std::collections::BTreeMap::new());
    let mut holding = Vec::new();
    for line in listed.stdout.lines() {
        // `CLAIM LAYOUT MOVES...`, as the README's loop reads it.
        let (claim, position) = line.split_once(' ').unwrap();
        let (unit_layout, moves) = position.split_once(' ').unwrap();
        assert_eq!(unit_layout, layout);
        let file = dir.join(format!("{}.kcert", moves.replace(' ', "-")));
        let run = kamisado(
            &[
                "kamon",
                "prove",
                "--claim",
                claim,
                "--layout",
                &layout,
                "--moves",
                moves,
                "--out",
                file.to_str().unwrap(),
                "--hash-mb",
                "16",
                "--json",
            ],
            "",
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        // The certificate claims what was asked (these bounds hold: the split proved them).
        let expected = match claim {
            "at-least-draw" => "at least a draw",
            "at-most-draw" => "at most a draw",
            _ => "draw",
        };
        assert_eq!(run.json()["claim"]["value"], expected, "{line}");
        *kinds.entry(claim.to_owned()).or_insert(0) += 1;
        if claim == "at-most-draw" {
            holding.push(file.to_str().unwrap().to_owned());
        }
        certs.push(file.to_str().unwrap().to_owned());
    }
    assert!(
        kinds.contains_key("at-least-draw") && kinds.contains_key("at-most-draw"),
        "{kinds:?}"
    );
    let pack = |certs: &[String], out: &std::path::Path| {
        let mut args = vec!["kamon", "pack"];
        args.extend(certs.iter().map(String::as_str));
        args.extend(["--root", &root, "--out", out.to_str().unwrap(), "--json"]);
        let run = kamisado(&args, "");
        assert_eq!(run.code, 0, "{}", run.stderr);
        let check = kamisado(
            &["certificate", "check", out.to_str().unwrap(), "--json"],
            "",
        );
        assert_eq!(check.code, 0, "{}", check.stderr);
        assert_eq!(check.json()["claims"], run.json()["claims"]);
        check.json()["claims"][0].clone()
    };
    let claim = pack(&certs, &dir.join("root.kwalk"));
    let solve = kamisado(
        &[
            "kamon",
            "solve",
            "--layout",
            &layout,
            "--moves",
            &root,
            "--value-only",
            "--json",
        ],
        "",
    );
    assert_eq!(solve.json()["value"], "draw");
    assert_eq!(claim["value"], "draw");
    assert_eq!(claim["winner"], "draw");
    assert_eq!(claim["to_move"], "black");
    let without: Vec<String> = certs
        .iter()
        .filter(|c| !holding.contains(c))
        .cloned()
        .collect();
    let claim = pack(&without, &dir.join("half.kwalk"));
    assert_eq!(claim["value"], "at least a draw");
    assert_eq!(claim["winner"], "black or draw");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn the_survey_chart_is_drawn_from_the_survey() {
    let dir = scratch("plot");
    let out = dir.join("chart.svg");
    let survey = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/kamon-survey.json");
    let run = kamisado(
        &[
            "kamon",
            "survey",
            "plot",
            survey,
            "--out",
            out.to_str().unwrap(),
            "--json",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let points = run.json()["points"].as_array().unwrap().clone();
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(survey).unwrap()).unwrap();
    assert_eq!(points.len(), file["runs"].as_array().unwrap().len());
    for p in &points {
        let run = file["runs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["after"] == p["after"])
            .unwrap();
        let entries = run["entries"].as_array().unwrap();
        let wins = entries.iter().filter(|e| e["value"] == "win").count();
        let share = wins as f64 / entries.len() as f64;
        assert!((p["side_to_move_wins"].as_f64().unwrap() - share).abs() < 1e-9);
    }
    let svg = std::fs::read_to_string(&out).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains("placements made"),
        "{}",
        &svg[..100]
    );
    // Not a survey: one line, exit 2, and no chart.
    let not_survey = dir.join("x.json");
    std::fs::write(&not_survey, "{\"hello\": 1}").unwrap();
    let bad_out = dir.join("bad.svg");
    kamisado(
        &[
            "kamon",
            "survey",
            "plot",
            not_survey.to_str().unwrap(),
            "--out",
            bad_out.to_str().unwrap(),
        ],
        "",
    )
    .assert_one_line_error(2, "x.json");
    assert!(!bad_out.exists());
    std::fs::remove_dir_all(dir).ok();
}
