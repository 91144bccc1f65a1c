//! The opening book: every position of the first few moves, with its exact value,
//! remoteness and a best move, and every position one move further with its exact value
//! and remoteness, so that each move of each book position is answered from the file.
//!
//! Positions are counted once however they are reached: after their zero-length moves,
//! and one for all their symmetric images (the canonical key). The position of "ply k"
//! is first reached after k moves.
//!
//! Building is two steps of very different cost:
//!
//! 1. **The frontier**, the positions one move past the last ply (not decided by the
//!    rules alone), is solved exactly, position by position, many side by side with one
//!    shared table. This is all the searching. Results go to a journal beside the output
//!    in checksummed chunks, so an interrupted build resumes where it stopped.
//! 2. **The book** itself is derived from the frontier by negamax, deepest ply first: a
//!    position's score is the best of its moves' scores, and its best moves are the ones
//!    reaching it. Nothing is searched, so every book record is exactly what its
//!    children say, which `db check --all` re-derives.
//!
//! A record holds one best move; all best moves are the moves whose children score the
//! same, which readers derive from the children's records (all in the file).

use std::collections::HashMap;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use kamisado_core::{Kamisado, Move, Position};
use kamisado_solver::{Cancel, Score, SolveError, Solver};
use rayon::prelude::*;

use crate::Record;

/// The positions of a book: the plies and the frontier.
#[derive(Clone, Debug)]
pub struct BookPlan {
    /// The position the book starts from (the start of a round for the opening book),
    /// with its pending zero-length moves played.
    pub root: Position,
    pub plies: u32,
    /// `layers[k]`: the positions first reached after `k` moves, each as the canonical
    /// image its key describes, in the order they were first reached.
    pub layers: Vec<Vec<Position>>,
    /// The positions one move after the last ply that are in no layer and that the rules
    /// alone do not decide, as canonical images.
    pub frontier: Vec<Position>,
}

impl BookPlan {
    /// Lists the positions of the first `plies` moves from `root` and the frontier.
    pub fn new(root: &Position, plies: u32) -> BookPlan {
        let root = Kamisado::root(root);
        let canonical = |p: &Position| {
            Position::from_key(p.canonical_key().0).expect("canonical keys are positions")
        };
        let mut seen = std::collections::HashSet::new();
        let first = canonical(&root);
        seen.insert(first.key());
        let mut layers = vec![if root.is_over() {
            Vec::new()
        } else {
            vec![first]
        }];
        let mut frontier = Vec::new();
        for ply in 1..=plies + 1 {
            let mut next = Vec::new();
            for pos in &layers[ply as usize - 1] {
                for m in pos.legal_moves() {
                    let child = pos.play_unchecked(m);
                    if child.is_over() {
                        continue;
                    }
                    let image = canonical(&child);
                    if seen.insert(image.key()) {
                        next.push(image);
                    }
                }
            }
            if ply <= plies {
                layers.push(next);
            } else {
                frontier = next
                    .into_iter()
                    .filter(|p| Score::by_rules(&Kamisado, p).is_none())
                    .collect();
            }
        }
        BookPlan {
            root,
            plies,
            layers,
            frontier,
        }
    }

    /// Positions in the book's plies.
    pub fn book_positions(&self) -> usize {
        self.layers.iter().map(Vec::len).sum()
    }

    /// A checksum of the frontier's keys in order: a journal belongs to the plan whose
    /// fingerprint it carries.
    pub fn fingerprint(&self) -> u32 {
        let mut hasher = crc32fast::Hasher::new();
        hasher.update(&self.plies.to_le_bytes());
        hasher.update(&self.root.key().to_le_bytes());
        for p in &self.frontier {
            hasher.update(&p.key().to_le_bytes());
        }
        hasher.finalize()
    }
}

/// Why a book could not be built.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    #[error(transparent)]
    Solve(#[from] SolveError),
    #[error("{}: {message}", path.display())]
    Journal { path: PathBuf, message: String },
    /// A position's children are not all known: a bug, never expected.
    #[error("cannot derive {position}: its move {mv} leads to a position neither the rules, the book nor the frontier decide")]
    Missing { position: String, mv: Move },
}

const JOURNAL_MAGIC: [u8; 8] = *b"KAMIBKJ1";

/// The frontier results so far, on disk beside the book: a header (magic, plies, the
/// plan's fingerprint), then chunks of records, each `[count: u32][count records of 16
/// bytes][CRC-32 of the records: u32]`. A chunk cut short by an interruption fails its
/// checksum and is dropped when the journal is opened again.
pub struct Journal {
    path: PathBuf,
    file: File,
    solved: HashMap<u128, Score>,
}

impl Journal {
    /// The journal's path for a book written to `book`: `book` with `.journal` appended.
    pub fn path_for(book: &Path) -> PathBuf {
        let mut name = book.file_name().unwrap_or_default().to_owned();
        name.push(".journal");
        book.with_file_name(name)
    }

    /// Opens the journal of `plan` at `path`, keeping every complete chunk of an earlier
    /// run of the same plan, or starts a new one. A journal of another plan is an error
    /// (remove it to start afresh).
    pub fn open(path: &Path, plan: &BookPlan) -> Result<Journal, BookError> {
        let fail = |message: String| BookError::Journal {
            path: path.to_owned(),
            message,
        };
        let mut header = Vec::with_capacity(16);
        header.extend_from_slice(&JOURNAL_MAGIC);
        header.extend_from_slice(&plan.plies.to_le_bytes());
        header.extend_from_slice(&plan.fingerprint().to_le_bytes());
        let mut kept: Vec<Record> = Vec::new();
        match std::fs::read(path) {
            Ok(bytes) => {
                if bytes.len() < header.len() || bytes[..header.len()] != header[..] {
                    return Err(fail(
                        "this journal belongs to another book build (other plies or positions); remove it to start afresh".into(),
                    ));
                }
                kept = read_chunks(&bytes[header.len()..]);
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(fail(format!("cannot read: {e}"))),
        }
        // Rewrite what was kept under a temporary name and rename it into place, which
        // drops a torn last chunk without truncating in place.
        let mut bytes = header;
        append_chunk(&mut bytes, &kept);
        kamisado_files::replace_with_bytes(path, &bytes)
            .map_err(|e| fail(format!("cannot write: {e}")))?;
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| fail(format!("cannot write: {e}")))?;
        let solved = kept
            .iter()
            .filter_map(|r| Some((r.key(), Score::new(r.value(), r.remoteness()?))))
            .collect();
        Ok(Journal {
            path: path.to_owned(),
            file,
            solved,
        })
    }

    /// Exact scores so far, by canonical key.
    pub fn solved(&self) -> &HashMap<u128, Score> {
        &self.solved
    }

    /// Adds results, durably, as one chunk.
    pub fn append(&mut self, results: &[(u128, Score)]) -> Result<(), BookError> {
        let records: Vec<Record> = results
            .iter()
            .map(|&(key, s)| Record::new(key, s.value(), s.remoteness(), None))
            .collect();
        let mut bytes = Vec::new();
        append_chunk(&mut bytes, &records);
        self.file
            .write_all(&bytes)
            .and_then(|()| self.file.sync_data())
            .map_err(|e| BookError::Journal {
                path: self.path.clone(),
                message: format!("cannot write: {e}"),
            })?;
        self.solved.extend(results.iter().copied());
        Ok(())
    }

    /// Deletes the journal once the book is written.
    pub fn remove(self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

fn append_chunk(out: &mut Vec<u8>, records: &[Record]) {
    if records.is_empty() {
        return;
    }
    let body: Vec<u8> = records
        .iter()
        .flat_map(|r| r.bits().to_le_bytes())
        .collect();
    out.extend_from_slice(&(records.len() as u32).to_le_bytes());
    out.extend_from_slice(&body);
    out.extend_from_slice(&crc32fast::hash(&body).to_le_bytes());
}

/// The records of every complete chunk, up to the first one that is not.
fn read_chunks(mut bytes: &[u8]) -> Vec<Record> {
    let mut records = Vec::new();
    while bytes.len() >= 4 {
        let mut count = [0u8; 4];
        count.copy_from_slice(&bytes[..4]);
        let body_len = u32::from_le_bytes(count) as usize * 16;
        let Some(chunk) = bytes.get(4..4 + body_len + 4) else {
            break;
        };
        let (body, crc) = chunk.split_at(body_len);
        let mut stored = [0u8; 4];
        stored.copy_from_slice(crc);
        if crc32fast::hash(body) != u32::from_le_bytes(stored) {
            break;
        }
        records.extend(body.chunks_exact(16).map(|w| {
            let mut word = [0u8; 16];
            word.copy_from_slice(w);
            Record::from_bits(u128::from_le_bytes(word))
        }));
        bytes = &bytes[4 + body_len + 4..];
    }
    records
}

/// Frontier positions per journal chunk: a chunk costs one small write and one sync.
const CHUNK_POSITIONS: usize = 512;

/// Solves every frontier position the journal lacks, `CHUNK_POSITIONS` at a time side
/// by side on the current rayon pool (a one-thread solver is right: the parallelism is
/// over positions), appending each chunk to the journal. `progress` gets the number of
/// frontier positions solved so far, resumed ones included.
pub fn solve_frontier(
    plan: &BookPlan,
    journal: &mut Journal,
    solver: &Solver<Kamisado>,
    cancel: &Cancel,
    progress: &mut dyn FnMut(usize),
) -> Result<(), BookError> {
    let all: Vec<&Position> = plan.frontier.iter().collect();
    solve_positions(&all, journal, solver, cancel, progress)
}

/// [`solve_frontier`] for some of the frontier's positions (a shard's share).
pub fn solve_positions(
    positions: &[&Position],
    journal: &mut Journal,
    solver: &Solver<Kamisado>,
    cancel: &Cancel,
    progress: &mut dyn FnMut(usize),
) -> Result<(), BookError> {
    let todo: Vec<&Position> = positions
        .iter()
        .copied()
        .filter(|p| !journal.solved().contains_key(&p.canonical_key().0))
        .collect();
    let mut done = positions.len() - todo.len();
    progress(done);
    for chunk in todo.chunks(CHUNK_POSITIONS) {
        let results: Vec<(u128, Score)> = chunk
            .par_iter()
            .map(|p| Ok((p.canonical_key().0, solver.score(p, cancel)?)))
            .collect::<Result<_, SolveError>>()?;
        journal.append(&results)?;
        done += chunk.len();
        progress(done);
    }
    Ok(())
}

/// One share of a book's frontier, for building a book in separate processes (array
/// tasks on a cluster): shard `index` of `count` (from 1) holds the frontier positions
/// whose place in the frontier's order is `index - 1` modulo `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl BookPlan {
    /// The frontier positions of `shard`, in frontier order.
    pub fn share(&self, shard: Shard) -> Vec<&Position> {
        let (i, n) = (shard.index as usize - 1, shard.count as usize);
        self.frontier
            .iter()
            .enumerate()
            .filter(|(at, _)| at % n == i)
            .map(|(_, p)| p)
            .collect()
    }
}

const PART_MAGIC: [u8; 8] = *b"KAMIBKP1";
const PART_HEADER_BYTES: usize = 48;

/// A book part: the exact scores of one shard's frontier positions, written whole (under
/// a temporary name, then renamed) once the shard is solved.
///
/// | bytes | header (numbers little-endian) |
/// |---|---|
/// | 0..8 | magic `KAMIBKP1` (the format's version is its last byte) |
/// | 8..24 | the book's root: its position key (u128) |
/// | 24..28 | plies (u32) |
/// | 28..32 | the plan's fingerprint ([`BookPlan::fingerprint`]) |
/// | 32..36 | shard index, from 1 (u32) |
/// | 36..40 | shard count (u32) |
/// | 40..44 | number of records (u32) |
/// | 44..48 | CRC-32 of the records |
///
/// Then the records, 16 bytes each (a database record: key, value, remoteness), in the
/// share's order.
#[derive(Clone, Debug, PartialEq)]
pub struct BookPart {
    pub root: Position,
    pub plies: u32,
    pub fingerprint: u32,
    pub shard: Shard,
    pub records: Vec<Record>,
}

impl BookPart {
    /// The part of `shard` of `plan`, from the scores solved so far (which must cover
    /// the share: a missing one is a bug of the caller).
    pub fn of(plan: &BookPlan, shard: Shard, solved: &HashMap<u128, Score>) -> BookPart {
        let records = plan
            .share(shard)
            .into_iter()
            .map(|p| {
                let s = solved[&p.key()];
                Record::new(p.key(), s.value(), s.remoteness(), None)
            })
            .collect();
        BookPart {
            root: plan.root,
            plies: plan.plies,
            fingerprint: plan.fingerprint(),
            shard,
            records,
        }
    }

    pub fn encode(&self) -> Vec<u8> {
        let body: Vec<u8> = self
            .records
            .iter()
            .flat_map(|r| r.bits().to_le_bytes())
            .collect();
        let mut bytes = Vec::with_capacity(PART_HEADER_BYTES + body.len());
        bytes.extend_from_slice(&PART_MAGIC);
        bytes.extend_from_slice(&self.root.key().to_le_bytes());
        bytes.extend_from_slice(&self.plies.to_le_bytes());
        bytes.extend_from_slice(&self.fingerprint.to_le_bytes());
        bytes.extend_from_slice(&self.shard.index.to_le_bytes());
        bytes.extend_from_slice(&self.shard.count.to_le_bytes());
        bytes.extend_from_slice(&(self.records.len() as u32).to_le_bytes());
        bytes.extend_from_slice(&crc32fast::hash(&body).to_le_bytes());
        bytes.extend_from_slice(&body);
        bytes
    }

    /// Reads a part's bytes; the error says in a few words what is wrong.
    pub fn decode(bytes: &[u8]) -> Result<BookPart, String> {
        if bytes.len() < PART_HEADER_BYTES || bytes[..7] != PART_MAGIC[..7] {
            return Err("not a book part (it does not start with KAMIBKP)".into());
        }
        if bytes[7] != PART_MAGIC[7] {
            return Err(format!(
                "a book part of format version {}; this program reads version {}",
                bytes[7] as char, PART_MAGIC[7] as char
            ));
        }
        let half = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        let root_key = u128::from_le_bytes(bytes[8..24].try_into().expect("16 bytes"));
        let root = Position::from_key(root_key)
            .map_err(|e| format!("damaged: its root is not a position: {e}"))?;
        let (plies, fingerprint, index, count, len) =
            (half(24), half(28), half(32), half(36), half(40));
        if count == 0 || index == 0 || index > count {
            return Err(format!("damaged: shard {index}/{count} is not a shard"));
        }
        let body = &bytes[PART_HEADER_BYTES..];
        if body.len() as u64 != len as u64 * 16 {
            return Err(format!(
                "damaged: its header announces {len} records ({} bytes) but it holds {} bytes of records",
                len as u64 * 16,
                body.len()
            ));
        }
        if crc32fast::hash(body) != half(44) {
            return Err("damaged: its checksum does not match its records".into());
        }
        let records = body
            .chunks_exact(16)
            .map(|w| Record::from_bits(u128::from_le_bytes(w.try_into().expect("16 bytes"))))
            .collect();
        Ok(BookPart {
            root,
            plies,
            fingerprint,
            shard: Shard { index, count },
            records,
        })
    }
}

/// The frontier's exact scores from the parts of every shard of one book build, each part
/// checked against the plan they name: the same root, plies, fingerprint and shard count,
/// every shard once, and each part holding exactly its share's positions with an exact
/// remoteness. `parts` pairs a name for errors with each part; the error is one line
/// naming the part (nothing is written or removed, so no good part is lost by a bad one).
pub fn merge_parts(
    parts: &[(String, BookPart)],
) -> Result<(BookPlan, HashMap<u128, Score>), String> {
    let Some((first_name, first)) = parts.first() else {
        return Err("no book parts given".into());
    };
    let plan = BookPlan::new(&first.root, first.plies);
    if plan.fingerprint() != first.fingerprint {
        return Err(format!(
            "{first_name}: its fingerprint does not match the book it names (a part of another program version?)"
        ));
    }
    let count = first.shard.count;
    let mut seen: HashMap<u32, &str> = HashMap::new();
    let mut scores = HashMap::with_capacity(plan.frontier.len());
    for (name, part) in parts {
        if part.root != first.root
            || part.plies != first.plies
            || part.fingerprint != first.fingerprint
        {
            return Err(format!(
                "{name}: a part of another book (root {}, {} plies) than {first_name} (root {}, {} plies)",
                part.root, part.plies, first.root, first.plies
            ));
        }
        if part.shard.count != count {
            return Err(format!(
                "{name}: shard {} of another split than {first_name} (shard {})",
                part.shard, first.shard
            ));
        }
        if let Some(other) = seen.insert(part.shard.index, name) {
            return Err(format!("{name}: shard {} again (also {other})", part.shard));
        }
        let share = plan.share(part.shard);
        let matches = share.len() == part.records.len()
            && share
                .iter()
                .zip(&part.records)
                .all(|(p, r)| p.key() == r.key());
        if !matches {
            return Err(format!(
                "{name}: shard {} does not hold its share's positions ({} records, the share has {})",
                part.shard,
                part.records.len(),
                share.len()
            ));
        }
        for r in &part.records {
            let Some(remoteness) = r.remoteness() else {
                return Err(format!("{name}: a record without an exact remoteness"));
            };
            scores.insert(r.key(), Score::new(r.value(), remoteness));
        }
    }
    let missing: Vec<String> = (1..=count)
        .filter(|i| !seen.contains_key(i))
        .map(|i| format!("{i}/{count}"))
        .collect();
    if !missing.is_empty() {
        return Err(format!("missing the part of shard {}", missing.join(", ")));
    }
    Ok((plan, scores))
}

/// The book's records, sorted by key: every book position with its exact value,
/// remoteness and first best move (derived from its children), every frontier position
/// with its exact value and remoteness. `frontier` holds the frontier's exact scores by
/// canonical key.
pub fn derive(plan: &BookPlan, frontier: &HashMap<u128, Score>) -> Result<Vec<Record>, BookError> {
    let mut known: HashMap<u128, Score> = frontier.clone();
    let book: HashMap<u128, Position> = plan
        .layers
        .iter()
        .flatten()
        .map(|p| (p.key(), *p))
        .collect();
    let mut records: Vec<Record> = plan
        .frontier
        .iter()
        .filter_map(|p| {
            let s = frontier.get(&p.key())?;
            Some(Record::new(p.key(), s.value(), s.remoteness(), None))
        })
        .collect();
    // Deepest first, so that a position's children are mostly known when it is derived;
    // a child reached earlier in another layer is derived on demand.
    for layer in plan.layers.iter().rev() {
        for pos in layer {
            let (score, best) = derive_one(pos, &book, &mut known)?;
            records.push(Record::new(
                pos.key(),
                score.value(),
                score.remoteness(),
                best,
            ));
        }
    }
    records.sort_unstable_by_key(|r| r.key());
    records.dedup_by_key(|r| r.key());
    Ok(records)
}

/// The exact score and first best move of a book position (a canonical image), from its
/// children; book children not yet derived are derived first.
fn derive_one(
    pos: &Position,
    book: &HashMap<u128, Position>,
    known: &mut HashMap<u128, Score>,
) -> Result<(Score, Option<Move>), BookError> {
    let mut best: Option<(Score, Move)> = None;
    for m in pos.legal_moves() {
        let child = pos.play_unchecked(m);
        let key = child.canonical_key().0;
        let child_score = match Score::by_rules(&Kamisado, &child) {
            Some(s) => s,
            None => match known.get(&key) {
                Some(&s) => s,
                None => match book.get(&key) {
                    Some(image) => derive_one(image, book, known)?.0,
                    None => {
                        return Err(BookError::Missing {
                            position: pos.to_string(),
                            mv: m,
                        })
                    }
                },
            },
        };
        let through = child_score.through_move(child.turn() != pos.turn());
        if best.is_none_or(|(s, _)| through > s) {
            best = Some((through, m));
        }
    }
    let (score, mv) = best.expect("a position in play has a move");
    known.insert(pos.canonical_key().0, score);
    Ok((score, Some(mv)))
}

/// The description a book's header carries, for people.
pub fn describe(plan: &BookPlan) -> String {
    let from = if plan.root == Position::start() {
        "the start".to_owned()
    } else {
        plan.root.to_string()
    };
    format!(
        "book: every position of the first {} moves from {from} ({} positions) with value, remoteness and best move; {} positions one move further with value and remoteness",
        plan.plies,
        plan.book_positions(),
        plan.frontier.len()
    )
}

/// What `db check` finds about a book beyond its records' agreement with each other.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BookAudit {
    pub plies: u32,
    /// Positions first reached after 0, 1, ... moves.
    pub positions_per_ply: Vec<usize>,
    pub frontier: usize,
    /// Book positions without a record holding an exact remoteness and a best move, and
    /// moves of book positions that neither the rules nor a record with an exact
    /// remoteness answer.
    pub problems: u64,
    /// The first problems, one line each.
    pub listed: Vec<String>,
    /// Records of the deepest ply solved afresh.
    pub solved: u64,
    /// Those whose fresh solve disagrees, one line each.
    pub disagreements: Vec<String>,
}

impl BookAudit {
    pub fn passed(&self) -> bool {
        self.problems == 0 && self.disagreements.is_empty()
    }
}

/// Checks that `db` is the book its header announces (`None` if it is not a book):
/// every position of its plies has a record with an exact remoteness and a best move,
/// and every move of each is answered by the rules or by a record with an exact
/// remoteness; then solves afresh up to `sample` positions of the deepest ply, evenly
/// spread, and compares value, remoteness and that the stored best move keeps them.
pub fn audit(
    db: &crate::Database,
    sample: u64,
    solver: &Solver<Kamisado>,
    cancel: &Cancel,
) -> Result<Option<BookAudit>, BookAuditError> {
    let header = db.header();
    if header.book_plies == 0 {
        return Ok(None);
    }
    let root = Position::from_key(header.book_root).map_err(|e| {
        BookAuditError::Db(crate::DbError::BadHeader(format!(
            "the book's root is not a position: {e}"
        )))
    })?;
    let plan = BookPlan::new(&root, header.book_plies);
    let mut audit = BookAudit {
        plies: plan.plies,
        positions_per_ply: plan.layers.iter().map(Vec::len).collect(),
        frontier: plan.frontier.len(),
        ..BookAudit::default()
    };
    let problem = |audit: &mut BookAudit, text: String| {
        audit.problems += 1;
        if audit.listed.len() < crate::MAX_LISTED {
            audit.listed.push(text);
        }
    };
    for pos in plan.layers.iter().flatten() {
        match db.find(pos.key())? {
            Some(r) if r.remoteness().is_some() && r.best_move().is_some() => {}
            Some(_) => problem(
                &mut audit,
                format!("{pos}: stored without an exact remoteness or a best move"),
            ),
            None => problem(&mut audit, format!("{pos}: not in the book")),
        }
        for m in pos.legal_moves() {
            let child = pos.play_unchecked(m);
            if Score::by_rules(&Kamisado, &child).is_some() {
                continue;
            }
            let exact = db
                .find(child.canonical_key().0)?
                .is_some_and(|r| r.remoteness().is_some());
            if !exact {
                problem(
                    &mut audit,
                    format!("{pos}: the move {m} is not answered by the book"),
                );
            }
        }
    }
    let deepest = plan.layers.last().map_or(&[][..], Vec::as_slice);
    let take = (sample as usize).min(deepest.len());
    for i in 0..take {
        let pos = deepest[i * deepest.len() / take];
        let Some(record) = db.find(pos.key())? else {
            continue;
        };
        audit.solved += 1;
        if let Some(why) = crate::check::solve_record(record, solver, cancel)? {
            audit.disagreements.push(format!("{pos}: {why}"));
        }
    }
    Ok(Some(audit))
}

/// Why a book could not be audited.
#[derive(Debug, thiserror::Error)]
pub enum BookAuditError {
    #[error(transparent)]
    Db(#[from] crate::DbError),
    #[error(transparent)]
    Solve(#[from] SolveError),
}
