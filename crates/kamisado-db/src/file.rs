//! Database files: reading by memory map and binary search, writing by temporary file
//! and rename.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use kamisado_core::{Move, Position};
use kamisado_solver::Value;

use crate::header::{self, Header};
use crate::record::{Record, RECORD_BYTES};
use crate::DbError;

/// What a database knows about a position, in that position's own coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stored {
    /// The value for the side to move.
    pub value: Value,
    /// The exact remoteness, if stored.
    pub remoteness: Option<u32>,
    /// A best move (fastest win, slowest loss), if stored; always legal in the position.
    pub best: Option<Move>,
}

/// The bytes of a database: mapped from a file, or owned (built in memory, or a file too
/// small to map).
enum Bytes {
    Mapped(memmap2::Mmap),
    Owned(Vec<u8>),
}

impl std::ops::Deref for Bytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Mapped(map) => map,
            Bytes::Owned(bytes) => bytes,
        }
    }
}

/// A database opened for reading: a validated header and sorted fixed-width records.
///
/// Opening reads and checks the header and the file's length, not the checksum (that
/// would read the whole file, which a lookup must not do); [`Database::verify_checksum`]
/// reads everything. No byte content makes any method panic: a damaged record at worst
/// gives a wrong answer, which `verify_checksum` and [`crate::check`] detect.
pub struct Database {
    bytes: Bytes,
    header: Header,
    records_offset: usize,
    records: usize,
}

impl Database {
    /// Opens a database file by mapping it into memory.
    ///
    /// A lookup is a binary search over the mapped records, so a query touches about
    /// log2(n) pages: the first answer from a large file costs milliseconds, not the
    /// time to read the file.
    pub fn open(path: &Path) -> Result<Database, DbError> {
        let file = File::open(path).map_err(DbError::Read)?;
        let metadata = file.metadata().map_err(DbError::Read)?;
        if !metadata.is_file() {
            return Err(DbError::Read(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "not a regular file",
            )));
        }
        if metadata.len() < RECORD_BYTES as u64 {
            // Too small to be a database, and empty files cannot be mapped: let the
            // header check say what is wrong.
            let bytes = std::fs::read(path).map_err(DbError::Read)?;
            return Database::from_bytes(bytes);
        }
        // SAFETY: the map is read-only. Database files are never changed in place: they are
        // written under a temporary name and renamed over the old file, which leaves an
        // open mapping on the old contents. Another program truncating the file while it is
        // mapped would make reads fault; that is the one risk of every mapped reader.
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(DbError::Read)?;
        // Binary search jumps around: read-ahead would only fetch pages nobody reads.
        #[cfg(unix)]
        let _ = map.advise(memmap2::Advice::Random);
        Database::from_storage(Bytes::Mapped(map))
    }

    /// A database from the bytes of a file, held in memory.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Database, DbError> {
        Database::from_storage(Bytes::Owned(bytes))
    }

    fn from_storage(bytes: Bytes) -> Result<Database, DbError> {
        let (header, header_len) = header::decode(&bytes)?;
        let records_offset = Header::records_offset(header_len);
        let found = bytes.len() as u64;
        let expected = header
            .records
            .checked_mul(RECORD_BYTES as u64)
            .and_then(|b| b.checked_add(records_offset as u64));
        match expected {
            Some(expected) if found > expected => {
                return Err(DbError::TrailingBytes {
                    records: header.records,
                    extra: found - expected,
                })
            }
            Some(expected) if found == expected => {}
            _ => {
                return Err(DbError::Truncated {
                    records: header.records,
                    expected: expected.unwrap_or(u64::MAX),
                    found,
                })
            }
        }
        let records = header.records as usize;
        Ok(Database {
            bytes,
            header,
            records_offset,
            records,
        })
    }

    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The number of records.
    pub fn len(&self) -> usize {
        self.records
    }

    pub fn is_empty(&self) -> bool {
        self.records == 0
    }

    /// The size of the file (or buffer) in bytes.
    pub fn file_bytes(&self) -> u64 {
        self.bytes.len() as u64
    }

    #[inline]
    fn bits(&self, index: usize) -> u128 {
        let start = self.records_offset + index * RECORD_BYTES;
        let mut word = [0u8; RECORD_BYTES];
        word.copy_from_slice(&self.bytes[start..start + RECORD_BYTES]);
        u128::from_le_bytes(word)
    }

    /// The record at `index` in key order.
    pub fn get(&self, index: usize) -> Option<Record> {
        (index < self.records).then(|| Record::from_bits(self.bits(index)))
    }

    /// Every record in key order.
    pub fn records(&self) -> impl ExactSizeIterator<Item = Record> + '_ {
        (0..self.records).map(|i| Record::from_bits(self.bits(i)))
    }

    /// The record of the position whose canonical key is `key`, by binary search.
    pub fn find(&self, key: u128) -> Option<Record> {
        let (low, high) = Record::bounds_of_key(key);
        let (mut lo, mut hi) = (0, self.records);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let bits = self.bits(mid);
            if bits < low {
                lo = mid + 1;
            } else if bits > high {
                hi = mid;
            } else {
                return Some(Record::from_bits(bits));
            }
        }
        None
    }

    /// What the database knows about `pos`, mapped to `pos`'s coordinates.
    ///
    /// Databases hold positions as the solver sees them, with pending zero-length moves
    /// played ([`kamisado_solver::Kamisado::root`]); a position with pending moves is not
    /// found. A stored best move that is not legal here (a damaged record) is dropped.
    pub fn lookup(&self, pos: &Position) -> Option<Stored> {
        let (key, sym) = pos.canonical_key();
        let record = self.find(key)?;
        let best = record
            .best_move()
            .map(|m| sym.apply_move(m))
            .filter(|&m| !m.is_zero_length() && pos.is_legal(m));
        Some(Stored {
            value: record.value(),
            remoteness: record.remoteness(),
            best,
        })
    }

    /// Reads every byte and compares the checksum with the header's. `progress` is told
    /// how many records have been read so far.
    pub fn verify_checksum(&self, progress: &mut dyn FnMut(u64)) -> Result<(), DbError> {
        #[cfg(unix)]
        if let Bytes::Mapped(map) = &self.bytes {
            let _ = map.advise(memmap2::Advice::Sequential);
        }
        let mut hasher = crc32fast::Hasher::new();
        hasher.update(&self.header.checksummed_bytes());
        let records = &self.bytes[self.records_offset..];
        let mut done = 0;
        for chunk in records.chunks(CHUNK_RECORDS * RECORD_BYTES) {
            hasher.update(chunk);
            done += (chunk.len() / RECORD_BYTES) as u64;
            progress(done);
        }
        let computed = hasher.finalize();
        if computed != self.header.checksum {
            return Err(DbError::Checksum {
                stored: self.header.checksum,
                computed,
            });
        }
        Ok(())
    }

    /// Checks what the checksum cannot: records strictly ascending by key, reserved bits
    /// zero, and the header's counts equal to the records' (a file written by a faulty
    /// program has a valid checksum and may still break these).
    pub fn verify_layout(&self) -> Result<(), DbError> {
        let mut counts = Counts::default();
        let mut previous: Option<Record> = None;
        for (index, record) in self.records().enumerate() {
            if previous.is_some_and(|p| p.key() >= record.key()) {
                return Err(DbError::Unsorted {
                    index: index as u64,
                });
            }
            if !record.reserved_bits_clear() {
                return Err(DbError::BadHeader(format!(
                    "record {index} has reserved bits set"
                )));
            }
            counts.add(record);
            previous = Some(record);
        }
        let h = &self.header;
        if (counts.wins, counts.exact_remoteness, counts.best_moves)
            != (h.wins, h.exact_remoteness, h.best_moves)
        {
            return Err(DbError::BadHeader(format!(
                "the header counts {} wins, {} exact remoteness, {} best moves; the records have {}, {}, {}",
                h.wins,
                h.exact_remoteness,
                h.best_moves,
                counts.wins,
                counts.exact_remoteness,
                counts.best_moves
            )));
        }
        Ok(())
    }
}

/// Records per chunk when hashing and writing: large enough for fast I/O, small enough
/// for a lively progress bar.
const CHUNK_RECORDS: usize = 1 << 16;

#[derive(Default)]
struct Counts {
    wins: u64,
    exact_remoteness: u64,
    best_moves: u64,
}

impl Counts {
    fn add(&mut self, r: Record) {
        self.wins += (r.value() == Value::Win) as u64;
        self.exact_remoteness += r.remoteness().is_some() as u64;
        self.best_moves += r.best_move().is_some() as u64;
    }
}

fn record_bytes(chunk: &[Record]) -> Vec<u8> {
    chunk.iter().flat_map(|r| r.bits().to_le_bytes()).collect()
}

/// The bytes of a database file holding `records` (sorted strictly by key).
pub fn encode(records: &[Record], description: &str) -> Result<Vec<u8>, DbError> {
    check_sorted(records)?;
    let mut bytes = Vec::new();
    write_to(&mut bytes, records, description, &mut |_| {}).map_err(DbError::Write)?;
    Ok(bytes)
}

/// Writes the bytes of a database holding `records` (sorted strictly by key) to `out`,
/// for a caller that manages the file itself; [`write()`] is the whole job. `progress`
/// is told how many records have been written so far. Returns the header written.
pub fn write_records(
    out: &mut dyn Write,
    records: &[Record],
    description: &str,
    progress: &mut dyn FnMut(u64),
) -> Result<Header, DbError> {
    check_sorted(records)?;
    write_to(out, records, description, progress).map_err(DbError::Write)
}

/// Writes a database file holding `records`, which must be sorted strictly by key (as
/// [`crate::collect`] returns them). `description` says what was solved, for people.
/// `progress` is told how many records have been written so far. Returns the header
/// written.
///
/// The file is written under a temporary name beside `path`, flushed to disk and then
/// renamed over `path`, so an interrupted run leaves either the old file or the new one,
/// never half a file. A `path` that is a symbolic link is followed, so that the link
/// keeps pointing at the new file; a path that is not a regular file (a directory, a
/// FIFO, a device) is refused: it cannot be replaced by a database.
pub fn write(
    path: &Path,
    records: &[Record],
    description: &str,
    progress: &mut dyn FnMut(u64),
) -> Result<Header, DbError> {
    check_sorted(records)?;
    let path = &regular_target(path).map_err(DbError::Write)?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(DbError::Write)?;
    }
    let tmp = temporary_path(path);
    let result = (|| {
        let file = File::create(&tmp)?;
        let mut out = BufWriter::with_capacity(1 << 20, file);
        let header = write_to(&mut out, records, description, progress)?;
        let file = out.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&tmp, path)?;
        // Make the rename itself durable.
        #[cfg(unix)]
        if let Some(dir) = path.parent() {
            let dir = if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            };
            if let Ok(dir) = File::open(dir) {
                let _ = dir.sync_all();
            }
        }
        Ok(header)
    })();
    result.map_err(|e: std::io::Error| {
        let _ = std::fs::remove_file(&tmp);
        DbError::Write(e)
    })
}

/// The file a write to `path` replaces: `path` with its symbolic links followed; an
/// error if that exists and is not a regular file.
fn regular_target(path: &Path) -> std::io::Result<PathBuf> {
    let mut target = path.to_owned();
    // The limit of Linux's own resolution: a cycle of links ends here.
    for _ in 0..40 {
        match std::fs::symlink_metadata(&target) {
            Ok(m) if m.file_type().is_symlink() => {
                let link = std::fs::read_link(&target)?;
                target = target.parent().map(Path::to_owned).unwrap_or_default().join(link);
            }
            Ok(m) if !m.is_file() => {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    "not a regular file (a database replaces a regular file, never a directory, FIFO or device)",
                ))
            }
            _ => return Ok(target),
        }
    }
    Err(std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        "too many symbolic links",
    ))
}

fn temporary_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_owned();
    name.push(format!(".{}.tmp", std::process::id()));
    path.with_file_name(name)
}

fn check_sorted(records: &[Record]) -> Result<(), DbError> {
    match records.windows(2).position(|w| w[0].key() >= w[1].key()) {
        Some(index) => Err(DbError::Unsorted {
            index: index as u64 + 1,
        }),
        None => Ok(()),
    }
}

/// Header, padding and records (sorted) into `out`.
fn write_to(
    out: &mut (impl Write + ?Sized),
    records: &[Record],
    description: &str,
    progress: &mut dyn FnMut(u64),
) -> std::io::Result<Header> {
    let mut header = Header::new(description);
    let mut counts = Counts::default();
    records.iter().for_each(|&r| counts.add(r));
    header.records = records.len() as u64;
    header.wins = counts.wins;
    header.exact_remoteness = counts.exact_remoteness;
    header.best_moves = counts.best_moves;

    // The checksum goes in the header, before the records: one pass to compute it, one
    // to write (records are in memory and hashing runs at gigabytes per second).
    let mut hasher = crc32fast::Hasher::new();
    hasher.update(&header.checksummed_bytes());
    for chunk in records.chunks(CHUNK_RECORDS) {
        hasher.update(&record_bytes(chunk));
    }
    header.checksum = hasher.finalize();

    let encoded = header::encode(&header);
    out.write_all(&encoded)?;
    let padding = Header::records_offset(encoded.len()) - encoded.len();
    out.write_all(&vec![0u8; padding])?;
    let mut done = 0;
    for chunk in records.chunks(CHUNK_RECORDS) {
        out.write_all(&record_bytes(chunk))?;
        done += chunk.len() as u64;
        progress(done);
    }
    out.flush()?;
    Ok(header)
}
