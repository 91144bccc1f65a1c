//! Damaged but well-formed files, old files, and files changed under a reader: a
//! database answers right or says it cannot, and never brings its reader down.

use std::path::PathBuf;

use kamisado_analysis::{Oracle, OracleError};
use kamisado_core::notation::play_line;
use kamisado_core::{Kamisado, Position};
use kamisado_db::{collect, encode, write, Database, DbError, Record, Solved};
use kamisado_match::{MatchPosition, Target};
use kamisado_solver::{Cancel, Options, Solver};

/// A single-round position as the oracle takes it.
fn m(pos: &Position) -> MatchPosition {
    MatchPosition::from_single_round(pos, Target::Single)
}

fn temp_path(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kamisado-db-integrity-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn solver() -> Solver<Kamisado> {
    Solver::new(
        Kamisado,
        Options {
            threads: 2,
            table_bytes: 16 << 20,
        },
    )
    .unwrap()
}

/// The records of a solve of a mid-game position: a few thousand, many blocks.
fn records() -> (Position, Vec<Record>) {
    let pos = play_line(&Position::start(), "h1-h7 c8-c4").unwrap().end;
    let solver = solver();
    let solution = solver.solve(&pos, &Cancel::new()).unwrap();
    let line = Solved::along_line(&pos, solution.outcome, &solution.pv);
    (pos, collect(&solver, &line))
}

/// Where the records start in an encoded file: after the header, padded to 16 bytes.
fn records_offset(bytes: &[u8], records: usize) -> usize {
    bytes.len() - 16 * records - 4 * records.div_ceil(256)
}

/// The bytes with records `a` and `b` swapped: well formed, but no longer what the
/// checksums say.
fn swapped(bytes: &[u8], records: usize, a: usize, b: usize) -> Vec<u8> {
    let at = records_offset(bytes, records);
    let mut out = bytes.to_vec();
    for k in 0..16 {
        out.swap(at + 16 * a + k, at + 16 * b + k);
    }
    out
}

#[test]
fn swapped_or_flipped_records_are_refused_when_a_small_file_is_opened() {
    let (_, records) = records();
    let bytes = encode(&records, "test").unwrap();
    let path = temp_path("swapped.kdb");
    std::fs::write(&path, swapped(&bytes, records.len(), 3, 700)).unwrap();
    let error = Database::open(&path).err().expect("the damage is noticed");
    assert!(matches!(error, DbError::BlockChecksum { .. }), "{error}");
    let mut flipped = bytes.clone();
    let at = records_offset(&bytes, records.len()) + 16 * 1000 + 5;
    flipped[at] ^= 0x40;
    std::fs::write(&path, &flipped).unwrap();
    let error = Database::open(&path).err().expect("the damage is noticed");
    assert_eq!(
        error.to_string(),
        "damaged: records 768 to 1023 do not match their block's checksum"
    );
}

#[test]
fn a_mapped_file_checks_each_block_a_lookup_reads() {
    let (pos, records) = records();
    let bytes = encode(&records, "test").unwrap();
    let path = temp_path("mapped.kdb");
    // Damage the first block, which only the searches for the smallest keys reach.
    let target = 3;
    let damaged = swapped(&bytes, records.len(), target, target + 1);
    std::fs::write(&path, &damaged).unwrap();
    let db = Database::open_mapped(&path).unwrap();
    assert!(db.is_mapped());
    // The damaged records themselves: an error, never the swapped record.
    let key = records[target].key();
    assert!(matches!(db.find(key), Err(DbError::BlockChecksum { .. })));
    // Records in intact blocks are found as long as the search does not pass through
    // the damaged block; a search that does gets the error.
    let mut found = 0;
    let mut refused = 0;
    for r in records.iter().step_by(97) {
        match db.find(r.key()) {
            Ok(Some(hit)) => {
                assert_eq!(hit, *r);
                found += 1;
            }
            Ok(None) => panic!("a stored record was not found"),
            Err(DbError::BlockChecksum { .. }) => refused += 1,
            Err(e) => panic!("{e}"),
        }
    }
    assert!(
        found > 10 && refused > 0,
        "{found} found, {refused} refused"
    );
    assert!(matches!(
        db.verify_checksum(&mut |_| {}),
        Err(DbError::BlockChecksum { .. })
    ));
    // The oracle passes the error on rather than answering from damaged records.
    let oracle = Oracle::new(Some(db), solver());
    let answers: Vec<Result<_, OracleError>> = records
        .iter()
        .step_by(97)
        .map(|r| oracle.position(&m(&Position::from_key(r.key()).unwrap()), &Cancel::new()))
        .collect();
    assert!(answers
        .iter()
        .any(|a| matches!(a, Err(OracleError::Database(m)) if m.contains("do not match"))));
    // An intact file, mapped, answers everything.
    std::fs::write(&path, &bytes).unwrap();
    let db = Database::open_mapped(&path).unwrap();
    assert!(records
        .iter()
        .all(|r| db.find(r.key()).unwrap() == Some(*r)));
    db.verify_checksum(&mut |_| {}).unwrap();
    let _ = pos;
}

/// A version-1 file, built from its documented layout: the same header without the
/// book's plies and block size, padded to 16 bytes, the records, one CRC-32 over the
/// header (checksum zero) and the records.
fn version_1_bytes(records: &[Record]) -> Vec<u8> {
    let mut header = Vec::new();
    header.extend_from_slice(b"KAMISADB");
    header.extend_from_slice(&1u32.to_le_bytes());
    header.extend_from_slice(&12u64.to_le_bytes());
    header.extend_from_slice(b"single-round");
    let wins = records
        .iter()
        .filter(|r| r.value() == kamisado_solver::Value::Win)
        .count() as u64;
    let exact = records.iter().filter(|r| r.remoteness().is_some()).count() as u64;
    let best = records.iter().filter(|r| r.best_move().is_some()).count() as u64;
    for count in [records.len() as u64, wins, exact, best] {
        header.extend_from_slice(&count.to_le_bytes());
    }
    header.extend_from_slice(&2u64.to_le_bytes());
    header.extend_from_slice(b"v1");
    let body: Vec<u8> = records
        .iter()
        .flat_map(|r| r.bits().to_le_bytes())
        .collect();
    let mut hasher = crc32fast::Hasher::new();
    hasher.update(&header);
    hasher.update(&[0; 4]);
    hasher.update(&body);
    header.extend_from_slice(&hasher.finalize().to_le_bytes());
    while header.len() % 16 != 0 {
        header.push(0);
    }
    header.extend_from_slice(&body);
    header
}

#[test]
fn version_1_files_are_read_and_checked_whole() {
    let (_, records) = records();
    let bytes = version_1_bytes(&records);
    let db = Database::from_bytes(bytes.clone()).unwrap();
    assert_eq!(db.header().version, 1);
    assert_eq!(db.header().book_plies, 0);
    assert!(records
        .iter()
        .all(|r| db.find(r.key()).unwrap() == Some(*r)));
    let mut flipped = bytes;
    let at = flipped.len() - 16 * 10 + 2;
    flipped[at] ^= 1;
    assert!(matches!(
        Database::from_bytes(flipped),
        Err(DbError::Checksum { .. })
    ));
}

#[test]
fn messages_say_what_is_wrong_in_plain_words() {
    let (_, records) = records();
    let bytes = encode(&records, "test").unwrap();
    // A record count of 2^64 - 1: a count, not a byte count.
    let count_at = 8 + 4 + 8 + "single-round".len();
    let mut huge = bytes.clone();
    huge[count_at..count_at + 8].copy_from_slice(&u64::MAX.to_le_bytes());
    let mut messages = Vec::new();
    let message = Database::from_bytes(huge).err().unwrap().to_string();
    messages.push(message.clone());
    assert_eq!(
        message,
        format!(
            "truncated: the header promises 18446744073709551615 records, more bytes than any file can hold, but the file has {} bytes",
            bytes.len()
        )
    );
    // A description that is not text.
    let mut not_text = bytes.clone();
    let description_at = count_at + 32 + 8;
    not_text[description_at] = 0xff;
    let message = Database::from_bytes(not_text).err().unwrap().to_string();
    assert_eq!(message, "damaged header: the description is not UTF-8 text");
    messages.push(message);
    // A length field asking for more than a header holds.
    let mut long = bytes.clone();
    long[count_at + 32..count_at + 40].copy_from_slice(&(1u64 << 40).to_le_bytes());
    let message = Database::from_bytes(long).err().unwrap().to_string();
    messages.push(message.clone());
    assert!(
        message
            .starts_with("damaged header: the description is said to be 1099511627776 bytes long"),
        "{message}"
    );
    // A record with reserved bits set (written by a faulty program, good checksums).
    let mut bad = records.clone();
    bad[5] = Record::from_bits(bad[5].bits() | 1);
    let db = Database::from_bytes(encode(&bad, "faulty").unwrap()).unwrap();
    let message = db.verify_layout().err().unwrap().to_string();
    assert_eq!(message, "damaged: record 5: its reserved bits are set");
    messages.push(message);
    for text in &messages {
        assert!(!text.contains("LimitExceeded") && !text.contains("Utf8 {"));
        assert!(!text.contains("corrupted header"));
    }
}

#[test]
fn a_file_truncated_while_open_does_not_touch_the_reader() {
    let (pos, records) = records();
    let path = temp_path("truncated-under-reader.kdb");
    write(&path, &records, "test", &mut |_| {}).unwrap();
    let db = Database::open(&path).unwrap();
    assert!(!db.is_mapped(), "a small file is read, not mapped");
    // What `cp other.kdb path` does to the file: truncate it in place, then write.
    std::fs::File::create(&path).unwrap();
    // A mapped reader would die here (SIGBUS); this one still has every record.
    assert!(records
        .iter()
        .all(|r| db.find(r.key()).unwrap() == Some(*r)));
    let oracle = Oracle::new(Some(db), solver());
    oracle
        .analyse(&m(&pos), &Cancel::new(), &mut |_| {})
        .unwrap();
}

#[test]
fn writing_over_an_open_database_leaves_its_readers_the_old_file() {
    let (_, records) = records();
    let path = temp_path("replaced-under-reader.kdb");
    write(&path, &records, "old", &mut |_| {}).unwrap();
    let mapped = Database::open_mapped(&path).unwrap();
    // A new file written over the path, by this crate: a new file renamed into place.
    write(&path, &records[..100], "new", &mut |_| {}).unwrap();
    assert_eq!(mapped.header().description, "old");
    assert!(records
        .iter()
        .all(|r| mapped.find(r.key()).unwrap() == Some(*r)));
    mapped.verify_checksum(&mut |_| {}).unwrap();
    assert_eq!(Database::open(&path).unwrap().len(), 100);
}
