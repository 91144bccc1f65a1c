//! Checks of the match reference against restatements written differently from its main
//! code: legality by definition, board symmetries, agreement with the single-round
//! reference when there are no ranks, and what the random generator must deliver.

use std::collections::HashSet;
use std::sync::OnceLock;

use crate::board::{Colour, Square};
use crate::position::RefPosition;
use crate::random::random_position;

use super::*;

/// Positions of matches to every target, from several stages of push-heavy random play,
/// and one position with a legal push per walk where there is one. Built once: several
/// tests share it.
fn sample_positions() -> &'static [MatchPosition] {
    static SAMPLE: OnceLock<Vec<MatchPosition>> = OnceLock::new();
    SAMPLE.get_or_init(|| {
        let mut positions = Vec::new();
        for target in MATCH_TARGETS {
            for seed in 0..30u64 {
                for moves in [0, 1, 3, 6, 10, 15, 22, 40, 70] {
                    let seed = seed * 1_000 + u64::from(moves) * 7 + u64::from(target);
                    positions.push(random_match(seed, target, moves).unwrap());
                }
                if let Some(p) = random_push_position(seed, target, 60).unwrap() {
                    positions.push(p);
                }
            }
        }
        positions
    })
}

/// Is `from`-`to` a legal positive move of the side to move of `pos` (a state whose
/// chain is resolved), checked from the wording of the rules rather than by walking lines.
fn legal_by_definition(pos: &MatchPosition, from: Square, to: Square) -> bool {
    let Some(tower) = pos.tower_at(from) else {
        return false;
    };
    if tower.side != pos.side_to_move() || pos.active().is_some_and(|c| c != tower.colour) {
        return false;
    }
    let step = tower.side.forward_step();
    let forward = (to.rank as i32 - from.rank as i32) * step;
    let sideways = to.file as i32 - from.file as i32;
    if forward <= 0 || (sideways != 0 && sideways.abs() != forward) {
        return false;
    }
    let along = |n: i32| from.offset(sideways.signum() * n, step * n);
    // Ordinary: at most the table's number of squares, every square on the way empty.
    let range = [7, 5, 3, 1][tower.rank as usize];
    if forward <= range
        && (1..=forward).all(|n| along(n).is_some_and(|sq| pos.tower_at(sq).is_none()))
    {
        return true;
    }
    // Push: one square straight ahead onto a tower, and for some n up to the capacity the n
    // squares ahead hold opponent towers of lower rank with the square after them on the
    // board and empty.
    if sideways != 0 || forward != 1 {
        return false;
    }
    let straight = |n: i32| from.offset(0, step * n);
    (1..=tower.rank as i32).any(|n| {
        let pushable = (1..=n).all(|k| {
            straight(k)
                .and_then(|sq| pos.tower_at(sq))
                .is_some_and(|t| t.side != tower.side && t.rank < tower.rank)
        });
        let room_behind = straight(n + 1).is_some_and(|sq| pos.tower_at(sq).is_none());
        pushable && room_behind
    })
}

#[test]
fn move_generation_matches_the_definition() {
    let mut pushes = 0;
    for pos in sample_positions() {
        let Some(ready) = pos.resolved() else {
            assert!(pos.legal_moves().is_empty());
            continue;
        };
        let generated: HashSet<String> = pos.legal_moves().into_iter().collect();
        let mut defined = HashSet::new();
        for from in Square::all() {
            for to in Square::all() {
                if legal_by_definition(&ready, from, to) {
                    defined.insert(format!("{}-{}", from.name(), to.name()));
                    pushes += usize::from(ready.tower_at(to).is_some());
                }
            }
        }
        assert_eq!(generated, defined, "{}", pos.to_text());
    }
    assert!(pushes > 50, "the sample had only {pushes} pushes");
}

#[test]
fn text_round_trip_on_random_positions() {
    for pos in sample_positions() {
        let text = pos.to_text();
        assert_eq!(MatchPosition::parse(&text), Ok(pos.clone()), "{text}");
    }
}

/// Square (file, rank) -> (7 - file, 7 - rank), towers change owner, the other side to move.
fn half_turn(pos: &MatchPosition) -> MatchPosition {
    let mut turned = pos.clone();
    turned.board = [[None; 8]; 8];
    for sq in Square::all() {
        if let Some(tower) = pos.tower_at(sq) {
            turned.board[7 - sq.rank][7 - sq.file] = Some(MatchTower {
                side: tower.side.opponent(),
                ..tower
            });
        }
    }
    turned.side = pos.side.opponent();
    turned
}

/// The colour a square's colour becomes when files are mirrored (a <-> h).
fn mirror_colour(colour: Colour) -> Colour {
    match colour {
        Colour::Orange => Colour::Brown,
        Colour::Brown => Colour::Orange,
        Colour::Blue => Colour::Green,
        Colour::Green => Colour::Blue,
        Colour::Purple => Colour::Red,
        Colour::Red => Colour::Purple,
        Colour::Pink => Colour::Yellow,
        Colour::Yellow => Colour::Pink,
    }
}

/// Files mirrored, tower and active colours mapped like the square colours.
fn mirror_files(pos: &MatchPosition) -> MatchPosition {
    let mut mirrored = pos.clone();
    mirrored.board = [[None; 8]; 8];
    for sq in Square::all() {
        if let Some(tower) = pos.tower_at(sq) {
            mirrored.board[sq.rank][7 - sq.file] = Some(MatchTower {
                colour: mirror_colour(tower.colour),
                ..tower
            });
        }
    }
    mirrored.active = pos.active.map(mirror_colour);
    mirrored
}

#[test]
fn symmetries_keep_counts_and_round_ends() {
    for pos in sample_positions().iter().step_by(4) {
        let turned = half_turn(pos);
        let mirrored = mirror_files(pos);
        let n = pos.perft(2);
        assert_eq!(turned.perft(2), n, "{}", pos.to_text());
        assert_eq!(mirrored.perft(2), n, "{}", pos.to_text());
        let end = pos
            .round_end()
            .map(|e| (e.winner, e.reason, e.points, e.match_over));
        assert_eq!(
            turned
                .round_end()
                .map(|e| (e.winner.opponent(), e.reason, e.points, e.match_over)),
            end
        );
        assert_eq!(
            mirrored
                .round_end()
                .map(|e| (e.winner, e.reason, e.points, e.match_over)),
            end
        );
    }
}

#[test]
fn perft_is_the_sum_of_divide() {
    for pos in sample_positions().iter().step_by(12) {
        let total: u64 = pos.divide(3).iter().map(|(_, n)| n).sum();
        assert_eq!(total, pos.perft(3), "{}", pos.to_text());
        let text = pos.to_text();
        assert_eq!(match_perft(&text, 3), Ok(total));
        assert_eq!(match_divide(&text, 3), Ok(pos.divide(3)));
    }
}

#[test]
fn without_ranks_a_match_to_one_is_the_single_round() {
    // From the start: the counts of RULES.md, and the single-round reference's.
    let start = match_start(1).unwrap();
    assert_eq!(match_perft(&start, 1), Ok(102));
    assert_eq!(match_perft(&start, 2), Ok(1150));
    for depth in 0..=3 {
        assert_eq!(
            match_perft(&start, depth),
            Ok(crate::search::perft(&RefPosition::start(), depth, false)),
            "depth {depth}"
        );
    }
    // From random single-round positions: same moves, same positions after each move,
    // same game ends, same perft.
    for seed in 0..80u64 {
        for plies in [1, 4, 9, 16, 25, 40] {
            let single = random_position(seed * 53 + plies, plies as u32);
            let text = single.to_text();
            let matched = MatchPosition::parse(&text).unwrap();
            assert_eq!(matched.legal_moves(), single.moves(), "{text}");
            for mv in single.moves() {
                assert_eq!(
                    match_play(&text, &mv),
                    Ok(single.play(&mv).unwrap().to_text()),
                    "{text} {mv}"
                );
            }
            assert_eq!(
                matched.round_end().map(|e| (e.winner, e.reason)),
                single.game_end().map(|e| (e.winner, e.reason)),
                "{text}"
            );
            if let Some(end) = matched.round_end() {
                assert!(end.match_over, "{text}");
            }
            assert_eq!(
                matched.perft(3),
                crate::search::perft(&single, 3, false),
                "{text}"
            );
        }
    }
}

#[test]
fn random_positions_are_deterministic_and_push() {
    assert_eq!(random_match(5, 7, 20), random_match(5, 7, 20));
    assert_eq!(
        random_match_position(5, 7, 20),
        Ok(random_match(5, 7, 20).unwrap().to_text())
    );
    assert!(random_match(5, 4, 20).is_err());
    // Target 1 has no ranks, so no pushes.
    for seed in 0..30 {
        let p = random_match(seed, 1, 12).unwrap();
        assert_eq!(highest_rank_on_board(&p), 0);
        assert!(!has_legal_push(&p));
    }
    // (target, highest rank it allows, how many of 50 walks must meet a push at least): a
    // Standard match has at most two Sumos a side and ends when one wins, so fewer.
    for (target, highest, least_with_push) in [(3, 1, 10), (7, 2, 20), (15, 3, 30)] {
        let positions: Vec<MatchPosition> = (0..100)
            .map(|seed| random_match(seed, target, (seed % 30) as u32).unwrap())
            .collect();
        for rank in 1..=highest {
            assert!(
                positions.iter().any(|p| Square::all()
                    .into_iter()
                    .any(|sq| p.tower_at(sq).is_some_and(|t| t.rank == rank))),
                "target {target}: no tower of rank {rank}"
            );
        }
        assert!(positions
            .iter()
            .all(|p| highest_rank_on_board(p) <= highest));
        let distinct: HashSet<String> = positions.iter().map(|p| p.to_text()).collect();
        assert!(distinct.len() > 80, "target {target}");
        // The push generator finds positions with a legal push in many walks.
        let with_push: Vec<MatchPosition> = (0..50)
            .filter_map(|seed| random_push_position(seed, target, 100).unwrap())
            .collect();
        assert!(
            with_push.len() >= least_with_push,
            "target {target}: {} with a push",
            with_push.len()
        );
        assert!(with_push.iter().all(has_legal_push));
        // Pushes by Sumos of every rank the target allows.
        for rank in 1..=highest {
            assert!(
                with_push.iter().any(|p| {
                    p.children().iter().any(|(mv, _, _)| {
                        mv.push
                            && p.resolved()
                                .and_then(|r| r.tower_at(mv.from))
                                .map(|t| t.rank)
                                == Some(rank)
                    })
                }),
                "target {target}: no push by a Sumo of rank {rank}"
            );
        }
    }
    // Long random matches go through refills and end.
    let finished = (0..40)
        .filter(|&seed| {
            let p = random_match(seed, 3, 400).unwrap();
            p.round_end().is_some_and(|e| e.match_over)
        })
        .count();
    assert!(finished >= 30, "{finished} of 40 matches to 3 ended");
}
