//! The shipped Kamon survey (data/kamon-survey.json) checked against what it claims:
//! every entry's layout and opening come from its seed by the documented generator, its
//! perfect line is legal, as long as its remoteness and ends as its value says, its
//! first moves are the legal cells and agree with its value; a sample is solved again
//! and must give the same value and remoteness; and the shortest results (and the last
//! placements of every perfect line) are checked by a bounded search over the naive
//! reference, which shares no code with the solver.

use kamisado_analysis::survey_file::{Entry, SurveyFile};
use kamisado_solver::{Cancel, Options, Solver};
use kamon_core::{KamonGame, Layout, Record};
use reference::kamon::{KamonEnd, KamonPosition};

/// The shipped survey, read (and its format and entries' places checked) by the one
/// definition the survey command writes it with.
fn survey() -> SurveyFile {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/kamon-survey.json");
    let text = std::fs::read_to_string(path).expect("data/kamon-survey.json is shipped");
    SurveyFile::parse(&text, path).expect("the survey reads")
}

/// Every run with its seed and K, and its entries.
fn runs(survey: &SurveyFile) -> Vec<(u64, u32, &[Entry])> {
    survey
        .runs
        .iter()
        .map(|run| (run.seed, run.after, &run.entries[..]))
        .collect()
}

fn solved(entry: &Entry) -> bool {
    entry.value.is_some()
}

#[test]
fn every_entry_is_its_seed_and_its_claims_hold_together() {
    let survey = survey();
    let mut checked = 0;
    for (seed, after, entries) in runs(&survey) {
        for e in entries {
            let (index, layout_seed) = (e.index, e.seed);
            assert_eq!(layout_seed, seed + index);
            let record = Record::random(layout_seed, after).unwrap();
            assert_eq!(e.layout, Layout::random(layout_seed).to_string());
            assert_eq!(e.moves.join(" "), record.moves_text());
            let (layout, pos) = (record.layout(), *record.position());
            assert_eq!(e.to_move, pos.turn().name());
            if !solved(e) {
                continue;
            }
            let value = e.value.as_deref().unwrap();
            let winner = match value {
                "win" => pos.turn().name(),
                "loss" => (!pos.turn()).name(),
                _ => "draw",
            };
            assert_eq!(e.winner.as_deref(), Some(winner), "seed {layout_seed}");
            // Every legal cell has a value for its player, and the best is the position's.
            if let Some(moves) = &e.first_moves {
                let cells: Vec<String> = moves.iter().map(|m| m.cell.clone()).collect();
                let legal: Vec<String> = pos.legal_cells(layout).map(|c| c.to_string()).collect();
                assert_eq!(cells, legal, "seed {layout_seed}");
                let rank = |v: &str| ["loss", "draw", "win"].iter().position(|&x| x == v);
                let best = moves.iter().map(|m| rank(&m.value)).max().unwrap();
                assert_eq!(best, rank(value), "seed {layout_seed}");
            }
            // The perfect line: legal, `remoteness` placements, ending as the value says.
            if let Some(r) = e.remoteness {
                let pv = e.pv.clone().unwrap();
                assert_eq!(pv.len() as u32, r, "seed {layout_seed}");
                let mut line = record.clone();
                line.play_text(&pv.join(" ")).unwrap();
                let end = line
                    .position()
                    .end()
                    .expect("the perfect line ends the game");
                assert_eq!(end.winner.map_or("draw", |w| w.name()), winner);
                assert_eq!(e.ends_by.as_deref(), Some(end.reason.name()));
                match value {
                    "win" => assert_eq!(r % 2, 1),
                    "loss" => assert_eq!(r % 2, 0),
                    _ => assert_eq!(r, pos.free_cells().count()),
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 300, "only {checked} solved entries");
}

#[test]
fn a_sample_solves_again_to_the_same_result() {
    let survey = survey();
    let mut resolved = 0;
    for (_, after, entries) in runs(&survey) {
        // The cheapest entries of each run, and a spread of the others, within a budget.
        let mut sample: Vec<&Entry> = entries.iter().filter(|e| solved(e)).collect();
        sample.sort_by_key(|e| e.nodes);
        let mut budget: u64 = 6_000_000;
        for e in sample {
            let nodes = e.nodes;
            if nodes > budget {
                break;
            }
            budget -= nodes;
            let seed = e.seed;
            let record = Record::random(seed, after).unwrap();
            let solver = Solver::new(
                KamonGame::new(record.layout().clone()),
                Options {
                    threads: 1,
                    table_bytes: 64 << 20,
                },
            )
            .unwrap();
            let node = solver.game().node(record.position());
            match e.remoteness {
                Some(r) => {
                    let outcome = solver.outcome(&node, &Cancel::new()).unwrap();
                    assert_eq!(
                        (outcome.value.name(), outcome.remoteness),
                        (e.value.as_deref().unwrap(), r),
                        "seed {seed} after {after}"
                    );
                }
                None => {
                    let value = solver.value(&node, &Cancel::new()).unwrap();
                    assert_eq!(Some(value.name()), e.value.as_deref(), "seed {seed}");
                }
            }
            resolved += 1;
        }
    }
    assert!(resolved >= 20, "only {resolved} entries solved again");
}

/// Whether the player to move in `p` wins within `n` placements, by the reference's
/// rules alone (a plain AND-OR search, no table).
fn wins_within(p: &KamonPosition, n: u32) -> bool {
    if n == 0 || p.end().is_some() {
        return false;
    }
    let me = p.side_to_move();
    p.children().iter().any(|(_, child)| match child.end() {
        Some(KamonEnd::Win { winner, .. }) => winner == me,
        Some(KamonEnd::Draw) => false,
        None => n >= 3 && loses_within(child, n - 1),
    })
}

/// Whether the player to move in `p` loses within `n` placements, whatever they do.
fn loses_within(p: &KamonPosition, n: u32) -> bool {
    match p.end() {
        Some(KamonEnd::Win { winner, .. }) => winner != p.side_to_move(),
        Some(KamonEnd::Draw) => false,
        None => {
            n >= 2
                && p.children()
                    .iter()
                    .all(|(_, child)| wins_within(child, n - 1))
        }
    }
}

/// The reference's exact verdict on "value with remoteness `r`", for short results.
fn reference_agrees(p: &KamonPosition, value: &str, r: u32) -> bool {
    match value {
        "win" => wins_within(p, r) && (r < 3 || !wins_within(p, r - 2)),
        "loss" => loses_within(p, r) && (r < 2 || !loses_within(p, r - 2)),
        _ => false,
    }
}

/// The longest result the bounded reference search checks.
const SHORT: u32 = 5;

/// Entries per run checked against the reference, shortest results first.
const PER_RUN: usize = 30;

#[test]
fn the_shortest_results_and_the_ends_of_perfect_lines_agree_with_the_reference() {
    let survey = survey();
    let (mut whole, mut tails) = (0, 0);
    for (_, after, entries) in runs(&survey) {
        let mut decided: Vec<&Entry> = entries
            .iter()
            .filter(|e| e.remoteness.is_some() && e.value.as_deref() != Some("draw"))
            .collect();
        decided.sort_by_key(|e| e.remoteness);
        for e in decided.into_iter().take(PER_RUN) {
            let value = e.value.as_deref().unwrap();
            let r = e.remoteness.unwrap();
            let (moves, pv) = (&e.moves, e.pv.as_ref().unwrap());
            // The position `left` placements before the end of the perfect line has the
            // same winner and remoteness `left`: the whole line when it is short.
            let left = r.min(SHORT);
            let played = (r - left) as usize;
            let text: Vec<String> = moves.iter().chain(&pv[..played]).cloned().collect();
            let p = KamonPosition::parse(&e.layout, &text.join(" ")).unwrap();
            // The side to move there is the surveyed one every other placement.
            let v = match (played % 2, value) {
                (0, v) => v,
                (_, "win") => "loss",
                _ => "win",
            };
            assert!(
                reference_agrees(&p, v, left),
                "seed {} after {after}: {v} in {left}, {played} placements into its perfect line",
                e.seed
            );
            if played == 0 {
                whole += 1;
            } else {
                tails += 1;
            }
        }
    }
    assert!(
        whole + tails >= 60,
        "only {whole} results and {tails} line ends checked"
    );
}
