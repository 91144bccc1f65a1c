//! Certificates from the prover (`kamisado-cert`, which uses the solver) judged by the
//! crate's checker and by the naive reference's own checker (`reference::check_certificate`,
//! which parses the file from its documented layout and shares no code with the crates):
//! both accept the same files, both refuse the same damaged ones, and what they accept
//! claims what the reference's own minimax finds.

use kamisado_cert::{check, prove, Certificate, Claim, Entry};
use kamisado_core::{Kamisado, Position, Side};
use kamisado_solver::{Cancel, Options, Solver};
use reference::{check_certificate, minimax_within, random_position, RefCertError, RefPosition};

fn certificate(positions: &[Position]) -> Certificate {
    let solver = Solver::new(
        Kamisado,
        Options {
            threads: 1,
            table_bytes: 32 << 20,
        },
    )
    .unwrap();
    prove(&solver, positions, &Cancel::new(), &mut |_| {}).unwrap()
}

/// Whether both checkers accept the bytes (they must agree); the reference's claims
/// when they do.
fn judged_alike(bytes: &[u8]) -> Option<Vec<String>> {
    let ours = Certificate::decode(bytes).map(|c| check(&c).map(|v| v.claims));
    let theirs = check_certificate(bytes);
    match (&ours, &theirs) {
        (Ok(Ok(claims)), Ok(proved)) => {
            let texts: Vec<String> = claims.iter().map(claim_text).collect();
            assert_eq!(&texts, proved);
            Some(texts)
        }
        (Err(_), Err(RefCertError::Damaged(_))) => None,
        (Ok(Err(_)), Err(RefCertError::Fails(_))) => None,
        _ => panic!("the checkers disagree: crate {ours:?}, reference {theirs:?}"),
    }
}

/// A claim as the reference prints it.
fn claim_text(c: &Claim) -> String {
    let winner = match c.winner {
        Side::Black => "Black",
        Side::White => "White",
    };
    format!("{}: {winner} wins in {}", c.position, c.remoteness)
}

/// Random positions late enough in a game for the reference's minimax.
fn late_positions() -> Vec<(RefPosition, Position)> {
    (0..60)
        .map(|seed| random_position(seed, 14 + (seed % 12) as u32))
        .map(|r| {
            let text = r.to_text();
            (r, text.parse::<Position>().unwrap())
        })
        .collect()
}

#[test]
fn both_checkers_accept_certificates_that_claim_what_the_reference_finds() {
    let positions = late_positions();
    let mut compared = 0;
    for (r, pos) in &positions {
        let cert = certificate(&[*pos]);
        let claims = judged_alike(&cert.encode()).expect("a fresh certificate checks");
        assert_eq!(claims.len(), 1);
        if let Some((mover_wins, remoteness)) = minimax_within(r, 9) {
            let claim = cert.claims[0];
            assert_eq!(claim.remoteness, remoteness, "{}", r.to_text());
            assert_eq!(claim.mover_wins(), mover_wins, "{}", r.to_text());
            compared += 1;
        }
    }
    assert!(
        compared > 20,
        "only {compared} positions within the reference's reach"
    );
}

/// A certificate with a few dozen entries: small enough for the reference to check
/// many variants of it.
fn small_certificate() -> Certificate {
    (0..200)
        .map(|seed| random_position(seed, 8 + (seed % 6) as u32))
        .map(|r| certificate(&[r.to_text().parse::<Position>().unwrap()]))
        .find(|cert| (25..150).contains(&cert.entries.len()))
        .expect("a position with a proof of a few dozen entries")
}

/// The certificate's bytes with entry `index` replaced (or removed).
fn changed(cert: &Certificate, index: usize, entry: Option<Entry>) -> Vec<u8> {
    let mut entries = cert.entries.clone();
    match entry {
        Some(e) => entries[index] = e,
        None => {
            entries.remove(index);
        }
    }
    entries.sort_unstable();
    entries.dedup();
    Certificate {
        claims: cert.claims.clone(),
        entries,
    }
    .encode()
}

#[test]
fn both_checkers_judge_every_changed_move_bound_and_entry_alike() {
    let cert = small_certificate();
    assert!(judged_alike(&cert.encode()).is_some());
    let (mut accepted, mut refused) = (0, 0);
    for (index, &e) in cert.entries.iter().enumerate().step_by(3) {
        let pos = Position::from_key(e.key()).unwrap();
        let mut variants: Vec<Option<Entry>> = vec![None];
        if e.chosen_move().is_some() {
            let moves = pos.legal_moves();
            variants.extend(moves.iter().take(4).map(|&m| Some(e.with_move(Some(m)))));
        }
        for bound in [e.bound() - 1, e.bound() + 1, e.bound() + 6] {
            variants.push(Some(Entry::new(e.key(), e.kind(), bound, e.chosen_move())));
        }
        for variant in variants {
            match judged_alike(&changed(&cert, index, variant)) {
                Some(_) => accepted += 1,
                None => refused += 1,
            }
        }
    }
    assert!(
        accepted > 3 && refused > 3,
        "{accepted} accepted, {refused} refused"
    );
}

#[test]
fn a_flipped_move_fails_in_both_checkers() {
    let cert = small_certificate();
    let mut flipped = 0;
    for (index, &e) in cert.entries.iter().enumerate() {
        let Some(chosen) = e.chosen_move() else {
            continue;
        };
        let position = Position::from_key(e.key()).unwrap();
        for m in position.legal_moves().into_iter().filter(|&m| m != chosen) {
            let bytes = changed(&cert, index, Some(e.with_move(Some(m))));
            if check(&Certificate::decode(&bytes).unwrap()).is_err() {
                assert!(matches!(
                    check_certificate(&bytes),
                    Err(RefCertError::Fails(_))
                ));
                flipped += 1;
                break;
            }
        }
        if flipped == 3 {
            break;
        }
    }
    assert_eq!(flipped, 3);
}

#[test]
fn damaged_bytes_are_damaged_for_both() {
    let bytes = small_certificate().encode();
    for at in [0, 9, 13, 17, 25, 40, bytes.len() - 1] {
        let mut damaged = bytes.clone();
        damaged[at] ^= 0x10;
        assert!(Certificate::decode(&damaged).is_err(), "byte {at}");
        assert!(
            matches!(check_certificate(&damaged), Err(RefCertError::Damaged(_))),
            "byte {at}"
        );
    }
    assert!(matches!(
        check_certificate(&bytes[..bytes.len() - 16]),
        Err(RefCertError::Damaged(_))
    ));
}

#[test]
fn the_shipped_start_certificate_checks_in_both_checkers() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/certificates/start.kcert");
    let claims =
        judged_alike(&std::fs::read(path).unwrap()).expect("the shipped certificate checks");
    assert_eq!(
        claims,
        ["obupyrgn/8/8/8/8/8/8/NGRYPUBO b -: Black wins in 17"]
    );
}
