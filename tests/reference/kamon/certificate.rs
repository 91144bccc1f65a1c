//! A second checker of Kamon certificates, written from the README's description of the
//! file ("Kamon certificates") and nothing else: it parses the bytes itself, turns keys
//! into positions of this reference (and positions into keys) by the README's key layout,
//! and plays with this reference's rules. It shares no code with `kamon-cert` or
//! `kamon-core`.
//!
//! Unlike the fast checker, which checks every entry on its own, this one walks the proof
//! from the claims: a statement needed about a position is met by the rules or by an
//! entry, whose placements lead to the next needs, depth first, each (position, kind)
//! judged once.

use std::collections::HashMap;

use super::geometry::Cell;
use super::layout::KamonLayout;
use super::position::{KamonEnd, KamonPosition};
use crate::board::Side;
use crate::certificate::{crc32, RefCertError};

const WINS: u8 = 0;
const LOSES: u8 = 1;
const DRAWS_OR_WINS: u8 = 2;
const CANNOT_WIN: u8 = 3;

/// The first column of each row in the key's slid grid (README: bit = 8 * row + this +
/// the cell's index in its row).
const ROW_START: [usize; 7] = [3, 2, 1, 0, 0, 0, 0];
const NO_TOP: u128 = 63;

fn bit_of(cell: Cell) -> u32 {
    (8 * cell.row + ROW_START[cell.row] + cell.index) as u32
}

fn cell_of_bit(bit: u32) -> Option<Cell> {
    Cell::all().into_iter().find(|&c| bit_of(c) == bit)
}

/// The README's key: Black's cells in bits 0..56, White's in 56..112, the last placement's
/// cell in 112..118 (63 before the first).
fn key_of(position: &KamonPosition) -> u128 {
    let mut key = 0u128;
    for cell in Cell::all() {
        match position.owner(cell) {
            Some(Side::Black) => key |= 1 << bit_of(cell),
            Some(Side::White) => key |= 1 << (56 + bit_of(cell)),
            None => {}
        }
    }
    let top = position
        .played()
        .last()
        .map_or(NO_TOP, |&c| bit_of(c) as u128);
    key | top << 112
}

/// The position a key names: its pieces placed Black, White, Black, ... with the last
/// placement last (the order of the others changes nothing the rules look at).
fn position_of_key(layout: &KamonLayout, key: u128) -> Result<KamonPosition, String> {
    let cells_of = |bits: u128| -> Result<Vec<Cell>, String> {
        (0..56)
            .filter(|b| bits >> b & 1 == 1)
            .map(|b| cell_of_bit(b).ok_or_else(|| format!("bit {b} is no cell")))
            .collect()
    };
    let mut black = cells_of(key & ((1 << 56) - 1))?;
    let mut white = cells_of(key >> 56 & ((1 << 56) - 1))?;
    let top = key >> 112;
    if top > 63 {
        return Err("the key has bits above 118".into());
    }
    if black.len() != white.len() && black.len() != white.len() + 1 {
        return Err(format!(
            "{} black and {} white pieces",
            black.len(),
            white.len()
        ));
    }
    let last_mover_is_black = black.len() > white.len();
    if top == NO_TOP {
        if !black.is_empty() {
            return Err("pieces but no last placement".into());
        }
    } else {
        let last = cell_of_bit(top as u32).ok_or("the last placement is no cell")?;
        let pile = if last_mover_is_black {
            &mut black
        } else {
            &mut white
        };
        let at = pile
            .iter()
            .position(|&c| c == last)
            .ok_or("the last placement is not the last mover's piece")?;
        pile.remove(at);
        pile.push(last);
    }
    let mut played = Vec::new();
    let (mut b, mut w) = (black.into_iter(), white.into_iter());
    // Interleave so that the last placement stays last.
    let total = b.len() + w.len();
    let mut rest: Vec<Cell> = Vec::new();
    for i in 0..total {
        let next = if i % 2 == 0 { b.next() } else { w.next() };
        rest.push(next.ok_or("uneven pieces")?);
    }
    played.extend(rest);
    // A key names a position play could reach but for the order of the cells: Black's
    // first placement was on an opening cell (an edge cell, not a corner), and nobody had
    // won before the last placement.
    if !played.is_empty()
        && !played
            .iter()
            .step_by(2)
            .any(|cell| cell.is_edge() && !cell.is_corner())
    {
        return Err("Black has no piece on an opening cell".into());
    }
    let mut position = KamonPosition::new(layout.clone());
    let mut before_last = position.clone();
    for cell in played {
        if position.owner(cell).is_some() || cell == layout.forbidden_cell() {
            return Err("a cell taken twice or the forbidden cell".into());
        }
        before_last = position;
        position = before_last.with_placement(cell);
    }
    let to_move = position.side_to_move();
    let won =
        |position: &KamonPosition, side| position.has_connection(side) || position.has_loop(side);
    if won(&position, to_move) {
        return Err("the player to move has already won".into());
    }
    if !position.played().is_empty() && won(&before_last, before_last.side_to_move()) {
        return Err("the last mover had won before the last placement".into());
    }
    Ok(position)
}

/// For the side to move of a finished game: 2 win, 1 draw, 0 loss.
fn finished(position: &KamonPosition) -> Option<u8> {
    position.end().map(|end| match end {
        KamonEnd::Draw => 1,
        // The game ends after a placement, won by the player who placed it.
        KamonEnd::Win { winner, .. } if winner == position.side_to_move() => 2,
        KamonEnd::Win { .. } => 0,
    })
}

fn implies(entry: u8, wanted: u8) -> bool {
    entry == wanted
        || (entry == LOSES && wanted == CANNOT_WIN)
        || (entry == WINS && wanted == DRAWS_OR_WINS)
}

fn after_placement(kind: u8) -> u8 {
    match kind {
        WINS => LOSES,
        LOSES => WINS,
        DRAWS_OR_WINS => CANNOT_WIN,
        _ => DRAWS_OR_WINS,
    }
}

struct Walk<'a> {
    /// (key, kind) -> the placement's bit (63 for none).
    entries: &'a HashMap<(u128, u8), u32>,
    judged: HashMap<(u128, u8), bool>,
    /// Format version 2: a win the side to move forces within three of its placements
    /// needs no entry.
    forced_wins: bool,
}

impl Walk<'_> {
    fn holds(&mut self, position: &KamonPosition, kind: u8) -> bool {
        if let Some(value) = finished(position) {
            return match kind {
                WINS => value == 2,
                LOSES => value == 0,
                DRAWS_OR_WINS => value >= 1,
                _ => value <= 1,
            };
        }
        if kind == WINS || kind == DRAWS_OR_WINS {
            let children = placements_with_ends(position);
            let ends_well = children.iter().any(|(_, _, end)| match end {
                Some(0) => true,
                Some(1) => kind == DRAWS_OR_WINS,
                _ => false,
            });
            if ends_well || (self.forced_wins && forces_win_after(&children, 3)) {
                return true;
            }
        }
        let key = key_of(position);
        if let Some(&known) = self.judged.get(&(key, kind)) {
            return known;
        }
        let mut result = false;
        for entry_kind in [WINS, LOSES, DRAWS_OR_WINS, CANNOT_WIN] {
            if !implies(entry_kind, kind) {
                continue;
            }
            let Some(&placement) = self.entries.get(&(key, entry_kind)) else {
                continue;
            };
            let next = after_placement(entry_kind);
            let shown = if entry_kind == WINS || entry_kind == DRAWS_OR_WINS {
                match cell_of_bit(placement).map(|c| position.play(c)) {
                    Some(Ok(child)) => self.holds(&child, next),
                    _ => false,
                }
            } else {
                placement == 63
                    && position
                        .children()
                        .iter()
                        .all(|(_, child)| self.holds(child, next))
            };
            if shown {
                result = true;
                break;
            }
        }
        self.judged.insert((key, kind), result);
        result
    }
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

fn u128_at(bytes: &[u8], at: usize) -> u128 {
    u128::from_le_bytes(bytes[at..at + 16].try_into().unwrap())
}

/// The header both Kamon formats share (README: the file): the magic, a version of
/// `versions`, the length, the checksum and the layout; then the version, the number of
/// claims, of words after them, and where the claims start.
fn read_header(
    bytes: &[u8],
    magic: &[u8; 8],
    versions: &[u32],
) -> Result<(u32, KamonLayout, usize, u64, usize), RefCertError> {
    let damaged = |why: &str| RefCertError::Damaged(why.to_string());
    if bytes.len() < 32 || &bytes[..8] != magic {
        return Err(damaged("no header"));
    }
    let version = u32_at(bytes, 8);
    if !versions.contains(&version) {
        return Err(damaged("version"));
    }
    let claims = u32_at(bytes, 16) as usize;
    let layout_len = u32_at(bytes, 20) as usize;
    let words = u64::from_le_bytes(bytes[24..32].try_into().unwrap());
    let padded = layout_len.div_ceil(16) * 16;
    let expected = (claims as u128 + words as u128) * 16 + 32 + padded as u128;
    if expected != bytes.len() as u128 || claims == 0 {
        return Err(damaged("length"));
    }
    let mut zeroed = bytes.to_vec();
    zeroed[12..16].fill(0);
    if crc32(&zeroed) != u32_at(bytes, 12) {
        return Err(damaged("checksum"));
    }
    let layout_text =
        std::str::from_utf8(&bytes[32..32 + layout_len]).map_err(|_| damaged("layout"))?;
    let layout = KamonLayout::parse(layout_text).map_err(|e| damaged(&e))?;
    Ok((version, layout, claims, words, 32 + padded))
}

/// A claim word (README: the key above bit 10, the claim below: a value, or a bound about
/// a draw): its position, the statements that show it, and its name.
fn read_claim(
    layout: &KamonLayout,
    word: u128,
) -> Result<(KamonPosition, &'static [u8], &'static str), RefCertError> {
    let damaged = |why: &str| RefCertError::Damaged(why.to_string());
    let position = position_of_key(layout, word >> 10).map_err(|e| damaged(&e))?;
    let (statements, name): (&'static [u8], &'static str) = match word & 1023 {
        0 => (&[LOSES], "loss"),
        1 => (&[DRAWS_OR_WINS, CANNOT_WIN], "draw"),
        2 => (&[WINS], "win"),
        3 => (&[DRAWS_OR_WINS], "at least a draw"),
        4 => (&[CANNOT_WIN], "at most a draw"),
        _ => return Err(damaged("claim value")),
    };
    Ok((position, statements, name))
}

/// Checks a Kamon certificate's bytes; on success, one line per claim:
/// `<key in hex>: <win|draw|loss|at least a draw|at most a draw> for the side to move`.
pub fn check_kamon_certificate(bytes: &[u8]) -> Result<Vec<String>, RefCertError> {
    let damaged = |why: &str| RefCertError::Damaged(why.to_string());
    let (version, layout, claims, entries, words_at) = read_header(bytes, b"KAMONCRT", &[1, 2])?;
    let mut table = HashMap::new();
    let mut previous: Option<u128> = None;
    for i in 0..entries as usize {
        let word = u128_at(bytes, words_at + 16 * (claims + i));
        if previous.is_some_and(|p| p >= word) || word >> 8 & 3 != 0 {
            return Err(damaged("entry order or reserved bits"));
        }
        previous = Some(word);
        table.insert((word >> 10, (word >> 6 & 3) as u8), (word & 63) as u32);
    }
    let mut walk = Walk {
        entries: &table,
        judged: HashMap::new(),
        forced_wins: version == 2,
    };
    let mut proved = Vec::new();
    for i in 0..claims {
        let word = u128_at(bytes, words_at + 16 * i);
        let (position, statements, name) = read_claim(&layout, word)?;
        for &kind in statements {
            if !walk.holds(&position, kind) {
                return Err(RefCertError::Fails(format!(
                    "claim {} ({name}) is not shown",
                    i + 1
                )));
            }
        }
        proved.push(format!("{:#x}: {name} for the side to move", word >> 10));
    }
    Ok(proved)
}

/// Whether `key` names a position on `layout` (the README's key layout, a position play
/// could reach but for the order of its cells), or what is wrong with it.
pub fn kamon_position_of_key(layout: &str, key: u128) -> Result<(), String> {
    position_of_key(&KamonLayout::parse(layout)?, key).map(|_| ())
}

/// The key of the position after `moves` on `layout`, as the README defines it.
pub fn kamon_key(layout: &str, moves: &str) -> Result<u128, String> {
    Ok(key_of(&KamonPosition::parse(layout, moves)?))
}

/// The choices of a walk certificate: the words' bits in order, each word's from its
/// least significant bit up.
struct Choices<'a> {
    words: &'a [u8],
    at: usize,
}

impl Choices<'_> {
    fn bit(&mut self) -> Option<u32> {
        let byte = *self.words.get(self.at / 8)?;
        let bit = (byte >> (self.at % 8)) & 1;
        self.at += 1;
        Some(bit as u32)
    }

    /// An index below `n` in the fewest bits that hold every such index, least
    /// significant bit first.
    fn index(&mut self, n: usize) -> Option<usize> {
        let mut width = 0;
        while (1usize << width) < n {
            width += 1;
        }
        let mut value = 0;
        for i in 0..width {
            value |= (self.bit()? as usize) << i;
        }
        Some(value)
    }
}

struct WalkCheck<'a> {
    choices: Choices<'a>,
    /// (key, kind) shown so far.
    shown: std::collections::HashSet<(u128, u8)>,
    /// Format version 2: a win the side to move forces within three of its placements
    /// needs no choice.
    forced_wins: bool,
}

/// Every placement the stack allows in `position`, a game going on (so these are its legal
/// cells), with the position after it and that position's end, in board order. Each
/// position's end is asked once: the rules' verdict is the costliest thing asked here.
fn placements_with_ends(position: &KamonPosition) -> Vec<(Cell, KamonPosition, Option<u8>)> {
    position
        .cells_allowed_by_the_stack()
        .into_iter()
        .map(|cell| {
            let child = position.with_placement(cell);
            let end = finished(&child);
            (cell, child, end)
        })
        .collect()
}

/// Whether the side to move of `position`, a game going on, wins within `placements` of
/// its own placements whatever the opponent replies (README, walk certificates, format
/// version 2): plain minimax over every placement and reply, each position's end from the
/// reference's own rules.
pub(crate) fn forces_win(position: &KamonPosition, placements: u32) -> bool {
    forces_win_after(&placements_with_ends(position), placements)
}

/// [`forces_win`] of a position given by its [`placements_with_ends`].
fn forces_win_after(children: &[(Cell, KamonPosition, Option<u8>)], placements: u32) -> bool {
    if placements == 0 {
        return false;
    }
    // The opponent, to move after a placement that ended the game, has lost.
    if children.iter().any(|(_, _, end)| *end == Some(0)) {
        return true;
    }
    placements > 1
        && children.iter().any(|(_, child, end)| {
            if end.is_some() {
                return false;
            }
            // Every reply must leave a game going on (none wins or draws), and a forced
            // win after it: the cheap half first.
            let replies = placements_with_ends(child);
            replies.iter().all(|(_, _, end)| end.is_none())
                && replies
                    .iter()
                    .all(|(_, next, _)| forces_win(next, placements - 1))
        })
}

impl WalkCheck<'_> {
    /// Shows `kind` for the side to move of `position` as the README's walk does:
    /// the rules, then what was shown before, then a choice read (or every placement).
    fn show(&mut self, position: &KamonPosition, kind: u8) -> Result<(), String> {
        self.show_after(position, finished(position), kind)
    }

    /// [`WalkCheck::show`] for a position whose end (`finished`) is known: the rules'
    /// verdict is the costliest thing asked of a position, so it is asked once a position.
    fn show_after(
        &mut self,
        position: &KamonPosition,
        end: Option<u8>,
        kind: u8,
    ) -> Result<(), String> {
        if let Some(value) = end {
            let holds = match kind {
                WINS => value == 2,
                LOSES => value == 0,
                DRAWS_OR_WINS => value >= 1,
                _ => value <= 1,
            };
            return if holds {
                Ok(())
            } else {
                Err("a finished game says otherwise".into())
            };
        }
        // The game goes on, so the stack's cells are the legal ones.
        let mut children = placements_with_ends(position);
        if kind == WINS || kind == DRAWS_OR_WINS {
            let ends_well = children.iter().any(|(_, _, end)| match end {
                Some(0) => true,
                Some(1) => kind == DRAWS_OR_WINS,
                _ => false,
            });
            if ends_well {
                return Ok(());
            }
        }
        let key = key_of(position);
        if self.shown.contains(&(key, kind)) {
            return Ok(());
        }
        if self.forced_wins
            && (kind == WINS || kind == DRAWS_OR_WINS)
            && forces_win_after(&children, 3)
        {
            return Ok(());
        }
        children.sort_by_key(|(cell, _, _)| bit_of(*cell));
        let next = after_placement(kind);
        if kind == WINS || kind == DRAWS_OR_WINS {
            let i = self
                .choices
                .index(children.len())
                .ok_or("the choices end too soon")?;
            let (_, child, end) = children.get(i).ok_or("a choice past the legal cells")?;
            self.show_after(child, *end, next)?;
        } else {
            for (_, child, end) in &children {
                self.show_after(child, *end, next)?;
            }
        }
        self.shown.insert((key, kind));
        Ok(())
    }
}

/// Checks a Kamon walk certificate's bytes (README, "Walk certificates"); on success,
/// one line per claim as [`check_kamon_certificate`] gives them.
pub fn check_kamon_walk(bytes: &[u8]) -> Result<Vec<String>, RefCertError> {
    let (version, layout, claims, _, claims_at) = read_header(bytes, b"KAMONWLK", &[1, 2])?;
    let stream = &bytes[claims_at + 16 * claims..];
    let mut walk = WalkCheck {
        choices: Choices {
            words: stream,
            at: 0,
        },
        shown: std::collections::HashSet::new(),
        forced_wins: version == 2,
    };
    let mut proved = Vec::new();
    for i in 0..claims {
        let word = u128_at(bytes, claims_at + 16 * i);
        let (position, statements, name) = read_claim(&layout, word)?;
        for &kind in statements {
            walk.show(&position, kind).map_err(|e| {
                RefCertError::Fails(format!("claim {} ({name}) is not shown: {e}", i + 1))
            })?;
        }
        proved.push(format!("{:#x}: {name} for the side to move", word >> 10));
    }
    // The walk reads into the last word and the bits after it are zero.
    let read = walk.choices.at;
    if stream.len() != read.div_ceil(128) * 16 {
        return Err(RefCertError::Fails("words of choices left unread".into()));
    }
    while walk.choices.at < stream.len() * 8 {
        if walk.choices.bit() != Some(0) {
            return Err(RefCertError::Fails(
                "a bit set after the last choice".into(),
            ));
        }
    }
    Ok(proved)
}
