//! What a speculative proof by tiers would cost, estimated from a sample of it.
//!
//! Why: a proof by tiers ([`crate::speculate`]) rests on the next tier's round starts,
//! each either settled by a clinch question (fractions of a second) or a proof of its own,
//! which rests on the tier after it, and so on down to the final rounds. The work is the
//! tree of those proofs, and near the start of a match it is far too big to run to
//! measure it (a 1-1 start's proof can rest on thousands of two-round proofs of minutes
//! each). Its size can be estimated without running it, as Knuth estimated the size of a
//! backtracking tree: at each round start, run the search and walk of its proof only
//! ([`MatchSolver::count_by_speculation`], seconds), note the `N` round starts it rests
//! on, measure a sample of `k` of them the same way, and take `N` times their mean cost.
//! The sample is stratified by score: the round starts of one score cost alike, those of
//! another can cost a thousand times more (a 2-0 start is settled in a minute, a 1-1 start
//! takes hours to days), and a plain sample of 4 from 9,000 would miss a rare score. So
//! each score's round starts are sampled apart (`k` of each) and the strata are summed.
//! The estimate of the whole is unbiased for the tree as sampled (with replacement; we
//! sample without, which only narrows the spread), and the sample variance of each
//! stratum's estimates gives its part of the standard error, every tier below included.
//!
//! What it leaves out, on purpose: wrong guesses (each one a search again and the new
//! round starts its proof rests on; the share of them among the clinch answers is
//! measured and reported), so the estimate errs low, and facts one proof finds that
//! another uses (each sampled proof runs on a store of its own), so it errs high where
//! proofs share round starts.
//!
//! Rejected: extrapolating a growth factor per tier from the shipped proofs (too few,
//! and the counts vary a hundredfold between two 1-1 starts), and running the tree to a
//! budget (the counts of a stopped run have not levelled off, so they say nothing).

use std::collections::{BTreeMap, HashSet};
use std::time::Instant;

use kamisado_match::{MatchPosition, Side, WholeMatch};
use kamisado_solver::Value;

use crate::run::{MatchOptions, MatchSolveError, MatchSolver, Run};

/// How a cost is estimated: round starts sampled at each proof (at least 2, for a
/// spread), from a seed, with the searches' prices (see
/// [`MatchSolver::set_assumed_prices`]).
#[derive(Clone, Debug)]
pub struct EstimateOptions {
    pub samples: usize,
    pub seed: u64,
    pub prices: Vec<Option<u32>>,
}

/// What one tier of the estimated proof costs: tier 0 is the root's round, tier 1 the
/// round starts its proof rests on, and so on.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TierEstimate {
    pub tier: u32,
    /// Round starts of this tier measured, by score (Black's points first, like `2-1`).
    pub scores: BTreeMap<String, u64>,
    /// Round starts of this tier a whole proof would verify, estimated, by score.
    pub estimated_by_score: BTreeMap<String, f64>,
    /// Of those, settled by a clinch question (`wrong` of them not as predicted: each such
    /// one costs a real proof a search again); the others' proofs were counted.
    pub settled: u64,
    pub wrong: u64,
    pub counted: u64,
    /// The counted proofs: the fewest, the mean and the most round starts of the next
    /// tier one rests on.
    pub relied_on_min: u64,
    pub relied_on_mean: f64,
    pub relied_on_max: u64,
    /// The counted proofs' round starts of the next tier: in all, and distinct (a round
    /// start two of them rest on counts once). How far `distinct` falls below `total`
    /// is the sharing among the sampled proofs that the estimate leaves out; a whole
    /// proof's proofs share at least as much.
    #[serde(default)]
    pub relied_on_total: u64,
    #[serde(default)]
    pub relied_on_distinct: u64,
    /// Seconds measured: clinch questions, and counted proofs' searches and walks.
    pub clinch_seconds: f64,
    pub search_seconds: f64,
    /// What a whole proof would do at this tier, estimated: round starts verified, of
    /// them proved apart, and seconds of one thread.
    pub estimated_starts: f64,
    pub estimated_proofs: f64,
    pub estimated_seconds: f64,
}

/// The estimated cost of proving a round start by speculation in tiers.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Estimate {
    pub position: String,
    /// The root's value as speculated (not proven).
    pub speculated_value: String,
    /// Seconds of one thread a proof would take, and the estimate's standard error.
    pub seconds: f64,
    pub standard_error: f64,
    pub tiers: Vec<TierEstimate>,
    pub samples: usize,
    pub seed: u64,
    /// Round starts measured (questions asked and proofs counted), and the seconds the
    /// estimate itself took.
    pub measured: u64,
    pub measuring_seconds: f64,
}

/// One measurement, as the estimate makes it (for progress reports).
#[derive(Clone, Copy, Debug)]
pub struct Measured<'a> {
    pub tier: u32,
    pub position: &'a MatchPosition,
    /// `None`: settled by its clinch question; `Some(n)`: its proof counted, resting on
    /// `n` round starts of the next tier.
    pub relied_on: Option<u64>,
    pub seconds: f64,
}

/// A sampled subtree's estimate: per tier (round starts, proofs apart, seconds) and round
/// starts by score, its total seconds and their variance.
#[derive(Default)]
struct Subtree {
    tiers: Vec<[f64; 3]>,
    by_score: Vec<BTreeMap<String, f64>>,
    seconds: f64,
    variance: f64,
}

impl Subtree {
    fn add(&mut self, tier: usize, cost: [f64; 3]) {
        if self.tiers.len() <= tier {
            self.tiers.resize(tier + 1, [0.0; 3]);
        }
        for (sum, part) in self.tiers[tier].iter_mut().zip(cost) {
            *sum += part;
        }
        self.seconds += cost[2];
    }

    fn add_starts(&mut self, tier: usize, score: &str, starts: f64) {
        if self.by_score.len() <= tier {
            self.by_score.resize(tier + 1, BTreeMap::new());
        }
        *self.by_score[tier].entry(score.to_owned()).or_default() += starts;
    }

    /// Adds `child`'s estimate `scale` times (its variance `scale²` times is the caller's).
    fn add_scaled(&mut self, child: &Subtree, scale: f64) {
        for (tier, cost) in child.tiers.iter().enumerate() {
            self.add(tier, cost.map(|part| part * scale));
        }
        for (tier, scores) in child.by_score.iter().enumerate() {
            for (score, starts) in scores {
                self.add_starts(tier, score, starts * scale);
            }
        }
    }
}

/// Measures round starts for [`estimate`].
struct Estimator<'a> {
    options: MatchOptions,
    estimate: &'a EstimateOptions,
    /// Asks the clinch questions (one round table for all, as a verification has).
    clinch: MatchSolver,
    rng: fastrand::Rng,
    tiers: Vec<TierEstimate>,
    /// Per tier, the distinct round starts its counted proofs rest on.
    relied_on: Vec<HashSet<MatchPosition>>,
    measured: u64,
    report: &'a (dyn Fn(&Measured) + Sync),
}

/// Estimates what proving `pos` (a round start) by speculation in tiers would cost, from
/// samples of the tiers below it (see the module's notes). `run`'s time limit is for each
/// count; one that does not finish stops the estimate (`Err(Stopped)`). `report` is told
/// of every measurement.
pub fn estimate(
    pos: &MatchPosition,
    options: MatchOptions,
    estimate: &EstimateOptions,
    run: &Run,
    report: &(dyn Fn(&Measured) + Sync),
) -> Result<Estimate, MatchSolveError> {
    let started = Instant::now();
    let mut estimator = Estimator {
        options,
        estimate,
        clinch: MatchSolver::new(options, None)?,
        rng: fastrand::Rng::with_seed(estimate.seed),
        tiers: Vec::new(),
        relied_on: Vec::new(),
        measured: 0,
        report,
    };
    let pos = WholeMatch::root(pos);
    let (subtree, value) = estimator.round_start(&pos, 0, run)?;
    let mut tiers = estimator.tiers;
    let by_score = subtree
        .by_score
        .into_iter()
        .chain(std::iter::repeat_with(BTreeMap::new));
    for ((tier, [starts, proofs, seconds]), scores) in
        tiers.iter_mut().zip(subtree.tiers).zip(by_score)
    {
        tier.estimated_starts = starts;
        tier.estimated_proofs = proofs;
        tier.estimated_seconds = seconds;
        tier.estimated_by_score = scores;
        if tier.counted == 0 {
            tier.relied_on_min = 0;
        }
    }
    Ok(Estimate {
        position: pos.to_string(),
        speculated_value: value.unwrap_or(Value::Loss).name().to_owned(),
        seconds: subtree.seconds,
        standard_error: subtree.variance.sqrt(),
        tiers,
        samples: estimate.samples,
        seed: estimate.seed,
        measured: estimator.measured,
        measuring_seconds: started.elapsed().as_secs_f64(),
    })
}

impl Estimator<'_> {
    fn tier(&mut self, tier: u32) -> &mut TierEstimate {
        while self.tiers.len() <= tier as usize {
            let next = self.tiers.len() as u32;
            self.tiers.push(TierEstimate {
                tier: next,
                relied_on_min: u64::MAX,
                ..TierEstimate::default()
            });
        }
        &mut self.tiers[tier as usize]
    }

    /// The estimated cost of verifying the round start `pos` of `tier` as a proof by
    /// tiers does (the root: a proof of its own; below it, the clinch question first),
    /// and, for a proof, its speculated value.
    fn round_start(
        &mut self,
        pos: &MatchPosition,
        tier: u32,
        run: &Run,
    ) -> Result<(Subtree, Option<Value>), MatchSolveError> {
        let mut subtree = Subtree::default();
        let t = tier as usize;
        if tier > 0 {
            let asked = Instant::now();
            let settled = self.clinch.solver().game().settle_round_start(pos)?;
            let seconds = asked.elapsed().as_secs_f64();
            self.measured += 1;
            let score = score(pos);
            subtree.add(t, [1.0, 0.0, seconds]);
            subtree.add_starts(t, &score, 1.0);
            let row = self.tier(tier);
            *row.scores.entry(score).or_default() += 1;
            row.clinch_seconds += seconds;
            if let Some(value) = settled {
                row.settled += 1;
                if value != self.clinch.solver().game().guess_for(pos) {
                    self.tier(tier).wrong += 1;
                }
                (self.report)(&Measured {
                    tier,
                    position: pos,
                    relied_on: None,
                    seconds,
                });
                return Ok((subtree, settled));
            }
        }
        // A proof of its own: its search and walk, on a store of its own.
        let count = {
            let mut apart = MatchSolver::new(self.options, None)?;
            apart.set_assumed_prices(&self.estimate.prices);
            apart.count_by_speculation(pos, run)?
        };
        self.measured += u64::from(tier == 0);
        let seconds = count.proof.proof.seconds;
        let relied = count.relied_on.len() as u64;
        let row = self.tier(tier);
        if tier == 0 {
            row.scores.insert(score(pos), 1);
        }
        row.relied_on_mean =
            (row.relied_on_mean * row.counted as f64 + relied as f64) / (row.counted + 1) as f64;
        row.counted += 1;
        row.relied_on_min = row.relied_on_min.min(relied);
        row.relied_on_max = row.relied_on_max.max(relied);
        row.search_seconds += seconds;
        row.relied_on_total += relied;
        if self.relied_on.len() <= t {
            self.relied_on.resize_with(t + 1, HashSet::new);
        }
        self.relied_on[t].extend(count.relied_on.iter().copied());
        self.tiers[t].relied_on_distinct = self.relied_on[t].len() as u64;
        subtree.add(t, [0.0, 1.0, seconds]);
        (self.report)(&Measured {
            tier,
            position: pos,
            relied_on: Some(relied),
            seconds,
        });
        let mut strata: BTreeMap<String, Vec<MatchPosition>> = BTreeMap::new();
        for start in count.relied_on {
            strata.entry(score(&start)).or_default().push(start);
        }
        for stratum in strata.into_values() {
            let all = stratum.len();
            let k = self.estimate.samples.max(2).min(all);
            let sample = self.rng.choose_multiple(stratum, k);
            let mut below = Vec::with_capacity(k);
            for start in &sample {
                below.push(self.round_start(start, tier + 1, run)?.0);
            }
            let scale = all as f64 / k as f64;
            for child in &below {
                subtree.add_scaled(child, scale);
            }
            subtree.variance += if k == all {
                below.iter().map(|child| child.variance).sum::<f64>()
            } else {
                // Multistage sampling with replacement: the spread of the sampled
                // subtrees' estimates carries the spread of every tier below them.
                let mean = below.iter().map(|c| c.seconds).sum::<f64>() / k as f64;
                let spread = below
                    .iter()
                    .map(|c| (c.seconds - mean).powi(2))
                    .sum::<f64>()
                    / (k - 1) as f64;
                (all as f64).powi(2) * spread / k as f64
            };
        }
        Ok((subtree, Some(count.proof.proof.value)))
    }
}

/// A round start's score, Black's points first: `2-1`.
fn score(pos: &MatchPosition) -> String {
    format!("{}-{}", pos.score(Side::Black), pos.score(Side::White))
}
