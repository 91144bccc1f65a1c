//! A Kamon position split at its first placements into units solved apart, and the file
//! of their results.
//!
//! Why: the empty board of a layout is too big for one search on this machine (see the
//! README's *Kamon*), but the positions one or two placements in are each about as hard
//! as the deepest proven rows of the ladder. The root's value follows from theirs by the
//! game's AND/OR rule with draws: a position is worth, for its side to move, the best of
//! what its placements leave the opponent, negated (a win beats a draw beats a loss). So
//! the split solves units, one search and one table each, in any order and on any machine,
//! and [`Split::bounds`] says what the results so far prove.
//!
//! The order of the units is chosen so that the root is settled with few searches: at
//! the root player's turn, the placements with the fewest units beneath them first (a
//! first cell is proven won only when every reply is), then those that leave the opponent
//! the fewest replies on the centre or next to it (see below: such replies are the
//! likeliest to refute), ties broken by the game's own estimate of how hard the root
//! player's proof is (easiest first); at the opponent's
//! turn, the replies nearest the centre first ([`geometry::centre_distance`]), and among
//! those equally near, the ones the root player looks least likely to beat by the game's
//! estimate, so a first cell that does not win is refuted early. (The estimate alone, all
//! but flat two placements in, put the refuting reply of the seven first cells refuted
//! in the empty boards of seeds 1, 3 and 4 before 2026-12-04 at places 2 to 8 of 10, 4.4
//! on average; the centre first puts it first five times, second once and fourth once
//! (seed 1's `a2 c2`, behind `d4 c4 e3`). That rule was read off those seven, so the
//! survey's solved positions, 8 to 12 placements in, are its independent check: there a
//! placement on the centre or next to it wins for its player 44 to 69% of the time, one
//! on the rim 32 to 38%. See the README's *The empty board in units*.) [`Split::next`] then passes over every unit whose
//! result can no longer change the answer: a cell refuted once is not searched further
//! for a win. A unit's search answers only the question the root needs of it ([`Ask`]):
//! while the root's question is "a win?", a unit that does not win is recorded as "at
//! most a draw" and not searched further for whether it draws.
//!
//! The results file is one JSON document rewritten after every unit under a temporary
//! name and renamed (the survey file's reasons: an interruption leaves a whole file, and a
//! rerun resumes by skipping what it holds). Each result names its unit by its
//! placements from the root, so results of separate processes (a job array's parts) join
//! without conflict; every result read is checked against the rules (its placements
//! legal, its side to move, its winner as its value says, a unit whose side to move can
//! win at once not claimed lost or drawn) and the summary is recomputed, never read.
//!
//! One definition: `kamisado kamon units` reads and writes the file with it, and the
//! tests read the files it writes with it too. The file system (reading, the atomic
//! write) is the front end's.

use kamisado_solver::{Game, Value};
use kamon_core::{geometry, Cell, KamonGame, Outcome, Position, Record};
use serde::{Deserialize, Serialize};

use crate::kamon::winner;
use crate::survey_file::FileError;

type Result<T> = std::result::Result<T, FileError>;

/// What the file says it is.
pub const FORMAT: &str = "kamisado kamon units 1";

/// The deepest split: two placements give about a hundred units; three, a thousand.
pub const MAX_DEPTH: u32 = 3;

const DESCRIPTION: &str = "Units of a Kamon position solved apart by `kamisado kamon units solve`: root is the position text (the layout, then the placements made), each unit the position `moves` placements below it, value its value for its side to move (to_move) by proof-number search with its own table (`kamon solve --value-only`), winner who wins it with perfect play; a unit without a value may hold at_least or at_most draw, the answer to the one question the root needed of it (at least a draw, or no win, for to_move). summary is recomputed from the units whenever the file is written (and ignored when read): the root's value by the AND/OR rule if the results prove it, else the bounds they prove, and proof_nodes the nodes of the solved units a proof of the root's value rests on (the cheapest such set; for a draw the union of the cheapest sets proving at least a draw and at most a draw). nodes and seconds are per unit (a unit without a value ran out of its time_limit, was interrupted, or was abandoned when units solved beside it made it unnecessary); load is the one-minute load average of the machine when the unit finished.";

/// One unit's result.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct UnitResult {
    /// The placements from the root to the unit.
    pub moves: Vec<String>,
    /// The player to move at the unit.
    pub to_move: String,
    /// For the side to move at the unit: `win`, `draw` or `loss`; absent if the search ran
    /// out of its time limit, was interrupted or was abandoned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// `black`, `white` or `draw`, with the value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<String>,
    /// Without a value, what the search proved of the unit when it asked only the one
    /// question the root needed (see [`Ask`]): `draw` here is "at least a draw" for the
    /// side to move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_least: Option<String>,
    /// Without a value, `draw` here is "no win" for the side to move: at most a draw.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_most: Option<String>,
    pub nodes: u64,
    pub seconds: f64,
    pub threads: usize,
    pub hash_mb: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_limit: Option<f64>,
    /// Stopped by an interrupt before its value was found (its nodes and time so far).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub interrupted: bool,
    /// Stopped before its value was found because results finished beside it (units
    /// solved side by side, `units solve --jobs`) made it unnecessary; its nodes and time
    /// so far are part of what the run cost.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub abandoned: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load: Option<f64>,
}

/// The whole file: a root, a depth, the results so far.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct UnitsFile {
    pub format: String,
    pub description: String,
    /// The position split: its position text.
    pub root: String,
    pub depth: u32,
    /// Written for readers, recomputed from the units; ignored when reading.
    #[serde(default, skip_deserializing)]
    pub summary: Option<Summary>,
    /// In the split's order.
    pub units: Vec<UnitResult>,
}

/// What a set of results proves about the root, for the file and the reports.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct Summary {
    /// The root's value for its side to move if proven, else `null`.
    pub value: Option<&'static str>,
    /// `black`, `white` or `draw` if proven.
    pub winner: Option<&'static str>,
    /// What the results prove at least and at most, for the root's side to move.
    pub at_least: &'static str,
    pub at_most: &'static str,
    pub units: usize,
    pub units_solved: usize,
    /// Units not solved but bounded: the search answered the one question the root
    /// needed of them (no win, or at least a draw). Not written when there are none.
    #[serde(skip_serializing_if = "is_zero")]
    pub units_bounded: usize,
    /// Units tried and not solved nor bounded (out of their time limit, interrupted, or
    /// abandoned).
    pub units_unsolved: usize,
    /// The unsolved units whose results could still change the root's value.
    pub units_needed: usize,
    /// The next unit the split would solve (1-based, in the listing), if any is needed.
    pub next_unit: Option<usize>,
    /// The same two for every first placement's value ([`Goal::EveryFirstCell`], what
    /// `units solve --every-first-cell` still has to do): `units_needed` and `next_unit`
    /// are for the root's value alone.
    pub first_cells_needed: usize,
    pub first_cells_next_unit: Option<usize>,
    pub nodes: u64,
    /// The nodes of the solved units a proof of the root's value rests on, the cheapest
    /// such set ([`Split::proof_nodes`]), if the root's value is proven.
    pub proof_nodes: Option<u64>,
    pub seconds: f64,
    /// Every placement at the root with what the results prove of it, for the player
    /// making it.
    pub first_cells: Vec<CellSummary>,
}

#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct CellSummary {
    pub cell: String,
    pub value: Option<&'static str>,
    pub at_least: &'static str,
    pub at_most: &'static str,
    pub units: usize,
    pub units_solved: usize,
}

/// What a split's units are solved for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// The root's value: a first placement refuted once, or one proven won, ends the
    /// search for it.
    Root,
    /// The value of every first placement (the root's openings, as `openings` gives
    /// Kamisado's), and so the root's.
    EveryFirstCell,
}

/// A position of the split: the root, a position between it and the units, or a unit.
struct Node {
    /// Placements from the root.
    moves: Vec<Cell>,
    position: Position,
    /// Children in the split's order (empty for a unit or an ended game).
    children: Vec<usize>,
    /// The unit's number (0-based) if it is one.
    unit: Option<usize>,
}

/// What the split's order looks at in a placement (see the module's opening).
struct Order {
    /// The node the placement leads to.
    child: usize,
    /// Units beneath it.
    units: usize,
    /// The game's guess of the root player's proof number there.
    root_proof: u32,
    /// Steps from the placed cell to the centre.
    centre_distance: u32,
    /// The replies it leaves on the centre or next to it.
    central_replies: usize,
}

/// A position split at its first `depth` placements.
pub struct Split {
    pub root: Record,
    pub depth: u32,
    nodes: Vec<Node>,
    /// Per unit, its node and the nodes above it (root first).
    paths: Vec<Vec<usize>>,
}

/// What is known of a unit's value, or of a position of the split, for its side to move:
/// the range `[lo, hi]`. [`UNKNOWN`] knows nothing; `(v, v)` is solved.
pub type Bounds = (Value, Value);

/// Nothing known: at least a loss, at most a win.
pub const UNKNOWN: Bounds = (Value::Loss, Value::Win);

/// Which side of a value a proof shows: the position is worth at least it, or at most it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    AtLeast,
    AtMost,
}

impl Bound {
    /// The same bound seen by the opponent: "at least a draw" for one side is "at most a
    /// draw" for the other.
    fn flip(self) -> Bound {
        match self {
            Bound::AtLeast => Bound::AtMost,
            Bound::AtMost => Bound::AtLeast,
        }
    }
}

/// The one question a unit's search answers for the split: does the unit's side to move
/// score at least `at_least` (a win, or a draw)? Asked of a unit whose `known` bounds leave
/// it open.
///
/// Why one question and not the value: the root asks "does Black win?" before "does
/// Black draw?", and for the first only "does this unit win?" matters. A value search of a
/// drawn unit answers that and then goes on to prove the draw, which the win question never
/// needs (the second question of a draw cost 4% to 90% of the first, 40% on average, on
/// the survey's seven drawn positions, `question_order_probe`); if the draw question comes
/// later, the unit is asked again, from its saved table where there is one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ask {
    pub known: Bounds,
    pub at_least: Value,
}

impl Ask {
    /// The bounds the answer leaves: `yes` raises the low end to `at_least`, `no` lowers
    /// the high end below it.
    pub fn answered(self, yes: bool) -> Bounds {
        let (lo, hi) = self.known;
        if yes {
            (lo.max(self.at_least), hi)
        } else {
            (lo, hi.min(value_below(self.at_least)))
        }
    }
}

/// The value just below `v` (a loss has none: itself).
fn value_below(v: Value) -> Value {
    match v {
        Value::Win => Value::Draw,
        _ => Value::Loss,
    }
}

/// The bounds `(lo, hi)` in words, for the side to move: "a win", "at least a draw",
/// "at most a draw", "unknown".
pub fn bounds_name(bounds: Bounds) -> String {
    match bounds {
        (lo, hi) if lo == hi => format!("a {}", lo.name()),
        UNKNOWN => "unknown".to_string(),
        (lo, Value::Win) => format!("at least a {}", lo.name()),
        (Value::Loss, hi) => format!("at most a {}", hi.name()),
        (lo, hi) => format!("{}..{}", lo.name(), hi.name()),
    }
}

impl Split {
    /// The split of `root` at `depth` placements (1 to [`MAX_DEPTH`]).
    pub fn new(root: Record, depth: u32) -> Result<Split> {
        if !(1..=MAX_DEPTH).contains(&depth) {
            return Err(FileError::Invalid(format!(
                "depth {depth}: a split is 1 to {MAX_DEPTH} placements deep"
            )));
        }
        if root.position().is_over() {
            return Err(FileError::Invalid(
                "the position is over already: there is nothing to split".into(),
            ));
        }
        let game = KamonGame::new(root.layout().clone());
        let mut split = Split {
            root,
            depth,
            nodes: Vec::new(),
            paths: Vec::new(),
        };
        let root_turn = split.root.position().turn();
        let start = *split.root.position();
        split.build(&game, root_turn, start, Vec::new(), depth);
        let mut path = Vec::new();
        split.number_units(0, &mut path);
        Ok(split)
    }

    /// Adds the node of `position` and everything below it to `remaining` placements;
    /// returns its index.
    fn build(
        &mut self,
        game: &KamonGame,
        root_turn: kamon_core::Player,
        position: Position,
        moves: Vec<Cell>,
        remaining: u32,
    ) -> usize {
        let id = self.nodes.len();
        self.nodes.push(Node {
            moves: moves.clone(),
            position,
            children: Vec::new(),
            unit: None,
        });
        if remaining == 0 || position.is_over() {
            // A unit, or a game the rules ended before the units' depth: its value is
            // the rules', no search needed.
            if !position.is_over() {
                self.nodes[id].unit = Some(usize::MAX);
            }
            return id;
        }
        let layout = game.layout().clone();
        let mut children: Vec<Order> = Vec::new();
        for cell in position.legal_cells(&layout) {
            let child = position.play_unchecked(&layout, cell);
            let mut child_moves = moves.clone();
            child_moves.push(cell);
            let child_id = self.build(game, root_turn, child, child_moves, remaining - 1);
            let units = self.units_below(child_id);
            // The root player's proof number at the child, as the game guesses it.
            let (pn, dn) = game.estimate(&game.node(&child));
            let root_proof = if child.turn() == root_turn { pn } else { dn };
            let central_replies = child
                .legal_cells(&layout)
                .filter(|&reply| geometry::centre_distance(reply) <= 1)
                .count();
            children.push(Order {
                child: child_id,
                units,
                root_proof,
                centre_distance: geometry::centre_distance(cell),
                central_replies,
            });
        }
        if position.turn() == root_turn {
            // The root player chooses: the cheapest to prove first.
            children.sort_by_key(|o| (o.units, o.central_replies, o.root_proof));
        } else {
            // The opponent chooses: the likeliest refutation first.
            children.sort_by_key(|o| (o.centre_distance, std::cmp::Reverse(o.root_proof)));
        }
        self.nodes[id].children = children.into_iter().map(|o| o.child).collect();
        id
    }

    fn units_below(&self, id: usize) -> usize {
        let node = &self.nodes[id];
        if node.unit.is_some() {
            1
        } else {
            node.children.iter().map(|&c| self.units_below(c)).sum()
        }
    }

    /// Numbers the units in the split's order (depth first) and records their paths.
    fn number_units(&mut self, id: usize, path: &mut Vec<usize>) {
        path.push(id);
        if self.nodes[id].unit.is_some() {
            self.nodes[id].unit = Some(self.paths.len());
            self.paths.push(path.clone());
        }
        for i in 0..self.nodes[id].children.len() {
            let child = self.nodes[id].children[i];
            self.number_units(child, path);
        }
        path.pop();
    }

    /// How many units there are.
    pub fn len(&self) -> usize {
        self.paths.len()
    }

    /// Whether there are no units (a position whose every placement ends the game).
    pub fn is_empty(&self) -> bool {
        self.paths.is_empty()
    }

    /// Unit `i`'s placements from the root.
    pub fn unit_moves(&self, i: usize) -> &[Cell] {
        &self.nodes[*self.paths[i].last().expect("a path ends at its unit")].moves
    }

    /// Unit `i`'s position.
    pub fn unit_position(&self, i: usize) -> Position {
        self.nodes[*self.paths[i].last().expect("a path ends at its unit")].position
    }

    /// Unit `i` as a game record: the position text `kamon solve` takes.
    pub fn unit_record(&self, i: usize) -> Record {
        let mut record = self.root.clone();
        for &cell in self.unit_moves(i) {
            record.play(cell).expect("the split's placements are legal");
        }
        record
    }

    /// The unit these placements lead to, if they lead to one.
    pub fn unit_of(&self, moves: &[Cell]) -> Option<usize> {
        (0..self.len()).find(|&i| self.unit_moves(i) == moves)
    }

    /// The bounds that `units` (per unit, for its side to move) prove at node `id`.
    fn bounds(&self, id: usize, units: &[Bounds]) -> Bounds {
        let node = &self.nodes[id];
        if let Some(outcome) = node.position.outcome() {
            let v = match outcome {
                Outcome::Draw => Value::Draw,
                _ => Value::Loss,
            };
            return (v, v);
        }
        if let Some(unit) = node.unit {
            return units[unit];
        }
        let mut bounds = (Value::Loss, Value::Loss);
        for &child in &node.children {
            let (lo, hi) = self.bounds(child, units);
            bounds = (bounds.0.max(hi.flip()), bounds.1.max(lo.flip()));
        }
        bounds
    }

    /// The nodes of the cheapest set of solved units that proves node `id`'s value, given
    /// each unit's `nodes`: what a proof of the answer rests on, against all that was
    /// searched to find it (the difference is the price of not knowing in advance which
    /// first cell wins or which reply refutes). See [`Split::proof_units`].
    pub fn proof_nodes(&self, id: usize, units: &[Bounds], nodes: &[u64]) -> Option<u64> {
        self.proof_units(id, units, nodes).map(|(n, _)| n)
    }

    /// The cheapest set of solved units that proves node `id`'s value, given each unit's
    /// `nodes`, with their nodes in all (sorted unit numbers, each with what its proof must
    /// show for its side to move: a value, or for a drawn root's proof maybe one bound): the
    /// units whose certificates (`kamon prove --claim`), packed under the root (`kamon pack
    /// --root`), prove it. `None` unless the value is proven. A win is "at least a win" and
    /// a loss "at most a loss" ([`Split::bound_units`]); a draw is both "at least a draw"
    /// and "at most a draw", two proofs that may share units (a drawn unit serves both,
    /// and must then be shown a draw): each half is the cheapest of its kind, and the set
    /// is their union, each unit counted once. Two placements deep that is a winning first
    /// cell's replies, one refuting reply per first cell, or for a draw a drawing first
    /// cell's replies (each at least a draw for the unit's side to move) together with one
    /// reply per first cell holding it to a draw (at most a draw).
    pub fn proof_units(
        &self,
        id: usize,
        units: &[Bounds],
        nodes: &[u64],
    ) -> Option<(u64, Vec<(usize, Bounds)>)> {
        let halves = match self.bounds(id, units) {
            (Value::Win, Value::Win) => vec![(Value::Win, Bound::AtLeast)],
            (Value::Loss, Value::Loss) => vec![(Value::Loss, Bound::AtMost)],
            (Value::Draw, Value::Draw) => {
                vec![(Value::Draw, Bound::AtLeast), (Value::Draw, Bound::AtMost)]
            }
            _ => return None,
        };
        let mut set: Vec<(usize, Bounds)> = Vec::new();
        for (target, bound) in halves {
            set.extend(self.bound_units(id, target, bound, units, nodes)?.1);
        }
        set.sort_unstable_by_key(|&(unit, _)| unit);
        // A unit in both halves must show both bounds.
        set.dedup_by(|(unit, (lo, hi)), (kept, (kept_lo, kept_hi))| {
            let same = unit == kept;
            if same {
                (*kept_lo, *kept_hi) = ((*kept_lo).max(*lo), (*kept_hi).min(*hi));
            }
            same
        });
        Some((set.iter().map(|&(u, _)| nodes[u]).sum(), set))
    }

    /// The cheapest set of solved units that proves node `id` worth at least (or at most)
    /// `target` for its side to move, each with the bound its proof must show for its own
    /// side to move, and their nodes in all (a unit shared by two branches counted twice:
    /// the branches of one bound are different positions, so they share no unit). At least
    /// `target` needs one child held to at most its flip; at most `target` needs every
    /// child at least its flip; a position the rules decide costs nothing, and so does a
    /// bound no value can break (at least a loss, at most a win).
    fn bound_units(
        &self,
        id: usize,
        target: Value,
        bound: Bound,
        units: &[Bounds],
        nodes: &[u64],
    ) -> Option<(u64, Vec<(usize, Bounds)>)> {
        let needed = match bound {
            Bound::AtLeast => (target, Value::Win),
            Bound::AtMost => (Value::Loss, target),
        };
        let holds = |(lo, hi): Bounds| lo >= needed.0 && hi <= needed.1;
        let node = &self.nodes[id];
        if holds(UNKNOWN) {
            return Some((0, Vec::new()));
        }
        if let Some(outcome) = node.position.outcome() {
            let v = match outcome {
                Outcome::Draw => Value::Draw,
                _ => Value::Loss,
            };
            return holds((v, v)).then(|| (0, Vec::new()));
        }
        if let Some(unit) = node.unit {
            return holds(units[unit]).then(|| (nodes[unit], vec![(unit, needed)]));
        }
        let below = node
            .children
            .iter()
            .map(|&c| self.bound_units(c, target.flip(), bound.flip(), units, nodes));
        match bound {
            Bound::AtLeast => below.flatten().min_by_key(|&(n, _)| n),
            Bound::AtMost => below.collect::<Option<Vec<_>>>().map(|sets| {
                sets.into_iter()
                    .fold((0, Vec::new()), |(n, mut units), (m, more)| {
                        units.extend(more);
                        (n + m, units)
                    })
            }),
        }
    }

    /// `bounds` of node `id` for the root's side to move.
    fn root_view(&self, id: usize, units: &[Bounds]) -> Bounds {
        let (lo, hi) = self.bounds(id, units);
        if self.nodes[id].position.turn() == self.root.position().turn() {
            (lo, hi)
        } else {
            (hi.flip(), lo.flip())
        }
    }

    /// What `units` prove of the root, for its side to move.
    pub fn root_bounds(&self, units: &[Bounds]) -> Bounds {
        self.bounds(0, units)
    }

    /// Whether unit `i`'s result could still decide whether the root (for
    /// [`Goal::EveryFirstCell`]: its first placement on the way to the unit) is worth at
    /// least `target`: every position from there down to it (the unit included) is still
    /// undecided on that.
    fn needed_for(&self, i: usize, target: Value, units: &[Bounds], goal: Goal) -> bool {
        let from = match goal {
            Goal::Root => 0,
            Goal::EveryFirstCell => 1,
        };
        self.paths[i].iter().skip(from).all(|&id| {
            let (lo, hi) = self.root_view(id, units);
            lo < target && target <= hi
        })
    }

    /// The question unit `i`'s search should answer for `goal`: the first of the root's
    /// questions ("a win?", then "a draw?") that its answer could still settle, turned into
    /// the unit's side to move's (at the opponent's turn, the root player's "at least a
    /// win?" is the unit's "not even a draw?", and "at least a draw?" is "not a win?").
    /// `None` if the unit is not needed.
    pub fn ask(&self, i: usize, units: &[Bounds], goal: Goal) -> Option<Ask> {
        let target = [Value::Win, Value::Draw]
            .into_iter()
            .find(|&target| self.needed_for(i, target, units, goal))?;
        let same_side = self.unit_position(i).turn() == self.root.position().turn();
        let at_least = match (same_side, target) {
            (true, target) => target,
            (false, Value::Win) => Value::Draw,
            (false, _) => Value::Win,
        };
        Some(Ask {
            known: units[i],
            at_least,
        })
    }

    /// Whether unit `i`'s result could still change what the results prove of the root
    /// (or, for [`Goal::EveryFirstCell`], of its first placement).
    pub fn needed(&self, i: usize, units: &[Bounds], goal: Goal) -> bool {
        self.ask(i, units, goal).is_some()
    }

    /// The next unit to solve for `goal`, passing over `skip`: first the question whether
    /// the root (or a first placement) wins, then whether it draws, each in the split's
    /// order and only among the units that can still settle it. `None` once the goal is
    /// proven (or nothing is left).
    pub fn next(&self, units: &[Bounds], skip: &[bool], goal: Goal) -> Option<usize> {
        [Value::Win, Value::Draw].into_iter().find_map(|target| {
            (0..self.len()).find(|&i| !skip[i] && self.needed_for(i, target, units, goal))
        })
    }

    /// The next unit for a job to start beside the units `running`: [`Split::next`],
    /// except that a first placement none of whose units is solved yet runs one unit at
    /// a time, the other jobs going on to another first placement's next needed unit
    /// meanwhile (back to it only if no other has a unit left to start). Returns `None`
    /// exactly when [`Split::next`] does.
    ///
    /// Why: that unit is the first of its replies in the split's order, the likeliest to
    /// refute it (the centre first: first in four of the nine refutations found under that
    /// order, and in 9 of the 16 refuted first cells of seeds 1, 3 and 4 as it lists them
    /// now), and a refutation is the longest kind of unit (seed 4's averaged 650 M nodes,
    /// its wins 289 M). A second unit of the same
    /// first placement beside it is wasted if it refutes: seed 4's empty board spent
    /// 3.64 G of its 22.8 G nodes on units abandoned that way, and more on wins finished
    /// beside a refuter. Work on another first placement is needed anyway when the root
    /// is lost (every first placement must be refuted), and once one of a first
    /// placement's units is solved (a reply beaten or drawn, for one not refuted), it
    /// looks like a winner and its units run side by side again.
    pub fn next_beside(
        &self,
        units: &[Bounds],
        skip: &[bool],
        running: &[usize],
        goal: Goal,
    ) -> Option<usize> {
        let first_placement = |i: usize| self.paths[i].get(1).copied();
        let untouched_and_busy = |i: usize| {
            let cell = first_placement(i);
            running.iter().any(|&j| first_placement(j) == cell)
                && !(0..self.len()).any(|k| first_placement(k) == cell && units[k] != UNKNOWN)
        };
        let next = self.next(units, skip, goal)?;
        if !untouched_and_busy(next) {
            return Some(next);
        }
        [Value::Win, Value::Draw]
            .into_iter()
            .find_map(|target| {
                (0..self.len()).find(|&i| {
                    !skip[i] && !untouched_and_busy(i) && self.needed_for(i, target, units, goal)
                })
            })
            .or(Some(next))
    }

    /// How many unsolved units could still change the answer for `goal`.
    pub fn needed_count(&self, units: &[Bounds], goal: Goal) -> usize {
        (0..self.len())
            .filter(|&i| self.needed(i, units, goal))
            .count()
    }

    /// The root's placements in reading order (not the split's, which a change of
    /// heuristic reorders): the cell, the bounds for the player making it, and the units
    /// (numbers) beneath it.
    fn first_cells(&self, units: &[Bounds]) -> Vec<(Cell, Bounds, Vec<usize>)> {
        let mut children = self.nodes[0].children.clone();
        children.sort_by_key(|&child| self.nodes[child].moves[0].index());
        children
            .iter()
            .map(|&child| {
                let (lo, hi) = self.bounds(child, units);
                let beneath = (0..self.len())
                    .filter(|&i| self.paths[i].get(1) == Some(&child))
                    .collect();
                (self.nodes[child].moves[0], (hi.flip(), lo.flip()), beneath)
            })
            .collect()
    }
}

impl UnitsFile {
    pub fn new(split: &Split) -> UnitsFile {
        UnitsFile {
            format: FORMAT.to_string(),
            description: DESCRIPTION.to_string(),
            root: split.root.to_string(),
            depth: split.depth,
            summary: None,
            units: Vec::new(),
        }
    }

    /// A results file from its text, every result checked against the rules (see the
    /// module's documentation), with the split it belongs to; `shown` names the file in
    /// the errors.
    pub fn parse(text: &str, shown: &str) -> Result<(UnitsFile, Split)> {
        let file: UnitsFile = serde_json::from_str(text).map_err(|source| FileError::NotJson {
            shown: shown.to_owned(),
            what: "a units results file",
            source,
        })?;
        if file.format != FORMAT {
            return Err(FileError::Invalid(format!(
                "{shown}: not a units results file of this version (format `{}`, expected `{FORMAT}`)",
                file.format
            )));
        }
        let root: Record = file
            .root
            .parse()
            .map_err(|e| FileError::Invalid(format!("{shown}: the root: {e}")))?;
        let split = Split::new(root, file.depth)
            .map_err(|e| FileError::Invalid(format!("{shown}: {e}")))?;
        let mut seen = vec![false; split.len()];
        for result in &file.units {
            let i = result.check(&split).map_err(|problem| {
                FileError::Invalid(format!(
                    "{shown}: unit `{}`: {problem}",
                    result.moves.join(" ")
                ))
            })?;
            if std::mem::replace(&mut seen[i], true) {
                return Err(FileError::Invalid(format!(
                    "{shown}: unit `{}` is there twice",
                    result.moves.join(" ")
                )));
            }
        }
        Ok((file, split))
    }

    /// Refuses a file of another split than `split`.
    pub fn same_split(&self, split: &Split, name: &str) -> Result<()> {
        if self.root != split.root.to_string() || self.depth != split.depth {
            return Err(FileError::Invalid(format!(
                "{name}: the results of another split (root `{}` at depth {}, not `{}` at depth {})",
                self.root, self.depth, split.root, split.depth
            )));
        }
        Ok(())
    }

    /// Per unit of `split`, what this file knows of its value ([`UNKNOWN`] if nothing).
    pub fn unit_bounds(&self, split: &Split) -> Vec<Bounds> {
        let mut units = vec![UNKNOWN; split.len()];
        for result in &self.units {
            if let Ok(i) = result.check(split) {
                units[i] = result.bounds();
            }
        }
        units
    }

    /// Each unit's nodes in its result that proves something of it, a value or a bound (a
    /// drawn root's proof rests on bounds: "at least a draw" and "no win"); 0 for a unit
    /// without one.
    pub fn unit_nodes(&self, split: &Split) -> Vec<u64> {
        let mut nodes = vec![0; split.len()];
        for result in &self.units {
            if let (Ok(i), false) = (result.check(split), result.bounds() == UNKNOWN) {
                nodes[i] = result.nodes;
            }
        }
        nodes
    }

    /// Adds a result, in the split's order: a solved result stays; any other is replaced
    /// by the new one, which keeps what both prove (an answer to one question and an
    /// answer to the other make a value), unless the new one knows no more and counts
    /// fewer nodes (an older record); what they prove must agree (`name` says where the
    /// new one is from).
    pub fn add(&mut self, split: &Split, mut result: UnitResult, name: &str) -> Result<()> {
        let i = result.check(split).map_err(|p| {
            FileError::Invalid(format!("{name}: unit `{}`: {p}", result.moves.join(" ")))
        })?;
        if let Some(old) = self.units.iter().find(|r| r.moves == result.moves) {
            let (a, b) = (old.bounds(), result.bounds());
            let both = (a.0.max(b.0), a.1.min(b.1));
            if both.0 > both.1 {
                return Err(FileError::Invalid(format!(
                    "{name}: unit `{}` is {} for {}, and {} in the results read before",
                    result.moves.join(" "),
                    bounds_name(b),
                    result.to_move,
                    bounds_name(a)
                )));
            }
            // A record's nodes count every search of its unit so far (see
            // `units_run::Spent`): one that knows no more and cost less is an older one.
            if a.0 == a.1 || (both == a && old.nodes >= result.nodes) {
                return Ok(());
            }
            result.set_bounds(split.unit_position(i).turn(), both);
        }
        self.units.retain(|r| r.moves != result.moves);
        self.units.push(result);
        self.units
            .sort_by_key(|r| r.check(split).map_or(usize::MAX, |i| i));
        Ok(())
    }

    /// Adds every result of `other`, a file of the same split (see [`UnitsFile::add`]).
    pub fn merge(&mut self, split: &Split, other: UnitsFile, name: &str) -> Result<()> {
        other.same_split(split, name)?;
        for result in other.units {
            self.add(split, result, name)?;
        }
        Ok(())
    }

    /// What the results prove.
    pub fn summary(&self, split: &Split) -> Summary {
        let units = self.unit_bounds(split);
        let (lo, hi) = split.root_bounds(&units);
        let proven = (lo == hi).then_some(lo);
        let turn = split.root.position().turn();
        let is_solved = |i: usize| units[i].0 == units[i].1;
        let solved = |beneath: &[usize]| beneath.iter().filter(|&&i| is_solved(i)).count();
        Summary {
            value: proven.map(Value::name),
            winner: proven.map(|v| winner(turn, v)),
            at_least: lo.name(),
            at_most: hi.name(),
            units: split.len(),
            units_solved: (0..split.len()).filter(|&i| is_solved(i)).count(),
            units_bounded: self
                .units
                .iter()
                .filter(|r| r.value.is_none() && r.bounds() != UNKNOWN)
                .count(),
            units_unsolved: self.units.iter().filter(|r| r.bounds() == UNKNOWN).count(),
            units_needed: split.needed_count(&units, Goal::Root),
            next_unit: split
                .next(&units, &vec![false; split.len()], Goal::Root)
                .map(|i| i + 1),
            first_cells_needed: split.needed_count(&units, Goal::EveryFirstCell),
            first_cells_next_unit: split
                .next(&units, &vec![false; split.len()], Goal::EveryFirstCell)
                .map(|i| i + 1),
            nodes: self.units.iter().map(|r| r.nodes).sum(),
            proof_nodes: split.proof_nodes(0, &units, &self.unit_nodes(split)),
            // `+ 0.0`: the sum of no seconds is -0.0.
            seconds: (self.units.iter().map(|r| r.seconds).sum::<f64>() * 10.0).round() / 10.0
                + 0.0,
            first_cells: split
                .first_cells(&units)
                .into_iter()
                .map(|(cell, (lo, hi), units)| CellSummary {
                    cell: cell.to_string(),
                    value: (lo == hi).then_some(lo.name()),
                    at_least: lo.name(),
                    at_most: hi.name(),
                    units_solved: solved(&units),
                    units: units.len(),
                })
                .collect(),
        }
    }

    /// The file's text with a fresh summary: pretty JSON, as it is written.
    pub fn to_text(&mut self, split: &Split) -> String {
        self.summary = Some(self.summary(split));
        serde_json::to_string_pretty(self).expect("a units results file is JSON")
    }
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl UnitResult {
    /// The value, if the result has one (and it is a value).
    pub fn value(&self) -> Option<Value> {
        self.value.as_deref().and_then(Value::from_name)
    }

    /// What the result proves of the unit's value, for its side to move.
    pub fn bounds(&self) -> Bounds {
        if let Some(v) = self.value() {
            return (v, v);
        }
        let named = |text: &Option<String>, none: Value| {
            text.as_deref().and_then(Value::from_name).unwrap_or(none)
        };
        (
            named(&self.at_least, Value::Loss),
            named(&self.at_most, Value::Win),
        )
    }

    /// Sets what the result proves to `bounds`, for `to_move` at the unit: a value (and
    /// its winner) when they meet, else the bounds. A value is no longer interrupted nor
    /// abandoned: it was found.
    pub fn set_bounds(&mut self, to_move: kamon_core::Player, (lo, hi): Bounds) {
        let name = |v: Value, none: Value| (v != none).then(|| v.name().to_string());
        if lo == hi {
            self.value = Some(lo.name().to_string());
            self.winner = Some(winner(to_move, lo).to_string());
            self.at_least = None;
            self.at_most = None;
            self.interrupted = false;
            self.abandoned = false;
        } else {
            self.value = None;
            self.winner = None;
            self.at_least = name(lo, Value::Loss);
            self.at_most = name(hi, Value::Win);
        }
    }

    /// Which unit of `split` this is, if the result holds together; what is wrong, in
    /// words, if not.
    pub fn check(&self, split: &Split) -> std::result::Result<usize, String> {
        let mut cells = Vec::with_capacity(self.moves.len());
        for text in &self.moves {
            let cell: Cell = text
                .parse()
                .map_err(|e| format!("`{text}` is not a cell: {e}"))?;
            cells.push(cell);
        }
        let unit = split.unit_of(&cells).ok_or_else(|| {
            format!(
                "not a unit of this split (the positions {} legal placements below the root)",
                split.depth
            )
        })?;
        let pos = split.unit_position(unit);
        if self.to_move != pos.turn().name() {
            return Err(format!("`to_move` is not {}", pos.turn().name()));
        }
        match self.value.as_deref() {
            None if self.interrupted && self.abandoned => {
                return Err("both interrupted and abandoned".into());
            }
            None => {
                for (field, text, none) in [
                    ("at_least", &self.at_least, Value::Loss),
                    ("at_most", &self.at_most, Value::Win),
                ] {
                    if let Some(text) = text {
                        if Value::from_name(text) != Some(Value::Draw) {
                            return Err(format!(
                                "`{field}` `{text}` is not draw (a bound that is a value is written as `value`, and a {} as no bound)",
                                none.name()
                            ));
                        }
                    }
                }
                let (lo, hi) = self.bounds();
                if lo == hi {
                    return Err("`at_least` and `at_most` draw: that is `value` draw".into());
                }
                if (lo, hi) == UNKNOWN
                    && self.time_limit.is_none()
                    && !self.interrupted
                    && !self.abandoned
                {
                    return Err(
                        "no `value` nor bound, and neither a time limit it could have run out of, an interrupt, nor a reason it was abandoned"
                            .into(),
                    );
                }
                if self.winner.is_some() {
                    return Err("no `value`, but a winner".into());
                }
                if hi != Value::Win && pos.winning_move(split.root.layout()).is_some() {
                    return Err(format!(
                        "at most a draw for {}, who can win at once",
                        pos.turn().name()
                    ));
                }
            }
            Some(_) if self.at_least.is_some() || self.at_most.is_some() => {
                return Err("both a `value` and a bound".into());
            }
            Some(_) if self.interrupted => {
                return Err("a `value`, but interrupted before it was found".into());
            }
            Some(_) if self.abandoned => {
                return Err("a `value`, but abandoned before it was found".into());
            }
            Some(text) => {
                let value = Value::from_name(text)
                    .ok_or_else(|| format!("`value` `{text}` is not win, draw or loss"))?;
                let winner = winner(pos.turn(), value);
                if self.winner.as_deref() != Some(winner) {
                    return Err(format!("the winner is not {winner}, as the value says"));
                }
                if value != Value::Win && pos.winning_move(split.root.layout()).is_some() {
                    return Err(format!(
                        "a {text} for {}, who can win at once",
                        pos.turn().name()
                    ));
                }
            }
        }
        Ok(unit)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The value of `record`'s position when every position `depth` placements below it
    /// is worth `leaf` of its placements: the AND/OR rule written out plainly.
    fn minimax(
        record: &Record,
        depth: u32,
        moves: &mut Vec<Cell>,
        leaf: &dyn Fn(&[Cell]) -> Value,
    ) -> Value {
        let pos = {
            let mut r = record.clone();
            for &c in moves.iter() {
                r.play(c).unwrap();
            }
            *r.position()
        };
        match pos.outcome() {
            Some(Outcome::Draw) => return Value::Draw,
            Some(_) => return Value::Loss,
            None => {}
        }
        if depth == 0 {
            return leaf(moves);
        }
        let mut best = Value::Loss;
        for cell in pos.legal_cells(record.layout()) {
            moves.push(cell);
            best = best.max(minimax(record, depth - 1, moves, leaf).flip());
            moves.pop();
        }
        best
    }

    /// The split's order on empty boards: the first cells by the replies they leave on
    /// the centre or next to it (fewest first), and under each first cell its replies
    /// nearest the centre first, every unit listed once.
    #[test]
    fn units_come_centre_first() {
        use kamon_core::geometry::centre_distance;
        for seed in 1..=4 {
            let record = Record::random(seed, 0).unwrap();
            let split = Split::new(record.clone(), 2).unwrap();
            let layout = record.layout();
            let start = *record.position();
            let units: Vec<&[Cell]> = (0..split.len()).map(|i| split.unit_moves(i)).collect();
            let mut firsts: Vec<Cell> = units.iter().map(|m| m[0]).collect();
            firsts.dedup();
            assert_eq!(
                firsts.len(),
                start.legal_cells(layout).count() as usize,
                "seed {seed}"
            );
            let central = |first: Cell| {
                let after = start.play(layout, first).unwrap();
                let replies = after.legal_cells(layout);
                (
                    replies.count(),
                    replies.filter(|&r| centre_distance(r) <= 1).count(),
                )
            };
            assert!(
                firsts.windows(2).all(|w| central(w[0]) <= central(w[1])),
                "seed {seed}: {firsts:?}"
            );
            for first in firsts {
                let replies: Vec<u32> = units
                    .iter()
                    .filter(|m| m[0] == first)
                    .map(|m| centre_distance(m[1]))
                    .collect();
                assert!(replies.is_sorted(), "seed {seed} {first}: {replies:?}");
            }
        }
    }

    /// A result of unit `i` with `value` (or none), as a solver would give it.
    pub(crate) fn unit_result(split: &Split, i: usize, value: Option<Value>) -> UnitResult {
        let to_move = split.unit_position(i).turn();
        UnitResult {
            moves: split.unit_moves(i).iter().map(Cell::to_string).collect(),
            to_move: to_move.name().to_string(),
            value: value.map(|v| v.name().to_string()),
            winner: value.map(|v| winner(to_move, v).to_string()),
            at_least: None,
            at_most: None,
            nodes: 1,
            seconds: 0.0,
            threads: 1,
            hash_mb: 1,
            time_limit: None,
            interrupted: false,
            abandoned: false,
            load: None,
        }
    }

    /// Made-up unit values, from a hash of the placements: `draws` in 16 are draws.
    pub(crate) fn made_up(moves: &[Cell], salt: u64, draws: u64) -> Value {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (salt, moves).hash(&mut h);
        match h.finish() % 16 {
            x if x < draws => Value::Draw,
            x if x % 2 == 0 => Value::Win,
            _ => Value::Loss,
        }
    }

    /// With made-up unit values (wins, losses and draws in several mixes), the split's
    /// bounds with every unit known are the plain minimax, and solving only what
    /// [`Split::next`] asks for, in its order, ends with the same value proven: the units
    /// passed over never mattered. Each unit answers only the question [`Split::ask`] asks
    /// (or, for odd salts, gives its value, as a search whose table settled it does), so a
    /// unit may be asked twice. For [`Goal::EveryFirstCell`], every first placement's
    /// value is proven too, each its own minimax.
    #[test]
    fn passing_over_units_never_changes_the_root_value() {
        for (seed, after, depth) in [(1, 0, 1), (1, 0, 2), (2, 0, 2), (3, 6, 2), (4, 10, 3)] {
            let record = Record::random(seed, after).unwrap();
            let split = Split::new(record.clone(), depth).unwrap();
            for salt in 0..24 {
                let draws = salt % 4 * 3;
                let leaf = |m: &[Cell]| made_up(m, salt, draws);
                let expected = minimax(&record, depth, &mut Vec::new(), &leaf);
                let all: Vec<Bounds> = (0..split.len())
                    .map(|i| {
                        let v = leaf(split.unit_moves(i));
                        (v, v)
                    })
                    .collect();
                assert_eq!(split.root_bounds(&all), (expected, expected));
                for goal in [Goal::Root, Goal::EveryFirstCell] {
                    let mut values = vec![UNKNOWN; split.len()];
                    let skip = vec![false; split.len()];
                    let mut solved = 0;
                    while let Some(i) = split.next(&values, &skip, goal) {
                        let ask = split
                            .ask(i, &values, goal)
                            .expect("the next unit is needed");
                        assert_eq!(ask.known, values[i]);
                        let (lo, hi) = ask.known;
                        assert!(lo < ask.at_least && ask.at_least <= hi, "{ask:?}");
                        let value = all[i].0;
                        values[i] = if salt % 2 == 1 {
                            all[i]
                        } else {
                            ask.answered(value >= ask.at_least)
                        };
                        assert!(values[i].0 <= value && value <= values[i].1);
                        solved += 1;
                    }
                    let what = format!(
                        "seed {seed} after {after} depth {depth} salt {salt} {goal:?}: {solved} of {} solved",
                        split.len()
                    );
                    assert_eq!(split.root_bounds(&values), (expected, expected), "{what}");
                    assert_eq!(split.needed_count(&values, goal), 0, "{what}");
                    if goal == Goal::EveryFirstCell {
                        for (cell, bounds, _) in split.first_cells(&values) {
                            let v = minimax(&record, depth - 1, &mut vec![cell], &leaf).flip();
                            assert_eq!(bounds, (v, v), "{what}: first cell {cell}");
                        }
                    }
                }
            }
        }
    }

    /// The plain cost of proving `moves`' position worth at least (`at_least`) or at most
    /// `target` for its side to move, from full minimax values: the cheapest child held to
    /// the opposite bound, or every child; decided positions and bounds nothing can break
    /// cost nothing, a leaf its `cost`. `None` if the bound does not hold.
    fn plain_bound_cost(
        record: &Record,
        depth: u32,
        moves: &mut Vec<Cell>,
        leaf: &dyn Fn(&[Cell]) -> Value,
        cost: &dyn Fn(&[Cell]) -> u64,
        target: Value,
        at_least: bool,
    ) -> Option<u64> {
        if (at_least && target == Value::Loss) || (!at_least && target == Value::Win) {
            return Some(0);
        }
        let value = minimax(record, depth, moves, leaf);
        if (at_least && value < target) || (!at_least && value > target) {
            return None;
        }
        let mut r = record.clone();
        for &c in moves.iter() {
            r.play(c).unwrap();
        }
        if r.position().outcome().is_some() {
            return Some(0);
        }
        if depth == 0 {
            return Some(cost(moves));
        }
        let mut costs = Vec::new();
        for cell in r.position().legal_cells(record.layout()) {
            moves.push(cell);
            costs.push(plain_bound_cost(
                record,
                depth - 1,
                moves,
                leaf,
                cost,
                target.flip(),
                !at_least,
            ));
            moves.pop();
        }
        if at_least {
            costs.into_iter().flatten().min()
        } else {
            costs.into_iter().sum()
        }
    }

    /// With every unit solved (made-up values and nodes), the split's proof cost is the
    /// plain one (a draw's between the larger of its two halves' plain costs and their sum:
    /// they may share units), and its units alone prove the root's value; with only the
    /// units [`Split::next`] asks for, a proof is there exactly when the plain one is, and
    /// never cheaper than the dearer half (the cheapest proof may lie among units passed
    /// over).
    #[test]
    fn the_proof_costs_the_cheapest_units_that_prove_the_value() {
        // The last two end games inside the split: decided positions cost nothing.
        let (mut drawn_roots, mut bounded_needs) = (0, 0);
        for (seed, after, depth) in [(1, 0, 2), (3, 6, 2), (4, 10, 3), (1, 22, 2), (1, 20, 3)] {
            let record = Record::random(seed, after).unwrap();
            let split = Split::new(record.clone(), depth).unwrap();
            for salt in 0..12 {
                let draws = salt % 3 * 2;
                let leaf = |m: &[Cell]| made_up(m, salt, draws);
                let cost = |m: &[Cell]| {
                    use std::hash::{Hash, Hasher};
                    let mut h = std::collections::hash_map::DefaultHasher::new();
                    (salt, m, "nodes").hash(&mut h);
                    1 + h.finish() % 1000
                };
                let all: Vec<Bounds> = (0..split.len())
                    .map(|i| {
                        let v = leaf(split.unit_moves(i));
                        (v, v)
                    })
                    .collect();
                let nodes: Vec<u64> = (0..split.len())
                    .map(|i| cost(split.unit_moves(i)))
                    .collect();
                let value = minimax(&record, depth, &mut Vec::new(), &leaf);
                let half = |target, at_least| {
                    plain_bound_cost(
                        &record,
                        depth,
                        &mut Vec::new(),
                        &leaf,
                        &cost,
                        target,
                        at_least,
                    )
                    .expect("the value's bounds hold")
                };
                // The plain cost's range: (least, most).
                let (least, most) = match value {
                    Value::Win => (half(Value::Win, true), half(Value::Win, true)),
                    Value::Loss => (half(Value::Loss, false), half(Value::Loss, false)),
                    Value::Draw => {
                        drawn_roots += 1;
                        let (a, b) = (half(Value::Draw, true), half(Value::Draw, false));
                        (a.max(b), a + b)
                    }
                };
                let what = format!("seed {seed} after {after} depth {depth} salt {salt}");
                let (n, units) = split
                    .proof_units(0, &all, &nodes)
                    .unwrap_or_else(|| panic!("{what}: no proof"));
                assert!(
                    least <= n && n <= most,
                    "{what}: {n} not in {least}..={most}"
                );
                assert_eq!(split.proof_nodes(0, &all, &nodes), Some(n), "{what}");
                // The proof's units are what it costs, and alone, each known only as far as
                // its proof must show (a bound the unit's value keeps), they prove the root.
                assert_eq!(
                    n,
                    units.iter().map(|&(i, _)| nodes[i]).sum::<u64>(),
                    "{what}"
                );
                let mut only = vec![UNKNOWN; split.len()];
                for &(i, (lo, hi)) in &units {
                    assert!(all[i].0 >= lo && all[i].1 <= hi, "{what}: unit {i}");
                    assert!((lo, hi) != UNKNOWN, "{what}: unit {i} shows nothing");
                    only[i] = (lo, hi);
                }
                assert_eq!(split.root_bounds(&only), (value, value), "{what}");
                let bounded = units.iter().filter(|&&(_, (lo, hi))| lo != hi).count();
                assert!(value == Value::Draw || bounded == 0, "{what}");
                bounded_needs += bounded;
                let mut values = vec![UNKNOWN; split.len()];
                let skip = vec![false; split.len()];
                while let Some(i) = split.next(&values, &skip, Goal::Root) {
                    let ask = split.ask(i, &values, Goal::Root).unwrap();
                    values[i] = ask.answered(all[i].0 >= ask.at_least);
                }
                let found = split.proof_nodes(0, &values, &nodes);
                assert!(
                    found.is_some_and(|f| f >= least),
                    "{what}: {found:?} {least}"
                );
            }
        }
        assert!(drawn_roots > 0, "some made-up roots are draws");
        assert!(
            bounded_needs > 0,
            "some drawn roots' proofs need only a bound of a unit"
        );
    }

    /// The shipped split (`data/kamon-units/seed1.json`) reads, every result checked, and
    /// writes back as it is: the summary it holds is the one its results prove.
    #[test]
    fn the_shipped_split_reads_and_writes_back_unchanged() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../data/kamon-units/seed1.json"
        );
        let text = std::fs::read_to_string(path).unwrap();
        let (mut file, split) = UnitsFile::parse(&text, path).unwrap();
        assert_eq!(file.units.len(), text.matches("\"moves\"").count());
        assert_eq!(file.to_text(&split).trim_end(), text.trim_end());
    }

    /// A file that is not JSON, of another version, or with a unit twice or a forged
    /// winner is refused with a line naming the file and what is wrong.
    #[test]
    fn damaged_and_forged_files_are_refused() {
        let split = Split::new(Record::random(3, 12).unwrap(), 1).unwrap();
        let mut file = UnitsFile::new(&split);
        let result = UnitResult {
            time_limit: Some(1.0),
            ..unit_result(&split, 0, None)
        };
        file.add(&split, result.clone(), "new").unwrap();
        let text = file.to_text(&split);
        let (read, read_split) = UnitsFile::parse(&text, "f.json").unwrap();
        assert_eq!(read.units, file.units);
        assert_eq!(read.summary(&read_split), file.summary(&split));
        let refused = |text: &str| match UnitsFile::parse(text, "f.json") {
            Err(e) => e.to_string(),
            Ok(_) => panic!("read: {text}"),
        };
        assert!(refused(&text[..text.len() / 2]).starts_with("f.json: not a units results file: "));
        let old = text.replace(FORMAT, "kamisado kamon units 0");
        assert!(refused(&old).contains("of this version"));
        let forged = text.replace(
            "\"time_limit\": 1.0",
            "\"value\": \"win\", \"winner\": \"nobody\"",
        );
        assert!(
            refused(&forged).contains("as the value says"),
            "{}",
            refused(&forged)
        );
        let both = text.replace(
            "\"time_limit\": 1.0",
            "\"interrupted\": true, \"abandoned\": true",
        );
        assert!(refused(&both).ends_with("both interrupted and abandoned"));
        let abandoned_with_a_value = text.replace(
            "\"time_limit\": 1.0",
            "\"value\": \"win\", \"winner\": \"white\", \"abandoned\": true",
        );
        assert!(refused(&abandoned_with_a_value).contains("abandoned before"));
        let mut twice = file.clone();
        twice.units.push(result);
        assert!(refused(&twice.to_text(&split)).ends_with("is there twice"));
    }

    /// A unit that answered one question holds a bound ("at most a draw", "at least a
    /// draw"), which the file keeps, counts as bounded and reads back; an answer to the
    /// other question makes the value; an answer that contradicts it is refused, and so is
    /// a bound that is not a draw, two bounds that make a value, or a bound beside a value.
    #[test]
    fn a_bound_is_an_answer_and_two_answers_make_a_value() {
        let split = Split::new(Record::random(1, 0).unwrap(), 2).unwrap();
        let result =
            |value: Option<&str>, at_least: Option<&str>, at_most: Option<&str>| UnitResult {
                at_least: at_least.map(str::to_string),
                at_most: at_most.map(str::to_string),
                nodes: 10,
                seconds: 1.0,
                ..unit_result(&split, 0, value.and_then(Value::from_name))
            };
        let mut file = UnitsFile::new(&split);
        file.add(&split, result(None, None, Some("draw")), "one")
            .unwrap();
        assert_eq!(file.unit_bounds(&split)[0], (Value::Loss, Value::Draw));
        let text = file.to_text(&split);
        let (read, read_split) = UnitsFile::parse(&text, "f.json").unwrap();
        assert_eq!(read.units, file.units);
        let summary = read.summary(&read_split);
        assert_eq!((summary.units_solved, summary.units_bounded), (0, 1));
        assert_eq!(summary.units_unsolved, 0);

        // A later search that ran out of its time limit keeps the bound and, counting
        // more nodes, replaces the record; an older one with fewer nodes does not.
        let mut timed_out = result(None, None, None);
        timed_out.time_limit = Some(1.0);
        let mut later = file.clone();
        later
            .add(
                &split,
                UnitResult {
                    nodes: 20,
                    ..timed_out.clone()
                },
                "later",
            )
            .unwrap();
        assert_eq!(later.units[0].nodes, 20);
        assert_eq!(later.unit_bounds(&split)[0], (Value::Loss, Value::Draw));
        let mut older = file.clone();
        older
            .add(
                &split,
                UnitResult {
                    nodes: 3,
                    ..timed_out
                },
                "older",
            )
            .unwrap();
        assert_eq!(older.units, file.units);

        let error = file
            .clone()
            .add(&split, result(Some("win"), None, None), "two")
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("is a win for black, and at most a draw"),
            "{error}"
        );
        let mut both = file.clone();
        both.add(&split, result(None, Some("draw"), None), "two")
            .unwrap();
        assert_eq!(both.units.len(), 1);
        assert_eq!(both.units[0].value.as_deref(), Some("draw"));
        assert_eq!(both.units[0].winner.as_deref(), Some("draw"));
        assert_eq!(both.unit_bounds(&split)[0], (Value::Draw, Value::Draw));
        // A solved unit stays solved.
        both.add(&split, result(None, None, Some("draw")), "three")
            .unwrap();
        assert_eq!(both.units[0].value.as_deref(), Some("draw"));

        let refused = |text: String| match UnitsFile::parse(&text, "f.json") {
            Err(e) => e.to_string(),
            Ok(_) => panic!("read: {text}"),
        };
        let bound = "\"at_most\": \"draw\"";
        assert!(refused(text.replace(bound, "\"at_most\": \"win\"")).contains("is not draw"));
        assert!(refused(text.replace(bound, "\"at_most\": \"loss\"")).contains("is not draw"));
        assert!(
            refused(text.replace(bound, "\"at_most\": \"draw\", \"at_least\": \"draw\""))
                .contains("that is `value` draw")
        );
        assert!(refused(text.replace(
            bound,
            "\"at_most\": \"draw\", \"value\": \"loss\", \"winner\": \"white\""
        ))
        .contains("both a `value` and a bound"));
    }

    /// The units are every legal line of `depth` placements, each once.
    #[test]
    fn the_units_are_the_positions_at_the_depth() {
        let record = Record::random(5, 0).unwrap();
        for depth in 1..=2 {
            let split = Split::new(record.clone(), depth).unwrap();
            let count = kamon_core::perft::perft(record.layout(), record.position(), depth);
            assert_eq!(split.len() as u64, count);
            let mut lines: Vec<&[Cell]> = (0..split.len()).map(|i| split.unit_moves(i)).collect();
            lines.sort();
            lines.dedup();
            assert_eq!(lines.len(), split.len());
        }
    }
}
