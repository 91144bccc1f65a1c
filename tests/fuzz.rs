//! A fuzz harness for every parser, on stable Rust, run as an ordinary test: position
//! text, move lists, game records, match positions and match records, KEI lines in both
//! directions (and the bounded line reader under them), database files (header and
//! records), Kamon certificates, walk certificates and data files (the survey, units results, whole games),
//! and every reader of a file by name (databases, certificates, proof files,
//! text), whose memory is bounded: a test runs them on huge and special files under an
//! address-space limit.
//!
//! Each target is a function of bytes that must not panic and, where a round trip
//! exists, must print what it parsed so that parsing the print gives the same thing
//! back. Three sources feed the targets:
//!
//! - the committed corpus, `tests/fuzz-corpus/<target>/` (every file, every run);
//! - mutations of the corpus (bit flips, inserted syntax characters, deleted, repeated
//!   and spliced pieces, truncations) from a seeded generator, so that a run is the
//!   same every time;
//! - proptest strategies that build near-valid input from each syntax's own alphabet,
//!   which reaches further than random bytes.
//!
//! The harness is bounded: about two seconds per target by default.
//! `KAMISADO_FUZZ_SECONDS=600 cargo test --test fuzz` runs longer, and
//! `KAMISADO_FUZZ_SEED=N` mutates differently. A failing input is printed, escaped, with
//! the target's name: add it to the corpus once fixed. Each target's function has the
//! shape of a libFuzzer target (`fn(&[u8])`), for a nightly `cargo fuzz` to call.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use kamisado_core::notation::play_line;
use kamisado_core::{Move, Position, Setup};
use kamisado_db::{encode, Database, Record};
use kamisado_match::{MatchPosition, MatchRecord};
use kamisado_referee::record::record_text;
use kamisado_referee::{read_line, record_lines, Command, PlayedGame, Reply};
use kamisado_solver::Value;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Position text: a `Setup`, a `Position`, and what a position answers, all without
/// panicking; a position printed and parsed again is the same position.
fn position_target(bytes: &[u8]) {
    let text = text(bytes);
    if let Ok(setup) = text.parse::<Setup>() {
        let again: Setup = setup.to_string().parse().expect("a printed setup parses");
        assert_eq!(again, setup, "setup round trip of {text:?}");
    }
    if let Ok(pos) = text.parse::<Position>() {
        let printed = pos.to_string();
        let again: Position = printed.parse().expect("a printed position parses");
        assert_eq!(again, pos, "position round trip of {text:?}");
        let _ = (pos.legal_moves(), pos.pending_zero_moves(), pos.end());
        let resolved = pos.resolve();
        let _ = (
            resolved.legal_moves(),
            resolved.canonical_key(),
            resolved.winning_move(),
        );
    }
}

/// A move list played from the start (or, when the first line is a position text, from
/// there): each word that parses as a move prints back as itself, and a line that plays
/// replays the same from the moves it reports.
fn moves_target(bytes: &[u8]) {
    let text = text(bytes);
    let (start, moves) = match text.split_once('\n') {
        Some((head, rest)) => match head.parse::<Position>() {
            Ok(pos) => (pos, rest),
            Err(_) => (Position::start(), text.as_str()),
        },
        None => (Position::start(), text.as_str()),
    };
    for word in moves.split_whitespace() {
        if let Ok(m) = word.parse::<Move>() {
            let again: Move = m.to_string().parse().expect("a printed move parses");
            assert_eq!(again, m);
        }
    }
    match play_line(&start, moves) {
        Ok(line) => {
            let printed: Vec<String> = line.moves.iter().map(Move::to_string).collect();
            let again = play_line(&start, &printed.join(" ")).expect("the moves played replay");
            assert_eq!(again.end, line.end, "replay of {moves:?}");
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
}

/// Game records, as `kamisado verify` reads a file: every line is replayed as far as it
/// is legal, and the record of what was played replays to the same game.
fn record_target(bytes: &[u8]) {
    let text = text(bytes);
    for line in record_lines(&text) {
        let game = PlayedGame::parse(&line.text);
        if let Some(e) = &game.error {
            let _ = e.to_string();
        }
        let written = record_text(&game.given, game.startpos, &game.record);
        let again = PlayedGame::parse(&written);
        assert_eq!(
            again.error, None,
            "the record {written:?} of {:?}",
            line.text
        );
        assert_eq!(again.moves, game.moves);
        assert_eq!(again.end(), game.end());
    }
}

/// A match position text on the first line, a match record after it: the position prints
/// back to a text that reads as itself, everything it answers runs, and a record that
/// plays replays from its own text to the same place.
fn match_target(bytes: &[u8]) {
    let text = text(bytes);
    let (head, record) = text.split_once('\n').unwrap_or((text.as_str(), ""));
    let pos = match head.parse::<MatchPosition>() {
        Ok(pos) => pos,
        Err(e) => {
            let _ = e.to_string();
            return;
        }
    };
    let printed = pos.to_string();
    let again: MatchPosition = printed.parse().expect("a printed match position parses");
    assert_eq!(
        again.to_string(),
        printed,
        "match position round trip of {head:?}"
    );
    let _ = (
        pos.legal_moves(),
        pos.pending_zero_moves(),
        pos.round_end(),
        pos.score(kamisado_core::Side::Black),
        pos.round_number(),
        pos.single_round(),
        pos.refill_choices(),
        pos.resolve().winning_move(),
    );
    match MatchRecord::parse(pos, record) {
        Ok(played) => {
            let again = MatchRecord::parse(pos, &played.to_string()).expect("a record replays");
            assert_eq!(again.current(), played.current(), "replay of {record:?}");
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
}

/// KEI from the referee (commands, as an engine reads them) and from an engine
/// (replies, as the referee reads them), line by line through the bounded reader:
/// what parses prints back to the same command or reply.
fn kei_target(bytes: &[u8]) {
    let mut input = bytes;
    while let Some(line) = read_line(&mut input, 4096).expect("reading a slice cannot fail") {
        let kamisado_referee::InputLine::Text(line) = line else {
            continue;
        };
        match Command::parse(&line) {
            Ok(Some(command)) => {
                let printed = command.to_string();
                let again = Command::parse(&printed).expect("a printed command parses");
                assert_eq!(again, Some(command), "command round trip of {line:?}");
                if let Command::Position(spec) = &again.unwrap() {
                    let _ = spec.play();
                }
            }
            Ok(None) => {}
            Err(e) => {
                let _ = e.to_string();
            }
        }
        match Reply::parse(&line) {
            Ok(Some(reply)) => {
                let printed = reply.to_string();
                let again = Reply::parse(&printed).expect("a printed reply parses");
                // `id` and `info` keep their text trimmed and spaced as printed.
                if !matches!(reply, Reply::Id { .. } | Reply::Info(_)) {
                    assert_eq!(again, Some(reply), "reply round trip of {line:?}");
                }
            }
            Ok(None) => {}
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
}

/// A database file's bytes: opened or refused with an error, never a panic; when
/// opened, every record, lookup and check runs (also without panicking).
fn database_target(bytes: &[u8]) {
    match Database::from_bytes(bytes.to_vec()) {
        Ok(db) => {
            let _ = (db.header().to_owned(), db.len(), db.file_bytes());
            for record in db.records().take(10_000) {
                let _ = (record.value(), record.remoteness(), record.best_move());
                let _ = db.find(record.key());
            }
            let _ = db.lookup(&Position::start());
            let _ = db.get(db.len());
            if let Err(e) = db.verify_checksum(&mut |_| {}) {
                let _ = e.to_string();
            }
            if let Err(e) = db.verify_layout() {
                let _ = e.to_string();
            }
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
}

/// A Kamon certificate: read, and if it reads, checked, without panicking; and the same
/// bytes with their checksum made right again, so that altered entries, claims and
/// layouts reach the checker instead of stopping at the checksum.
fn kamon_certificate_target(bytes: &[u8]) {
    let read_and_check = |bytes: &[u8]| match kamon_cert::Certificate::decode(bytes) {
        Ok(cert) => {
            if let Err(e) = kamon_cert::check(&cert) {
                let _ = e.to_string();
            }
            assert_eq!(
                kamon_cert::Certificate::decode(&cert.encode())
                    .ok()
                    .as_ref(),
                Some(&cert),
                "a certificate read is written back the same"
            );
        }
        Err(e) => {
            let _ = e.to_string();
        }
    };
    as_is_and_resealed(bytes, read_and_check);
}

/// A Kamon walk certificate: read, and if it reads, walked (with a small memory limit)
/// without panicking; and the same bytes with their checksum made right again, so that
/// altered claims and choices reach the walk.
fn kamon_walk_target(bytes: &[u8]) {
    let limits = kamon_cert::WalkLimits { positions: 100_000 };
    let read_and_check = |bytes: &[u8]| match kamon_cert::WalkCertificate::decode(bytes) {
        Ok(walk) => {
            if let Err(e) = kamon_cert::check_walk(&walk, limits, &mut |_| {}) {
                let _ = e.to_string();
            }
            assert_eq!(
                kamon_cert::WalkCertificate::decode(&walk.encode())
                    .ok()
                    .as_ref(),
                Some(&walk),
                "a walk certificate read is written back the same"
            );
        }
        Err(e) => {
            let _ = e.to_string();
        }
    };
    as_is_and_resealed(bytes, read_and_check);
}

/// Runs `read_and_check` on `bytes`, then on the same bytes with their word file's
/// checksum made right again, so that altered words reach what lies behind the checksum.
fn as_is_and_resealed(bytes: &[u8], read_and_check: impl Fn(&[u8])) {
    read_and_check(bytes);
    if bytes.len() >= 16 {
        let mut fixed = bytes.to_vec();
        kamisado_files::words::reseal(&mut fixed);
        read_and_check(&fixed);
    }
}

/// Where [`files_target`] writes its input: one file per thread.
fn scratch_file() -> PathBuf {
    let thread = format!("{:?}", std::thread::current().id())
        .chars()
        .filter(char::is_ascii_digit)
        .collect::<String>();
    std::env::temp_dir().join(format!("kamisado-fuzz-{}-{thread}.bin", std::process::id()))
}

/// Every reader of a file by name on a file holding `bytes`: the database (read whole,
/// and mapped), the certificate, the proof file of whole matches, a saved search table
/// and the bounded text reader each read it or refuse it with an error, never a panic.
fn files_target(bytes: &[u8]) {
    let path = scratch_file();
    std::fs::write(&path, bytes).unwrap();
    for db in [Database::open(&path), Database::open_mapped(&path)] {
        match db {
            Ok(db) => {
                let _ = db.lookup(&Position::start());
                let _ = db.verify_checksum(&mut |_| {});
            }
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
    match kamisado_cert::Certificate::read(&path) {
        Ok(cert) => {
            let _ = kamisado_cert::Certificate::decode(&cert.encode()).unwrap();
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
    match kamon_cert::Certificate::read(&path) {
        Ok(cert) => {
            let _ = kamon_cert::Certificate::decode(&cert.encode()).unwrap();
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
    match kamon_cert::WalkCertificate::read(&path) {
        Ok(walk) => {
            let _ = kamon_cert::WalkCertificate::decode(&walk.encode()).unwrap();
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
    match kamisado_match_solver::file::read(&path) {
        Ok(facts) => {
            let again = kamisado_match_solver::file::encode(&facts);
            assert_eq!(again, bytes, "a proof file read prints back to its bytes");
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
    saved_table_target(&path, bytes);
    match kamisado_files::read(&path, 64, "a test file") {
        Ok(read) => assert_eq!(read, bytes),
        Err(e) => assert!(bytes.len() > 64, "{e}"),
    }
    let _ = std::fs::remove_file(&path);
}

/// A saved search table (`units solve --checkpoints`), loaded into a table of the size
/// of the corpus's: refused with an error or loaded, never a panic; and the same bytes
/// with their trailing checksum made right again, so that altered headers and words reach
/// the checks behind it. (The path holds `bytes`; it is rewritten.)
fn saved_table_target(path: &std::path::Path, bytes: &[u8]) {
    use kamisado_analysis::table_file;
    let load = |path: &std::path::Path| {
        let table = kamisado_solver::Table::<u128>::with_bytes(4096).unwrap();
        match table_file::load(path, &table, "--4c6a/... a unit") {
            Ok(saved) => {
                // A loaded table is a table: its entries can be read and searched.
                let _ = table.len();
                table.for_each(|_, _| {});
                assert!(saved.seconds.is_finite());
            }
            Err(e) => {
                let _ = e.to_string();
            }
        }
    };
    load(path);
    if bytes.len() >= 4 {
        let mut fixed = bytes.to_vec();
        let body = fixed.len() - 4;
        let crc = crc32fast::hash(&fixed[..body]);
        fixed[body..].copy_from_slice(&crc.to_le_bytes());
        std::fs::write(path, &fixed).unwrap();
        load(path);
        std::fs::write(path, bytes).unwrap();
    }
}

/// The Kamon data files, each by its own reader (the survey, a split's units results,
/// the whole games): read or refused with an error, never a panic; what one reads, it
/// writes back in a form it reads again.
fn kamon_files_target(bytes: &[u8]) {
    use kamisado_analysis::{
        survey_file::SurveyFile, units_file::UnitsFile, whole_file::WholeFile,
    };
    let text = text(bytes);
    if let Ok(mut survey) = SurveyFile::parse(&text, "f") {
        assert!(SurveyFile::parse(&survey.to_text(), "f").is_ok());
    }
    if let Ok((mut units, split)) = UnitsFile::parse(&text, "f") {
        assert!(UnitsFile::parse(&units.to_text(&split), "f").is_ok());
    }
    if let Ok(mut whole) = WholeFile::parse(&text, "f") {
        assert_eq!(
            WholeFile::parse(&whole.to_text(), "f").unwrap().layouts,
            whole.layouts
        );
    }
}

struct Target {
    name: &'static str,
    run: fn(&[u8]),
    /// Bytes a mutation inserts most often: the syntax's own.
    alphabet: &'static [u8],
}

const TARGETS: [Target; 10] = [
    Target {
        name: "position",
        run: position_target,
        alphabet: b"obupyrgnOBUPYRGN012345678/ bw-\n",
    },
    Target {
        name: "moves",
        run: moves_target,
        alphabet: b"abcdefghi0123456789- \n",
    },
    Target {
        name: "record",
        run: record_target,
        alphabet: b"abcdefgh12345678- #\nposition startpos moves obupyrgnOBUPYRGN/bw+ 3 left right",
    },
    Target {
        name: "match",
        run: match_target,
        alphabet: b"obupyrgnOBUPYRGN012345678/+ bw-\n 3 7 15 left right abcdefgh",
    },
    Target {
        name: "kei",
        run: kei_target,
        alphabet: b"kei ok position startpos moves go movetime bestmove (none) info id name quit 0123456789 abcdefgh-\n\r",
    },
    Target {
        name: "database",
        run: database_target,
        alphabet: b"\x00\x01\xff\x7f\x80KAMISADB",
    },
    Target {
        name: "files",
        run: files_target,
        alphabet: b"\x00\x01\xff\x7f\x80\x20KAMISADBKAMICERTKMATCHPFKSTABLE1\xef\xbb\xbf\n",
    },
    Target {
        name: "kamon-certificate",
        run: kamon_certificate_target,
        alphabet: b"\x00\x01\x02\x03\x3f\x40\xff\x7f\x80KAMONCRT123456abcdef-/",
    },
    Target {
        name: "kamon-walk",
        run: kamon_walk_target,
        alphabet: b"\x00\x01\x02\x03\x3f\x40\xff\x7f\x80KAMONWLK123456abcdef-/",
    },
    Target {
        name: "kamon-files",
        run: kamon_files_target,
        alphabet: b"{}[],:\"0123456789.-e truefalsenull win draw loss black white a1 g4 abcdef --/",
    },
];

/// The target named `name`.
fn target(name: &str) -> &'static Target {
    TARGETS
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no fuzz target `{name}`"))
}

fn corpus(name: &str) -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fuzz-corpus")
        .join(name);
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&path).unwrap())
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no corpus in {}", dir.display());
    files
}

/// Runs `target` on `input`; on a panic, fails with the input, escaped, to reproduce it.
fn check(target: &Target, origin: &str, input: &[u8]) {
    if catch_unwind(AssertUnwindSafe(|| (target.run)(input))).is_err() {
        panic!(
            "fuzz target `{}` panicked on an input from {origin}: {:?}",
            target.name,
            String::from_utf8_lossy(input)
        );
    }
}

/// One random change to `input`, drawn from `rng`: the usual mutations of coverage-blind
/// fuzzers, with inserted bytes drawn mostly from the syntax's alphabet.
fn mutate(rng: &mut fastrand::Rng, input: &mut Vec<u8>, alphabet: &[u8], other: &[u8]) {
    let byte = |rng: &mut fastrand::Rng| {
        if rng.u8(..) < 200 {
            alphabet[rng.usize(..alphabet.len())]
        } else {
            rng.u8(..)
        }
    };
    let len = input.len();
    match rng.u8(..8) {
        0 if len > 0 => {
            let at = rng.usize(..len);
            input[at] ^= 1 << rng.u8(..8);
        }
        1 => {
            let at = rng.usize(..=len);
            let b = byte(rng);
            input.insert(at, b);
        }
        2 if len > 0 => {
            let at = rng.usize(..len);
            let n = rng.usize(1..=(len - at).min(16));
            input.drain(at..at + n);
        }
        3 if len > 0 => {
            let at = rng.usize(..len);
            let n = rng.usize(1..=(len - at).min(64));
            let piece = input[at..at + n].to_vec();
            let to = rng.usize(..=input.len());
            input.splice(
                to..to,
                piece.iter().copied().cycle().take(n * rng.usize(1..4)),
            );
        }
        4 if len > 0 => input.truncate(rng.usize(..len)),
        5 if !other.is_empty() => {
            let at = rng.usize(..other.len());
            let n = rng.usize(1..=(other.len() - at).min(64));
            let to = rng.usize(..=input.len());
            input.splice(to..to, other[at..at + n].iter().copied());
        }
        6 if len > 0 => {
            let at = rng.usize(..len);
            input[at] = byte(rng);
        }
        // A u64-sized field (a database count, a length) set to an extreme.
        _ if len >= 8 => {
            let at = rng.usize(..=len - 8);
            let value = [0, 1, u64::MAX, u64::MAX / 16, 1 << 40][rng.usize(..5)];
            input[at..at + 8].copy_from_slice(&value.to_le_bytes());
        }
        _ => input.push(byte(rng)),
    }
}

fn budget() -> Duration {
    let seconds = std::env::var("KAMISADO_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .unwrap_or(2.0);
    Duration::from_secs_f64(seconds)
}

fn seed() -> u64 {
    std::env::var("KAMISADO_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(12)
}

/// The corpus of `target` as it is, then mutated until the time budget is spent.
fn fuzz(target: &Target) -> usize {
    let corpus = corpus(target.name);
    for (name, input) in &corpus {
        check(target, &format!("the corpus file {name}"), input);
    }
    let deadline = Instant::now() + budget();
    let mut rng = fastrand::Rng::with_seed(seed());
    let mut runs = corpus.len();
    while Instant::now() < deadline {
        let (name, base) = &corpus[rng.usize(..corpus.len())];
        let other = &corpus[rng.usize(..corpus.len())].1;
        let mut input = base.clone();
        for _ in 0..rng.usize(1..=8) {
            mutate(&mut rng, &mut input, target.alphabet, other);
        }
        check(target, &format!("a mutation of {name}"), &input);
        runs += 1;
    }
    runs
}

#[test]
fn position_text_never_panics_and_round_trips() {
    assert!(fuzz(target("position")) > 100);
}

#[test]
fn move_lists_never_panic_and_replay() {
    assert!(fuzz(target("moves")) > 100);
}

#[test]
fn game_records_never_panic_and_replay() {
    assert!(fuzz(target("record")) > 100);
}

#[test]
fn match_positions_and_records_never_panic() {
    assert!(fuzz(target("match")) > 100);
}

#[test]
fn kei_lines_never_panic_and_round_trip() {
    assert!(fuzz(target("kei")) > 100);
}

#[test]
fn database_files_never_panic() {
    assert!(fuzz(target("database")) > 100);
}

#[test]
fn file_readers_never_panic() {
    // The corpus's saved table is one the reader loads, so that mutations start from a
    // file that reaches every check.
    // Both versions: the first without stopped paths, the second with one.
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz-corpus/files");
    for (file, paths) in [("saved-table.bin", 0), ("saved-table-paths.bin", 1)] {
        let table = kamisado_solver::Table::<u128>::with_bytes(4096).unwrap();
        let saved =
            kamisado_analysis::table_file::load(&corpus.join(file), &table, "--4c6a/... a unit")
                .unwrap();
        assert_eq!((saved.nodes, table.len()), (123_456, 2));
        let found = table.stopped_paths().all();
        assert_eq!(found.len(), paths, "{file}");
        assert!(found.iter().all(|p| p.len() == 2));
    }
    assert!(fuzz(target("files")) > 100);
}

/// The readers' own run for [`file_readers_refuse_huge_and_special_files_in_bounded_memory`],
/// in a process whose address space is limited to 1 GiB: a 20 GiB file (sparse, so it costs
/// no disk) with a header announcing exactly its size, and `/dev/zero` (endless), are
/// refused without reading them whole, and so is a FIFO nobody writes to, at once.
fn readers_under_a_memory_limit() {
    let dir = std::env::temp_dir().join(format!("kamisado-fuzz-huge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let size: u64 = 20 << 30;
    let huge = |name: &str, header: &[u8]| {
        let path = dir.join(name);
        std::fs::write(&path, header).unwrap();
        std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(size)
            .unwrap();
        path
    };
    let mut cert = b"KAMICERT".to_vec();
    cert.extend_from_slice(&1u32.to_le_bytes());
    cert.extend_from_slice(&[0; 4]);
    cert.extend_from_slice(&1u32.to_le_bytes());
    cert.extend_from_slice(&[0; 4]);
    cert.extend_from_slice(&((size - 32) / 16 - 1).to_le_bytes());
    // A Kamon certificate's header: one claim, no layout text, and entries to fill it.
    let mut kamon_cert = b"KAMONCRT".to_vec();
    kamon_cert.extend_from_slice(&1u32.to_le_bytes());
    kamon_cert.extend_from_slice(&[0; 4]);
    kamon_cert.extend_from_slice(&1u32.to_le_bytes());
    kamon_cert.extend_from_slice(&0u32.to_le_bytes());
    kamon_cert.extend_from_slice(&((size - 32) / 16 - 1).to_le_bytes());
    // A walk certificate's header: one claim, no layout text, and words to fill it.
    let mut kamon_walk = kamon_cert.clone();
    kamon_walk[..8].copy_from_slice(b"KAMONWLK");
    let mut proofs = b"KMATCHPF".to_vec();
    proofs.extend_from_slice(&1u32.to_le_bytes());
    proofs.extend_from_slice(&[0; 4]);
    proofs.extend_from_slice(&((size - 32) / 32).to_le_bytes());
    proofs.extend_from_slice(&[0; 8]);
    let fifo = dir.join("fifo");
    let _ = std::fs::remove_file(&fifo);
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let files = [
        huge("zeros", b""),
        huge("huge.kcert", &cert),
        huge("huge.kmp", &proofs),
        huge("huge.kdb", b"KAMISADB"),
        huge("huge-kamon.kcert", &kamon_cert),
        huge("huge-kamon.kwalk", &kamon_walk),
        PathBuf::from("/dev/zero"),
        fifo,
    ];
    for path in &files {
        let shown = path.display();
        assert!(Database::open(path).is_err(), "{shown}");
        assert!(kamisado_cert::Certificate::read(path).is_err(), "{shown}");
        assert!(kamisado_match_solver::file::read(path).is_err(), "{shown}");
        assert!(kamon_cert::Certificate::read(path).is_err(), "{shown}");
        assert!(kamon_cert::WalkCertificate::read(path).is_err(), "{shown}");
        assert!(
            kamisado_files::read(path, 256 << 20, "a test file").is_err(),
            "{shown}"
        );
    }
    // The bounds themselves: what is refused for size is refused before it is read.
    assert!(matches!(
        kamisado_cert::Certificate::read(&files[1]),
        Err(kamisado_cert::CertError::Input(
            kamisado_files::InputError::TooLarge { .. }
        ))
    ));
    assert!(matches!(
        kamon_cert::Certificate::read(&files[4]),
        Err(kamon_cert::CertError::Input(
            kamisado_files::InputError::TooLarge { .. }
        ))
    ));
    assert!(matches!(
        kamisado_match_solver::file::read(&files[2]),
        Err(kamisado_match_solver::ProofFileError::Refused { .. })
    ));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs [`readers_under_a_memory_limit`] in a child process of this test binary whose
/// address space `ulimit -v` limits to 1 GiB: a reader that tried to hold one of its
/// files would fail to allocate and abort the child, failing this test.
#[test]
fn file_readers_refuse_huge_and_special_files_in_bounded_memory() {
    const CHILD: &str = "KAMISADO_FUZZ_MEMORY_CHILD";
    if std::env::var_os(CHILD).is_some() {
        readers_under_a_memory_limit();
        return;
    }
    let me = std::env::current_exe().unwrap();
    let output = std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 1048576 && exec \"$0\" --exact file_readers_refuse_huge_and_special_files_in_bounded_memory --test-threads 1 --nocapture")
        .arg(&me)
        .env(CHILD, "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.contains("1 passed"),
        "{}\n{stdout}\n{stderr}",
        output.status
    );
}

#[test]
fn kamon_certificates_never_panic() {
    assert!(fuzz(target("kamon-certificate")) > 100);
}

#[test]
fn kamon_walk_certificates_never_panic() {
    assert!(fuzz(target("kamon-walk")) > 100);
}

#[test]
fn kamon_data_files_never_panic() {
    assert!(fuzz(target("kamon-files")) > 100);
}

fn runner(cases: u32) -> TestRunner {
    TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    })
}

/// Text built from the syntax's pieces: closer to valid than random bytes.
#[test]
fn near_valid_text_never_panics() {
    let rank = "[obupyrgnOBUPYRGN1-8]{0,9}";
    let position = format!("({rank}/){{0,8}}{rank} [bwx] [obupyrgn-]{{1,2}}");
    let moves = "([a-h][1-8]-[a-h][1-8] ){0,12}";
    let strategies: [(&Target, String); 4] = [
        (&TARGETS[0], position.clone()),
        (&TARGETS[1], moves.to_string()),
        (&TARGETS[2], format!("(position ({position}|startpos) moves )?{moves}")),
        (
            &TARGETS[3],
            format!("((kei|keiok|go( movetime -?[0-9]{{0,6}})?|bestmove [a-h][1-8]-[a-h][1-8]|position startpos moves {moves}|id name .{{0,8}}|info .{{0,8}})\n){{1,6}}"),
        ),
    ];
    for (target, pattern) in strategies {
        runner(400)
            .run(&pattern.as_str(), |input| {
                check(target, "a proptest strategy", input.as_bytes());
                Ok(())
            })
            .unwrap();
    }
}

/// Any sorted records encode to a file that opens to the same records.
#[test]
fn databases_round_trip() {
    let record = (
        any::<u128>(),
        any::<bool>(),
        proptest::option::of(0u32..200),
        any::<u16>(),
    )
        .prop_map(|(key, win, remoteness, best)| {
            let value = if win { Value::Win } else { Value::Loss };
            let from = kamisado_core::Square::new((best % 64) as u8);
            let to = kamisado_core::Square::new((best / 64 % 64) as u8);
            let best = (best % 3 == 0).then(|| Move::new(from, to));
            Record::new(key, value, remoteness, best)
        });
    runner(200)
        .run(&proptest::collection::vec(record, 0..200), |mut records| {
            records.sort_by_key(|r| r.key());
            records.dedup_by_key(|r| r.key());
            let bytes = encode(&records, "fuzz").unwrap();
            let db = Database::from_bytes(bytes.clone()).unwrap();
            prop_assert_eq!(db.records().collect::<Vec<_>>(), records.clone());
            db.verify_checksum(&mut |_| {}).unwrap();
            db.verify_layout().unwrap();
            database_target(&bytes);
            Ok(())
        })
        .unwrap();
}
