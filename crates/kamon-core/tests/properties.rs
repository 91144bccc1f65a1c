//! Property tests: the bitboard rules against a slow, per-cell implementation written here
//! from KAMON-RULES.md alone (cells by name, neighbours from row lengths, breadth-first
//! searches, chips compared as text), plus perft under the board's symmetries and text
//! round trips.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use kamisado_solver::{Game, WinInOne};
use kamon_core::perft::{divide, perft};
use kamon_core::{
    geometry, Bitboard, Cell, Chip, EndReason, KamonGame, Layout, Player, Position, Record,
};
use proptest::prelude::*;

/// The slow rules: everything by cell name.
mod slow {
    use super::*;

    pub const ROW_LENGTHS: [usize; 7] = [4, 5, 6, 7, 6, 5, 4];
    pub const SIDES: [&str; 6] = [
        "a1 a2 a3 a4", // top
        "g1 g2 g3 g4", // bottom
        "a1 b1 c1 d1", // upper left
        "d7 e6 f5 g4", // lower right
        "a4 b5 c6 d7", // upper right
        "d1 e1 f1 g1", // lower left
    ];
    /// Opposite sides, as indices into SIDES.
    pub const PAIRS: [(usize, usize); 3] = [(0, 1), (2, 3), (4, 5)];
    pub const OPENING: &str = "a2 a3 b1 c1 e1 f1 b5 c6 e6 f5 g2 g3";

    pub type Name = String;

    pub fn name(row: usize, number: usize) -> Name {
        format!("{}{}", (b'a' + row as u8) as char, number)
    }

    pub fn all() -> Vec<Name> {
        (0..7)
            .flat_map(|r| (1..=ROW_LENGTHS[r]).map(move |n| name(r, n)))
            .collect()
    }

    fn parse(name: &str) -> (usize, usize) {
        let row = (name.as_bytes()[0] - b'a') as usize;
        (row, name[1..].parse().unwrap())
    }

    /// Same row: left and right. Next row longer than this one: the same number and one
    /// more; shorter: one less and the same number.
    pub fn neighbours(cell: &str) -> Vec<Name> {
        let (r, n) = parse(cell);
        let mut out = Vec::new();
        let mut push = |row: usize, number: usize| {
            if number >= 1 && number <= ROW_LENGTHS[row] {
                out.push(name(row, number));
            }
        };
        push(r, n - 1);
        push(r, n + 1);
        for other in [r.wrapping_sub(1), r + 1] {
            if other < 7 {
                if ROW_LENGTHS[other] > ROW_LENGTHS[r] {
                    push(other, n);
                    push(other, n + 1);
                } else {
                    push(other, n - 1);
                    push(other, n);
                }
            }
        }
        out
    }

    pub fn edge() -> BTreeSet<Name> {
        SIDES
            .iter()
            .flat_map(|s| s.split_whitespace().map(str::to_owned))
            .collect()
    }

    fn reach(from: &BTreeSet<Name>, within: &BTreeSet<Name>) -> BTreeSet<Name> {
        let mut seen: BTreeSet<Name> = from.intersection(within).cloned().collect();
        let mut queue: VecDeque<Name> = seen.iter().cloned().collect();
        while let Some(c) = queue.pop_front() {
            for n in neighbours(&c) {
                if within.contains(&n) && seen.insert(n.clone()) {
                    queue.push_back(n);
                }
            }
        }
        seen
    }

    pub fn connection(pieces: &BTreeSet<Name>) -> bool {
        pieces.iter().any(|start| {
            let chain = reach(&BTreeSet::from([start.clone()]), pieces);
            let touches = |side: usize| SIDES[side].split_whitespace().any(|c| chain.contains(c));
            PAIRS.iter().any(|&(a, b)| touches(a) && touches(b))
        })
    }

    pub fn enclosed(pieces: &BTreeSet<Name>) -> BTreeSet<Name> {
        let open: BTreeSet<Name> = all().into_iter().filter(|c| !pieces.contains(c)).collect();
        let out = reach(&edge(), &open);
        open.difference(&out).cloned().collect()
    }

    /// Whether the player to move has a placement that wins at once.
    pub fn wins_at_once(game: &Game) -> bool {
        game.legal().iter().any(|c| {
            let mut child = game.clone();
            child.play(c);
            matches!(child.end, Some((_, Some(w))) if w == game.turn())
        })
    }

    /// A game by the rules page, chips as text.
    #[derive(Clone)]
    pub struct Game {
        pub chips: BTreeMap<Name, String>,
        pub pieces: [BTreeSet<Name>; 2],
        pub last: Option<Name>,
        pub end: Option<(EndReason, Option<usize>)>,
    }

    impl Game {
        pub fn new(layout_text: &str) -> Game {
            let mut chips = BTreeMap::new();
            for (row, text) in layout_text.split('/').enumerate() {
                let chars: Vec<char> = text.chars().collect();
                for (i, pair) in chars.chunks(2).enumerate() {
                    chips.insert(name(row, i + 1), pair.iter().collect());
                }
            }
            Game {
                chips,
                pieces: [BTreeSet::new(), BTreeSet::new()],
                last: None,
                end: None,
            }
        }

        fn placed(&self) -> usize {
            self.pieces[0].len() + self.pieces[1].len()
        }

        pub fn turn(&self) -> usize {
            self.placed() % 2
        }

        pub fn legal(&self) -> BTreeSet<Name> {
            if self.end.is_some() {
                return BTreeSet::new();
            }
            let free = |c: &Name| {
                self.chips[c] != "--" && !self.pieces[0].contains(c) && !self.pieces[1].contains(c)
            };
            match &self.last {
                None => OPENING
                    .split_whitespace()
                    .map(str::to_owned)
                    .filter(free)
                    .collect(),
                Some(top) => {
                    let top: Vec<char> = self.chips[top].chars().collect();
                    self.chips
                        .iter()
                        .filter(|(c, chip)| {
                            let chip: Vec<char> = chip.chars().collect();
                            free(c) && (chip[0] == top[0] || chip[1] == top[1])
                        })
                        .map(|(c, _)| c.clone())
                        .collect()
                }
            }
        }

        pub fn play(&mut self, cell: &str) {
            let mover = self.turn();
            self.pieces[mover].insert(cell.to_owned());
            self.last = Some(cell.to_owned());
            let mine = &self.pieces[mover];
            self.end = if connection(mine) {
                Some((EndReason::Connection, Some(mover)))
            } else if !enclosed(mine).is_empty() {
                Some((EndReason::Loop, Some(mover)))
            } else if self.placed() == 36 {
                Some((EndReason::FullBoard, None))
            } else if self.legal().is_empty() {
                Some((EndReason::NoLegalCell, Some(mover)))
            } else {
                None
            };
        }

        pub fn perft(&self, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            self.legal()
                .iter()
                .map(|c| {
                    let mut child = self.clone();
                    child.play(c);
                    child.perft(depth - 1)
                })
                .sum()
        }
    }
}

fn names(set: Bitboard) -> BTreeSet<String> {
    set.map(|c| c.to_string()).collect()
}

fn bitboard(names: &BTreeSet<String>) -> Bitboard {
    names.iter().map(|n| n.parse::<Cell>().unwrap()).collect()
}

/// A random set of cells: each cell in it when its draw is below `density`.
fn cell_set() -> impl Strategy<Value = BTreeSet<String>> {
    (0u32..=100, prop::collection::vec(0u32..100, 37)).prop_map(|(density, draws)| {
        slow::all()
            .into_iter()
            .zip(draws)
            .filter(|&(_, d)| d < density)
            .map(|(c, _)| c)
            .collect()
    })
}

/// A random game: a layout seed and the choice at each placement.
fn game() -> impl Strategy<Value = (u64, Vec<usize>)> {
    (any::<u64>(), prop::collection::vec(any::<usize>(), 36))
}

#[test]
fn slow_geometry_agrees_with_the_rules_page() {
    let all = slow::all();
    assert_eq!(all.len(), 37);
    let mut d4 = slow::neighbours("d4");
    d4.sort();
    assert_eq!(d4, ["c3", "c4", "d3", "d5", "e3", "e4"]);
    let mut a1 = slow::neighbours("a1");
    a1.sort();
    assert_eq!(a1, ["a2", "b1", "b2"]);
    for c in &all {
        for n in slow::neighbours(c) {
            assert!(slow::neighbours(&n).contains(c), "{c} {n}");
        }
        assert_eq!(
            slow::edge().contains(c),
            slow::neighbours(c).len() < 6,
            "{c}"
        );
    }
}

proptest! {
    #[test]
    fn neighbours_and_shapes_agree_with_the_slow_search(set in cell_set()) {
        let bb = bitboard(&set);
        let slow_neighbours: BTreeSet<String> = set
            .iter()
            .flat_map(|c| slow::neighbours(c))
            .collect();
        prop_assert_eq!(names(geometry::neighbours(bb)), slow_neighbours);
        prop_assert_eq!(geometry::has_connection(bb), slow::connection(&set));
        prop_assert_eq!(names(geometry::enclosed(bb)), slow::enclosed(&set));
        prop_assert_eq!(geometry::has_loop(bb), !slow::enclosed(&set).is_empty());
    }

    #[test]
    fn random_games_agree_with_the_slow_rules((seed, choices) in game()) {
        let layout = Layout::random(seed);
        let mut slow = slow::Game::new(&layout.to_string());
        let mut pos = Position::start(&layout);
        let mut node = KamonGame::new(layout.clone()).start();
        let mut record = Record::new(layout.clone());
        let (mut checked_loss, mut checked_win) = (false, false);
        for choice in choices {
            let legal = pos.legal_cells(&layout);
            prop_assert_eq!(names(legal), slow.legal());
            prop_assert_eq!(pos.count_moves(&layout), legal.count());
            for cell in Cell::ALL {
                // The reasons a move is refused agree with the one-AND legal set.
                prop_assert_eq!(pos.check_move(&layout, cell).is_ok(), legal.contains(cell));
            }
            prop_assert_eq!(pos.turn().index(), slow.turn());
            prop_assert_eq!(Position::from_key(&layout, pos.key()), Ok(pos));
            prop_assert_eq!(Position::from_setup(&layout, pos.to_setup()), Ok(pos));

            // The immediate win, if any, agrees with playing every legal cell.
            let wins: Vec<Cell> = legal
                .filter(|&c| {
                    let mut child = slow.clone();
                    child.play(&c.to_string());
                    matches!(child.end, Some((_, Some(w))) if w == slow.turn())
                })
                .collect();
            match pos.winning_move(&layout) {
                Some(c) => prop_assert!(wins.contains(&c), "{c} does not win"),
                None => prop_assert!(wins.is_empty(), "missed {wins:?}"),
            }
            // The solver's view: a truthful "no win in one", and the length of a draw.
            let game = KamonGame::new(layout.clone());
            // The node carried along the game knows what a fresh one works out.
            prop_assert_eq!(node, game.node(&pos));
            match game.win_in_one(&node) {
                WinInOne::Wins(c) => prop_assert!(wins.contains(&c), "{c} does not win"),
                WinInOne::No => prop_assert!(wins.is_empty(), "missed {wins:?}"),
                WinInOne::NotChecked => prop_assert!(false, "Kamon always checks"),
                // The slow check of a forced result costs a few hundred slow placements:
                // the first of each kind in a game.
                WinInOne::LosesInTwo if !checked_loss => {
                    checked_loss = true;
                    prop_assert!(wins.is_empty() && !legal.is_empty());
                    for c in slow.legal() {
                        let mut child = slow.clone();
                        child.play(&c);
                        prop_assert!(child.end.is_none(), "{c} ends the game");
                        prop_assert!(slow::wins_at_once(&child), "after {c} the opponent cannot win at once");
                    }
                }
                WinInOne::WinsInThree(c) if !checked_win => {
                    checked_win = true;
                    prop_assert!(wins.is_empty() && legal.contains(c));
                    let mut child = slow.clone();
                    child.play(&c.to_string());
                    prop_assert!(child.end.is_none() && !slow::wins_at_once(&child), "{c}");
                    for d in child.legal() {
                        let mut grandchild = child.clone();
                        grandchild.play(&d);
                        prop_assert!(grandchild.end.is_none(), "{c} {d} ends the game");
                        prop_assert!(slow::wins_at_once(&grandchild), "no win after {c} {d}");
                    }
                }
                WinInOne::LosesInTwo | WinInOne::WinsInThree(_) => prop_assert!(wins.is_empty()),
            }
            prop_assert_eq!(game.drawn_length(&node) as usize, 36 - slow.pieces[0].len() - slow.pieces[1].len());

            // Threats: the free cells where a player's piece would make a shape, whatever
            // the stack says.
            if slow.end.is_none() {
                for player in Player::ALL {
                    let own = &slow.pieces[player.index()];
                    let expected: BTreeSet<String> = slow::all()
                        .into_iter()
                        .filter(|c| {
                            slow.chips[c] != "--"
                                && !slow.pieces[0].contains(c)
                                && !slow.pieces[1].contains(c)
                        })
                        .filter(|c| {
                            let mut with = own.clone();
                            with.insert(c.clone());
                            slow::connection(&with) || !slow::enclosed(&with).is_empty()
                        })
                        .collect();
                    prop_assert_eq!(names(pos.threats(player)), expected);
                }
            }

            if legal.is_empty() {
                break;
            }
            let cell = { legal }.nth(choice % legal.count() as usize).unwrap();
            pos = pos.play(&layout, cell).unwrap();
            node = KamonGame::new(layout.clone()).play(&node, cell);
            record.play(cell).unwrap();
            slow.play(&cell.to_string());
            let end = pos.end().map(|e| (e.reason, e.winner.map(|w| w.index())));
            prop_assert_eq!(end, slow.end);
        }
        prop_assert!(pos.is_over());
        prop_assert_eq!(Position::from_key(&layout, pos.key()), Ok(pos));
        prop_assert_eq!(record.position(), &pos);
        let text = record.to_string();
        let again: Record = text.parse().unwrap();
        prop_assert_eq!(&again, &record);
        prop_assert_eq!(again.to_string(), text);
    }

    #[test]
    fn layout_text_round_trips(seed in any::<u64>()) {
        let layout = Layout::random(seed);
        prop_assert_eq!(Layout::new(layout.chips()), Ok(layout.clone()));
        let text = layout.to_string();
        prop_assert_eq!(text.len(), 2 * 37 + 6);
        prop_assert_eq!(text.parse::<Layout>(), Ok(layout.clone()));
        prop_assert_eq!(layout.chip(layout.forbidden()), Chip::FIRST_PLAYER);
    }
}

/// The twelve symmetries of the hexagon, as maps of cell names, built from cube
/// coordinates centred on d4.
fn symmetries() -> Vec<BTreeMap<String, String>> {
    const ROW_START: [i32; 7] = [3, 2, 1, 0, 0, 0, 0];
    let to_cube = |name: &str| {
        let row = (name.as_bytes()[0] - b'a') as i32;
        let number: i32 = name[1..].parse().unwrap();
        let x = ROW_START[row as usize] + number - 1 - 3;
        let z = row - 3;
        (x, -x - z, z)
    };
    let from_cube = |(x, _y, z): (i32, i32, i32)| {
        let row = z + 3;
        slow::name(row as usize, (x + 3 - ROW_START[row as usize] + 1) as usize)
    };
    let rotate = |(x, y, z): (i32, i32, i32)| (-z, -x, -y);
    let reflect = |(x, y, z): (i32, i32, i32)| (x, z, y);
    let mut maps = Vec::new();
    for mirrored in [false, true] {
        for turns in 0..6 {
            let map: BTreeMap<String, String> = slow::all()
                .into_iter()
                .map(|c| {
                    let mut p = to_cube(&c);
                    if mirrored {
                        p = reflect(p);
                    }
                    for _ in 0..turns {
                        p = rotate(p);
                    }
                    (c, from_cube(p))
                })
                .collect();
            maps.push(map);
        }
    }
    maps
}

#[test]
fn symmetries_are_symmetries() {
    let maps = symmetries();
    let distinct: BTreeSet<Vec<String>> =
        maps.iter().map(|m| m.values().cloned().collect()).collect();
    assert_eq!(distinct.len(), 12);
    for map in &maps {
        let image: BTreeSet<&String> = map.values().collect();
        assert_eq!(image.len(), 37);
        for (c, image) in map {
            let mut expected: Vec<String> =
                slow::neighbours(c).iter().map(|n| map[n].clone()).collect();
            let mut found = slow::neighbours(image);
            expected.sort();
            found.sort();
            assert_eq!(found, expected);
        }
    }
}

fn transformed(layout: &Layout, map: &BTreeMap<String, String>) -> Layout {
    let mut chips = [Chip::FIRST_PLAYER; 37];
    for cell in Cell::ALL {
        let image: Cell = map[&cell.to_string()].parse().unwrap();
        chips[image.index()] = layout.chip(cell);
    }
    Layout::new(chips).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn perft_agrees_with_the_slow_rules_and_the_symmetries(seed in any::<u64>()) {
        let layout = Layout::random(seed);
        let start = Position::start(&layout);
        let slow_start = slow::Game::new(&layout.to_string());
        for depth in 0..=3 {
            prop_assert_eq!(perft(&layout, &start, depth), slow_start.perft(depth));
        }
        let depth = 5;
        let total = perft(&layout, &start, depth);
        let parts = divide(&layout, &start, depth);
        prop_assert_eq!(parts.iter().map(|&(_, n)| n).sum::<u64>(), total);
        for map in symmetries() {
            let image = transformed(&layout, &map);
            let image_start = Position::start(&image);
            prop_assert_eq!(perft(&image, &image_start, depth), total);
            // Each opening's count moves with its cell.
            let image_parts: BTreeMap<String, u64> = divide(&image, &image_start, depth)
                .into_iter()
                .map(|(c, n)| (c.to_string(), n))
                .collect();
            for &(cell, n) in &parts {
                prop_assert_eq!(image_parts[&map[&cell.to_string()]], n);
            }
        }
    }
}
