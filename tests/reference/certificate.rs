//! A second certificate checker, written from the file layout in the README ("Certificates")
//! and nothing else: it parses the bytes itself, turns keys into positions of this crate,
//! finds canonical keys by trying the four symmetric images, and plays moves with this
//! crate's rules. It shares no code with `kamisado-cert` or `kamisado-core`.

use std::collections::HashMap;

use crate::board::{Colour, Side, Square, Tower};
use crate::position::{Move, RefPosition};

/// What a certificate that checks proves: one line per claim,
/// `<position text>: <winner> wins in <r>`.
pub type ProvedClaims = Vec<String>;

/// Why a certificate does not check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RefCertError {
    /// The bytes are not a well-formed certificate (magic, version, length, checksum,
    /// order, reserved bits).
    Damaged(String),
    /// Well formed, but an entry or a claim does not hold.
    Fails(String),
}

/// The kinds of statement, numbered as in the file.
const WINS: u32 = 0;
const LOSES: u32 = 1;
const CANNOT_WIN: u32 = 2;
const SURVIVES: u32 = 3;

/// CRC-32 as zlib computes it (reflected polynomial 0xEDB88320), bit by bit.
pub(crate) fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xffff_ffffu32;
    for &byte in bytes {
        crc ^= byte as u32;
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

fn read_u32(bytes: &[u8], at: usize) -> u32 {
    let mut b = [0u8; 4];
    b.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(b)
}

fn read_u128(bytes: &[u8], at: usize) -> u128 {
    let mut b = [0u8; 16];
    b.copy_from_slice(&bytes[at..at + 16]);
    u128::from_le_bytes(b)
}

fn colour_number(c: Colour) -> usize {
    Colour::ALL.iter().position(|&x| x == c).unwrap()
}

fn square_number(sq: Square) -> u128 {
    (sq.rank * 8 + sq.file) as u128
}

/// The position a 101-bit key describes, or why it describes none: Black's tower of
/// colour c on square number (key >> (53 + 6c)) & 63, White's on (key >> (5 + 6c)) & 63,
/// the side to move in bit 4 (1 = White), the active colour in bits 3..0 (8 = free move).
fn position_of_key(key: u128) -> Result<RefPosition, String> {
    if key >> 101 != 0 {
        return Err("key wider than 101 bits".into());
    }
    let mut board = [[None; 8]; 8];
    for (side, base) in [(Side::Black, 53), (Side::White, 5)] {
        for (c, &colour) in Colour::ALL.iter().enumerate() {
            let number = ((key >> (base + 6 * c)) & 63) as usize;
            let (rank, file) = (number / 8, number % 8);
            if board[rank][file].is_some() {
                return Err(format!("two towers on square {number}"));
            }
            board[rank][file] = Some(Tower { side, colour });
        }
    }
    let side = if (key >> 4) & 1 == 1 {
        Side::White
    } else {
        Side::Black
    };
    let active = match (key & 15) as usize {
        c @ 0..=7 => Some(Colour::ALL[c]),
        8 => None,
        other => return Err(format!("active colour field {other}")),
    };
    Ok(RefPosition::from_parts(board, side, active))
}

/// The key of a position, by the layout above.
fn key_of(pos: &RefPosition) -> u128 {
    let mut key = 0u128;
    for sq in Square::all() {
        if let Some(tower) = pos.tower_at(sq) {
            let base = match tower.side {
                Side::Black => 53,
                Side::White => 5,
            };
            key |= square_number(sq) << (base + 6 * colour_number(tower.colour));
        }
    }
    if pos.side_to_move() == Side::White {
        key |= 1 << 4;
    }
    key | pos.active().map_or(8, |c| colour_number(c) as u128)
}

/// The image of a position under the half turn (squares rotated, sides swapped) and/or
/// the file mirror (files reversed, colours renamed orange-brown, blue-green, purple-red,
/// pink-yellow).
fn image(pos: &RefPosition, half_turn: bool, mirror: bool) -> RefPosition {
    let rename = |c: Colour| {
        if mirror {
            Colour::ALL[7 - colour_number(c)]
        } else {
            c
        }
    };
    let swap = |s: Side| if half_turn { s.opponent() } else { s };
    let mut board = [[None; 8]; 8];
    for sq in Square::all() {
        if let Some(tower) = pos.tower_at(sq) {
            let (mut file, mut rank) = (sq.file, sq.rank);
            if half_turn {
                (file, rank) = (7 - file, 7 - rank);
            }
            if mirror {
                file = 7 - file;
            }
            board[rank][file] = Some(Tower {
                side: swap(tower.side),
                colour: rename(tower.colour),
            });
        }
    }
    RefPosition::from_parts(board, swap(pos.side_to_move()), pos.active().map(rename))
}

/// The smallest key among the symmetric images with Black to move.
fn canonical_key(pos: &RefPosition) -> u128 {
    let mut best = u128::MAX;
    for half_turn in [false, true] {
        for mirror in [false, true] {
            let img = image(pos, half_turn, mirror);
            if img.side_to_move() == Side::Black {
                best = best.min(key_of(&img));
            }
        }
    }
    best
}

/// An entry, unpacked.
#[derive(Clone, Copy, Debug)]
struct Statement {
    kind: u32,
    bound: i64,
    /// (from, to) square numbers; (0, 0) when none.
    mv: (u128, u128),
}

/// Statements within this many moves are left to the checker, which plays every line.
const DECIDED_BY_RULES: i64 = 5;

/// Whether entries of this kind name a move (`WINS`, `SURVIVES`); the others are about
/// every move.
fn names_a_move(kind: u32) -> bool {
    kind == WINS || kind == SURVIVES
}

/// What the rules alone say about `kind` within `bound` for the side to move of `pos`:
/// `Some` for a finished game, a bound of at most `DECIDED_BY_RULES` (every line played
/// out), or a game that ends within `DECIDED_BY_RULES` anyway; `None` when an entry is
/// needed.
fn by_rules(pos: &RefPosition, kind: u32, bound: i64) -> Option<bool> {
    let at_least_kind = kind == CANNOT_WIN || kind == SURVIVES;
    if at_least_kind && bound < 0 {
        return Some(true);
    }
    if let Some(end) = pos.game_end() {
        let mover_won = end.winner == pos.side_to_move();
        let ok = if names_a_move(kind) {
            mover_won
        } else {
            !mover_won
        };
        return Some(ok && bound >= 0);
    }
    if bound <= 0 {
        return Some(at_least_kind);
    }
    if bound <= DECIDED_BY_RULES {
        let children = pos.children();
        let mut results = children.iter().map(|(_, child)| {
            let passed = child.side_to_move() != pos.side_to_move();
            by_rules(child, Entries::through(kind, passed), bound - 1) == Some(true)
        });
        return Some(if names_a_move(kind) {
            results.any(|ok| ok)
        } else {
            results.all(|ok| ok)
        });
    }
    // Beyond that: a side that wins within DECIDED_BY_RULES wins within more and never
    // loses; a side that loses within it loses within more and never wins.
    let decided = if names_a_move(kind) { WINS } else { LOSES };
    if by_rules(pos, decided, DECIDED_BY_RULES) == Some(true) {
        return Some(true);
    }
    None
}

struct Entries(HashMap<u128, Vec<Statement>>);

impl Entries {
    /// Whether `kind` within `bound` holds for the side to move of `pos`.
    fn holds(&self, pos: &RefPosition, kind: u32, bound: i64) -> Result<(), String> {
        let at_least_kind = kind == CANNOT_WIN || kind == SURVIVES;
        match by_rules(pos, kind, bound) {
            Some(true) => return Ok(()),
            Some(false) => {
                return Err(format!(
                    "the rules refute kind {kind} within {bound} in {}",
                    pos.to_text()
                ))
            }
            None => {}
        }
        let found = self.0.get(&canonical_key(pos)).is_some_and(|list| {
            list.iter().any(|s| {
                (s.kind == kind
                    && (if at_least_kind {
                        s.bound >= bound
                    } else {
                        s.bound <= bound
                    }))
                    || (kind == CANNOT_WIN && s.kind == LOSES)
                    || (kind == SURVIVES && s.kind == WINS)
            })
        });
        if found {
            Ok(())
        } else {
            Err(format!(
                "nothing shows kind {kind} within {bound} for {}",
                pos.to_text()
            ))
        }
    }

    /// The statement the position after a move must satisfy.
    fn through(kind: u32, passed: bool) -> u32 {
        if !passed {
            return kind;
        }
        match kind {
            WINS => LOSES,
            LOSES => WINS,
            CANNOT_WIN => SURVIVES,
            _ => CANNOT_WIN,
        }
    }

    fn check_entry(&self, key: u128, s: Statement) -> Result<(), String> {
        let pos = position_of_key(key)?;
        if pos.game_end().is_some() {
            return Err("finished game".into());
        }
        let pending = pos.active().is_some() && pos.moves_here().is_empty();
        if pending {
            return Err("pending zero-length move".into());
        }
        if s.bound < 1 {
            return Err("bound 0".into());
        }
        let children = pos.children();
        let check = |mv: &Move, child: &RefPosition| {
            let passed = child.side_to_move() != pos.side_to_move();
            self.holds(child, Entries::through(s.kind, passed), s.bound - 1)
                .map_err(|e| format!("after {}: {e}", mv.text()))
        };
        if names_a_move(s.kind) {
            let (mv, child) = children
                .iter()
                .find(|(mv, _)| (square_number(mv.from), square_number(mv.to)) == s.mv)
                .ok_or_else(|| format!("move {:?} is not legal in {}", s.mv, pos.to_text()))?;
            check(mv, child)
        } else {
            if s.mv != (0, 0) {
                return Err("an every-move entry names a move".into());
            }
            children.iter().try_for_each(|(mv, child)| check(mv, child))
        }
    }
}

/// Checks a certificate file's bytes.
pub fn check_certificate(bytes: &[u8]) -> Result<ProvedClaims, RefCertError> {
    let damaged = |m: &str| RefCertError::Damaged(m.to_string());
    if bytes.len() < 32 || &bytes[0..8] != b"KAMICERT" {
        return Err(damaged("no KAMICERT header"));
    }
    if read_u32(bytes, 8) != 1 {
        return Err(damaged("version is not 1"));
    }
    let claims = read_u32(bytes, 16) as u128;
    let mut n = [0u8; 8];
    n.copy_from_slice(&bytes[24..32]);
    let entries = u64::from_le_bytes(n) as u128;
    if 32 + 16 * (claims + entries) != bytes.len() as u128 {
        return Err(damaged("length does not match the counts"));
    }
    let mut zeroed = bytes.to_vec();
    zeroed[12..16].copy_from_slice(&[0, 0, 0, 0]);
    if crc32(&zeroed) != read_u32(bytes, 12) {
        return Err(damaged("checksum"));
    }
    if read_u32(bytes, 20) != 0 || claims == 0 {
        return Err(damaged("reserved header field or no claims"));
    }
    let words: Vec<u128> = (0..(claims + entries) as usize)
        .map(|i| read_u128(bytes, 32 + 16 * i))
        .collect();
    let (claim_words, entry_words) = words.split_at(claims as usize);
    let mut table: HashMap<u128, Vec<Statement>> = HashMap::new();
    for (i, &w) in entry_words.iter().enumerate() {
        if i > 0 && entry_words[i - 1] >= w {
            return Err(damaged("entries out of order"));
        }
        if w & 63 != 0 {
            return Err(damaged("entry reserved bits"));
        }
        let mv = (w >> 6) & 0xfff;
        table.entry(w >> 27).or_default().push(Statement {
            kind: ((w >> 25) & 3) as u32,
            bound: ((w >> 18) & 127) as i64,
            mv: (mv & 63, mv >> 6),
        });
    }
    let entries = Entries(table);
    let all: Vec<(u128, Statement)> = entries
        .0
        .iter()
        .flat_map(|(&key, list)| list.iter().map(move |&s| (key, s)))
        .collect();
    // Each entry is checked on its own, so the list is shared out among threads.
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = all.len().div_ceil(threads).max(1);
    let failures: Vec<String> = std::thread::scope(|scope| {
        let workers: Vec<_> = all
            .chunks(chunk)
            .map(|part| {
                let entries = &entries;
                scope.spawn(move || {
                    part.iter().find_map(|&(key, s)| {
                        entries
                            .check_entry(key, s)
                            .err()
                            .map(|e| format!("entry {key:#x} kind {}: {e}", s.kind))
                    })
                })
            })
            .collect();
        workers
            .into_iter()
            .filter_map(|w| w.join().expect("a checking thread does not panic"))
            .collect()
    });
    if let Some(first) = failures.into_iter().next() {
        return Err(RefCertError::Fails(first));
    }
    let mut proved = Vec::new();
    for &w in claim_words {
        if w & ((1 << 19) - 1) != 0 {
            return Err(damaged("claim reserved bits"));
        }
        let pos = position_of_key(w >> 27).map_err(|e| damaged(&e))?;
        let mover_wins = (w >> 26) & 1 == 1;
        let r = ((w >> 19) & 127) as i64;
        let (within, beyond) = if mover_wins {
            (WINS, CANNOT_WIN)
        } else {
            (LOSES, SURVIVES)
        };
        let fails = |e: String| RefCertError::Fails(format!("claim {}: {e}", pos.to_text()));
        entries.holds(&pos, within, r).map_err(fails)?;
        entries.holds(&pos, beyond, r - 1).map_err(fails)?;
        let winner = if mover_wins {
            pos.side_to_move()
        } else {
            pos.side_to_move().opponent()
        };
        proved.push(format!("{}: {winner:?} wins in {r}", pos.to_text()));
    }
    Ok(proved)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc_of_a_known_string() {
        // The standard check value of CRC-32.
        assert_eq!(crc32(b"123456789"), 0xcbf4_3926);
    }

    #[test]
    fn keys_round_trip_and_the_start_is_its_own_canonical_image() {
        let start = RefPosition::start();
        let key = key_of(&start);
        assert_eq!(position_of_key(key).unwrap(), start);
        // The start is symmetric under the mirror; its canonical key is its own key or
        // its mirror's, both with Black to move.
        assert_eq!(
            canonical_key(&start),
            key.min(key_of(&image(&start, false, true)))
        );
        let after = start.play("a1-a5").unwrap();
        assert_eq!(after.side_to_move(), Side::White);
        let c = canonical_key(&after);
        assert_eq!((c >> 4) & 1, 0, "canonical images have Black to move");
        assert_eq!(canonical_key(&image(&after, true, true)), c);
        assert_eq!(canonical_key(&image(&after, false, true)), c);
    }
}
