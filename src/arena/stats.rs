//! Match statistics: score, Elo difference with a 95% interval, likelihood of superiority and
//! the sequential probability ratio test.
//!
//! Results are modelled with the normal approximation of the score. When every opening is
//! played twice with colours swapped, the two games of a pair are not independent (the
//! opening favours one colour), so the score is taken per *pair*: five outcomes 0, ¼, ½, ¾, 1
//! (the pentanomial model). Its variance is smaller than the per-game (trinomial) one when
//! openings are unbalanced, which gives honest, narrower intervals. All functions take plain
//! counts so that they can be checked against hand computations.

/// Two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wins, losses and draws from one side's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wld {
    /// Games won.
    pub wins: u64,
    /// Games lost.
    pub losses: u64,
    /// Games drawn.
    pub draws: u64,
}

impl Wld {
    /// Number of games.
    pub fn games(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    /// Points: a win is 1, a draw ½.
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// Mean score per game in 0..=1, `None` without games.
    pub fn score(&self) -> Option<f64> {
        let games = self.games();
        (games > 0).then(|| self.points() / games as f64)
    }

    /// Adds one game with score 1, ½ or 0.
    pub fn add(&mut self, score: f64) {
        if score > 0.75 {
            self.wins += 1;
        } else if score < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }
}

/// Count used in place of zero when computing an LLR, so that a one-sided sample (e.g. all
/// wins, whose variance is 0) still gives a finite ratio. Half a sample, not a token 0.001:
/// with a token count the variance of a few one-sided results is nearly zero and the ratio
/// explodes, so a single won game "accepted" H1. With half a sample, a run of straight wins
/// still decides within a few games for large Elo bounds (8 wins at elo1 = 50).
const LLR_ZERO_COUNT: f64 = 0.5;

/// Count, mean and variance of a sample given as (value, count) pairs; `None` when empty.
fn moments(samples: &[(f64, f64)]) -> Option<(f64, f64, f64)> {
    let n: f64 = samples.iter().map(|&(_, count)| count).sum();
    if n <= 0.0 {
        return None;
    }
    let mean = samples.iter().map(|&(v, c)| v * c).sum::<f64>() / n;
    let variance = samples
        .iter()
        .map(|&(v, c)| c * (v - mean) * (v - mean))
        .sum::<f64>()
        / n;
    Some((n, mean, variance))
}

/// Per-game samples of a win/loss/draw count.
fn trinomial_samples(wld: &Wld) -> [(f64, f64); 3] {
    [
        (1.0, wld.wins as f64),
        (0.5, wld.draws as f64),
        (0.0, wld.losses as f64),
    ]
}

/// Per-pair samples of pentanomial counts: `penta[k]` pairs scored `k/2` points out of 2.
fn pentanomial_samples(penta: &[u64; 5]) -> [(f64, f64); 5] {
    [
        (0.0, penta[0] as f64),
        (0.25, penta[1] as f64),
        (0.5, penta[2] as f64),
        (0.75, penta[3] as f64),
        (1.0, penta[4] as f64),
    ]
}

/// Elo difference for a mean score in 0..=1 (logistic model); ±infinity at 1 and 0.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Expected score for an Elo difference (logistic model).
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo estimate with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Mean score per game.
    pub score: f64,
    /// Elo difference for that score.
    pub elo: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
    /// Number of samples (games or pairs).
    pub samples: u64,
}

impl EloEstimate {
    /// Half the width of the interval, the usual "±" figure (infinite when an end is, also
    /// when both are: a perfect score has no finite interval, not an undefined one).
    pub fn margin(&self) -> f64 {
        let margin = (self.high - self.low) / 2.0;
        if margin.is_nan() {
            f64::INFINITY
        } else {
            margin
        }
    }
}

fn estimate(samples: &[(f64, f64)]) -> Option<EloEstimate> {
    let (n, mean, variance) = moments(samples)?;
    let error = (variance / n).sqrt();
    Some(EloEstimate {
        score: mean,
        elo: elo_from_score(mean),
        low: elo_from_score(mean - Z95 * error),
        high: elo_from_score(mean + Z95 * error),
        samples: n as u64,
    })
}

/// Elo estimate from per-game results (games treated as independent).
pub fn elo_trinomial(wld: &Wld) -> Option<EloEstimate> {
    estimate(&trinomial_samples(wld))
}

/// Elo estimate from game pairs: `penta[k]` = number of pairs in which the side scored
/// `k/2` points (k = 0..=4).
pub fn elo_pentanomial(penta: &[u64; 5]) -> Option<EloEstimate> {
    estimate(&pentanomial_samples(penta))
}

/// Error function, Abramowitz & Stegun 7.1.26 (absolute error below 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    sign * (1.0 - poly * (-x * x).exp())
}

/// Likelihood of superiority from wins and losses (draws carry no information):
/// `½·(1 + erf((W − L) / √(2(W + L))))`; ½ without decisive games.
pub fn los(wins: u64, losses: u64) -> f64 {
    let decisive = (wins + losses) as f64;
    if decisive == 0.0 {
        return 0.5;
    }
    0.5 * (1.0 + erf((wins as f64 - losses as f64) / (2.0 * decisive).sqrt()))
}

/// Parameters of a sequential probability ratio test between two Elo hypotheses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under the null hypothesis H0.
    pub elo0: f64,
    /// Elo under the alternative H1.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

impl Default for Sprt {
    fn default() -> Self {
        Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        }
    }
}

/// State of a running SPRT.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// Not decided yet.
    Continue,
    /// H0 accepted: the change is not better by elo1 (the first engine is not stronger).
    AcceptH0,
    /// H1 accepted: the first engine is stronger.
    AcceptH1,
}

impl Sprt {
    /// Lower and upper LLR bounds: `ln(β/(1−α))` and `ln((1−β)/α)`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// Log-likelihood ratio of H1 against H0 for a sample (normal approximation of the
    /// generalised SPRT): `N·(s1 − s0)·(2μ − s0 − s1) / (2σ²)` with `sᵢ` the expected score at
    /// `eloᵢ`, `μ` and `σ²` the sample mean and variance per sample. Empty outcome classes
    /// count as half a sample (when there is any sample at all; see [`LLR_ZERO_COUNT`]).
    fn llr(&self, samples: &[(f64, f64)]) -> f64 {
        if samples.iter().all(|&(_, count)| count == 0.0) {
            return 0.0;
        }
        let regular: Vec<(f64, f64)> = samples
            .iter()
            .map(|&(v, c)| (v, if c == 0.0 { LLR_ZERO_COUNT } else { c }))
            .collect();
        let Some((n, mean, variance)) = moments(&regular) else {
            return 0.0;
        };
        if variance <= 0.0 {
            return 0.0;
        }
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    /// LLR from per-game results.
    pub fn llr_trinomial(&self, wld: &Wld) -> f64 {
        self.llr(&trinomial_samples(wld))
    }

    /// LLR from pair results (see [`elo_pentanomial`]).
    pub fn llr_pentanomial(&self, penta: &[u64; 5]) -> f64 {
        self.llr(&pentanomial_samples(penta))
    }

    /// The decision for an LLR.
    pub fn decide(&self, llr: f64) -> SprtDecision {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

/// Formats an Elo value: `+12.3`, `-4.0`, `+inf`, `-inf`.
pub fn format_elo(elo: f64) -> String {
    if elo == f64::INFINITY {
        "+inf".to_string()
    } else if elo == f64::NEG_INFINITY {
        "-inf".to_string()
    } else {
        // Adding +0.0 turns -0.0 into +0.0, so an even score prints as "+0.0".
        format!("{:+.1}", elo + 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_perfect_score_has_an_infinite_margin_not_nan() {
        let perfect = EloEstimate {
            score: 1.0,
            elo: f64::INFINITY,
            low: f64::INFINITY,
            high: f64::INFINITY,
            samples: 20,
        };
        assert_eq!(perfect.margin(), f64::INFINITY);
        let finite = EloEstimate {
            score: 0.64,
            elo: 100.0,
            low: 56.3,
            high: 147.0,
            samples: 100,
        };
        assert!((finite.margin() - 45.35).abs() < 1e-9);
    }

    #[test]
    fn elo_of_simple_scores() {
        assert_eq!(elo_from_score(0.5), 0.0);
        // 0.75 = 1/(1+10^(-e/400)) → 10^(-e/400) = 1/3 → e = 400·log10(3) = 190.848...
        assert!((elo_from_score(0.75) - 190.848_501_887_864_9).abs() < 1e-9);
        assert!((score_from_elo(190.848_501_887_864_9) - 0.75).abs() < 1e-12);
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(format_elo(f64::NEG_INFINITY), "-inf");
        assert_eq!(format_elo(3.04), "+3.0");
        assert_eq!(format_elo(-0.0), "+0.0");
    }

    #[test]
    fn erf_matches_table_values() {
        // Reference values from tables: erf(0.5) = 0.5204998778, erf(1) = 0.8427007929.
        assert!((erf(0.5) - 0.520_499_877_8).abs() < 2e-7);
        assert!((erf(1.0) - 0.842_700_792_9).abs() < 2e-7);
        assert!((erf(-1.0) + 0.842_700_792_9).abs() < 2e-7);
        assert!(erf(0.0).abs() < 1e-8);
    }

    #[test]
    fn few_one_sided_results_do_not_decide_an_sprt() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 30.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let one_win = Wld {
            wins: 1,
            losses: 0,
            draws: 0,
        };
        assert_eq!(
            sprt.decide(sprt.llr_trinomial(&one_win)),
            SprtDecision::Continue
        );
        assert_eq!(
            sprt.decide(sprt.llr_pentanomial(&[0, 0, 0, 0, 1])),
            SprtDecision::Continue
        );
        assert_eq!(
            sprt.decide(sprt.llr_pentanomial(&[2, 0, 0, 0, 0])),
            SprtDecision::Continue
        );
        // A long one-sided run still decides, either way.
        let straight = |wins, losses| Wld {
            wins,
            losses,
            draws: 0,
        };
        assert_eq!(
            sprt.decide(sprt.llr_trinomial(&straight(30, 0))),
            SprtDecision::AcceptH1
        );
        assert_eq!(
            sprt.decide(sprt.llr_trinomial(&straight(0, 30))),
            SprtDecision::AcceptH0
        );
    }

    #[test]
    fn wld_add_and_score() {
        let mut wld = Wld::default();
        for score in [1.0, 0.5, 0.0, 1.0] {
            wld.add(score);
        }
        assert_eq!(
            wld,
            Wld {
                wins: 2,
                losses: 1,
                draws: 1
            }
        );
        assert_eq!(wld.score(), Some(0.625));
        assert_eq!(Wld::default().score(), None);
    }
}
