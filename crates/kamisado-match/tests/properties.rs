//! Properties over many random positions: the single round is the core's game, the text
//! and the keys are exact, the symmetries keep perft, move generation agrees with the move
//! checker, and playing keeps the rules' invariants.

mod common;

use std::collections::HashMap;

use kamisado_core::perft::Counting;
use kamisado_match::{
    perft, EndReason, MatchPosition, Move, Refill, Side, Square, Symmetry, Target, Tower,
};
use proptest::prelude::*;

use common::{is_push, random_crowded, random_match, random_ranked, sample};

#[test]
fn a_single_round_counts_exactly_as_the_core() {
    let core = kamisado_core::Position::start();
    let start = MatchPosition::start(Target::Single);
    for depth in 0..=5 {
        assert_eq!(
            perft::perft(&start, depth),
            kamisado_core::perft::perft(&core, depth, Counting::PositiveMoves),
            "depth {depth}"
        );
    }
    let mut rng = fastrand::Rng::with_seed(7);
    let mut checked = 0;
    while checked < 300 {
        let mut pos = core;
        for _ in 0..rng.usize(0..30) {
            if pos.is_over() {
                break;
            }
            let moves = pos.legal_moves();
            pos = pos.play_unchecked(moves[rng.usize(..moves.len())]);
        }
        if pos.is_over() {
            continue;
        }
        // The core's text is a match text of the single round.
        let m: MatchPosition = pos.to_string().parse().unwrap();
        assert_eq!(m.to_string(), pos.to_string());
        let mut ours = perft::divide(&m, 3);
        let mut theirs = kamisado_core::perft::divide(&pos, 3, Counting::PositiveMoves);
        ours.sort();
        theirs.sort();
        assert_eq!(ours, theirs, "{pos}");
        checked += 1;
    }
}

#[test]
fn a_finished_single_round_ends_as_the_core_says() {
    // Random single rounds played in both: the same moves, the same end, and the winner's
    // tower of the core's rule gains the one point.
    let mut rng = fastrand::Rng::with_seed(11);
    for _ in 0..300 {
        let mut core = kamisado_core::Position::start();
        let mut ours = MatchPosition::start(Target::Single);
        while !core.is_over() {
            let mut a: Vec<Move> = core.legal_moves().to_vec();
            let mut b: Vec<Move> = ours.legal_moves().to_vec();
            a.sort();
            b.sort();
            assert_eq!(a, b, "{core}");
            let m = a[rng.usize(..a.len())];
            core = core.play_unchecked(m);
            ours = ours.play_unchecked(m);
        }
        assert_eq!(ours.round_end().map(|e| e.game_end()), core.end());
        assert_eq!(ours.match_winner(), core.end().map(|e| e.winner));
        assert_eq!(ours.score(!core.end().unwrap().winner), 0);
    }
}

/// The text reads back as the same position, except that after a deadlock right after a
/// push the text cannot name the promoted tower: the reading promotes the winner's tower of
/// the active colour, and everything else is the same.
fn check_round_trip(pos: &MatchPosition) {
    let text = pos.to_string();
    let back: MatchPosition = text
        .parse()
        .unwrap_or_else(|e| panic!("`{text}` does not read back: {e}"));
    assert_eq!(back.to_string(), text);
    match (pos.round_end(), back.round_end()) {
        (Some(ours), Some(read)) if ours != read => {
            assert_eq!(ours.reason, kamisado_match::EndReason::Deadlock, "{text}");
            assert_eq!(
                (ours.winner, read.winner),
                (pos.turn(), pos.turn()),
                "{text}"
            );
            assert_eq!(read.promoted, pos.active_tower().unwrap(), "{text}");
            assert_eq!(back.board(), pos.board());
        }
        _ => assert_eq!(back, *pos, "{text}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 24,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn the_position_text_round_trips(seed in any::<u64>(), target in 0..4usize) {
        let mut rng = fastrand::Rng::with_seed(seed);
        for pos in random_match(&mut rng, Target::ALL[target]) {
            check_round_trip(&pos);
        }
        for _ in 0..20 {
            check_round_trip(&random_ranked(&mut rng));
            let crowded = random_crowded(&mut rng);
            check_round_trip(&crowded);
            // And every position one move on, pushes and their deadlocks included.
            for m in crowded.legal_moves() {
                check_round_trip(&crowded.play_unchecked(m));
            }
        }
    }

    #[test]
    fn symmetric_positions_have_equal_perft_and_canonical_keys(seed in any::<u64>()) {
        let mut rng = fastrand::Rng::with_seed(seed);
        let target = Target::ALL[rng.usize(1..4)];
        let mut positions = random_match(&mut rng, target);
        rng.shuffle(&mut positions);
        positions.truncate(6);
        positions.extend((0..6).map(|_| random_ranked(&mut rng)));
        positions.extend((0..6).map(|_| random_crowded(&mut rng)));
        for pos in positions {
            let counts = perft::perft(&pos, 3);
            let (round_key, to_round) = pos.canonical_round_key();
            let (match_key, to_match) = pos.canonical_match_key();
            prop_assert_eq!(pos.transformed(to_round).round_key(), round_key);
            prop_assert_eq!(pos.transformed(to_match).match_key(), match_key);
            for sym in Symmetry::ALL {
                let image = pos.transformed(sym);
                prop_assert_eq!(image.transformed(sym), pos);
                prop_assert_eq!(perft::perft(&image, 3), counts, "{} through {:?}", pos, sym);
                prop_assert_eq!(image.canonical_round_key().0, round_key);
                prop_assert_eq!(image.canonical_match_key().0, match_key);
                // Moves map move for move.
                let mut mapped: Vec<Move> =
                    pos.legal_moves().iter().map(|&m| sym.apply_move(m)).collect();
                let mut direct: Vec<Move> = image.legal_moves().to_vec();
                mapped.sort();
                direct.sort();
                prop_assert_eq!(mapped, direct);
                // So does the refill, left and right swapped by a mirror.
                for choice in pos.refill_choices() {
                    prop_assert_eq!(
                        image.refill(choice.transformed(sym)).unwrap(),
                        pos.refill(*choice).unwrap().transformed(sym)
                    );
                }
            }
        }
    }
}

#[test]
fn keys_are_exact_and_decode() {
    let positions = sample(3, 8, 400);
    let mut by_match_key: HashMap<[u64; 3], MatchPosition> = HashMap::new();
    let mut by_round_key: HashMap<[u64; 3], MatchPosition> = HashMap::new();
    for pos in &positions {
        let key = pos.match_key();
        assert_ne!(key, [0; 3]);
        if let Some(other) = by_match_key.insert(key, *pos) {
            assert_eq!(other, *pos);
        }
        // Positions that differ only in their target share a round key.
        if let Some(other) = by_round_key.insert(pos.round_key(), *pos) {
            assert_eq!(
                other.to_string().split(' ').take(3).collect::<Vec<_>>(),
                pos.to_string().split(' ').take(3).collect::<Vec<_>>()
            );
        }
        assert_eq!(MatchPosition::from_match_key(key), Ok(*pos));
        assert_eq!(
            MatchPosition::from_round_key(pos.round_key(), pos.target()),
            Ok(*pos)
        );
        let (canonical, sym) = pos.canonical_match_key();
        assert_eq!(
            MatchPosition::from_match_key(canonical),
            Ok(pos.transformed(sym))
        );
    }
    assert!(MatchPosition::from_match_key([u64::MAX; 3]).is_err());
}

#[test]
fn legal_moves_are_exactly_the_moves_the_checker_accepts() {
    for pos in sample(5, 4, 300) {
        let legal = pos.legal_moves();
        assert_eq!(pos.count_moves(), legal.len(), "{pos}");
        for from in Square::all() {
            for to in Square::all() {
                let m = Move::new(from, to);
                assert_eq!(
                    pos.is_legal(m),
                    legal.contains(&m),
                    "{pos} {m}: {:?}",
                    pos.check_move(m)
                );
            }
        }
        // A winning move is offered exactly when a legal move reaches the goal row.
        let wins: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| !m.is_zero_length() && m.to().is_goal_for(pos.turn()))
            .collect();
        match pos.winning_move() {
            Some(m) => assert!(wins.contains(&m), "{pos}"),
            None => assert!(wins.is_empty(), "{pos}"),
        }
    }
}

#[test]
fn playing_keeps_the_rules_invariants() {
    let mut pushes = 0;
    let mut push_deadlocks = 0;
    for pos in sample(9, 8, 10_000) {
        for m in pos.legal_moves() {
            let next = pos.play_unchecked(m);
            let mover = pos.turn();
            if is_push(&pos, m) {
                pushes += 1;
                // Straight ahead, one square, and every pushed tower was the opponent's and
                // not on its home row (there would be nothing behind it).
                assert_eq!(m.distance(), 1);
                assert_eq!(m.from().file(), m.to().file());
                let mut sq = m.to();
                while pos.board().occupied().contains(sq) {
                    let pushed = pos.board().tower_at(sq).unwrap();
                    assert_eq!(pushed.side, !mover);
                    assert!(pos.rank(pushed) < pos.rank(pos.board().tower_at(m.from()).unwrap()));
                    assert_ne!(sq.rank(), (!mover).home_rank(), "{pos} {m}");
                    let to = next.board().square_of(pushed);
                    assert_eq!((to.file(), to.rank().abs_diff(sq.rank())), (sq.file(), 1));
                    sq = to;
                }
                // A push never wins on the goal row by itself.
                assert_ne!(next.round_end().map(|e| e.reason), Some(EndReason::Goal));
                if next.round_end().is_some() {
                    push_deadlocks += 1;
                }
            }
            // Ranks change only when the round ends: exactly one tower of the winner gains
            // exactly one rank, the one the end names: the goal tower, or after a deadlock
            // the winner's tower of the colour of the square the losing move ended on
            // (after a push, the pusher's new square, the move's to-square).
            let gained: Vec<(Tower, u8)> = Tower::all()
                .filter(|&t| next.rank(t) != pos.rank(t))
                .map(|t| (t, next.rank(t) - pos.rank(t)))
                .collect();
            match next.round_end() {
                None => assert!(gained.is_empty()),
                Some(end) => {
                    let promoted = end.promoted;
                    assert_eq!(gained, [(promoted, 1)], "{pos} {m}");
                    assert_eq!(promoted.side, end.winner);
                    assert_eq!(next.round_number(), pos.round_number());
                    if end.reason == EndReason::Goal {
                        assert_eq!(end.winner, mover);
                        assert_eq!(next.board().square_of(promoted), m.to());
                    } else {
                        assert_eq!(end.winner, !mover);
                        assert_eq!(promoted.colour, m.to().colour());
                    }
                }
            }
            // The turn passes, or stays after a push or a zero-length chain, and the
            // position is resolved.
            assert!(next.round_end().is_some() || !next.must_pass());
        }
        if let Some(end) = pos.round_end().filter(|_| !pos.is_match_over()) {
            for choice in Refill::ALL {
                let next = pos.refill(choice).unwrap();
                assert_eq!((next.turn(), next.active()), (!end.winner, None));
                assert_eq!(next.round_number(), pos.round_number() + 1);
                for side in Side::ALL {
                    assert_eq!(next.ranks(side), pos.ranks(side));
                    assert!(next
                        .board()
                        .squares(side)
                        .iter()
                        .all(|sq| sq.rank() == side.home_rank()));
                }
            }
        }
    }
    // The sample is not vacuous.
    assert!(pushes > 1000, "only {pushes} pushes");
    eprintln!("{pushes} pushes, {push_deadlocks} of them deadlocking");
}

#[test]
fn deadlocks_right_after_a_push() {
    // Rare (about one crowded position in 20 000 has one), so searched for. The pusher
    // loses; the winner's tower of the colour of the pusher's new square gains the rank;
    // the text reads back as the same deadlock won by the same player; the keys are exact;
    // every symmetric image ends the same way.
    let mut rng = fastrand::Rng::with_seed(13);
    let mut found = 0;
    for _ in 0..1_000_000 {
        let pos = random_crowded(&mut rng);
        for m in pos.legal_moves() {
            if !is_push(&pos, m) {
                continue;
            }
            let next = pos.play_unchecked(m);
            let Some(end) = next.round_end() else {
                continue;
            };
            found += 1;
            assert_eq!((end.winner, end.reason), (!pos.turn(), EndReason::Deadlock));
            assert_eq!(end.promoted, Tower::new(!pos.turn(), m.to().colour()));
            assert_eq!(
                next.score(end.winner),
                pos.score(end.winner) + (1 << pos.rank(end.promoted))
            );
            check_round_trip(&next);
            assert_eq!(MatchPosition::from_match_key(next.match_key()), Ok(next));
            for sym in Symmetry::ALL {
                let image = pos.transformed(sym).play_unchecked(sym.apply_move(m));
                assert_eq!(image, next.transformed(sym));
            }
        }
        if found >= 12 {
            return;
        }
    }
    panic!("only {found} deadlocks right after a push found");
}

#[test]
fn a_round_without_sumos_is_the_cores_single_round() {
    // Every Sumo-free position of random matches (rounds 1 of every target, finished rounds,
    // positions in the middle of a chain one zero-length move on) converts to the core's
    // position with the same text, the same moves, the same end and the same pending
    // zero-length moves, and converts back; a position with a Sumo does not convert.
    let (mut converted, mut refused) = (0, 0);
    for pos in sample(21, 24, 200) {
        let mut cases = vec![pos];
        if let Some(m) = pos.legal_moves().first() {
            cases.push(pos.step_unchecked(*m));
        }
        for pos in cases {
            let Some(core) = pos.single_round() else {
                assert!(pos.has_sumo(), "{pos}");
                refused += 1;
                continue;
            };
            assert!(!pos.has_sumo());
            converted += 1;
            let text = pos.to_string();
            let core_text = core.to_string();
            assert!(text.starts_with(&core_text), "{text} vs {core_text}");
            assert_eq!(core.turn(), pos.turn());
            assert_eq!(core.active(), pos.active());
            assert_eq!(core.end(), pos.round_end().map(|e| e.game_end()), "{text}");
            let mut a: Vec<Move> = core.legal_moves().to_vec();
            let mut b: Vec<Move> = pos.legal_moves().to_vec();
            a.sort();
            b.sort();
            assert_eq!(a, b, "{text}");
            assert_eq!(
                core.pending_zero_moves().to_vec(),
                pos.pending_zero_moves(),
                "{text}"
            );
            let back = MatchPosition::from_single_round(&core, pos.target());
            assert_eq!(back.to_string(), text);
            if !pos.is_round_over() {
                assert_eq!(back, pos, "{text}");
            }
            for &m in pos.legal_moves().iter().take(3) {
                assert_eq!(
                    pos.play_unchecked(m).single_round(),
                    Some(core.play_unchecked(m)),
                    "{text} {m}"
                );
            }
        }
    }
    assert!(converted > 500 && refused > 100, "{converted} {refused}");
}

#[test]
fn a_move_stepped_then_resolved_is_the_move_played() {
    // `step_unchecked` stops before the zero-length moves a move causes; resolving them
    // gives `play_unchecked`'s position, pushes and deadlocks included, and the chain
    // listed is the one the position plays.
    let mut pushes = 0;
    for pos in sample(5, 16, 400) {
        for m in pos.legal_moves() {
            let stepped = pos.step_unchecked(m);
            assert_eq!(stepped.resolve(), pos.play_unchecked(m), "{pos} {m}");
            let mut walked = stepped;
            for z in stepped.pending_zero_moves() {
                assert!(z.is_zero_length());
                assert_eq!(walked.forced_zero_move(), Some(z));
                walked = walked.step_zero_length(z);
            }
            assert_eq!(walked, stepped.resolve());
            if is_push(&pos, m) {
                pushes += 1;
                // The skipped turn: the pusher moves again (unless the round ended).
                if !stepped.is_round_over() {
                    assert_eq!(stepped.turn(), pos.turn(), "{pos} {m}");
                }
            }
        }
    }
    assert!(pushes > 100, "{pushes}");
}

#[test]
fn records_with_written_zero_length_moves_read_as_the_cores_move_lists() {
    // Random single rounds written with every zero-length move spelt out: the match record
    // reads them as the core's `play_line` does, to the same end; a zero-length move that
    // is not the forced one is refused by both.
    let mut rng = fastrand::Rng::with_seed(17);
    let mut written_zero = 0;
    for _ in 0..300 {
        let mut core = kamisado_core::Position::start();
        let mut words = Vec::new();
        while !core.is_over() {
            let moves = core.legal_moves();
            let m = moves[rng.usize(..moves.len())];
            words.push(m.to_string());
            let stepped = core.step_unchecked(m);
            for z in stepped.pending_zero_moves() {
                words.push(z.to_string());
                written_zero += 1;
            }
            core = core.play_unchecked(m);
        }
        let text = words.join(" ");
        let line =
            kamisado_core::notation::play_line(&kamisado_core::Position::start(), &text).unwrap();
        let record =
            kamisado_match::MatchRecord::parse(MatchPosition::start(Target::Single), &text)
                .unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(record.rounds()[0].moves, line.moves);
        assert_eq!(record.current().single_round(), Some(line.end), "{text}");
    }
    assert!(written_zero > 20, "{written_zero}");
    let refused =
        kamisado_match::MatchRecord::parse(MatchPosition::start(Target::Single), "h1-h7 c8-c8");
    assert!(refused.is_err());
}
