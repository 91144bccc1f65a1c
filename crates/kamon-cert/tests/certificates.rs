//! Proofs of Kamon values, checked; and the checker refusing proofs that are wrong.

use kamisado_solver::{Cancel, Options, Solver};
use kamon_cert::{check, prove, CheckFailure, Claim, Entry, Kind};
use kamon_core::{KamonGame, Layout, Outcome, Position, Record};

fn solver(layout: &Layout) -> Solver<KamonGame> {
    Solver::new(
        KamonGame::new(layout.clone()),
        Options {
            threads: 1,
            table_bytes: 16 << 20,
        },
    )
    .unwrap()
}

/// Positions `placements` random placements into the layouts of a few seeds.
/// A certificate of `pos`'s value by `solver`.
fn value_proof(solver: &Solver<KamonGame>, pos: Position) -> kamon_cert::Certificate {
    prove(
        solver,
        &[pos],
        kamon_cert::Aim::Value,
        &Cancel::new(),
        &mut |_| {},
    )
    .unwrap()
}

fn positions(seeds: std::ops::Range<u64>, placements: u32) -> Vec<(Layout, Position)> {
    seeds
        .filter_map(|seed| Record::random(seed, placements))
        .map(|r| (r.layout().clone(), *r.position()))
        .collect()
}

#[test]
fn proofs_check_and_claim_the_solver_values() {
    let mut values = [0; 3];
    for (layout, pos) in positions(0..40, 16) {
        let solver = solver(&layout);
        let cert = value_proof(&solver, pos);
        let verified = check(&cert).unwrap_or_else(|e| panic!("{layout}: {e}"));
        assert_eq!(verified.claims.len(), 1);
        let claim = verified.claims[0];
        assert_eq!(claim.position, pos);
        let fresh = solver
            .value(&solver.game().node(&pos), &Cancel::new())
            .unwrap();
        assert_eq!(format!("{:?}", claim.low), format!("{fresh:?}"));
        values[claim.low as usize] += 1;
        // The file round-trips.
        let again = kamon_cert::Certificate::decode(&cert.encode()).unwrap();
        assert_eq!(again, cert);
    }
    // Wins and losses both turn up (draws are rare this early).
    assert!(
        values[Outcome::Win as usize] > 5 && values[Outcome::Loss as usize] > 5,
        "{values:?}"
    );
}

#[test]
fn draws_are_proved_by_both_halves() {
    // Late positions, where full boards are near: some are draws.
    let mut draws = 0;
    for (layout, pos) in positions(0..400, 26) {
        let solver = solver(&layout);
        let value = solver
            .value(&solver.game().node(&pos), &Cancel::new())
            .unwrap();
        if value != kamisado_solver::Value::Draw {
            continue;
        }
        draws += 1;
        let cert = value_proof(&solver, pos);
        assert_eq!(check(&cert).unwrap().claims[0].low, Outcome::Draw);
        // A draw claimed as a win or a loss is refused.
        for wrong in [Outcome::Win, Outcome::Loss] {
            let mut forged = cert.clone();
            forged.claims[0] = kamon_cert::Claim::value(forged.claims[0].position, wrong);
            assert!(
                matches!(check(&forged), Err(CheckFailure::Claim { .. })),
                "{wrong:?}"
            );
        }
        if draws == 5 {
            break;
        }
    }
    assert!(draws >= 3, "only {draws} drawn positions found");
}

#[test]
fn forged_proofs_are_refused() {
    let mut forged_checked = 0;
    for (layout, pos) in positions(100..130, 18) {
        let solver = solver(&layout);
        let cert = value_proof(&solver, pos);
        check(&cert).unwrap();
        // The opposite claim fails.
        let mut flipped = cert.clone();
        flipped.claims[0] =
            kamon_cert::Claim::value(flipped.claims[0].position, cert.claims[0].low.flip());
        if flipped.claims[0].low != cert.claims[0].low {
            assert!(check(&flipped).is_err(), "{layout}");
        }
        // Every entry is needed: dropping any one breaks the proof.
        for i in 0..cert.entries.len().min(25) {
            let mut dropped = cert.clone();
            dropped.entries.remove(i);
            assert!(
                check(&dropped).is_err(),
                "{layout}: entry {i} was not needed"
            );
            forged_checked += 1;
        }
        // A "wins" entry naming another placement than the prover's is refused unless
        // that placement wins too; a claim about a position with no proof is refused.
        for (i, e) in cert.entries.iter().enumerate() {
            if e.kind() != Kind::Wins {
                continue;
            }
            let here = Position::from_key(&layout, e.key()).unwrap();
            for cell in here.legal_cells(&layout) {
                if Some(cell) == e.placement().unwrap() {
                    continue;
                }
                let mut other = cert.clone();
                other.entries[i] = Entry::new(e.key(), Kind::Wins, Some(cell));
                other.entries.sort_unstable();
                let child = here.play(&layout, cell).unwrap();
                let child_value = solver
                    .value(&solver.game().node(&child), &Cancel::new())
                    .unwrap();
                if child_value != kamisado_solver::Value::Loss && check(&other).is_ok() {
                    panic!("{layout}: a non-winning placement {cell} was accepted");
                }
            }
            break;
        }
    }
    assert!(forged_checked > 50, "{forged_checked}");
    // A claim with no entries at all.
    let (layout, pos) = positions(7..8, 12).remove(0);
    let bare = kamon_cert::Certificate {
        version: kamon_cert::FORMAT_VERSION,
        layout,
        claims: vec![Claim::value(pos, Outcome::Win)],
        entries: vec![],
    };
    assert!(check(&bare).is_err());
}
