//! A search's table saved to a file, to resume the search in a later process.
//!
//! Why: a proof-number search keeps all it knows in its table and the table's stopped
//! paths (started again from the root over them, it goes on where it stopped), and
//! the longest Kamon units outlive a session of the machine (seed 4's `a3 e3` ran
//! 1.42 G nodes, about two hours, after an earlier run had been stopped at 416 M nodes
//! and its work lost). Saving the table whole is the simplest thing that keeps that work:
//! the table is a flat array of words ([`Table::write_words`]), a few seconds to write
//! at the sizes units use (128 MiB to 1 GiB).
//!
//! Rejected: saving only the proven entries (a resumed search would lose the proof and
//! disproof numbers that steer it, and most of a long unit's table is unproven), and
//! compressing (a long unit's table is full, so there is little to gain).
//!
//! | offset | bytes | field |
//! |---|---|---|
//! | 0 | 8 | magic `KSTABLE1` |
//! | 8 | 4 | format version, u32 little-endian (2; version 1 is read too) |
//! | 12 | 4 | length L of the text, u32 little-endian (at most 4096) |
//! | 16 | 8 | table bytes T, u64 little-endian |
//! | 24 | 8 | nodes searched so far, u64 little-endian |
//! | 32 | 8 | seconds searched so far, f64 little-endian |
//! | 40 | 8 | words W of the stopped paths, u64 little-endian (not in version 1) |
//! | H | P | the text (what was searched), zero-padded to P = L rounded up to 8 (H = 48; 40 in version 1) |
//! | H + P | 8W | the stopped paths ([`StoppedPaths`](kamisado_solver::StoppedPaths)): per path its number of keys, then their words; u64 little-endian |
//! | H + P + 8W | T | the table's words ([`Table::write_words`]) |
//! | H + P + 8W + T | 4 | CRC-32 (zlib/IEEE) of every byte before it |
//!
//! The stopped paths (version 2) are where the search was when it stopped: a search
//! started again goes on down them instead of wandering into siblings it never needed
//! (see [`StoppedPaths`](kamisado_solver::StoppedPaths)). A version 1 file has none: it resumes as before, over the
//! same table, only less closely.
//!
//! **Kept tables** ([`save_kept`]): the same format holding a small table of a search's
//! costliest entries ([`KEPT_ENTRIES`], 4 MiB), which resumes it about as well as the whole
//! table (measured on two units stopped half way: see the README's *Kept tables*) and,
//! unlike a 512 MiB table, fits beside the results in the repository, so that
//! a unit goes on in a later session on another machine. A saved table smaller than the
//! search's is loaded by copying its entries in.
//!
//! A file is refused in one line (exit 2 at the command line) when it is not this format,
//! its length is not the one its header announces, its checksum fails, it holds the table
//! of another search, or a table larger than the one asked for.

use std::io::{BufReader, Read, Write};
use std::path::Path;

use kamisado_files::InputError;
use kamisado_solver::stopped::{MAX_PATHS, MAX_PATH_KEYS};
use kamisado_solver::{Key, Table};

const MAGIC: [u8; 8] = *b"KSTABLE1";
const VERSION: u32 = 2;
/// The version before the stopped paths, still read.
const VERSION_WITHOUT_PATHS: u32 = 1;
const HEADER_BYTES: usize = 48;
const HEADER_BYTES_WITHOUT_PATHS: usize = 40;
const MAX_TEXT: u32 = 4096;
const CHECKSUM_BYTES: u64 = 4;

/// What a saved table was a table of, and what it cost so far.
#[derive(Clone, Debug, PartialEq)]
pub struct Saved {
    /// What was searched (for a Kamon unit, its position text), checked on loading.
    pub text: String,
    /// Nodes searched to fill the table, over every run so far.
    pub nodes: u64,
    /// Seconds searched, over every run so far.
    pub seconds: f64,
}

/// Why a saved table was refused. Each message is one line; the caller names the file.
#[derive(Debug, thiserror::Error)]
pub enum TableFileError {
    #[error("{0}")]
    Input(#[from] InputError),
    #[error("not a saved table (the file does not start with KSTABLE1)")]
    NotThisFormat,
    #[error(
        "saved table format version {0} is not supported (this program reads versions {VERSION_WITHOUT_PATHS} and {VERSION})"
    )]
    UnsupportedVersion(u32),
    #[error("damaged: {0}")]
    Damaged(String),
    #[error("damaged: checksum mismatch (the file says {stored:#010x}, the contents give {computed:#010x})")]
    Checksum { stored: u32, computed: u32 },
    #[error("the saved table of another search ({found}), not of {wanted}")]
    OtherSearch { found: String, wanted: String },
    #[error("a table of {found} MiB, larger than this run's tables of {wanted} MiB: run with --hash-mb {found} to resume it")]
    OtherSize { found: u64, wanted: u64 },
}

fn padded(len: usize) -> usize {
    len.div_ceil(8) * 8
}

/// Writes `table` and `saved` to `path` whole (a temporary file renamed into place), for
/// [`load`]. Call it between searches of the table.
pub fn save<K: Key>(path: &Path, table: &Table<K>, saved: &Saved) -> std::io::Result<()> {
    let text = saved.text.as_bytes();
    if text.len() > MAX_TEXT as usize {
        return Err(std::io::Error::other(format!(
            "a saved table's text has at most {MAX_TEXT} bytes, not {}",
            text.len()
        )));
    }
    kamisado_files::replace(path, |out| {
        let mut out = Crc {
            inner: out,
            hasher: crc32fast::Hasher::new(),
        };
        let mut header = Vec::with_capacity(HEADER_BYTES + padded(text.len()));
        header.extend_from_slice(&MAGIC);
        header.extend_from_slice(&VERSION.to_le_bytes());
        header.extend_from_slice(&(text.len() as u32).to_le_bytes());
        header.extend_from_slice(&(table.bytes() as u64).to_le_bytes());
        header.extend_from_slice(&saved.nodes.to_le_bytes());
        header.extend_from_slice(&saved.seconds.to_le_bytes());
        let paths = path_words(table);
        header.extend_from_slice(&(paths.len() as u64).to_le_bytes());
        header.extend_from_slice(text);
        header.resize(HEADER_BYTES + padded(text.len()), 0);
        out.write_all(&header)?;
        let bytes: Vec<u8> = paths.iter().flat_map(|w| w.to_le_bytes()).collect();
        out.write_all(&bytes)?;
        table.write_words(&mut out)?;
        let crc = out.hasher.finalize();
        out.inner.write_all(&crc.to_le_bytes())
    })
}

/// How many entries a kept table holds ([`save_kept`]): 65,536 of 32 bytes in a table of
/// twice as many slots, a 4 MiB file. Two stopped units resumed from their costliest 0.2%
/// to 3% of entries needed no more nodes than from their whole tables.
pub const KEPT_ENTRIES: usize = 1 << 16;

/// Writes the `count` costliest entries of `table` ([`Table::heaviest`]) to `path` as a
/// saved table of their own, twice their number in slots (never more than `table`'s), for
/// [`load`] into a table of any size at least as large.
pub fn save_kept<K: Key>(
    path: &Path,
    table: &Table<K>,
    saved: &Saved,
    count: usize,
) -> std::io::Result<()> {
    let slots = (2 * count.max(1) * Table::<K>::ENTRY_BYTES).min(table.bytes());
    let kept = Table::<K>::with_bytes(slots)?;
    kept.stopped_paths().restore(table.stopped_paths().all());
    // Lightest first: where two meet in a full bucket, the later (costlier) one stays.
    for &(key, entry) in table.heaviest(count).iter().rev() {
        kept.store(key, entry);
    }
    save(path, &kept, saved)
}

/// Fills `table` (fresh, of the size the run asks for) from the file at `path`, if it
/// holds the table of `text` at that size or a smaller one (a kept table: its entries
/// are copied in), and returns what it says of it. On an error after the header (a
/// damaged file), the table may hold part of the file: drop it.
pub fn load<K: Key>(path: &Path, table: &Table<K>, text: &str) -> Result<Saved, TableFileError> {
    let mut input = kamisado_files::open(path)?;
    let mut header = input.read_up_to(HEADER_BYTES_WITHOUT_PATHS as u64)?;
    if header.len() < MAGIC.len() || header[..MAGIC.len()] != MAGIC {
        return Err(TableFileError::NotThisFormat);
    }
    let file_len = input.len;
    let ends_inside = |header_bytes: usize| {
        TableFileError::Damaged(format!(
            "the file ends inside the {header_bytes}-byte header ({file_len} bytes)"
        ))
    };
    if header.len() < HEADER_BYTES_WITHOUT_PATHS {
        return Err(ends_inside(HEADER_BYTES_WITHOUT_PATHS));
    }
    let version = u32::from_le_bytes(header[8..12].try_into().expect("4"));
    let header_bytes = match version {
        VERSION => HEADER_BYTES,
        VERSION_WITHOUT_PATHS => HEADER_BYTES_WITHOUT_PATHS,
        _ => return Err(TableFileError::UnsupportedVersion(version)),
    };
    if header_bytes > header.len() {
        let rest = input.read_up_to((header_bytes - header.len()) as u64)?;
        header.extend_from_slice(&rest);
        if header.len() < header_bytes {
            return Err(ends_inside(header_bytes));
        }
    }
    let u32_at = |at: usize| u32::from_le_bytes(header[at..at + 4].try_into().expect("4"));
    let u64_at = |at: usize| u64::from_le_bytes(header[at..at + 8].try_into().expect("8"));
    let path_words = if version == VERSION { u64_at(40) } else { 0 };
    let most_path_words = (MAX_PATHS * (1 + MAX_PATH_KEYS * K::WORDS)) as u64;
    if path_words > most_path_words {
        return Err(TableFileError::Damaged(format!(
            "stopped paths of {path_words} words announced (at most {most_path_words})"
        )));
    }
    let text_len = u32_at(12);
    if text_len > MAX_TEXT {
        return Err(TableFileError::Damaged(format!(
            "a text of {text_len} bytes announced (at most {MAX_TEXT})"
        )));
    }
    let table_bytes = u64_at(16);
    let text_bytes = padded(text_len as usize) as u64;
    let expected = (header_bytes as u64 + text_bytes + 8 * path_words + CHECKSUM_BYTES)
        .checked_add(table_bytes);
    if expected != Some(input.len) {
        return Err(TableFileError::Damaged(format!(
            "the file has {} bytes, but its header announces a {table_bytes}-byte table, a {text_len}-byte text and {path_words} words of stopped paths, {} bytes in all",
            input.len,
            expected.map_or("more than 2^64".to_owned(), |e| e.to_string()),
        )));
    }
    if table_bytes > table.bytes() as u64 {
        return Err(TableFileError::OtherSize {
            found: table_bytes >> 20,
            wanted: (table.bytes() >> 20) as u64,
        });
    }
    // A smaller table is read into one of its own size (no larger than `table`), then
    // copied across.
    let smaller = if table_bytes < table.bytes() as u64 {
        let smaller = Table::<K>::with_bytes(table_bytes as usize)?;
        if smaller.bytes() as u64 != table_bytes {
            return Err(TableFileError::Damaged(format!(
                "a table of {table_bytes} bytes is not a size a table can have"
            )));
        }
        Some(smaller)
    } else {
        None
    };
    let mut hasher = crc32fast::Hasher::new();
    hasher.update(&header);
    let mut body = Crc {
        inner: BufReader::with_capacity(1 << 20, (&mut input.file).take(input.len)),
        hasher,
    };
    let mut found = vec![0u8; text_bytes as usize];
    body.read_exact(&mut found)?;
    found.truncate(text_len as usize);
    let found = String::from_utf8_lossy(&found).into_owned();
    if found != text {
        return Err(TableFileError::OtherSearch {
            found,
            wanted: text.to_owned(),
        });
    }
    let mut words = vec![0u8; 8 * path_words as usize];
    body.read_exact(&mut words)?;
    let words: Vec<u64> = words
        .chunks_exact(8)
        .map(|w| u64::from_le_bytes(w.try_into().expect("8")))
        .collect();
    // Checked against the checksum below, before they are used.
    let paths = paths_from_words::<K>(&words);
    smaller.as_ref().unwrap_or(table).read_words(&mut body)?;
    let computed = body.hasher.finalize();
    let mut stored = [0u8; 4];
    body.inner.read_exact(&mut stored)?;
    let stored = u32::from_le_bytes(stored);
    if stored != computed {
        return Err(TableFileError::Checksum { stored, computed });
    }
    let paths = paths.map_err(TableFileError::Damaged)?;
    let seconds = f64::from_le_bytes(header[32..40].try_into().expect("8"));
    if !seconds.is_finite() || seconds < 0.0 {
        return Err(TableFileError::Damaged(format!(
            "{seconds} seconds searched"
        )));
    }
    if let Some(smaller) = smaller {
        // Lightest first, as in `save_kept`.
        for &(key, entry) in smaller.heaviest(smaller.capacity()).iter().rev() {
            table.store(key, entry);
        }
    }
    table.stopped_paths().restore(paths);
    Ok(Saved {
        text: found,
        nodes: u64_at(24),
        seconds,
    })
}

/// The stopped paths of `table` as words: per path its number of keys, then their words.
fn path_words<K: Key>(table: &Table<K>) -> Vec<u64> {
    let mut words = Vec::new();
    let mut key = vec![0u64; K::WORDS];
    for path in table.stopped_paths().all() {
        words.push(path.len() as u64);
        for k in path {
            k.to_words(&mut key);
            words.extend_from_slice(&key);
        }
    }
    words
}

/// The paths [`path_words`] wrote, or what is wrong with the words.
fn paths_from_words<K: Key>(words: &[u64]) -> Result<Vec<Vec<K>>, String> {
    let mut paths = Vec::new();
    let mut rest = words;
    while let Some((&count, after)) = rest.split_first() {
        let keys = usize::try_from(count)
            .ok()
            .filter(|&n| (1..=MAX_PATH_KEYS).contains(&n))
            .ok_or_else(|| format!("a stopped path of {count} keys (1 to {MAX_PATH_KEYS})"))?;
        let needed = keys * K::WORDS;
        if after.len() < needed {
            return Err(format!(
                "a stopped path of {keys} keys runs past the {} words of the paths",
                words.len()
            ));
        }
        let (path, after) = after.split_at(needed);
        paths.push(path.chunks_exact(K::WORDS).map(K::from_words).collect());
        rest = after;
    }
    if paths.len() > MAX_PATHS {
        return Err(format!(
            "{} stopped paths (at most {MAX_PATHS})",
            paths.len()
        ));
    }
    Ok(paths)
}

impl From<std::io::Error> for TableFileError {
    fn from(e: std::io::Error) -> TableFileError {
        TableFileError::Input(InputError::Read(e))
    }
}

/// A reader or writer that passes the bytes on and hashes them.
struct Crc<T> {
    inner: T,
    hasher: crc32fast::Hasher,
}

impl<W: Write> Write for Crc<W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(bytes)?;
        self.hasher.update(&bytes[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

impl<R: Read> Read for Crc<R> {
    fn read(&mut self, bytes: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(bytes)?;
        self.hasher.update(&bytes[..n]);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kamisado_solver::{Entry, Question, Score};

    /// A directory of the test's own (tests run side by side and each removes its own).
    fn dir(test: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("table-file-{}-{test}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn filled() -> Table<u128> {
        let table = Table::<u128>::with_bytes(1 << 20).unwrap();
        for k in 0..300u128 {
            table.store(
                k * 0x9e37_79b9_7f4a_7c15,
                Entry {
                    pn: k as u32 + 1,
                    dn: 3,
                    question: Question::Wins,
                    low: Score::LOST,
                    high: Score::WON,
                    work: k as u32 + 1,
                },
            );
        }
        table
    }

    fn entries(t: &Table<u128>) -> Vec<(u128, Entry)> {
        let mut all = Vec::new();
        t.for_each(|k, e| all.push((k, e)));
        all
    }

    #[test]
    fn a_saved_table_loads_whole_and_a_damaged_one_is_refused() {
        let dir = dir("whole");
        let path = dir.join("unit.table");
        let table = filled();
        let saved = Saved {
            text: "a position".to_owned(),
            nodes: 12_345,
            seconds: 6.5,
        };
        save(&path, &table, &saved).unwrap();
        let back = Table::<u128>::with_bytes(1 << 20).unwrap();
        assert_eq!(load(&path, &back, "a position").unwrap(), saved);
        assert_eq!(entries(&back), entries(&table));

        let fresh = || Table::<u128>::with_bytes(1 << 20).unwrap();
        let refused = |bytes: &[u8]| {
            let bad = dir.join("bad.table");
            std::fs::write(&bad, bytes).unwrap();
            load(&bad, &fresh(), "a position").unwrap_err().to_string()
        };
        let bytes = std::fs::read(&path).unwrap();
        // Every byte of the header, the text, a word and the checksum matters.
        for at in [0, 9, 13, 17, 25, 33, 41, 48, 5000, bytes.len() - 1] {
            let mut bad = bytes.clone();
            bad[at] ^= 0x10;
            let message = refused(&bad);
            assert!(!message.contains('\n'), "{message}");
            let kind = [
                "not a saved table",
                "version",
                "damaged",
                "MiB",
                "another search",
            ];
            assert!(
                kind.iter().any(|k| message.contains(k)),
                "byte {at}: {message}"
            );
        }
        assert!(refused(&bytes[..bytes.len() - 1]).contains("damaged"));
        assert!(refused(&bytes[..20]).contains("damaged"));
        assert!(refused(b"").contains("not a saved table"));
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(refused(&longer).contains("damaged"));

        // Another search's table, or a larger one.
        let message = load(&path, &fresh(), "another position")
            .unwrap_err()
            .to_string();
        assert!(message.contains("another search (a position)"), "{message}");
        let smaller = Table::<u128>::with_bytes(1 << 19).unwrap();
        let message = load(&path, &smaller, "a position").unwrap_err().to_string();
        assert!(message.contains("--hash-mb 1 "), "{message}");
        // A smaller one loads into a larger table: the same entries.
        let bigger = Table::<u128>::with_bytes(2 << 20).unwrap();
        assert_eq!(load(&path, &bigger, "a position").unwrap(), saved);
        let sorted = |mut all: Vec<(u128, Entry)>| {
            all.sort_by_key(|&(k, _)| k);
            all
        };
        assert_eq!(sorted(entries(&bigger)), sorted(entries(&table)));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// `bytes` with its checksum made right again (to test what comes after the checksum).
    fn resealed(mut bytes: Vec<u8>) -> Vec<u8> {
        let body = bytes.len() - 4;
        let crc = crc32fast::hash(&bytes[..body]);
        bytes[body..].copy_from_slice(&crc.to_le_bytes());
        bytes
    }

    #[test]
    fn stopped_paths_go_with_the_table_whole_or_kept_and_version_1_still_loads() {
        let dir = dir("paths");
        let path = dir.join("unit.table");
        let table = filled();
        let paths = vec![vec![5u128, u128::MAX, 7], vec![1u128 << 100]];
        table.stopped_paths().restore(paths.clone());
        let saved = Saved {
            text: "a position".to_owned(),
            nodes: 1,
            seconds: 0.5,
        };
        let fresh = || Table::<u128>::with_bytes(1 << 20).unwrap();
        save(&path, &table, &saved).unwrap();
        let back = fresh();
        load(&path, &back, "a position").unwrap();
        assert_eq!(back.stopped_paths().all(), paths);
        let kept_path = dir.join("unit.kept");
        save_kept(&kept_path, &table, &saved, 50).unwrap();
        let back = fresh();
        load(&kept_path, &back, "a position").unwrap();
        assert_eq!(back.stopped_paths().all(), paths);

        // A version 1 file (no paths) loads: the same entries, no paths.
        table.stopped_paths().restore(Vec::new());
        save(&path, &table, &saved).unwrap();
        let mut v1 = std::fs::read(&path).unwrap();
        assert_eq!(v1[40..48], [0; 8], "no path words");
        v1.drain(40..48);
        v1[8..12].copy_from_slice(&1u32.to_le_bytes());
        std::fs::write(&path, resealed(v1)).unwrap();
        let back = fresh();
        assert_eq!(load(&path, &back, "a position").unwrap(), saved);
        assert_eq!(entries(&back), entries(&table));
        assert!(back.stopped_paths().all().is_empty());

        // Paths that do not parse are refused, checksum right or not.
        table.stopped_paths().restore(vec![vec![9u128]]);
        save(&path, &table, &saved).unwrap();
        let good = std::fs::read(&path).unwrap();
        let count_at = HEADER_BYTES + padded("a position".len());
        for count in [0u64, 2, 1 << 40] {
            let mut bad = good.clone();
            bad[count_at..count_at + 8].copy_from_slice(&count.to_le_bytes());
            std::fs::write(&path, resealed(bad)).unwrap();
            let message = load(&path, &fresh(), "a position").unwrap_err().to_string();
            assert!(
                message.contains("damaged") && message.contains("stopped path"),
                "{count}: {message}"
            );
        }
        let mut bad = good.clone();
        bad[40..48].copy_from_slice(&u64::MAX.to_le_bytes());
        std::fs::write(&path, resealed(bad)).unwrap();
        let message = load(&path, &fresh(), "a position").unwrap_err().to_string();
        assert!(message.contains("stopped paths of"), "{message}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_kept_table_holds_the_costliest_entries() {
        let dir = dir("kept");
        let path = dir.join("unit.kept");
        let table = filled();
        let saved = Saved {
            text: "a position".to_owned(),
            nodes: 99,
            seconds: 1.5,
        };
        save_kept(&path, &table, &saved, 50).unwrap();
        // A table of 100 slots' bytes, rounded down to a power of two buckets.
        let file = std::fs::metadata(&path).unwrap().len() as usize;
        assert!(file < 100 * Table::<u128>::ENTRY_BYTES + 100, "{file}");
        let back = Table::<u128>::with_bytes(1 << 20).unwrap();
        assert_eq!(load(&path, &back, "a position").unwrap(), saved);
        let kept = entries(&back);
        // Most of the 50 costliest (works 251 to 300) and nothing else: a bucket of the
        // small table that met five of them kept its four costliest.
        assert!(kept.len() >= 40 && kept.len() <= 50, "{}", kept.len());
        for (k, e) in kept {
            assert!(e.work > 250, "{e:?}");
            assert_eq!(table.get(k), Some(e));
        }
        // Never larger than the table it keeps: it loads wherever that one did.
        let tiny = Table::<u128>::with_bytes(1 << 10).unwrap();
        save_kept(&path, &tiny, &saved, KEPT_ENTRIES).unwrap();
        let same = Table::<u128>::with_bytes(1 << 10).unwrap();
        assert_eq!(load(&path, &same, "a position").unwrap(), saved);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
