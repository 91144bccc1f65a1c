//! The packer: certificates of entries made into one walk certificate (module
//! [`crate::walk`]).
//!
//! The packer walks the proof exactly as the checker will, taking each choice from an
//! entry ("wins" or "draws or wins" at that position, or a stronger statement) and
//! writing it to the stream, so the file holds what the checker reads, in its order. It
//! trusts nothing: a walk the entries do not carry stops with the position where an
//! entry was missing, and the file written is checked like any other.
//!
//! Several certificates of one layout can be packed together, and with a root (a
//! position above all their claims, such as the empty board above the units two
//! placements in that `kamon units` solves) the root's value is worked out from the
//! claims by the game's AND/OR rule over the placements between them, and the walk
//! certificate claims the root's value alone. The units' certificates so become one
//! proof of a whole game.
//!
//! Each certificate's entries are looked up only while the walk is inside one of its
//! claims (every certificate proves its claims with its own entries), and a certificate
//! added to be read later ([`Proofs::add_later`]) is read when the walk reaches one of
//! its claims and dropped when it goes on to another's. So packing a whole game holds
//! one unit's entries at a time (rejected: merging every certificate's entries into one
//! sorted list, as the packer first did: seed 1's ten units needed 6.2 GB, and a lost
//! layout's twelve refutations, each about four times the size of a won unit, would
//! not fit in 24 GiB beside the walk's memory).

use std::collections::HashMap;

use kamon_core::{Bitboard, Cell, Layout, Outcome, Player, Position};

use crate::check::by_rules;
use crate::forced::forced_placements;
use crate::walk::{choice_width, ChoiceWriter, Chooser, Walk, WalkCounts, WalkLimits};
use crate::{Certificate, Claim, Entry, Kind, WalkCertificate, WALK_FORMAT_VERSION};

/// Why no walk certificate was made. Each message is one line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PackError {
    #[error("no certificate to pack")]
    Nothing,
    #[error("certificate {index}'s layout is not the first one's")]
    OtherLayout { index: usize },
    #[error("no claim to pack (the certificates claim nothing)")]
    NoClaim,
    #[error("the certificates' claims about {0} contradict each other")]
    Contradictory(String),
    #[error("the root is not above every claim: {0}")]
    NotAbove(String),
    #[error("the positions between the root and the claims are more than {limit} (the limit set)")]
    TooFar { limit: usize },
    #[error("the claims prove nothing of the root's value (neither that it draws at least nor that it cannot win)")]
    Undecided,
    #[error("certificate {index} cannot be read: {reason}")]
    Unreadable { index: usize, reason: String },
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
    above: &'a HashMap<u128, (Kind, Cell)>,
    sources: Vec<Source>,
    /// The certificates that prove the claims about each position, by its key (two claim
    /// a position's two bounds, when a drawn root's proof needs both of it).
    claim_source: HashMap<u128, Vec<usize>>,
    /// The claims the walk is inside (key and certificate), innermost last.
    inside: Vec<(u128, usize)>,
    /// The entries of the certificates read later, while the walk needs them.
    read: HashMap<usize, Vec<Entry>>,
    /// Why a certificate could not be read, if that stopped the walk.
    failed: Option<(usize, String)>,
    writer: ChoiceWriter,
}

/// The placement of an entry in `entries` (sorted) about `key` whose statement implies
/// `kind`, the same kind first.
fn placement_in(entries: &[Entry], key: u128, kind: Kind) -> Option<Cell> {
    let (low, high) = Entry::range_of_key(key);
    let start = entries.partition_point(|e| e.bits() < low);
    let end = entries.partition_point(|e| e.bits() <= high);
    let named = |e: &&Entry| e.kind().names_a_move() && e.kind().implies(kind);
    let same = entries[start..end]
        .iter()
        .filter(named)
        .min_by_key(|e| e.kind() != kind)?;
    same.placement().ok().flatten()
}

impl FromEntries<'_> {
    /// The placement for `kind` at `key`: found above the claims, or in the entries of
    /// the claims the walk is inside, the innermost first (read if they are not in memory).
    fn placement(&mut self, key: u128, kind: Kind) -> Result<Option<Cell>, String> {
        if let Some(&(k, cell)) = self.above.get(&key) {
            if k.implies(kind) {
                return Ok(Some(cell));
            }
        }
        for depth in (0..self.inside.len()).rev() {
            let source = self.inside[depth].1;
            self.read_source(source)?;
            let entries = match &self.sources[source] {
                Source::Here(entries) => entries.as_slice(),
                Source::Later(_) => self.read.get(&source).map_or(&[][..], Vec::as_slice),
            };
            if let Some(cell) = placement_in(entries, key, kind) {
                return Ok(Some(cell));
            }
        }
        Ok(None)
    }

    /// Reads certificate `source`'s entries if it is one to read later and they are not
    /// in memory, first dropping those of any certificate the walk is no longer inside.
    fn read_source(&mut self, source: usize) -> Result<(), String> {
        let Source::Later(later) = &mut self.sources[source] else {
            return Ok(());
        };
        let Later {
            read,
            layout,
            claims,
        } = &mut **later;
        if self.read.contains_key(&source) {
            return Ok(());
        }
        let inside = &self.inside;
        self.read
            .retain(|s, _| inside.iter().any(|&(_, other)| other == *s));
        let cert = read()
            .and_then(|cert| {
                if cert.layout == *layout && cert.claims == *claims {
                    Ok(cert)
                } else {
                    Err("it is not the certificate it was when added (its layout or claims changed)".into())
                }
            })
            .map_err(|reason| {
                self.failed = Some((source, reason.clone()));
                format!("certificate {} cannot be read: {reason}", source + 1)
            })?;
        self.read.insert(source, cert.entries);
        Ok(())
    }
}

impl Chooser for FromEntries<'_> {
    fn choose(&mut self, pos: &Position, kind: Kind, legal: Bitboard) -> Result<Cell, String> {
        let cell = self
            .placement(pos.key(), kind)?
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

    fn enter(&mut self, key: u128) {
        // Its entries are read at the first choice that needs them: a claim entered again
        // may need none (everything below it remembered by the walk).
        if let Some(sources) = self.claim_source.get(&key) {
            self.inside
                .extend(sources.iter().map(|&source| (key, source)));
        }
    }

    fn leave(&mut self, key: u128) {
        while self.inside.last().is_some_and(|&(inner, _)| inner == key) {
            // Its entries stay in memory until another certificate is read: a claim of
            // a draw is shown twice, by its two statements, one after the other.
            self.inside.pop();
        }
    }
}

/// What the claims prove of the positions between a root and the claims, worked out from
/// them by the AND/OR rule: for each position its bounds `(low, high)` for the side to
/// move (a value where they meet; a drawn root's claims below may be bounds themselves),
/// and for each position worth at least a draw the placement that shows it. Only
/// positions whose pieces lie within some claim's are searched (no claim can lie below
/// another), so the search follows the claims' lines, not the whole game tree above them.
struct Above<'a> {
    layout: &'a Layout,
    claims: HashMap<u128, Bounds>,
    /// Each claim's pieces, Black's and White's.
    beneath: Vec<(Bitboard, Bitboard)>,
    values: HashMap<u128, Bounds>,
    placements: HashMap<u128, (Kind, Cell)>,
    limit: usize,
}

/// What is known of a position for its side to move: at least the first, at most the
/// second.
type Bounds = (Outcome, Outcome);

/// Nothing known.
const UNKNOWN: Bounds = (Outcome::Loss, Outcome::Win);

impl Above<'_> {
    /// The bounds of `pos` for its side to move that the claims within `depth` placements
    /// below it prove.
    fn bounds(&mut self, pos: &Position, depth: u32) -> Result<Bounds, PackError> {
        if let Some(outcome) = pos.outcome() {
            return Ok((outcome, outcome));
        }
        let key = pos.key();
        if let Some(&bounds) = self.claims.get(&key) {
            return Ok(bounds);
        }
        let (black, white) = (pos.pieces(Player::Black), pos.pieces(Player::White));
        let below_a_claim = self
            .beneath
            .iter()
            .any(|&(b, w)| (black - b).is_empty() && (white - w).is_empty());
        if depth == 0 || !below_a_claim {
            // No claim decides it; the rules still may (a placement that wins, or draws,
            // at once, or a forced win), as the walk's own first step would find.
            let forced = forced_placements(WALK_FORMAT_VERSION);
            let low = if by_rules(self.layout, pos, Kind::Wins, forced) == Some(true) {
                Outcome::Win
            } else if by_rules(self.layout, pos, Kind::DrawsOrWins, forced) == Some(true) {
                Outcome::Draw
            } else {
                Outcome::Loss
            };
            return Ok((low, Outcome::Win));
        }
        if let Some(&bounds) = self.values.get(&key) {
            return Ok(bounds);
        }
        if self.values.len() >= self.limit {
            return Err(PackError::TooFar { limit: self.limit });
        }
        // The best placement's bounds: the low end the best of the children's low ends
        // (each child's high end, flipped), the high end the best of their high ends.
        let mut low: Option<(Outcome, Cell)> = None;
        let mut high = Outcome::Loss;
        for cell in pos.legal_cells(self.layout) {
            let child = pos.play_unchecked(self.layout, cell);
            let (child_low, child_high) = self.bounds(&child, depth - 1)?;
            if low.is_none_or(|(l, _)| child_high.flip() > l) {
                low = Some((child_high.flip(), cell));
            }
            high = high.max(child_low.flip());
            if low.is_some_and(|(l, _)| l == Outcome::Win) {
                break;
            }
        }
        let bounds = match low {
            Some((l, _)) => (l, high.max(l)),
            None => UNKNOWN,
        };
        match low {
            Some((Outcome::Win, cell)) => {
                self.placements.insert(key, (Kind::Wins, cell));
            }
            Some((Outcome::Draw, cell)) => {
                self.placements.insert(key, (Kind::DrawsOrWins, cell));
            }
            _ => {}
        }
        self.values.insert(key, bounds);
        Ok(bounds)
    }
}

/// Where a certificate's entries are.
enum Source {
    /// In memory.
    Here(Vec<Entry>),
    /// Read when the walk reaches one of its claims.
    Later(Box<Later>),
}

/// A certificate to read when the walk reaches one of `claims`, checked on reading to be
/// the certificate of this layout and claims still.
struct Later {
    read: ReadLater,
    layout: Layout,
    claims: Vec<Claim>,
}

/// Reads a certificate again (for [`Proofs::add_later`]); an error says why not.
pub type ReadLater = Box<dyn FnMut() -> Result<Certificate, String> + Send>;

/// Certificates of entries gathered for [`pack`]: one layout, their claims, and where each
/// certificate's entries are.
#[derive(Default)]
pub struct Proofs {
    layout: Option<Layout>,
    claims: Vec<Claim>,
    /// The certificate of each claim in `claims` (the first that claims it).
    claim_source: Vec<usize>,
    sources: Vec<Source>,
    entries: usize,
}

impl std::fmt::Debug for Proofs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Proofs")
            .field("layout", &self.layout)
            .field("claims", &self.claims)
            .field("certificates", &self.sources.len())
            .field("entries", &self.entries)
            .finish()
    }
}

impl Proofs {
    /// Adds a certificate of the same layout as the first, its entries kept in memory.
    pub fn add(&mut self, cert: Certificate) -> Result<(), PackError> {
        let entries = cert.entries.len();
        self.add_source(cert.layout, cert.claims, entries, |_, _| {
            Source::Here(cert.entries)
        })
    }

    /// Adds a certificate of the same layout as the first by its layout, claims and
    /// number of entries, and `read`, which reads the whole certificate again when the
    /// walk reaches one of its claims: what a caller with files uses, so that a whole
    /// game's certificates are not in memory at once.
    pub fn add_later(
        &mut self,
        layout: Layout,
        claims: Vec<Claim>,
        entries: usize,
        read: ReadLater,
    ) -> Result<(), PackError> {
        self.add_source(layout, claims, entries, |layout, claims| {
            Source::Later(Box::new(Later {
                read,
                layout,
                claims,
            }))
        })
    }

    fn add_source(
        &mut self,
        layout: Layout,
        claims: Vec<Claim>,
        entries: usize,
        source: impl FnOnce(Layout, Vec<Claim>) -> Source,
    ) -> Result<(), PackError> {
        let index = self.sources.len();
        match &self.layout {
            None => self.layout = Some(layout.clone()),
            Some(first) if *first != layout => {
                return Err(PackError::OtherLayout { index: index + 1 })
            }
            Some(_) => {}
        }
        for claim in &claims {
            if !self.claims.contains(claim) {
                self.claims.push(*claim);
                self.claim_source.push(index);
            }
        }
        self.entries += entries;
        self.sources.push(source(layout, claims));
        Ok(())
    }

    /// The layout of the certificates added, if any.
    pub fn layout(&self) -> Option<&Layout> {
        self.layout.as_ref()
    }

    /// The entries of the certificates added, in all.
    pub fn entries(&self) -> usize {
        self.entries
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
        claim_source,
        sources,
        entries: _,
    } = proofs;
    let layout = layout.ok_or(PackError::Nothing)?;
    let layout = &layout;
    // The certificates' own claims (the walk's claim may be the root instead).
    let mut claims_sources: HashMap<u128, Vec<usize>> = HashMap::new();
    for (claim, source) in claims.iter().zip(claim_source) {
        let sources = claims_sources.entry(claim.position.key()).or_default();
        if !sources.contains(&source) {
            sources.push(source);
        }
    }
    if claims.is_empty() {
        return Err(PackError::NoClaim);
    }
    let mut above = Above {
        layout,
        claims: HashMap::new(),
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
    for c in &claims {
        // Two claims of one position (its two bounds) say what both say.
        let (low, high) = above.claims.entry(c.position.key()).or_insert(UNKNOWN);
        (*low, *high) = ((*low).max(c.low), (*high).min(c.high));
        if low > high {
            return Err(PackError::Contradictory(c.position.to_setup().to_string()));
        }
    }
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
        let (low, high) = above.bounds(root, deepest - root.placed())?;
        claims = vec![Claim::bounds(*root, low, high).ok_or(PackError::Undecided)?];
    }
    let chooser = FromEntries {
        above: &above.placements,
        sources,
        claim_source: claims_sources,
        inside: Vec::new(),
        read: HashMap::new(),
        failed: None,
        writer: ChoiceWriter::default(),
    };
    let mut walk = Walk::new(layout, chooser, WALK_FORMAT_VERSION, limits, progress);
    for (i, claim) in claims.iter().enumerate() {
        for &kind in claim.statements() {
            walk.show(&claim.position, kind).map_err(|reason| {
                match walk.chooser.failed.take() {
                    Some((source, reason)) => PackError::Unreadable {
                        index: source + 1,
                        reason,
                    },
                    None => PackError::Missing {
                        index: i + 1,
                        claim: format!("{claim} in {}", claim.position.to_setup()),
                        reason,
                    },
                }
            })?;
        }
    }
    let counts = walk.counts();
    let bits = walk.chooser.writer.bits();
    Ok(Packed {
        certificate: WalkCertificate {
            version: WALK_FORMAT_VERSION,
            layout: layout.clone(),
            claims,
            choices: walk.chooser.writer.into_words(),
        },
        counts,
        bits,
    })
}
