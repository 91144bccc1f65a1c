//! The packer: certificates of entries made into one walk certificate (module
//! [`crate::walk`]).
//!
//! The packer walks the proof exactly as the checker will, taking each choice from an
//! entry ("wins" or "draws or wins" at that position, or a stronger statement) and
//! writing it to the stream, so the file holds what the checker reads, in its order. It
//! trusts nothing: a walk the entries do not carry stops with the position where an
//! entry was missing, and the file written is checked like any other.
//!
//! Several certificates of one layout can be packed together: their entries are merged,
//! and with a root (a position above all their claims, such as the empty board above
//! the units two placements in that `kamon units` solves) the root's value is worked out
//! from the claims by the game's AND/OR rule over the placements between them, and the
//! walk certificate claims the root's value alone. The units' certificates so become one
//! proof of a whole game.

use std::collections::HashMap;

use kamon_core::{Bitboard, Cell, Layout, Outcome, Player, Position};

use crate::check::by_rules;
use crate::walk::{choice_width, ChoiceWriter, Chooser, Walk, WalkCounts, WalkLimits};
use crate::{Certificate, Claim, Entry, Kind, WalkCertificate};

/// Why no walk certificate was made. Each message is one line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PackError {
    #[error("no certificate to pack")]
    Nothing,
    #[error("certificate {index}'s layout is not the first one's")]
    OtherLayout { index: usize },
    #[error("no claim to pack (the certificates claim nothing)")]
    NoClaim,
    #[error("the root is not above every claim: {0}")]
    NotAbove(String),
    #[error("the positions between the root and the claims are more than {limit} (the limit set)")]
    TooFar { limit: usize },
    #[error("the claims do not decide the root's value (a placement at the root reaches no claim that settles it)")]
    Undecided,
    #[error("the entries do not carry claim {index} ({claim}): {reason}")]
    Missing {
        index: usize,
        claim: String,
        reason: String,
    },
}

/// A walk certificate made, with what its walk went through.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packed {
    pub certificate: WalkCertificate,
    pub counts: WalkCounts,
    pub bits: u64,
}

/// Takes each choice from the entries (or the placements found above the claims) and
/// writes it.
struct FromEntries<'a> {
    entries: &'a [Entry],
    above: &'a HashMap<u128, (Kind, Cell)>,
    writer: ChoiceWriter,
}

impl FromEntries<'_> {
    /// The placement of an entry about `key` whose statement implies `kind`, the same
    /// kind first.
    fn placement(&self, key: u128, kind: Kind) -> Option<Cell> {
        if let Some(&(k, cell)) = self.above.get(&key) {
            if k.implies(kind) {
                return Some(cell);
            }
        }
        let (low, high) = Entry::range_of_key(key);
        let start = self.entries.partition_point(|e| e.bits() < low);
        let end = self.entries.partition_point(|e| e.bits() <= high);
        let named = |e: &&Entry| e.kind().names_a_move() && e.kind().implies(kind);
        let same = self.entries[start..end]
            .iter()
            .filter(named)
            .min_by_key(|e| e.kind() != kind)?;
        same.placement().ok().flatten()
    }
}

impl Chooser for FromEntries<'_> {
    fn choose(&mut self, pos: &Position, kind: Kind, legal: Bitboard) -> Result<Cell, String> {
        let cell = self
            .placement(pos.key(), kind)
            .filter(|&c| legal.contains(c))
            .ok_or_else(|| {
                format!(
                    "no entry names a legal placement where {} in {}",
                    kind.describe(pos.turn()),
                    pos.to_setup()
                )
            })?;
        let index = legal
            .into_iter()
            .position(|c| c == cell)
            .expect("the cell is legal");
        self.writer.push(index as u32, choice_width(legal.count()));
        Ok(cell)
    }
}

/// The values of the positions between a root and the claims, worked out from the claims
/// by the AND/OR rule, and for each won or drawn one the placement that shows it. Only
/// positions whose pieces lie within some claim's are searched (no claim can lie below
/// another), so the search follows the claims' lines, not the whole game tree above them.
struct Above<'a> {
    layout: &'a Layout,
    claims: HashMap<u128, Outcome>,
    /// Each claim's pieces, Black's and White's.
    beneath: Vec<(Bitboard, Bitboard)>,
    values: HashMap<u128, Option<Outcome>>,
    placements: HashMap<u128, (Kind, Cell)>,
    limit: usize,
}

impl Above<'_> {
    /// The value of `pos` for its side to move, if the claims within `depth` placements
    /// below it decide it.
    fn value(&mut self, pos: &Position, depth: u32) -> Result<Option<Outcome>, PackError> {
        if let Some(outcome) = pos.outcome() {
            return Ok(Some(outcome));
        }
        let key = pos.key();
        if let Some(&value) = self.claims.get(&key) {
            return Ok(Some(value));
        }
        let (black, white) = (pos.pieces(Player::Black), pos.pieces(Player::White));
        let below_a_claim = self
            .beneath
            .iter()
            .any(|&(b, w)| (black - b).is_empty() && (white - w).is_empty());
        if depth == 0 || !below_a_claim {
            // No claim decides it; the rules still may (a placement that wins at once),
            // as the walk's own first step would find.
            let wins_at_once = by_rules(self.layout, pos, Kind::Wins) == Some(true);
            return Ok(wins_at_once.then_some(Outcome::Win));
        }
        if let Some(&value) = self.values.get(&key) {
            return Ok(value);
        }
        if self.values.len() >= self.limit {
            return Err(PackError::TooFar { limit: self.limit });
        }
        let mut best: Option<(Outcome, Cell)> = None;
        let mut unknown = false;
        for cell in pos.legal_cells(self.layout) {
            let child = pos.play_unchecked(self.layout, cell);
            match self.value(&child, depth - 1)? {
                Some(v) if best.is_none_or(|(b, _)| v.flip() > b) => best = Some((v.flip(), cell)),
                Some(_) => {}
                None => unknown = true,
            }
            if best.is_some_and(|(b, _)| b == Outcome::Win) {
                break;
            }
        }
        let value = match best {
            Some((Outcome::Win, _)) => Some(Outcome::Win),
            Some((value, _)) if !unknown => Some(value),
            _ => None,
        };
        match (value, best) {
            (Some(Outcome::Win), Some((_, cell))) => {
                self.placements.insert(key, (Kind::Wins, cell));
            }
            (Some(Outcome::Draw), Some((_, cell))) => {
                self.placements.insert(key, (Kind::DrawsOrWins, cell));
            }
            _ => {}
        }
        self.values.insert(key, value);
        Ok(value)
    }
}

/// Certificates of entries gathered for [`pack`]: one layout, their claims, and their
/// entries in one list. Each certificate's entries are moved in as it is added, so a
/// caller reading files one by one holds a whole game's 10^8 entries in memory once.
#[derive(Clone, Debug, Default)]
pub struct Proofs {
    layout: Option<Layout>,
    claims: Vec<Claim>,
    entries: Vec<Entry>,
    certificates: usize,
}

impl Proofs {
    /// Room for `entries` entries in all (the files' sizes tell), so that the list is not
    /// copied as it grows.
    /// If that much memory cannot be had, the list grows as entries come instead.
    pub fn with_capacity(entries: usize) -> Proofs {
        let mut proofs = Proofs::default();
        let _ = proofs.entries.try_reserve_exact(entries);
        proofs
    }

    /// Adds a certificate of the same layout as the first.
    pub fn add(&mut self, cert: Certificate) -> Result<(), PackError> {
        self.certificates += 1;
        match &self.layout {
            None => self.layout = Some(cert.layout),
            Some(layout) if *layout != cert.layout => {
                return Err(PackError::OtherLayout {
                    index: self.certificates,
                })
            }
            Some(_) => {}
        }
        self.entries.extend(cert.entries);
        for claim in cert.claims {
            if !self.claims.contains(&claim) {
                self.claims.push(claim);
            }
        }
        Ok(())
    }

    /// The layout of the certificates added, if any.
    pub fn layout(&self) -> Option<&Layout> {
        self.layout.as_ref()
    }

    /// The entries added, in all (before duplicates are merged).
    pub fn entries(&self) -> usize {
        self.entries.len()
    }
}

/// Packs the certificates gathered in `proofs` into one walk certificate: of their
/// claims, or with a `root` of the root's value worked out from them. `progress` is
/// called every 65,536 positions walked.
pub fn pack(
    proofs: Proofs,
    root: Option<&Position>,
    limits: WalkLimits,
    progress: &mut dyn FnMut(WalkCounts),
) -> Result<Packed, PackError> {
    let Proofs {
        layout,
        mut claims,
        mut entries,
        certificates,
    } = proofs;
    let layout = layout.ok_or(PackError::Nothing)?;
    if certificates > 1 {
        entries.sort_unstable();
        entries.dedup();
    }
    let layout = &layout;
    if claims.is_empty() {
        return Err(PackError::NoClaim);
    }
    let mut above = Above {
        layout,
        claims: claims.iter().map(|c| (c.position.key(), c.value)).collect(),
        beneath: claims
            .iter()
            .map(|c| {
                (
                    c.position.pieces(Player::Black),
                    c.position.pieces(Player::White),
                )
            })
            .collect(),
        values: HashMap::new(),
        placements: HashMap::new(),
        limit: limits.positions,
    };
    if let Some(root) = root {
        let deepest = claims
            .iter()
            .map(|c| c.position.placed())
            .max()
            .unwrap_or(0);
        if let Some(c) = claims.iter().find(|c| c.position.placed() < root.placed()) {
            return Err(PackError::NotAbove(format!(
                "claim {} has fewer placements than the root",
                c.position.to_setup()
            )));
        }
        let value = above
            .value(root, deepest - root.placed())?
            .ok_or(PackError::Undecided)?;
        claims = vec![Claim {
            position: *root,
            value,
        }];
    }
    let chooser = FromEntries {
        entries: &entries,
        above: &above.placements,
        writer: ChoiceWriter::default(),
    };
    let mut walk = Walk::new(layout, chooser, limits, progress);
    for (i, claim) in claims.iter().enumerate() {
        for &kind in claim.statements() {
            walk.show(&claim.position, kind)
                .map_err(|reason| PackError::Missing {
                    index: i + 1,
                    claim: format!("{claim} in {}", claim.position.to_setup()),
                    reason,
                })?;
        }
    }
    let counts = walk.counts();
    let bits = walk.chooser.writer.bits();
    Ok(Packed {
        certificate: WalkCertificate {
            layout: layout.clone(),
            claims,
            choices: walk.chooser.writer.into_words(),
        },
        counts,
        bits,
    })
}
