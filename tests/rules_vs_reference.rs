//! The bitboard rules core against the naive reference (tests/reference), which shares no
//! code with it: move lists, positions after every move, game ends and perft, in both
//! counting conventions, from the start, from mid-game positions and from their
//! symmetric images.

use kamisado_core::perft::{divide, perft, Counting};
use kamisado_core::{Move, Position, Symmetry};
use reference::{random_position, RefPosition};

fn core(text: &str) -> Position {
    text.parse()
        .unwrap_or_else(|e| panic!("core refuses `{text}`: {e}"))
}

fn reference(pos: &Position) -> RefPosition {
    RefPosition::parse(&pos.to_string()).unwrap()
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

const BOTH: [(Counting, bool); 2] = [
    (Counting::PositiveMoves, false),
    (Counting::ZeroMovesAsPlies, true),
];

#[test]
fn perft_from_the_start_to_depth_5_in_both_conventions() {
    let start = Position::start();
    let naive = RefPosition::start();
    assert_eq!(start.to_string(), naive.to_text());
    for (counting, plies) in BOTH {
        for depth in 0..=5 {
            assert_eq!(
                perft(&start, depth, counting),
                reference::perft(&naive, depth, plies),
                "perft({depth}) {counting:?}"
            );
        }
    }
    // The figures RULES.md gives.
    assert_eq!(perft(&start, 1, Counting::PositiveMoves), 102);
    assert_eq!(perft(&start, 2, Counting::ZeroMovesAsPlies), 1150);
}

#[test]
fn divide_matches_move_by_move() {
    let pos = core("obu1yrgn/8/8/N7/8/3p4/8/1GRYPUBO b u");
    for (counting, plies) in BOTH {
        let mut fast: Vec<(String, u64)> = divide(&pos, 4, counting)
            .into_iter()
            .map(|(m, n)| (m.to_string(), n))
            .collect();
        fast.sort();
        let mut naive = reference::divide(&reference(&pos), 4, plies);
        naive.sort();
        assert_eq!(fast, naive);
    }
}

/// Mid-game positions of every phase, reached by the reference's own random games.
fn mid_game_positions() -> Vec<Position> {
    (0..120u64)
        .map(|seed| random_position(seed, (seed % 24) as u32 + 1))
        .map(|p| core(&p.to_text()))
        .collect()
}

#[test]
fn perft_on_mid_game_positions_and_their_images() {
    for (i, pos) in mid_game_positions().iter().enumerate().step_by(6) {
        for (counting, plies) in BOTH {
            let depth = 3;
            let n = perft(pos, depth, counting);
            assert_eq!(
                n,
                reference::perft(&reference(pos), depth, plies),
                "#{i} {pos}"
            );
            for sym in Symmetry::ALL {
                assert_eq!(
                    perft(&pos.transformed(sym), depth, counting),
                    n,
                    "#{i} {pos} {sym:?}"
                );
            }
        }
    }
}

#[test]
fn every_move_of_random_games_agrees() {
    let mut checked = 0;
    for seed in 0..300u64 {
        let mut pos = Position::start();
        let mut naive = RefPosition::start();
        let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        loop {
            assert_eq!(pos.to_string(), naive.to_text());
            assert_eq!(
                pos.end().map(|e| format!("{:?}{:?}", e.winner, e.reason)),
                naive
                    .game_end()
                    .map(|e| format!("{:?}{:?}", e.winner, e.reason))
            );
            let moves = sorted(pos.legal_moves().iter().map(Move::to_string).collect());
            assert_eq!(moves, sorted(naive.moves()), "{pos}");
            // Ply by ply, the other convention.
            assert_eq!(
                sorted(pos.legal_moves().iter().map(Move::to_string).collect()),
                sorted(naive.plies()),
                "{pos}"
            );
            if moves.is_empty() {
                break;
            }
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let m = &moves[(state % moves.len() as u64) as usize];
            let stepped = pos.step(m.parse().unwrap()).unwrap();
            assert_eq!(
                stepped.to_string(),
                naive.play_ply(m).unwrap().to_text(),
                "{pos} {m}"
            );
            pos = pos.play(m.parse().unwrap()).unwrap();
            naive = naive.play(m).unwrap();
            checked += 1;
        }
    }
    assert!(checked > 3000, "only {checked} moves checked");
}

#[test]
fn game_ends_and_zero_length_chains_are_met_in_random_games() {
    // The random games above must exercise the rare rules, or they prove little.
    let (mut deadlocks, mut chains) = (0, 0);
    for seed in 0..3000u64 {
        let p = random_position(seed, 200);
        let pos = core(&p.to_text());
        if pos
            .end()
            .is_some_and(|e| e.reason == kamisado_core::EndReason::Deadlock)
        {
            deadlocks += 1;
        }
        let mut q = Position::start();
        let mut naive = RefPosition::start();
        for step in 0..60u64 {
            let moves = q.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[((seed * 31 + step * 7) % moves.len() as u64) as usize];
            if !q.step_unchecked(m).pending_zero_moves().is_empty() {
                chains += 1;
            }
            q = q.play_unchecked(m);
            naive = naive.play(&m.to_string()).unwrap();
            assert_eq!(q.to_string(), naive.to_text());
        }
    }
    assert!(
        deadlocks > 0 && chains > 10,
        "deadlocks {deadlocks}, chains {chains}"
    );
}
