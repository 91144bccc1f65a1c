//! Certificates made by the prover and judged by the checker: every claim is the
//! solver's exact result, every damaged proof fails at the entry that is wrong.

use kamisado_cert::{check, prove, Certificate, CheckFailure, Claim, Entry, Kind};
use kamisado_core::{notation::play_line, Kamisado, Position};
use kamisado_solver::{Cancel, Options, Score, Solver, Value};

fn solver() -> Solver<Kamisado> {
    Solver::new(
        Kamisado,
        Options {
            threads: 1,
            table_bytes: 32 << 20,
        },
    )
    .unwrap()
}

fn certificate(positions: &[Position]) -> Certificate {
    prove(&solver(), positions, &Cancel::new(), &mut |_| {}).unwrap()
}

/// Positions of every phase: random games from the start, cut after 6 to 30 moves.
fn positions() -> Vec<Position> {
    let mut rng = fastrand::Rng::with_seed(14);
    let mut out = Vec::new();
    while out.len() < 40 {
        let plies = rng.usize(6..30);
        let mut pos = Position::start();
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play_unchecked(moves[rng.usize(..moves.len())]);
        }
        out.push(pos);
    }
    out
}

fn exact(pos: &Position) -> (Value, u32) {
    let s: Score = solver()
        .score(&Kamisado::root(pos), &Cancel::new())
        .unwrap();
    (s.value(), s.remoteness().unwrap())
}

#[test]
fn every_claim_is_the_solvers_result_and_checks() {
    let positions = positions();
    let cert = certificate(&positions);
    assert_eq!(cert.claims.len(), positions.len());
    let verified = check(&cert).unwrap();
    assert_eq!(verified.claims, cert.claims);
    for (pos, claim) in positions.iter().zip(&cert.claims) {
        assert_eq!(claim.position, Kamisado::root(pos));
        let (value, remoteness) = exact(pos);
        assert_eq!(claim.remoteness, remoteness, "{pos}");
        assert_eq!(claim.mover_wins(), value == Value::Win, "{pos}");
        // Each position alone gives a certificate of the same claim.
        let alone = certificate(&[*pos]);
        assert_eq!(alone.claims, vec![*claim]);
        check(&alone).unwrap();
    }
    // Finished games are claimed with remoteness 0 and need no entry.
    assert!(cert.claims.iter().any(|c| c.remoteness == 0));
}

/// A mid-game position whose proof has entries of every kind and moves after which the
/// same player moves again (a zero-length chain gives the turn back).
fn rich_certificate() -> Certificate {
    let pos = play_line(&Position::start(), "h1-h7 c8-c4 b1-b2 h8-d4")
        .unwrap()
        .end;
    certificate(&[pos])
}

#[test]
fn proofs_cross_moves_where_the_turn_does_not_pass() {
    let cert = rich_certificate();
    check(&cert).unwrap();
    let mut kinds = [0; 4];
    let mut kept_turn = 0;
    for e in &cert.entries {
        kinds[e.kind() as usize] += 1;
        let pos = Position::from_key(e.key()).unwrap();
        kept_turn += pos
            .legal_moves()
            .iter()
            .filter(|&&m| {
                let child = pos.play_unchecked(m);
                !child.is_over() && child.turn() == pos.turn()
            })
            .count();
    }
    assert!(kinds.iter().all(|&n| n > 0), "{kinds:?}");
    assert!(kept_turn > 0);
}

fn damaged(cert: &Certificate, index: usize, entry: Entry) -> Certificate {
    let mut entries = cert.entries.clone();
    entries[index] = entry;
    entries.sort_unstable();
    entries.dedup();
    Certificate {
        claims: cert.claims.clone(),
        entries,
    }
}

#[test]
fn a_changed_move_fails_where_it_no_longer_proves_its_statement() {
    let cert = rich_certificate();
    let mut failures = 0;
    for (index, &e) in cert.entries.iter().enumerate() {
        let Some(chosen) = e.chosen_move() else {
            continue;
        };
        let pos = Position::from_key(e.key()).unwrap();
        for m in pos.legal_moves() {
            if m == chosen {
                continue;
            }
            let changed = damaged(&cert, index, e.with_move(Some(m)));
            // Another move may prove the statement too; if not, the checker names this
            // very entry.
            if let Err(failure) = check(&changed) {
                failures += 1;
                let CheckFailure::Entry { position, .. } = &failure else {
                    panic!("{failure}")
                };
                assert_eq!(*position, pos.to_string(), "{failure}");
                assert!(
                    failure.to_string().contains(&format!("after {m}")),
                    "{failure}"
                );
            }
        }
        if failures > 20 {
            break;
        }
    }
    assert!(failures > 20);
}

#[test]
fn a_missing_entry_or_a_weaker_bound_fails() {
    let cert = rich_certificate();
    // Without the entries about the claim's own position, the claim is not proved.
    let root = cert.claims[0].position.canonical_key().0;
    let without_root = Certificate {
        claims: cert.claims.clone(),
        entries: cert
            .entries
            .iter()
            .copied()
            .filter(|e| e.key() != root)
            .collect(),
    };
    assert!(matches!(
        check(&without_root),
        Err(CheckFailure::Claim { index: 1, .. })
    ));
    // Every other entry is needed by some parent.
    let mut parents_fail = 0;
    for index in (0..cert.entries.len()).step_by(7) {
        if cert.entries[index].key() == root {
            continue;
        }
        let mut entries = cert.entries.clone();
        entries.remove(index);
        let fewer = Certificate {
            claims: cert.claims.clone(),
            entries,
        };
        assert!(check(&fewer).is_err(), "entry {index} is needed by nobody");
        parents_fail += 1;
    }
    assert!(parents_fail > 5);
    // A bound too tight for the truth fails at that entry.
    let (index, e) = cert
        .entries
        .iter()
        .enumerate()
        .find(|(_, e)| e.kind() == Kind::CannotWin && e.bound() > 6)
        .map(|(i, e)| (i, *e))
        .unwrap();
    let tighter = Entry::new(e.key(), e.kind(), e.bound() + 20, None);
    let failure = check(&damaged(&cert, index, tighter)).unwrap_err();
    assert!(matches!(failure, CheckFailure::Entry { .. }), "{failure}");
}

#[test]
fn a_claim_off_by_one_or_the_other_way_round_fails() {
    let cert = rich_certificate();
    let claim = cert.claims[0];
    for wrong in [
        Claim {
            remoteness: claim.remoteness - 1,
            ..claim
        },
        Claim {
            remoteness: claim.remoteness + 1,
            ..claim
        },
        Claim {
            winner: !claim.winner,
            ..claim
        },
    ] {
        let cert = Certificate {
            claims: vec![wrong],
            entries: cert.entries.clone(),
        };
        assert!(
            matches!(check(&cert), Err(CheckFailure::Claim { index: 1, .. })),
            "{wrong}"
        );
    }
}

#[test]
fn the_file_round_trips_and_still_checks() {
    let cert = rich_certificate();
    let bytes = cert.encode();
    assert_eq!(bytes.len(), 32 + 16 * (1 + cert.entries.len()));
    let back = Certificate::decode(&bytes).unwrap();
    assert_eq!(back, cert);
    check(&back).unwrap();
}
