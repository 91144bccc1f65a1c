//! Walk certificates: packed from certificates of entries, checked, and refused when
//! they are wrong; several units' certificates packed under a root they decide.

use kamisado_solver::{Cancel, Options, Solver, Value};
use kamon_cert::walk::WalkLimits;
use kamon_cert::{check, check_walk, pack, prove, Certificate, PackError, Proofs, WalkCertificate};
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

fn proof(layout: &Layout, positions: &[Position]) -> Certificate {
    proof_by(&solver(layout), positions)
}

fn proof_by(solver: &Solver<KamonGame>, positions: &[Position]) -> Certificate {
    prove(
        solver,
        positions,
        kamon_cert::Aim::Value,
        &Cancel::new(),
        &mut |_| {},
    )
    .unwrap()
}

fn proofs(certs: &[Certificate]) -> Proofs {
    let mut proofs = Proofs::default();
    for cert in certs {
        proofs.add(cert.clone()).unwrap();
    }
    proofs
}

fn walk_of(certs: &[Certificate], root: Option<&Position>) -> WalkCertificate {
    pack(proofs(certs), root, WalkLimits::default(), &mut |_| {})
        .unwrap()
        .certificate
}

fn checks(cert: &WalkCertificate) -> bool {
    check_walk(cert, WalkLimits::default(), &mut |_| {}).is_ok()
}

#[test]
fn packed_proofs_check_with_the_same_claims_and_are_much_smaller() {
    let mut values = [0; 3];
    let (mut entry_bytes, mut walk_bytes) = (0, 0);
    for seed in 0..30 {
        let Some(record) = Record::random(seed, 14) else {
            continue;
        };
        let (layout, pos) = (record.layout().clone(), *record.position());
        let cert = proof(&layout, &[pos]);
        let packed = pack(
            proofs(std::slice::from_ref(&cert)),
            None,
            WalkLimits::default(),
            &mut |_| {},
        )
        .unwrap();
        let walk = packed.certificate;
        assert_eq!(walk.claims, cert.claims);
        let verified = check_walk(&walk, WalkLimits::default(), &mut |_| {})
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        // The checker reads exactly what the packer wrote, through the same positions.
        assert_eq!(verified.counts, packed.counts);
        assert_eq!(verified.bits, packed.bits);
        assert!(verified.counts.choices <= cert.entries.len() as u64);
        let again = WalkCertificate::decode(&walk.encode()).unwrap();
        assert_eq!(again, walk);
        values[cert.claims[0].low as usize] += 1;
        entry_bytes += cert.encode().len();
        walk_bytes += walk.encode().len();
    }
    assert!(
        values[Outcome::Win as usize] > 3 && values[Outcome::Loss as usize] > 3,
        "{values:?}"
    );
    assert!(
        walk_bytes * 5 < entry_bytes,
        "{walk_bytes} against {entry_bytes}"
    );
}

#[test]
fn draws_pack_with_both_halves() {
    let mut draws = 0;
    for seed in 0..400 {
        let Some(record) = Record::random(seed, 26) else {
            continue;
        };
        let (layout, pos) = (record.layout().clone(), *record.position());
        let s = solver(&layout);
        if s.value(&s.game().node(&pos), &Cancel::new()).unwrap() != Value::Draw {
            continue;
        }
        let walk = walk_of(&[proof(&layout, &[pos])], None);
        assert_eq!(walk.claims[0].low, Outcome::Draw);
        assert!(checks(&walk));
        for wrong in [Outcome::Win, Outcome::Loss] {
            let mut forged = walk.clone();
            forged.claims[0] = kamon_cert::Claim::value(forged.claims[0].position, wrong);
            assert!(!checks(&forged), "a draw claimed as {wrong:?}");
        }
        draws += 1;
        if draws == 4 {
            break;
        }
    }
    assert!(draws >= 3, "only {draws} drawn positions found");
}

#[test]
fn forged_walks_are_refused() {
    let mut forged_checked = 0;
    for seed in 0..20 {
        let Some(record) = Record::random(seed, 14) else {
            continue;
        };
        let (layout, pos) = (record.layout().clone(), *record.position());
        let walk = walk_of(&[proof(&layout, &[pos])], None);
        // The opposite value is refused.
        let mut opposite = walk.clone();
        opposite.claims[0] =
            kamon_cert::Claim::value(opposite.claims[0].position, walk.claims[0].low.flip());
        assert!(!checks(&opposite));
        if walk.choices.is_empty() {
            continue;
        }
        // A stream cut short, or with a word too many, is refused.
        let mut short = walk.clone();
        short.choices.pop();
        assert!(!checks(&short));
        let mut long = walk.clone();
        long.choices.push(0);
        assert!(!checks(&long));
        // Every choice flipped: the walk fails, or reads another proof, whose claims
        // are then true (the checker is never fooled into a false claim).
        let mut flipped = walk.clone();
        for w in &mut flipped.choices {
            *w = !*w;
        }
        if let Ok(v) = check_walk(&flipped, WalkLimits::default(), &mut |_| {}) {
            assert_eq!(v.verified.claims, walk.claims);
        }
        forged_checked += 1;
    }
    assert!(forged_checked > 5);
}

#[test]
fn units_pack_into_the_proof_of_the_position_above_them() {
    // A position 16 placements in, split into its units two placements below: each
    // unit proved on its own, the walk claims the root's value.
    let mut roots = 0;
    let mut values = std::collections::BTreeSet::new();
    for seed in 0..12 {
        let Some(record) = Record::random(seed, 16) else {
            continue;
        };
        let (layout, root) = (record.layout().clone(), *record.position());
        let s = solver(&layout);
        let value = s.value(&s.game().node(&root), &Cancel::new()).unwrap();
        let mut certs = Vec::new();
        for a in root.legal_cells(&layout) {
            let after_a = root.play_unchecked(&layout, a);
            for b in after_a.legal_cells(&layout) {
                let unit = after_a.play_unchecked(&layout, b);
                if unit.is_over() {
                    continue;
                }
                certs.push(proof_by(&s, &[unit]));
            }
        }
        if certs.is_empty() {
            continue;
        }
        let walk = walk_of(&certs, Some(&root));
        assert_eq!(walk.claims.len(), 1);
        assert_eq!(walk.claims[0].position, root);
        assert_eq!(format!("{:?}", walk.claims[0].low), format!("{value:?}"));
        assert!(checks(&walk));
        // Without one unit of the proof's first placement, a win may lose its proof;
        // the packer either finds another or says the root is undecided, never more.
        let mut fewer = certs.clone();
        fewer.remove(0);
        match pack(
            proofs(&fewer),
            Some(&root),
            WalkLimits::default(),
            &mut |_| {},
        ) {
            Ok(p) => assert!(checks(&p.certificate)),
            Err(e) => assert!(
                matches!(e, PackError::Undecided | PackError::Missing { .. }),
                "{e}"
            ),
        }
        // The entries' own check agrees unit by unit.
        assert!(certs.iter().all(|c| check(c).is_ok()));
        values.insert(format!("{value:?}"));
        roots += 1;
    }
    assert!(roots >= 8, "{roots}");
    assert!(values.len() >= 2, "roots won and lost: {values:?}");
}

#[test]
fn a_walk_past_its_limit_is_refused() {
    let record = (0..20).find_map(|s| Record::random(s, 12)).unwrap();
    let (layout, pos) = (record.layout().clone(), *record.position());
    let walk = walk_of(&[proof(&layout, &[pos])], None);
    let limits = WalkLimits { positions: 3 };
    let e = check_walk(&walk, limits, &mut |_| {}).unwrap_err();
    assert!(e.to_string().contains("more than 3 positions"), "{e}");
}

#[test]
fn bad_bytes_are_refused_in_one_line() {
    let record = (0..20).find_map(|s| Record::random(s, 14)).unwrap();
    let (layout, pos) = (record.layout().clone(), *record.position());
    let bytes = walk_of(&[proof(&layout, &[pos])], None).encode();
    for cut in 0..bytes.len() {
        let e = WalkCertificate::decode(&bytes[..cut]).unwrap_err();
        assert!(!e.to_string().contains('\n'));
    }
    for at in 0..bytes.len() {
        let mut flipped = bytes.clone();
        flipped[at] ^= 4;
        assert!(WalkCertificate::decode(&flipped).is_err(), "byte {at}");
    }
    // A certificate of entries is not a walk certificate, and the other way round.
    let entries = proof(&layout, &[pos]).encode();
    assert!(WalkCertificate::decode(&entries).is_err());
    assert!(Certificate::decode(&bytes).is_err());
}

#[test]
fn a_root_below_the_claims_no_claims_or_too_many_positions_above_are_refused() {
    let record = (0..20).find_map(|s| Record::random(s, 14)).unwrap();
    let (layout, pos) = (record.layout().clone(), *record.position());
    let cert = proof(&layout, &[pos]);
    // A root below the claim.
    let below = pos.play_unchecked(&layout, pos.legal_cells(&layout).next().unwrap());
    let e = pack(
        proofs(std::slice::from_ref(&cert)),
        Some(&below),
        WalkLimits::default(),
        &mut |_| {},
    )
    .unwrap_err();
    assert!(matches!(e, PackError::NotAbove(_)), "{e}");
    // A certificate that claims nothing (only the library can make one).
    let mut silent = cert.clone();
    silent.claims.clear();
    for root in [None, Some(&pos)] {
        let e = pack(
            proofs(std::slice::from_ref(&silent)),
            root,
            WalkLimits::default(),
            &mut |_| {},
        )
        .unwrap_err();
        assert!(matches!(e, PackError::NoClaim), "{e}");
    }
    // The empty board above a claim 14 placements in: only the claim's own lines are
    // searched (pieces within its pieces), so it ends at once, undecided, or at the limit.
    let start = Position::start(&layout);
    let e = pack(
        proofs(std::slice::from_ref(&cert)),
        Some(&start),
        WalkLimits::default(),
        &mut |_| {},
    )
    .unwrap_err();
    assert!(matches!(e, PackError::Undecided), "{e}");
    let e = pack(
        proofs(std::slice::from_ref(&cert)),
        Some(&start),
        WalkLimits { positions: 5 },
        &mut |_| {},
    )
    .unwrap_err();
    assert!(matches!(e, PackError::TooFar { limit: 5 }), "{e}");
    // Two certificates whose claims about one position contradict each other.
    let mut opposite = cert.clone();
    let claim = opposite.claims[0];
    opposite.claims[0] = kamon_cert::Claim::value(claim.position, claim.low.flip());
    assert_ne!(
        claim.low,
        Outcome::Draw,
        "a win or a loss, whose flip contradicts it"
    );
    let e = pack(
        proofs(&[cert.clone(), opposite]),
        None,
        WalkLimits::default(),
        &mut |_| {},
    )
    .unwrap_err();
    assert!(matches!(e, PackError::Contradictory(_)), "{e}");
}

/// Units and their root, as `units_pack_into_the_proof_of_the_position_above_them`
/// makes them: the root 16 placements in, every unit two placements below it proved.
fn units_below(seed: u64) -> Option<(Layout, Position, Certificate, Vec<Certificate>)> {
    let record = Record::random(seed, 16)?;
    let (layout, root) = (record.layout().clone(), *record.position());
    let s = solver(&layout);
    let mut units = Vec::new();
    for a in root.legal_cells(&layout) {
        let after_a = root.play_unchecked(&layout, a);
        for b in after_a.legal_cells(&layout) {
            let unit = after_a.play_unchecked(&layout, b);
            if !unit.is_over() {
                units.push(proof_by(&s, &[unit]));
            }
        }
    }
    let whole = proof_by(&s, &[root]);
    (!units.is_empty()).then_some((layout, root, whole, units))
}

/// Certificates added to be read later pack into the walk of the same certificates held
/// in memory, each read when the walk reaches its claim (at most twice: a drawn root
/// walks its units once per statement; never when the rules settle it); a certificate that cannot be read, or reads as
/// another one, stops the pack with its number.
#[test]
fn certificates_read_later_pack_alike_and_are_read_when_needed() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    let (mut packed, mut refused) = (0, 0);
    for seed in 0..8 {
        let Some((_, root, _, units)) = units_below(seed).filter(|(.., u)| u.len() > 1) else {
            continue;
        };
        let reads = Arc::new(AtomicUsize::new(0));
        let mut later = Proofs::default();
        for cert in &units {
            let (copy, reads) = (cert.clone(), Arc::clone(&reads));
            let read = Box::new(move || {
                reads.fetch_add(1, Ordering::Relaxed);
                Ok(copy.clone())
            });
            later
                .add_later(
                    cert.layout.clone(),
                    cert.claims.clone(),
                    cert.entries.len(),
                    read,
                )
                .unwrap();
        }
        assert_eq!(
            later.entries(),
            units.iter().map(|c| c.entries.len()).sum::<usize>()
        );
        let from_later = pack(later, Some(&root), WalkLimits::default(), &mut |_| {}).unwrap();
        let in_memory = walk_of(&units, Some(&root));
        assert_eq!(from_later.certificate, in_memory, "seed {seed}");
        let read = reads.load(Ordering::Relaxed);
        // None when the rules settle every unit the walk reaches.
        assert!(read <= 2 * units.len(), "seed {seed}: {read} reads");
        if read > 0 {
            packed += 1;
        }

        // Every unit's file turned unreadable, or replaced by another unit's: the first
        // the walk reaches stops the pack.
        for broken in [0, 1] {
            let mut proofs = Proofs::default();
            for (i, cert) in units.iter().enumerate() {
                let other = units[(i + 1) % units.len()].clone();
                let read: kamon_cert::ReadLater = if broken == 0 {
                    Box::new(|| Err("gone".to_owned()))
                } else {
                    Box::new(move || Ok(other.clone()))
                };
                proofs
                    .add_later(cert.layout.clone(), cert.claims.clone(), 0, read)
                    .unwrap();
            }
            match pack(proofs, Some(&root), WalkLimits::default(), &mut |_| {}) {
                Err(PackError::Unreadable { index, reason }) => {
                    assert!((1..=units.len()).contains(&index), "seed {seed}");
                    let why = if broken == 0 {
                        "gone"
                    } else {
                        "not the certificate"
                    };
                    assert!(reason.contains(why), "{reason}");
                    refused += 1;
                }
                Ok(p) => assert!(read == 0 && checks(&p.certificate), "seed {seed}"),
                Err(e) => panic!("seed {seed}: {e}"),
            }
        }
    }
    assert!(packed >= 4 && refused >= 4, "{packed} {refused}");
}

/// A claim inside another claim's proof: the walk of the outer one passes through the
/// inner claim's position and looks its entries up there first, then the outer's again.
#[test]
fn claims_inside_other_claims_pack_and_check() {
    let mut packed = 0;
    for seed in 0..6 {
        let Some((_, root, whole, units)) = units_below(seed) else {
            continue;
        };
        let mut certs = vec![whole];
        certs.extend(units);
        let walk = walk_of(&certs, None);
        assert_eq!(walk.claims.len(), certs.len());
        assert!(checks(&walk), "seed {seed}");
        assert_eq!(walk.claims[0].position, root);
        packed += 1;
    }
    assert!(packed >= 4, "{packed}");
}
