//! Where a Kamon value search spends its nodes: solves random positions (seed and
//! placements made) with one thread through a counting wrapper around [`KamonGame`] and
//! prints what the counters saw: nodes, distinct positions expanded (with `--distinct`),
//! legal and safe placements per node, and the nodes by open children (children the
//! rules do not decide), by placements made, and by who has a threat.
//!
//! ```text
//! cargo run --release -p kamon-core --example kamon_probe -- 1:8 2:6 --mb 256 --distinct
//! cargo run --release -p kamon-core --example kamon_probe -- 1:4 2:4 --max-nodes 60000000 --lean
//! cargo run --release -p kamon-core --example kamon_probe -- 1:8 --pn-scale sq --dn-scale sq
//! ```
//!
//! `--max-nodes N` stops a search once it has expanded N nodes (reported as `capped`, a
//! lower bound), `--lean` skips the counters (for times: they replay every child),
//! `--threads N` shares the table between N threads, and the other options try variants
//! of [`KamonGame::estimate`] without rebuilding the library, so that a variant is
//! measured before it replaces the library's: `--pn-scale`/`--dn-scale` other shapes of
//! the connection-distance factor (`lin`, the library's; `sq`, `tri`, `exp2`, `exp3`,
//! `plusK` for `d + K`, `flat` for none), `--nearer F` a factor F on the proof number when
//! the opponent is nearer to a connection (on the disproof number when the mover is),
//! `--deep D` and `--shallow` a factor of the depth (see `Depth`), `--quiet-bonus B` the
//! proof number's bonus for a side to move without a threat (the library's 3), `--focus K`
//! the winner's placements cut to the K likeliest (a win proven so is a win; see `Probe`),
//! `--central-weight W` the safe placements on the centre or next to it counted W more
//! times in the disproof number, `--centre-first` the placements listed centre first
//! (so ties go to the centre, not to reading order), `--loop-distance` the distance as the
//! smaller of the connection distance and the pieces missing from a ring around one inner
//! cell, `--threat-distance` a player with a threat at distance 1 (no flood fills), and
//! `--two-distance` Hex's two-distance in place of the connection distance, and
//! `--progress N` a distance one more for a player whose next placement cannot be on a
//! shortest connection path (bits of N: 1 the side to move, whose safe legal cells miss
//! every such path; 2 the opponent, when some safe placement's chip names none of theirs;
//! 4 in half steps, the distances doubled first), `--dn-legal` the disproof number from
//! every legal placement instead of the safe ones, and `--dn-threats K` the disproof
//! number times K / (K + t), t the opponent's threats (both suggested by
//! `kamon-cert/examples/first_guess_probe.rs`). `--forced N` settles forced wins within N
//! placements of a side to move with a threat when the search comes to expand them (by
//! default the library's `settled_forced_placements`: 3, 4 with two threats or more; 0 for
//! none), `--forced-always` (with `--forced N`) also without a threat. `--check-progress` checks the shortest
//! paths' cells against their definition on random positions and exits.
//! The README's *Where the nodes go* and *The empty board in units* say what each measured.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Duration;

use kamisado_solver::{
    Cancel, Game, Options, Player as SolverPlayer, Score, SolveError, Solver, Value, WinInOne,
};
use kamon_core::{geometry, Bitboard, Cell, KamonGame, Node, Player, Record};

/// Histogram buckets: open children 0..=11, placements made 0..=31 (the last takes the rest).
const OPEN_BUCKETS: usize = 12;
const PLACED_BUCKETS: usize = 32;

#[derive(Default)]
struct Counters {
    expanded: AtomicU64,
    legal: AtomicU64,
    safe: AtomicU64,
    by_open: [AtomicU64; OPEN_BUCKETS],
    by_placed: [AtomicU64; PLACED_BUCKETS],
    /// Neither side has a threat, the opponent only, the side to move only, both.
    by_threats: [AtomicU64; 4],
}

/// How the connection distance `d` (at least 1) scales a first guess.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scale {
    /// `d`: the library's.
    Lin,
    /// `d * d`.
    Sq,
    /// `d (d + 1) / 2`.
    Tri,
    /// `2^(d - 1)`.
    Exp2,
    /// `3^(d - 1)`.
    Exp3,
    /// `d + k`: flatter than `d`.
    Plus(u32),
    /// `1`: no distance.
    Flat,
}

impl Scale {
    fn parse(text: &str) -> Option<Scale> {
        Some(match text {
            "lin" => Scale::Lin,
            "sq" => Scale::Sq,
            "tri" => Scale::Tri,
            "exp2" => Scale::Exp2,
            "exp3" => Scale::Exp3,
            "flat" => Scale::Flat,
            _ => Scale::Plus(text.strip_prefix("plus")?.parse().ok()?),
        })
    }

    fn of(self, d: u32) -> u32 {
        match self {
            Scale::Lin => d,
            Scale::Sq => d * d,
            Scale::Tri => d * (d + 1) / 2,
            Scale::Exp2 => 1 << (d - 1),
            Scale::Exp3 => 3u32.pow(d - 1),
            Scale::Plus(k) => d + k,
            Scale::Flat => 1,
        }
    }
}

/// A factor of the placements made `p` on both first guesses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Depth {
    /// None: the library's.
    Ignored,
    /// `max(D - p, 1)` (Deep df-pn: fresh leaves deep down look cheap next to their
    /// searched siblings, so the search stays longer with a line).
    Deep(u32),
    /// `max(p, 1)`, the other way: deep leaves look dear.
    Shallow,
}

/// [`KamonGame`] with counters in [`Game::moves`], which the search calls once per node.
struct Probe {
    inner: KamonGame,
    counters: Counters,
    distinct: Option<Mutex<HashSet<u128>>>,
    lean: bool,
    /// The distance factors of the proof and disproof numbers; `None`: the library's guess.
    scales: Option<(Scale, Scale)>,
    /// The disproof number counts every legal placement, not only the safe ones.
    dn_legal: bool,
    /// `--dn-threats K` (0: off): the disproof number thinned by the opponent's threats.
    dn_threats: u32,
    /// With `scales`: the factor on the proof number when the opponent is strictly nearer
    /// to a connection, and on the disproof number when the side to move is.
    nearer: u32,
    /// With `scales`: both numbers times a factor of the placements made (see [`Depth`]).
    depth: Depth,
    /// With `scales`: what the proof number's threat bonus is when the side to move has no
    /// threat (the library's 3).
    quiet_bonus: u32,
    /// With `scales`: each safe placement on the centre or next to it counts this many
    /// more times in the disproof number (`--central-weight W`; the library's 0).
    central_weight: u32,
    /// `--focus K`: the player whose placements are cut to the K likeliest to win (by the
    /// children's first guesses; children the rules decide are always kept). Sound for
    /// proving that player's win (fewer choices only make a win harder to prove), not for
    /// anything else: a "loss" found so is only "not proven with K".
    focus: Option<(Player, usize)>,
    /// `--centre-first`: placements listed nearest the centre first (rings around `d4`),
    /// so that children with equal numbers are tried centre first, not in reading order.
    centre_first: bool,
    /// `--loop-distance`: the distance is the smaller of the connection distance and the
    /// pieces still missing from a ring around one inner cell (a loop of six).
    loop_distance: bool,
    /// `--threat-distance`: a player with a threat (one placement from a connection or a
    /// loop) is at distance 1 without the flood fills.
    threat_distance: bool,
    /// `--two-distance`: Hex's two-distance instead of the connection distance (a free
    /// cell joins a round only next to two cells reached before, or on the starting side),
    /// so a path the opponent cuts with one placement counts for less.
    two_distance: bool,
    /// `--progress N`: a player's distance counts one more when its next placement cannot
    /// be on a shortest connection path; bits of N: 1 the side to move (no safe legal cell
    /// on one), 2 the opponent (the side to move has a safe placement whose chip leaves the
    /// opponent no free cell on one of theirs), 4 in half steps (the distances doubled
    /// first). Measured and dropped (see the README's *Where the nodes go*).
    progress: u32,
    /// `--forced N`: a position the search comes to expand is settled as a win when its
    /// side to move, with a threat, forces one within N placements ([`kamon_core::forced`];
    /// 0 or 1: never). `None`: the library's depth, [`kamon_core::settled_forced_placements`]
    /// (three, four with two threats or more).
    forced: Option<u32>,
    /// `--forced-always`: with `--forced`, asked also when the side to move has no threat.
    forced_always: bool,
}

/// Layers of a connection's growth from `side`: `layers[k]` the cells reached adding at
/// most k free cells (the rounds of `geometry::connection_distance`, whose round function
/// is the crate's own; `parent_distances` keeps such layers inside the library).
fn layers(pieces: Bitboard, open: Bitboard, side: geometry::Side, rounds: u32) -> Vec<Bitboard> {
    let mut out = vec![geometry::flood(pieces & side.cells(), pieces)];
    for _ in 0..rounds {
        let reached = *out.last().unwrap();
        let entered = (geometry::neighbours(reached) | side.cells()) & open;
        out.push(geometry::flood(
            reached | entered,
            pieces | reached | entered,
        ));
    }
    out
}

/// The free cells on some shortest connection path of `pieces` (a placement there lowers
/// the connection distance by one), with the distance.
fn progress_cells(pieces: Bitboard, open: Bitboard) -> (u32, Bitboard) {
    let open = Bitboard(open.0 & Bitboard::ALL.0);
    let d = geometry::connection_distance(pieces, open);
    let mut cells = Bitboard::EMPTY;
    if d == 0 || d >= geometry::NO_CONNECTION {
        return (d, cells);
    }
    for (one, other) in geometry::Side::OPPOSITE_PAIRS {
        let f = layers(pieces, open, one, d);
        if (f[d as usize] & other.cells()).is_empty() {
            continue;
        }
        let b = layers(pieces, open, other, d);
        for i in 1..=d as usize {
            cells |= f[i] & b[d as usize + 1 - i] & open;
        }
    }
    (d, cells)
}

/// The cells with at least two neighbours in `set` (before the board's mask).
fn two_neighbours(set: u64) -> u64 {
    let (mut one, mut two) = (0u64, 0u64);
    for x in [set << 1, set >> 1, set << 8, set >> 8, set << 7, set >> 7] {
        two |= one & x;
        one |= x;
    }
    two
}

/// Hex's two-distance to a connection: the rounds of free cells added, where a free cell
/// is added only next to two cells reached (own pieces join with one), or on the starting
/// side. `u32::MAX`-like 99 when no connection is left.
fn two_distance(pieces: Bitboard, open: Bitboard) -> u32 {
    let open = open.0 & Bitboard::ALL.0;
    let p = pieces.0;
    let mut best = 99;
    for (one, other) in geometry::Side::OPPOSITE_PAIRS {
        let (a, b) = (one.cells().0, other.cells().0);
        let mut reached = geometry::flood(Bitboard(p & a), pieces).0;
        let mut k = 0;
        loop {
            if reached & b != 0 {
                best = best.min(k);
                break;
            }
            k += 1;
            if k >= best {
                break;
            }
            let entered = (two_neighbours(reached) | a) & open & !reached;
            let next =
                geometry::flood(Bitboard(reached | entered), Bitboard(p | reached | entered)).0;
            if next == reached {
                break;
            }
            reached = next;
        }
    }
    best
}

/// The fewest pieces `player` must add to ring one inner cell that is not theirs: over the
/// inner cells whose six neighbours hold no opponent piece and not the forbidden cell, the
/// neighbours not yet theirs. (Larger loops need more pieces; they are left out.)
fn ring_distance(pos: &kamon_core::Position, player: Player) -> u32 {
    let mine = pos.pieces(player);
    let blocked = pos.pieces(!player).with(pos.forbidden());
    let inner = Bitboard::ALL - geometry::EDGE;
    (inner - mine)
        .map(geometry::neighbours_of)
        .filter(|ring| (*ring & blocked).is_empty())
        .map(|ring| (ring - mine).count())
        .min()
        .unwrap_or(u32::MAX)
}

impl Probe {
    /// [`KamonGame::estimate`] with its distance factors shaped by `scales` (the same
    /// threat guesses, restated here since the library keeps them private).
    fn scaled_estimate(&self, node: &Node, (pn_scale, dn_scale): (Scale, Scale)) -> (u32, u32) {
        let game = &self.inner;
        let layout = game.layout();
        let pos = node.position();
        let me = pos.turn();
        let safe = pos.legal_cells(layout) - game.handing_over(node.threats(!me));
        if safe.is_empty() {
            return (1, 1);
        }
        let free = pos.free_cells();
        let mine = node.threats(me);
        let handing_mine = game.handing_over(mine);
        let threat_bonus = if mine.is_empty() {
            self.quiet_bonus
        } else if (handing_mine & free).count() > 8 {
            0
        } else {
            1
        };
        let fewest_replies = safe
            .map(|cell| ((layout.matching(cell) & free).without(cell) - handing_mine).count())
            .min()
            .unwrap_or(0);
        let distance = |player: Player| {
            if self.threat_distance && node.threats(player).any() {
                return 1;
            }
            let d = if self.two_distance {
                two_distance(pos.pieces(player), free)
            } else {
                geometry::connection_distance(pos.pieces(player), free)
            };
            let d = if self.loop_distance {
                d.min(ring_distance(pos, player))
            } else {
                d
            };
            d.max(1)
        };
        let (mut mine, mut theirs) = (distance(me), distance(!me));
        if self.progress & 4 != 0 {
            // Half steps: distances doubled, a blocked player one more.
            (mine, theirs) = (2 * mine, 2 * theirs);
        }
        if self.progress & 1 != 0 {
            let (d, on_path) = progress_cells(pos.pieces(me), free);
            if d > 0 && d < geometry::NO_CONNECTION && (safe & on_path).is_empty() {
                mine += 1;
            }
        }
        if self.progress & 2 != 0 {
            let (d, on_path) = progress_cells(pos.pieces(!me), free);
            if d > 0
                && d < geometry::NO_CONNECTION
                && Iterator::any(&mut { safe }, |c| {
                    ((layout.matching(c) & free).without(c) & on_path).is_empty()
                })
            {
                theirs += 1;
            }
        }
        let (pn_nearer, dn_nearer) = match mine.cmp(&theirs) {
            std::cmp::Ordering::Greater => (self.nearer, 1),
            std::cmp::Ordering::Less => (1, self.nearer),
            std::cmp::Ordering::Equal => (1, 1),
        };
        let deep = match self.depth {
            Depth::Ignored => 1,
            Depth::Deep(d) => d.saturating_sub(pos.placed()).max(1),
            Depth::Shallow => pos.placed().max(1),
        };
        // `--dn-threats K`: the disproof number times K / (K + t), t the opponent's threats:
        // of two winning placements, the one leaving the winner more threats was the
        // cheaper to prove in 92 to 95% of the pairs (`first_guess_probe`).
        let opponent_threats = node.threats(!me).count();
        let thin = |dn: u32| {
            if self.dn_threats == 0 {
                dn
            } else {
                dn.saturating_mul(self.dn_threats)
                    .div_ceil(self.dn_threats + opponent_threats)
                    .max(1)
            }
        };
        (
            (fewest_replies.div_ceil(2) + threat_bonus).max(1)
                * pn_scale.of(mine)
                * pn_nearer
                * deep,
            thin(
                (if self.dn_legal {
                    pos.legal_cells(layout).count()
                } else {
                    safe.count()
                } + self.central_weight
                    * safe.filter(|&c| geometry::centre_distance(c) <= 1).count() as u32)
                    * dn_scale.of(theirs)
                    * dn_nearer
                    * deep,
            ),
        )
    }
}

impl Game for Probe {
    type Position = Node;
    type Move = Cell;
    type Key = u128;
    const DRAWS: bool = KamonGame::DRAWS;

    fn outcome(&self, node: &Node) -> Option<Value> {
        self.inner.outcome(node)
    }
    fn player(&self, node: &Node) -> SolverPlayer {
        self.inner.player(node)
    }
    fn moves(&self, node: &Node, out: &mut Vec<Cell>) {
        self.inner.moves(node, out);
        if self.centre_first {
            out.sort_by_key(|&m| geometry::centre_distance(m));
        }
        if let Some((player, k)) = self.focus {
            if node.position().turn() == player && out.len() > k {
                // The child's disproof guess is the mover's proof guess for that placement;
                // decided children sort first (they cost nothing).
                let guess = |&m: &Cell| {
                    let child = self.inner.play(node, m);
                    if self.inner.outcome(&child).is_some()
                        || self.inner.win_in_one(&child) != WinInOne::No
                    {
                        0
                    } else {
                        self.estimate(&child).1
                    }
                };
                out.sort_by_cached_key(guess);
                let decided = out.iter().filter(|m| guess(m) == 0).count();
                out.truncate(k.max(decided));
            }
        }
        let c = &self.counters;
        if self.lean {
            c.expanded.fetch_add(1, Relaxed);
            return;
        }
        let layout = self.inner.layout();
        let pos = node.position();
        let me = pos.turn();
        c.expanded.fetch_add(1, Relaxed);
        c.legal.fetch_add(out.len() as u64, Relaxed);
        let safe = pos.legal_cells(layout) - self.inner.handing_over(node.threats(!me));
        c.safe.fetch_add(safe.count() as u64, Relaxed);
        let open = out
            .iter()
            .filter(|&&m| {
                let child = self.inner.play(node, m);
                self.inner.outcome(&child).is_none()
                    && self.inner.win_in_one(&child) == WinInOne::No
            })
            .count();
        c.by_open[open.min(OPEN_BUCKETS - 1)].fetch_add(1, Relaxed);
        c.by_placed[(pos.placed() as usize).min(PLACED_BUCKETS - 1)].fetch_add(1, Relaxed);
        let threats = 2 * node.threats(me).any() as usize + node.threats(!me).any() as usize;
        c.by_threats[threats].fetch_add(1, Relaxed);
        if let Some(d) = &self.distinct {
            d.lock().unwrap().insert(self.inner.key(node));
        }
    }
    fn play(&self, node: &Node, m: Cell) -> Node {
        self.inner.play(node, m)
    }
    fn key(&self, node: &Node) -> u128 {
        self.inner.key(node)
    }
    fn drawn_length(&self, node: &Node) -> u32 {
        self.inner.drawn_length(node)
    }
    fn win_in_one(&self, node: &Node) -> WinInOne<Cell> {
        self.inner.win_in_one(node)
    }
    fn estimate(&self, node: &Node) -> (u32, u32) {
        match self.scales {
            None => self.inner.estimate(node),
            Some(scales) => self.scaled_estimate(node, scales),
        }
    }
    fn known_when_expanded(&self, node: &Node) -> Option<kamisado_solver::Known> {
        let (Some(forced), always) = (self.forced, self.forced_always) else {
            return self.inner.known_when_expanded(node);
        };
        let me = node.position().turn();
        let (mine, theirs) = (node.threats(me), node.threats(!me));
        (forced > 1
            && (always || mine.any())
            && kamon_core::forced::forced_win_later_with(
                self.inner.layout(),
                node.position(),
                forced,
                mine,
                theirs,
            ))
        .then_some(kamisado_solver::Known::Value(Value::Win))
    }
}

/// The value of `node` by two threads on the solver's one table: one runs the proof-number
/// search of the root (as one thread would), the other proves the root's placements one
/// by one, last first, so that the first thread finds their results in the table, and
/// either answer ends both. (A trial of a second thread that leaves the root's own search
/// whole, against [`Solver::value`]'s placements side by side; Kamon's turns alternate, so
/// every placement passes the move.)
fn helped_value(solver: &Solver<Probe>, node: &Node, cancel: &Cancel) -> Result<Value, SolveError> {
    let game = solver.game();
    if let Some(v) = game.outcome(node) {
        return Ok(v);
    }
    let mut moves = Vec::new();
    game.moves(node, &mut moves);
    let children: Vec<Node> = moves.iter().map(|&m| game.play(node, m)).collect();
    // "Do I win?" is "does some placement leave the opponent less than a draw?", then
    // "do I at least draw?" is "... less than a win?".
    for (asked, of_child, yes) in [
        (Score::ABOVE_DRAW, Score::DRAW, Value::Win),
        (Score::DRAW, Score::ABOVE_DRAW, Value::Draw),
    ] {
        let found = cancel.child();
        let (root, helped) = std::thread::scope(|scope| {
            let helper = scope.spawn(|| {
                for child in children.iter().rev() {
                    match solver.at_least(child, of_child, &found) {
                        Ok(false) => {
                            found.cancel();
                            return Some(true);
                        }
                        Ok(true) => {}
                        Err(_) => return None,
                    }
                }
                found.cancel();
                Some(false)
            });
            let root = solver.at_least(node, asked, &found);
            found.cancel();
            (root, helper.join().expect("the helper thread"))
        });
        let answer = match (root, helped) {
            (Ok(a), _) | (Err(_), Some(a)) => a,
            (Err(e), None) => return Err(e),
        };
        if answer {
            return Ok(yes);
        }
    }
    Ok(Value::Loss)
}

fn main() {
    let mut mb = 256usize;
    let mut distinct = false;
    let mut lean = false;
    let mut centre_first = false;
    let mut loop_distance = false;
    let mut threat_distance = false;
    let mut two_distance = false;
    let mut progress = 0u32;
    let mut threads = 1usize;
    let mut max_nodes = u64::MAX;
    let (mut pn_scale, mut dn_scale) = (None, None);
    let mut nearer = 1u32;
    let mut depth = Depth::Ignored;
    let mut helper = false;
    let mut quiet_bonus = 3u32;
    let mut central_weight = 0u32;
    let mut dn_legal = false;
    let mut forced = None;
    let mut forced_always = false;
    let mut dn_threats = 0u32;
    let mut focus = None;
    let mut targets = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--check-progress" => {
                // progress_cells against its definition: a free cell is on a shortest
                // path exactly when placing a piece there lowers the distance by one.
                let mut checked = 0;
                for seed in 1..300 {
                    for after in 2..18 {
                        let Some(record) = Record::random(seed, after) else {
                            continue;
                        };
                        let pos = record.position();
                        let free = pos.free_cells();
                        for p in Player::ALL {
                            let pieces = pos.pieces(p);
                            let (d, on) = progress_cells(pieces, free);
                            if d == 0 || d >= geometry::NO_CONNECTION {
                                continue;
                            }
                            for c in free {
                                let dc =
                                    geometry::connection_distance(pieces.with(c), free.without(c));
                                assert_eq!(
                                    on.contains(c),
                                    dc + 1 == d,
                                    "seed {seed} after {after} {c}"
                                );
                                assert!(dc + 1 >= d);
                                checked += 1;
                            }
                        }
                    }
                }
                println!("progress cells checked: {checked}");
                return;
            }
            "--mb" => mb = args.next().and_then(|v| v.parse().ok()).expect("--mb N"),
            "--distinct" => distinct = true,
            "--lean" => lean = true,
            "--centre-first" => centre_first = true,
            "--loop-distance" => loop_distance = true,
            "--threat-distance" => threat_distance = true,
            "--two-distance" => two_distance = true,
            "--progress" => {
                progress = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--progress N")
            }
            "--deep" => {
                depth = Depth::Deep(args.next().and_then(|v| v.parse().ok()).expect("--deep D"))
            }
            "--shallow" => depth = Depth::Shallow,
            "--helper" => helper = true,
            "--focus" => {
                focus = Some(
                    args.next()
                        .and_then(|v| v.parse::<usize>().ok())
                        .expect("--focus K"),
                )
            }
            "--central-weight" => {
                central_weight = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--central-weight W")
            }
            "--quiet-bonus" => {
                quiet_bonus = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--quiet-bonus B")
            }
            "--threads" => {
                threads = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--threads N")
            }
            "--max-nodes" => {
                max_nodes = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--max-nodes N")
            }
            "--nearer" => {
                nearer = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--nearer N")
            }
            "--pn-scale" => {
                pn_scale = Some(
                    args.next()
                        .and_then(|v| Scale::parse(&v))
                        .expect("--pn-scale lin|sq|tri|exp2|exp3"),
                )
            }
            "--dn-legal" => dn_legal = true,
            "--forced-always" => forced_always = true,
            "--forced" => {
                forced = Some(
                    args.next()
                        .and_then(|v| v.parse().ok())
                        .expect("--forced N"),
                )
            }
            "--dn-threats" => {
                dn_threats = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--dn-threats K")
            }
            "--dn-scale" => {
                dn_scale = Some(
                    args.next()
                        .and_then(|v| Scale::parse(&v))
                        .expect("--dn-scale lin|sq|tri|exp2|exp3"),
                )
            }
            target => {
                let parsed = target
                    .split_once(':')
                    .and_then(|(s, a)| Some((s.parse::<u64>().ok()?, a.parse::<u32>().ok()?)));
                targets.push(parsed.expect("targets are SEED:PLACEMENTS, e.g. 1:8"));
            }
        }
    }
    let scales = match (pn_scale, dn_scale) {
        (None, None)
            if nearer == 1
                && depth == Depth::Ignored
                && quiet_bonus == 3
                && central_weight == 0
                && !loop_distance
                && !threat_distance
                && !two_distance
                && progress == 0
                && !dn_legal
                && dn_threats == 0 =>
        {
            None
        }
        (p, d) => Some((p.unwrap_or(Scale::Lin), d.unwrap_or(Scale::Lin))),
    };
    println!(
        "estimate {scales:?} nearer {nearer} depth {depth:?} (None: the library's), threads {threads}, helper {helper}"
    );
    let mut total = 0;
    for (seed, after) in targets {
        let record = Record::random(seed, after).expect("a random opening");
        let game = KamonGame::new(record.layout().clone());
        let node = game.node(record.position());
        // --focus K cuts the winner's placements: who wins is asked first, of the library.
        let focus = focus.map(|k| {
            let plain = Solver::new(
                game.clone(),
                Options {
                    threads: 1,
                    table_bytes: mb << 20,
                },
            )
            .expect("a solver");
            let to_move = record.position().turn();
            let winner = match plain.value(&node, &Cancel::new()).expect("a value") {
                Value::Win => to_move,
                _ => !to_move,
            };
            (winner, k)
        });
        let probe = Probe {
            inner: game,
            counters: Counters::default(),
            centre_first,
            loop_distance,
            threat_distance,
            two_distance,
            progress,
            distinct: distinct.then(|| Mutex::new(HashSet::new())),
            lean,
            scales,
            nearer,
            depth,
            quiet_bonus,
            central_weight,
            focus,
            dn_legal,
            dn_threats,
            forced,
            forced_always,
        };
        let options = Options {
            threads,
            table_bytes: mb << 20,
        };
        let solver = Solver::new(probe, options).expect("a solver");
        let start = std::time::Instant::now();
        let cancel = Cancel::new();
        let finished = AtomicBool::new(false);
        // A watcher stops the search at the node cap (the count lags by a few thousand).
        let value = std::thread::scope(|scope| {
            scope.spawn(|| {
                while !finished.load(Relaxed) {
                    if solver.nodes() >= max_nodes {
                        cancel.cancel();
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
            });
            let value = if helper {
                helped_value(&solver, &node, &cancel)
            } else {
                solver.value(&node, &cancel)
            };
            finished.store(true, Relaxed);
            value
        });
        let value = match value {
            Ok(v) => format!("{v:?}"),
            Err(_) => "capped".to_string(),
        };
        let secs = start.elapsed().as_secs_f64();
        let c = &solver.game().counters;
        let expanded = c.expanded.load(Relaxed).max(1) as f64;
        let distinct = solver
            .game()
            .distinct
            .as_ref()
            .map_or("-".into(), |d| d.lock().unwrap().len().to_string());
        total += solver.nodes();
        println!(
            "seed {seed} after {after}: {value} nodes {} distinct {distinct} legal/node {:.2} safe/node {:.2} {secs:.1}s fill {:.3}",
            solver.nodes(),
            c.legal.load(Relaxed) as f64 / expanded,
            c.safe.load(Relaxed) as f64 / expanded,
            solver.table().fill(),
        );
        let hist = |a: &[AtomicU64]| {
            let counts: Vec<String> = a.iter().map(|x| x.load(Relaxed).to_string()).collect();
            counts.join(" ")
        };
        if lean {
            continue;
        }
        println!("  by open children 0..: {}", hist(&c.by_open));
        println!("  by placements made 0..: {}", hist(&c.by_placed));
        println!(
            "  by threats (none, opponent's, own, both): {}",
            hist(&c.by_threats)
        );
    }
    println!("total nodes {total}");
}
