//! Random positions for the property tests: whole matches played at random (every position
//! reachable), and single-round positions given random ranks (pushes in crowded middle
//! games, which random matches reach only now and then).

#![allow(dead_code)]

use kamisado_match::{MatchPosition, MatchSetup, Refill, Side, Target, Tower};

/// Every position of one match played at random from the start, refill choices included,
/// until the match ends.
pub fn random_match(rng: &mut fastrand::Rng, target: Target) -> Vec<MatchPosition> {
    let mut pos = MatchPosition::start(target);
    let mut seen = vec![pos];
    while !pos.is_match_over() {
        pos = if pos.is_round_over() {
            pos.refill(Refill::ALL[rng.usize(..2)]).unwrap()
        } else {
            let moves = pos.legal_moves();
            pos.play_unchecked(moves[rng.usize(..moves.len())])
        };
        seen.push(pos);
    }
    seen
}

/// A position of a single round reached by random play, unfinished, with random ranks
/// that the target allows (each below its limit, each score below the target). One in
/// three is given a free move instead of its active colour, so that every Sumo of the side
/// to move may push: a legal position, if not one play reaches in the middle of a round.
pub fn random_ranked(rng: &mut fastrand::Rng) -> MatchPosition {
    loop {
        let target = Target::ALL[rng.usize(1..4)];
        let mut pos = kamisado_core::Position::start();
        let length = rng.usize(4..40);
        for _ in 0..length {
            if pos.is_over() {
                break;
            }
            let moves = pos.legal_moves();
            pos = pos.play_unchecked(moves[rng.usize(..moves.len())]);
        }
        if pos.is_over() {
            continue;
        }
        let mut round = pos.to_setup();
        if rng.usize(..3) == 0 {
            round.active = None;
        }
        let mut setup = MatchSetup {
            round,
            ranks: [[0; 8]; 2],
            target,
        };
        for tower in Tower::all() {
            if rng.usize(..4) != 0 {
                setup.set_rank(tower, rng.u8(0..=target.max_rank()));
            }
        }
        for side in Side::ALL {
            let score = |s: &MatchSetup| -> u32 {
                s.ranks[side.index()].iter().map(|&r| (1u32 << r) - 1).sum()
            };
            while score(&setup) >= target.points() {
                let colour = kamisado_match::Colour::ALL[rng.usize(..8)];
                let tower = Tower::new(side, colour);
                setup.set_rank(tower, setup.rank(tower).saturating_sub(1));
            }
        }
        match MatchPosition::from_setup(setup) {
            Ok(pos) => return pos,
            // A free move for a side whose towers are all blocked.
            Err(kamisado_match::MatchPositionError::Round(
                kamisado_match::PositionError::NoTowerCanMove(_),
            )) if setup.round.active.is_none() => continue,
            Err(e) => panic!("random ranks on {pos}: {e}"),
        }
    }
}

/// A legal position with the sixteen towers set on random squares (none on its goal row),
/// random ranks the target allows, and a random side, active colour or free move: far more
/// towers face each other than in play, so pushes of every length are common.
pub fn random_crowded(rng: &mut fastrand::Rng) -> MatchPosition {
    loop {
        let target = Target::ALL[rng.usize(1..4)];
        let turn = Side::ALL[rng.usize(..2)];
        let active = rng
            .bool()
            .then(|| kamisado_match::Colour::ALL[rng.usize(..8)]);
        let mut setup = MatchSetup {
            round: kamisado_core::Setup::empty(turn, active),
            ranks: [[0; 8]; 2],
            target,
        };
        let mut free: Vec<u8> = (0..64).collect();
        rng.shuffle(&mut free);
        for tower in Tower::all() {
            let at = free
                .iter()
                .position(|&i| kamisado_match::Square::new(i).rank() != tower.side.goal_rank())
                .unwrap();
            setup
                .round
                .place(tower, kamisado_match::Square::new(free.remove(at)));
        }
        for tower in Tower::all() {
            setup.set_rank(tower, rng.u8(0..=target.max_rank()));
        }
        for side in Side::ALL {
            let score = |s: &MatchSetup| -> u32 {
                s.ranks[side.index()].iter().map(|&r| (1u32 << r) - 1).sum()
            };
            while score(&setup) >= target.points() {
                let tower = Tower::new(side, kamisado_match::Colour::ALL[rng.usize(..8)]);
                setup.set_rank(tower, setup.rank(tower).saturating_sub(1));
            }
        }
        // Many draws name an active colour no last move could have named; try again.
        if let Ok(pos) = MatchPosition::from_setup(setup) {
            return pos;
        }
    }
}

/// A mixed sample: `matches` random matches (of every target), and `others` random ranked
/// and as many random crowded positions.
pub fn sample(seed: u64, matches: usize, others: usize) -> Vec<MatchPosition> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut out = Vec::new();
    for i in 0..matches {
        out.extend(random_match(&mut rng, Target::ALL[i % 4]));
    }
    for _ in 0..others {
        out.push(random_ranked(&mut rng));
        out.push(random_crowded(&mut rng));
    }
    out
}

/// Whether a legal move is a push (a move of positive length onto an occupied square).
pub fn is_push(pos: &MatchPosition, m: kamisado_match::Move) -> bool {
    !m.is_zero_length() && pos.board().occupied().contains(m.to())
}
