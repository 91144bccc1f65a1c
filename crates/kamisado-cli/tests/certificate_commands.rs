//! `prove`, `certificate check` and `openings --certify` through the binary, and the
//! shipped certificates against the shipped opening table.

use std::path::{Path, PathBuf};

mod common;
use common::kamisado;

use kamisado_cert::Certificate;
use serde_json::Value as Json;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../data")
        .join(name)
}

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kamisado-cli-cert-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn the_shipped_start_certificate_proves_black_wins_in_17() {
    let run = kamisado(
        &[
            "certificate",
            "check",
            text(&data("certificates/start.kcert")),
            "--json",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report = run.json();
    assert_eq!(report["verified"], true);
    let claims = report["claims"].as_array().unwrap();
    assert_eq!(claims.len(), 1);
    assert_eq!(claims[0]["position"], "obupyrgn/8/8/8/8/8/8/NGRYPUBO b -");
    assert_eq!(claims[0]["winner"], "black");
    assert_eq!(claims[0]["remoteness"], 17);
    let human = kamisado(
        &[
            "certificate",
            "check",
            text(&data("certificates/start.kcert")),
        ],
        "",
    );
    assert!(
        human.stdout.contains("black wins in 17"),
        "{}",
        human.stdout
    );
}

#[test]
fn the_shipped_opening_certificate_proves_the_shipped_opening_table() {
    let table: Json =
        serde_json::from_str(&std::fs::read_to_string(data("openings.json")).unwrap()).unwrap();
    let run = kamisado(
        &[
            "certificate",
            "check",
            text(&data("certificates/openings.kcert")),
            "--json",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report = run.json();
    let claims = report["claims"].as_array().unwrap();
    let moves = table["moves"].as_array().unwrap();
    assert_eq!(claims.len(), 1 + moves.len());
    assert_eq!(claims[0]["position"], table["position"]);
    assert_eq!(claims[0]["value"], table["value"]);
    assert_eq!(claims[0]["remoteness"], table["remoteness"]);
    for (claim, entry) in claims[1..].iter().zip(moves) {
        let after = &claim["after"];
        assert_eq!(after["claim"], 1);
        assert_eq!(after["move"], entry["move"]);
        assert_eq!(after["value"], entry["value"], "{}", entry["move"]);
        assert_eq!(
            after["remoteness"], entry["remoteness"],
            "{}",
            entry["move"]
        );
    }
}

#[test]
fn a_flipped_move_fails_with_exit_1_and_a_damaged_file_with_exit_2() {
    let dir = temp_dir();
    let cert = Certificate::read(&data("certificates/start.kcert")).unwrap();
    // Give the first entry that names a move another legal move that does not keep its
    // statement; the file stays well formed.
    let mut found = None;
    'entries: for (index, e) in cert.entries.iter().enumerate() {
        let Some(chosen) = e.chosen_move() else {
            continue;
        };
        let pos = kamisado_core::Position::from_key(e.key()).unwrap();
        for m in pos.legal_moves() {
            if m == chosen {
                continue;
            }
            let mut changed = cert.clone();
            changed.entries[index] = e.with_move(Some(m));
            if kamisado_cert::check(&changed).is_err() {
                found = Some((index, changed));
                break 'entries;
            }
        }
    }
    let (index, changed) = found.expect("some move change breaks the proof");
    let path = dir.join("flipped.kcert");
    std::fs::write(&path, changed.encode()).unwrap();
    let run = kamisado(&["certificate", "check", text(&path)], "");
    run.assert_one_line_error(1, &format!("entry {index} "));
    assert!(run.stdout.is_empty(), "{}", run.stdout);

    let mut bytes = cert.encode();
    bytes[100] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    kamisado(&["certificate", "check", text(&path)], "")
        .assert_one_line_error(2, "checksum mismatch");
    std::fs::write(&path, &bytes[..1000]).unwrap();
    kamisado(&["certificate", "check", text(&path)], "").assert_one_line_error(2, "damaged");
    std::fs::write(&path, b"not a certificate").unwrap();
    kamisado(&["certificate", "check", text(&path)], "")
        .assert_one_line_error(2, "not a certificate");
    kamisado(
        &["certificate", "check", text(&dir.join("missing.kcert"))],
        "",
    )
    .assert_one_line_error(2, "cannot read");
}

#[test]
fn prove_writes_a_certificate_of_what_solve_finds() {
    let dir = temp_dir();
    let moves = "h1-h7 c8-c4 b1-b2 h8-d4";
    let out = dir.join("mid.kcert");
    let run = kamisado(
        &[
            "prove",
            "--moves",
            moves,
            "--out",
            text(&out),
            "--hash-mb",
            "32",
            "--json",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let proved = run.json();
    let solved = kamisado(
        &["solve", "--moves", moves, "--hash-mb", "32", "--json"],
        "",
    )
    .json();
    assert_eq!(proved["claim"]["position"], solved["position"]);
    assert_eq!(proved["claim"]["value"], solved["value"]);
    assert_eq!(proved["claim"]["remoteness"], solved["remoteness"]);
    assert_eq!(
        proved["certificate"]["bytes"].as_u64().unwrap(),
        std::fs::metadata(&out).unwrap().len()
    );
    let checked = kamisado(&["certificate", "check", text(&out), "--json"], "").json();
    assert_eq!(checked["claims"][0]["remoteness"], solved["remoteness"]);
    // No temporary file is left beside it.
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty());
}

#[test]
fn prove_refuses_a_directory_before_searching() {
    let dir = temp_dir();
    kamisado(&["prove", "--out", text(&dir)], "").assert_one_line_error(2, "is a directory");
    kamisado(&["openings", "--certify", text(&data("openings.json"))], "")
        .assert_one_line_error(2, "needs a directory");
}

/// An entry whose key is no position is described in words, not by the program's name
/// for its kind ("Survives within 127").
#[test]
fn an_entry_that_is_no_position_is_described_in_words() {
    let start = Certificate::read(&data("certificates/start.kcert")).unwrap();
    let key = (1u128 << 101) - 1;
    let entry = kamisado_cert::Entry::new(key, kamisado_cert::Kind::Survives, 127, None);
    let forged = Certificate {
        claims: start.claims[..1].to_vec(),
        entries: vec![entry],
    };
    let path = temp_dir().join("no-position.kcert");
    std::fs::write(&path, forged.encode()).unwrap();
    let run = kamisado(&["certificate", "check", text(&path)], "");
    assert_ne!(run.code, 0, "{}", run.stdout);
    let said = format!("{}{}", run.stdout, run.stderr);
    assert!(
        said.contains("the side to move avoids losing for 127 moves"),
        "{said}"
    );
    assert!(!said.contains("Survives"), "{said}");
}
