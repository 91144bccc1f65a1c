//! Database files: reading (whole into memory and checked once when small; mapped, with
//! each block checked when first read, when large), and writing (a temporary file,
//! renamed into place).
//!
//! Layout, version 2: the header ([`crate::Header`], padded to a multiple of 16 bytes),
//! the records (16 bytes each, sorted by key), then one CRC-32 (u32 little-endian) per
//! block of [`BLOCK_RECORDS`] records. The header's checksum covers the header and the
//! block checksums, so a lookup that checks the blocks it reads trusts nothing
//! unchecked. Version 1 files (one checksum over everything) are read and checked whole
//! when opened.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use kamisado_core::{Move, Position};
use kamisado_solver::Value;

use crate::header::{self, Header, BLOCK_RECORDS};
use crate::record::{Record, RECORD_BYTES};
use crate::DbError;

/// Files up to this size are read into memory and checked whole when opened: a 7 MiB
/// file (a four-ply book) costs about 20 ms that way on this project's loaded machine,
/// after which no lookup checks anything, and a file replaced or truncated by another
/// program while open cannot touch the reader. Larger files are mapped (opening costs
/// 0.1 ms whatever the size) and each 4 KiB block is checked when first read (a first
/// lookup about 25 to 40 us, later ones 1 to 3 us), which keeps a one-off query on a
/// large file fast.
pub const READ_LIMIT: u64 = 16 << 20;

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

/// The bytes of a database: mapped from a file, or owned (read, or built in memory).
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

/// The block checksums of a mapped version-2 file, and which blocks have been checked.
struct LazyBlocks {
    checksums: Vec<u32>,
    /// One bit per block.
    checked: Vec<AtomicU64>,
}

/// A database opened for reading: a validated header and sorted fixed-width records.
///
/// Opening checks the header, the file's length and the checksums: every byte of a file
/// up to [`READ_LIMIT`] (read into memory), the header and block checksums of a larger
/// one (mapped), whose records are checked a block at a time by the lookups that read
/// them. A damaged file is an error, never a wrong answer or a panic.
pub struct Database {
    bytes: Bytes,
    header: Header,
    records_offset: usize,
    records: usize,
    /// For a mapped version-2 file; `None` when every record was checked on opening.
    lazy: Option<LazyBlocks>,
    /// The file it was opened from, for messages; `None` when built in memory.
    path: Option<PathBuf>,
}

fn crc(parts: &[&[u8]]) -> u32 {
    let mut hasher = crc32fast::Hasher::new();
    parts.iter().for_each(|p| hasher.update(p));
    hasher.finalize()
}

impl Database {
    /// Opens a database file: read and checked whole up to [`READ_LIMIT`], else mapped.
    pub fn open(path: &Path) -> Result<Database, DbError> {
        let mut input = kamisado_files::open(path)?;
        if input.len <= READ_LIMIT {
            let bytes = input.read_rest(READ_LIMIT, "a database read whole")?;
            return Database::from_storage(Bytes::Owned(bytes), true).map(|db| db.at(path));
        }
        Database::map(&input.file).map(|db| db.at(path))
    }

    /// Opens a database file by mapping it, whatever its size, its blocks checked when
    /// first read. A mapped file must be replaced by renaming a new file over it, never
    /// rewritten or truncated in place: a read from a truncated mapping kills the
    /// process (SIGBUS), before any check can run.
    pub fn open_mapped(path: &Path) -> Result<Database, DbError> {
        let mut input = kamisado_files::open(path)?;
        if input.len < RECORD_BYTES as u64 {
            // Too small to be a database, and empty files cannot be mapped: let the
            // header check say what is wrong.
            let bytes = input.read_rest(RECORD_BYTES as u64, "a database")?;
            return Database::from_storage(Bytes::Owned(bytes), true).map(|db| db.at(path));
        }
        Database::map(&input.file).map(|db| db.at(path))
    }

    fn at(mut self, path: &Path) -> Database {
        self.path = Some(path.to_owned());
        self
    }

    /// The file this database was opened from (`None` for one built in memory).
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    fn map(file: &File) -> Result<Database, DbError> {
        // SAFETY: the map is read-only. This project never changes a database in place
        // (files are written under a temporary name and renamed over the old one, which
        // leaves an open mapping on the old contents), and the README tells users to do
        // the same; another program truncating the file while it is mapped would make
        // reads fault, which is why files up to READ_LIMIT are read instead.
        let map = unsafe { memmap2::Mmap::map(file) }.map_err(DbError::Read)?;
        // Binary search jumps around: read-ahead would only fetch pages nobody reads.
        #[cfg(unix)]
        let _ = map.advise(memmap2::Advice::Random);
        Database::from_storage(Bytes::Mapped(map), false)
    }

    /// A database from the bytes of a file, held in memory and checked whole.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Database, DbError> {
        Database::from_storage(Bytes::Owned(bytes), true)
    }

    fn from_storage(bytes: Bytes, check_all: bool) -> Result<Database, DbError> {
        let (header, header_len) = header::decode(&bytes)?;
        let records_offset = Header::records_offset(header_len);
        let found = bytes.len() as u64;
        let expected = header
            .records
            .checked_mul(RECORD_BYTES as u64)
            .and_then(|b| b.checked_add(records_offset as u64))
            .and_then(|b| b.checked_add(header.blocks() * 4));
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
                    expected,
                    found,
                })
            }
        }
        if bytes[header_len..records_offset].iter().any(|&b| b != 0) {
            return Err(DbError::BadHeader(
                "the padding after the header is not zero".into(),
            ));
        }
        let records = header.records as usize;
        let records_end = records_offset + records * RECORD_BYTES;
        let mut db = Database {
            bytes,
            header,
            records_offset,
            records,
            lazy: None,
            path: None,
        };
        if db.header.version == 1 {
            // One checksum over everything: the only way to trust a version-1 file.
            db.verify_whole_v1(&mut |_| {})?;
            return Ok(db);
        }
        let table = &db.bytes[records_end..];
        let computed = crc(&[&db.header.checksummed_bytes(), table]);
        if computed != db.header.checksum {
            return Err(DbError::Checksum {
                stored: db.header.checksum,
                computed,
            });
        }
        let checksums: Vec<u32> = table
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        let blocks = checksums.len();
        db.lazy = Some(LazyBlocks {
            checksums,
            checked: (0..blocks.div_ceil(64))
                .map(|_| AtomicU64::new(0))
                .collect(),
        });
        if check_all {
            db.verify_blocks(&mut |_| {})?;
            db.lazy = None;
        }
        Ok(db)
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

    /// Whether the file was mapped (its blocks checked as they are read) rather than read
    /// and checked whole.
    pub fn is_mapped(&self) -> bool {
        matches!(self.bytes, Bytes::Mapped(_))
    }

    #[inline]
    fn bits(&self, index: usize) -> u128 {
        let start = self.records_offset + index * RECORD_BYTES;
        let mut word = [0u8; RECORD_BYTES];
        word.copy_from_slice(&self.bytes[start..start + RECORD_BYTES]);
        u128::from_le_bytes(word)
    }

    /// The bytes of block `block` of the records.
    fn block_bytes(&self, block: usize) -> &[u8] {
        let first = block * BLOCK_RECORDS as usize;
        let last = (first + BLOCK_RECORDS as usize).min(self.records);
        &self.bytes
            [self.records_offset + first * RECORD_BYTES..self.records_offset + last * RECORD_BYTES]
    }

    /// Checks block `block` against its checksum, once per process.
    fn check_block(&self, lazy: &LazyBlocks, block: usize) -> Result<(), DbError> {
        let (word, bit) = (block / 64, 1u64 << (block % 64));
        if lazy.checked[word].load(Ordering::Relaxed) & bit != 0 {
            return Ok(());
        }
        if crc32fast::hash(self.block_bytes(block)) != lazy.checksums[block] {
            let first = (block * BLOCK_RECORDS as usize) as u64;
            return Err(DbError::BlockChecksum {
                first,
                last: (first + BLOCK_RECORDS as u64).min(self.records as u64) - 1,
            });
        }
        lazy.checked[word].fetch_or(bit, Ordering::Relaxed);
        Ok(())
    }

    /// The record at `index`, its block checked first where that is still to do.
    fn checked_bits(&self, index: usize) -> Result<u128, DbError> {
        if let Some(lazy) = &self.lazy {
            self.check_block(lazy, index / BLOCK_RECORDS as usize)?;
        }
        Ok(self.bits(index))
    }

    /// The record at `index` in key order, as stored. In a mapped file whose blocks have
    /// not all been checked ([`Database::verify_checksum`] checks them), it may be damaged.
    pub fn get(&self, index: usize) -> Option<Record> {
        (index < self.records).then(|| Record::from_bits(self.bits(index)))
    }

    /// Every record in key order, as stored (see [`Database::get`]).
    pub fn records(&self) -> impl ExactSizeIterator<Item = Record> + '_ {
        (0..self.records).map(|i| Record::from_bits(self.bits(i)))
    }

    /// The record of the position whose canonical key is `key`, by binary search over
    /// checked records.
    pub fn find(&self, key: u128) -> Result<Option<Record>, DbError> {
        let (low, high) = Record::bounds_of_key(key);
        let (mut lo, mut hi) = (0, self.records);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let bits = self.checked_bits(mid)?;
            if bits < low {
                lo = mid + 1;
            } else if bits > high {
                hi = mid;
            } else {
                return Ok(Some(Record::from_bits(bits)));
            }
        }
        Ok(None)
    }

    /// What the database knows about `pos`, mapped to `pos`'s coordinates.
    ///
    /// Databases hold positions as the solver sees them, with pending zero-length moves
    /// played ([`kamisado_solver::Kamisado::root`]); a position with pending moves is not
    /// found. A stored best move that is not legal here is dropped.
    pub fn lookup(&self, pos: &Position) -> Result<Option<Stored>, DbError> {
        let (key, sym) = pos.canonical_key();
        let Some(record) = self.find(key)? else {
            return Ok(None);
        };
        let best = record
            .best_move()
            .map(|m| sym.apply_move(m))
            .filter(|&m| !m.is_zero_length() && pos.is_legal(m));
        Ok(Some(Stored {
            value: record.value(),
            remoteness: record.remoteness(),
            best,
        }))
    }

    /// Checks every record against the checksums (opening a file up to [`READ_LIMIT`]
    /// already has). `progress` is told how many records have been checked so far.
    pub fn verify_checksum(&self, progress: &mut dyn FnMut(u64)) -> Result<(), DbError> {
        match self.header.version {
            1 => self.verify_whole_v1(progress),
            _ => self.verify_blocks(progress),
        }
    }

    fn verify_blocks(&self, progress: &mut dyn FnMut(u64)) -> Result<(), DbError> {
        let Some(lazy) = &self.lazy else {
            progress(self.records as u64);
            return Ok(());
        };
        #[cfg(unix)]
        if let Bytes::Mapped(map) = &self.bytes {
            let _ = map.advise(memmap2::Advice::Sequential);
        }
        for block in 0..lazy.checksums.len() {
            self.check_block(lazy, block)?;
            if block % 256 == 255 {
                progress(((block + 1) * BLOCK_RECORDS as usize).min(self.records) as u64);
            }
        }
        progress(self.records as u64);
        Ok(())
    }

    fn verify_whole_v1(&self, progress: &mut dyn FnMut(u64)) -> Result<(), DbError> {
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

    /// Checks what the checksums cannot: records strictly ascending by key, reserved bits
    /// zero, and the header's counts equal to the records' (a file written by a faulty
    /// program has good checksums and may still break these).
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
                return Err(DbError::BadRecord {
                    index: index as u64,
                    problem: "its reserved bits are set".into(),
                });
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
    write_to(&mut bytes, records, description, None, &mut |_| {}).map_err(DbError::Write)?;
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
    write_book_records(out, records, description, None, progress)
}

/// [`write_records()`] for an opening book holding every position of the first `plies`
/// moves from `root` (the header says so; `None` is any other database).
pub fn write_book_records(
    out: &mut dyn Write,
    records: &[Record],
    description: &str,
    book: Option<(&Position, u32)>,
    progress: &mut dyn FnMut(u64),
) -> Result<Header, DbError> {
    check_sorted(records)?;
    write_to(out, records, description, book, progress).map_err(DbError::Write)
}

/// Writes a database file holding `records`, which must be sorted strictly by key (as
/// [`crate::collect`] returns them). `description` says what was solved, for people.
/// `progress` is told how many records have been written so far. Returns the header
/// written.
///
/// The file is written under a temporary name beside `path`, flushed to disk and then
/// renamed over `path`, so an interrupted run leaves either the old file or the new one,
/// never half a file, and a reader that has the old file open (or mapped) keeps reading
/// the old file: a database is never truncated or rewritten in place. A `path` that is a
/// symbolic link is followed, so that the link keeps pointing at the new file; a path
/// that is not a regular file (a directory, a FIFO, a device) is refused: it cannot be
/// replaced by a database.
pub fn write(
    path: &Path,
    records: &[Record],
    description: &str,
    progress: &mut dyn FnMut(u64),
) -> Result<Header, DbError> {
    write_book(path, records, description, None, progress)
}

/// [`write()`] for an opening book holding every position of the first `plies` moves
/// from `root` (the header says so; `None` is any other database).
pub fn write_book(
    path: &Path,
    records: &[Record],
    description: &str,
    book: Option<(&Position, u32)>,
    progress: &mut dyn FnMut(u64),
) -> Result<Header, DbError> {
    check_sorted(records)?;
    let (real, _) = kamisado_files::follow_links(path).map_err(DbError::Write)?;
    if let Some(dir) = real.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(DbError::Write)?;
    }
    kamisado_files::replace(&real, |out| {
        write_to(out, records, description, book, progress)
    })
    .map_err(DbError::Write)
}

fn check_sorted(records: &[Record]) -> Result<(), DbError> {
    match records.windows(2).position(|w| w[0].key() >= w[1].key()) {
        Some(index) => Err(DbError::Unsorted {
            index: index as u64 + 1,
        }),
        None => Ok(()),
    }
}

/// Header, padding, records (sorted) and block checksums into `out`.
fn write_to(
    out: &mut (impl Write + ?Sized),
    records: &[Record],
    description: &str,
    book: Option<(&Position, u32)>,
    progress: &mut dyn FnMut(u64),
) -> std::io::Result<Header> {
    let mut header = Header::new(description);
    let mut counts = Counts::default();
    records.iter().for_each(|&r| counts.add(r));
    header.records = records.len() as u64;
    header.wins = counts.wins;
    header.exact_remoteness = counts.exact_remoteness;
    header.best_moves = counts.best_moves;
    if let Some((root, plies)) = book {
        header.book_root = root.key();
        header.book_plies = plies;
    }

    // The header's checksum covers the block checksums, which go after the records: one
    // pass to compute them, one to write (records are in memory and hashing runs at
    // gigabytes per second).
    let table: Vec<u8> = records
        .chunks(BLOCK_RECORDS as usize)
        .flat_map(|block| crc32fast::hash(&record_bytes(block)).to_le_bytes())
        .collect();
    header.checksum = crc(&[&header.checksummed_bytes(), &table]);

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
    out.write_all(&table)?;
    out.flush()?;
    Ok(header)
}
