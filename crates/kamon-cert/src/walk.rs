//! Walk certificates: a proof stored as the checker's own walk of it, a few bits per
//! placement chosen instead of sixteen bytes per position.
//!
//! # Why
//!
//! A certificate of entries ([`crate::Certificate`]) names every position of its proof
//! by a 16-byte key, so that each entry can be checked on its own. Most of those bytes
//! say what a checker can work out: the positions follow from the claims and the
//! placements, and "loses" and "cannot win" name no placement at all. A whole layout's
//! proof has some 10^8 entries (gigabytes); all a checker cannot work out is, at each
//! "wins" or "draws or wins" the rules do not decide, which of a handful of legal cells
//! the winner plays: two or three bits.
//!
//! So a walk certificate holds the claims and those choices, in the order a checker
//! needs them as it walks the proof depth first from the claims. To **show** a statement
//! (one of the four [`Kind`]s) about the side to move of a position:
//!
//! 1. if the rules decide it (`check::by_rules`: a finished game; a placement that wins, or
//!    for "draws or wins" wins or draws, at once; from format version 2, a win the side
//!    to move forces within three placements, [`crate::forced_win`]), it holds or the
//!    check fails;
//! 2. else if the walk has shown the same statement about the same position before, it
//!    holds (no choice is read);
//! 3. else for "wins" and "draws or wins" read a **choice**: the index, among the legal
//!    cells in reading order (bit order), of the placement, in the fewest bits that hold
//!    every index (`ceil(log2 n)` for n legal cells, none for one), and show the
//!    statement after a placement ([`Kind::after_placement`]) about the position it
//!    leads to; for "loses" and "cannot win", show it after every legal placement, in
//!    reading order.
//!
//! The claims are shown in the file's order, a draw's "draws or wins" before its "cannot
//! win". The choices are one stream of bits: the words' bits in order, each word's from
//! its least significant bit up, each choice least significant bit first. The walk must
//! read into the last word, and every bit after its last choice must be zero.
//!
//! **Why it is sound**: every placement adds a piece, so no position lies below itself
//! and a statement is recorded as shown only once its whole walk has held; by induction
//! on the free cells every statement the walk records is true, as for the entries.
//!
//! **What it costs**: the checker walks the proof (it cannot check parts in parallel or
//! out of order), and remembers every statement it has walked: a key and the kinds shown,
//! bounded by a limit the caller sets ([`WalkLimits`]).
//!
//! **Weighed and rejected**: numbering the placements in the order of the search's first
//! guesses (the proof's placement is the first guess two times in three, README "Kamon
//! certificates"), which would shorten the stream but tie the format, and its checker,
//! to the solver's heuristics; a general-purpose compressor on top, left to whoever
//! ships the file (the README gives `xz`'s figure).

use std::collections::HashSet;

use foldhash::fast::FixedState;

use kamon_core::{Bitboard, Cell, Layout, Position};

use crate::check::by_rules;
use crate::forced::forced_placements;
use crate::Kind;

/// The bits that hold every index below `n`: 0 for one cell, 1 for two, 2 for three or
/// four, ...
pub(crate) fn choice_width(n: u32) -> u32 {
    if n <= 1 {
        0
    } else {
        32 - (n - 1).leading_zeros()
    }
}

/// A stream of choices being written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChoiceWriter {
    words: Vec<u128>,
    bits: u64,
}

impl ChoiceWriter {
    /// Appends the `width` low bits of `value`.
    pub(crate) fn push(&mut self, value: u32, width: u32) {
        for i in 0..width {
            let at = self.bits % 128;
            if at == 0 {
                self.words.push(0);
            }
            if value >> i & 1 == 1 {
                *self.words.last_mut().expect("a word was pushed") |= 1 << at;
            }
            self.bits += 1;
        }
    }

    /// The bits written.
    pub fn bits(&self) -> u64 {
        self.bits
    }

    pub fn into_words(self) -> Vec<u128> {
        self.words
    }
}

/// A stream of choices being read.
pub(crate) struct ChoiceReader<'a> {
    words: &'a [u128],
    at: u64,
}

impl<'a> ChoiceReader<'a> {
    pub(crate) fn new(words: &'a [u128]) -> ChoiceReader<'a> {
        ChoiceReader { words, at: 0 }
    }

    /// The next `width` bits (at most 32; a choice takes at most 6), or `None` past the
    /// end of the stream.
    fn read(&mut self, width: u32) -> Option<u32> {
        debug_assert!(width <= 32, "a choice of {width} bits");
        let mut value = 0;
        for i in 0..width {
            let word = self.words.get((self.at / 128) as usize)?;
            value |= ((word >> (self.at % 128)) as u32 & 1) << i;
            self.at += 1;
        }
        Some(value)
    }

    /// Why the stream does not end where the walk did: whole words left unread, or bits
    /// set after the last choice.
    pub(crate) fn leftover(&self) -> Option<String> {
        let needed = self.at.div_ceil(128);
        if self.words.len() as u64 > needed {
            return Some(format!(
                "the walk read {} bits of choices, but the file holds {} words ({} bits)",
                self.at,
                self.words.len(),
                self.words.len() as u64 * 128
            ));
        }
        let used = self.at % 128;
        if used != 0 && self.words[(self.at / 128) as usize] >> used != 0 {
            return Some(format!(
                "bits after the last choice (bit {}) are not zero",
                self.at
            ));
        }
        None
    }

    pub(crate) fn bits_read(&self) -> u64 {
        self.at
    }
}

/// Where the placements of the walk's choices come from: the file, for the checker; a
/// proof's entries, for the packer (which writes what it chose).
pub(crate) trait Chooser {
    /// REQUIRED. The placement that shows `kind` ("wins" or "draws or wins") for the
    /// side to move of `pos`, one of `legal` (not empty).
    fn choose(&mut self, pos: &Position, kind: Kind, legal: Bitboard) -> Result<Cell, String>;

    /// OPTIONAL (nothing by default). Told that the walk begins to walk the position of
    /// `key` (neither the rules nor what was shown before settle it), before any choice
    /// below it. The packer notes which certificate's claims the walk is inside.
    fn enter(&mut self, _key: u128) {}

    /// OPTIONAL (nothing by default). Told that the walk has shown the position of `key`,
    /// everything below it included, after [`Chooser::enter`] of the same position.
    fn leave(&mut self, _key: u128) {}
}

/// Reads each choice from the stream.
impl Chooser for ChoiceReader<'_> {
    fn choose(&mut self, pos: &Position, kind: Kind, legal: Bitboard) -> Result<Cell, String> {
        let n = legal.count();
        let index = self.read(choice_width(n)).ok_or_else(|| {
            format!(
                "the choices end before the walk does (a placement was needed where {} in {})",
                kind.describe(pos.turn()),
                pos.to_setup()
            )
        })?;
        legal.into_iter().nth(index as usize).ok_or_else(|| {
            format!(
                "choice {index} where {} in {} names none of its {n} legal cells",
                kind.describe(pos.turn()),
                pos.to_setup()
            )
        })
    }
}

/// How far a walk may go before it is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WalkLimits {
    /// The most positions the walk remembers: one per choice, 16 bytes in a hash set
    /// (17 with its control byte; the set holds up to 7/8 of its slots and doubles when
    /// full, so 20 to 40 bytes a position, more while it doubles).
    pub positions: usize,
}

impl Default for WalkLimits {
    /// 300 million positions: at most about 14 GB (the set's doubling from 2^28 to 2^29
    /// slots near 235 million), a whole layout's proof (seed 1: 89 million, 3.4 GB) with
    /// room to spare on a machine of 24 GiB.
    fn default() -> WalkLimits {
        WalkLimits {
            positions: 300_000_000,
        }
    }
}

/// What a finished walk went through.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WalkCounts {
    /// Choices made: a placement for "wins" or "draws or wins" (each remembered).
    pub choices: u64,
    /// Positions walked, the rules' own and the remembered ones not counted; a "loses"
    /// or "cannot win" reached again is walked again (see `Walk`).
    pub walked: u64,
}

/// The walk of a proof, shared by the checker and the packer so that both read and write
/// the same choices in the same order.
///
/// It remembers only the statements that read a choice ("wins", "draws or wins"): a
/// "loses" or "cannot win" reached a second time is walked again, which reads nothing,
/// since every statement below it that reads a choice was shown and remembered the
/// first time. So the stream is the module's, at half the memory (half the statements
/// of a proof are of each sort) for some repeated work.
pub(crate) struct Walk<'a, C> {
    layout: &'a Layout,
    pub(crate) chooser: C,
    /// `forced_placements` of the file's format version.
    forced: u32,
    /// The statements shown that read a choice: the position's key, the kind in bits
    /// 118 and up.
    shown: HashSet<u128, FixedState>,
    limits: WalkLimits,
    counts: WalkCounts,
    progress: &'a mut dyn FnMut(WalkCounts),
}

impl<'a, C: Chooser> Walk<'a, C> {
    /// A walk of format `version` (what its rules decide, `forced_placements`).
    pub(crate) fn new(
        layout: &'a Layout,
        chooser: C,
        version: u32,
        limits: WalkLimits,
        progress: &'a mut dyn FnMut(WalkCounts),
    ) -> Walk<'a, C> {
        Walk {
            layout,
            chooser,
            forced: forced_placements(version),
            shown: HashSet::with_hasher(FixedState::default()),
            limits,
            counts: WalkCounts::default(),
            progress,
        }
    }

    pub(crate) fn counts(&self) -> WalkCounts {
        self.counts
    }

    /// Shows `kind` for the side to move of `pos` (the module's steps 1 to 3), or says
    /// why not: the placements from `pos` down to where it failed, and what failed.
    pub(crate) fn show(&mut self, pos: &Position, kind: Kind) -> Result<(), String> {
        let key = pos.key();
        let statement = key | (kind as u128) << 118;
        let remembered = kind.names_a_move();
        // Step 2 before step 1 reads the same stream: a statement is remembered only after
        // the rules left it open, and their verdict depends on the position alone; the
        // look-up is the cheaper question (the rules may search for a forced win).
        if remembered && self.shown.contains(&statement) {
            return Ok(());
        }
        match by_rules(self.layout, pos, kind, self.forced) {
            Some(true) => return Ok(()),
            Some(false) => {
                return Err(format!(
                    "by the rules it is not true that {} in {}",
                    kind.describe(pos.turn()),
                    pos.to_setup()
                ))
            }
            None => {}
        }
        self.chooser.enter(key);
        let legal = pos.legal_cells(self.layout);
        let after = kind.after_placement();
        let through = |walk: &mut Self, cell: Cell| {
            let child = pos.play_unchecked(walk.layout, cell);
            walk.show(&child, after)
                .map_err(|why| format!("after {cell}: {why}"))
        };
        if kind.names_a_move() {
            let cell = self.chooser.choose(pos, kind, legal)?;
            debug_assert!(legal.contains(cell), "a chooser names a legal cell");
            self.counts.choices += 1;
            through(self, cell)?;
        } else {
            for cell in legal {
                through(self, cell)?;
            }
        }
        self.chooser.leave(key);
        if remembered {
            if self.shown.len() >= self.limits.positions {
                return Err(format!(
                    "the walk needs to remember more than {} positions (the limit set)",
                    self.limits.positions
                ));
            }
            self.shown.insert(statement);
        }
        self.counts.walked += 1;
        if self.counts.walked.is_multiple_of(1 << 16) {
            (self.progress)(self.counts);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_hold_every_index_and_no_more() {
        assert_eq!(choice_width(0), 0);
        assert_eq!(choice_width(1), 0);
        assert_eq!(choice_width(2), 1);
        assert_eq!(choice_width(3), 2);
        assert_eq!(choice_width(4), 2);
        assert_eq!(choice_width(5), 3);
        assert_eq!(choice_width(8), 3);
        assert_eq!(choice_width(9), 4);
        assert_eq!(choice_width(12), 4);
    }

    #[test]
    fn the_stream_reads_back_what_was_written_across_words() {
        let mut w = ChoiceWriter::default();
        let values: Vec<(u32, u32)> = (0..200).map(|i| ((i * 7) % 9, choice_width(9))).collect();
        for &(v, width) in &values {
            w.push(v, width);
        }
        assert_eq!(w.bits(), 800);
        let words = w.into_words();
        assert_eq!(words.len(), 7);
        let mut r = ChoiceReader::new(&words);
        for &(v, width) in &values {
            assert_eq!(r.read(width), Some(v));
        }
        assert_eq!(r.leftover(), None);
        // The last word's 96 bits of padding are zero, and past them the stream ends.
        for _ in 0..3 {
            assert_eq!(r.read(32), Some(0));
        }
        assert_eq!(r.read(1), None);
        // The first choice is the first word's lowest bits.
        assert_eq!(words[0] & 0xf, 0);
        assert_eq!(words[0] >> 4 & 0xf, 7);
    }

    #[test]
    fn leftover_words_and_set_padding_are_named() {
        let mut r = ChoiceReader::new(&[0b1011, 0]);
        assert_eq!(r.read(4), Some(0b1011));
        assert!(r.leftover().unwrap().contains("2 words"));
        let mut r = ChoiceReader::new(&[0b1_0011]);
        assert_eq!(r.read(4), Some(0b0011));
        assert!(r.leftover().unwrap().contains("not zero"));
        let r = ChoiceReader::new(&[]);
        assert_eq!(r.leftover(), None);
    }
}
