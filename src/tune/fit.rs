//! Fitting the learned tables to positions by logistic regression.
//!
//! The evaluation is linear in its tables: each position's evaluation is the sum of its
//! features (how many of each colour's empty cells have each shape code, and a flag for the
//! threat state) times the tables' entries. A position's predicted result for the mover is
//! `sigmoid(k * eval)`, with `k` fitted per rule to the starting values first (the classic
//! evaluation, or the learned tables, which were fitted in its points) and then held, so the
//! fitted values stay in the classic evaluation's points (the search's margins are in them).
//! The loss is the binary cross-entropy against each position's target (the game's result,
//! optionally blended with the search's score read the same way), plus a Gaussian prior
//! pulling every entry toward its starting value, so a shape code seen in a handful of
//! positions keeps about its earlier worth. Adam on the full batch, a tenth of the
//! games (by a seeded hash of file and game number) held out to judge the fit.

use super::samples::{Game, Sample, Score, RAPFI_MATE, RAPFI_SCALE};
use crate::eval::learned::{cell_value, threat_table, CellValues, EvalSlot};
use crate::eval::shape_code::{shapes_of, SHAPE_CODES};
use crate::eval::{MOVER_EIGHTHS, OPPONENT_EIGHTHS, THREAT_STATES};
use crate::types::Rule;

/// How the cell tables enter the evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// One table per slot; the mover's sum counts 6/8, the opponent's 5/8, as the classic
    /// evaluation mixes them.
    Shared,
    /// Two tables per slot: one for the side to move's cells, one for the opponent's.
    Split,
}

impl Model {
    /// Cell tables per slot.
    pub fn tables_per_slot(self) -> usize {
        match self {
            Model::Shared => 1,
            Model::Split => 2,
        }
    }
}

/// The settings of a fit.
#[derive(Clone, Debug)]
pub struct Options {
    /// How the cell tables enter.
    pub model: Model,
    /// Seed of the held-out split.
    pub seed: u64,
    /// Games held out, per thousand.
    pub held_out_permille: u64,
    /// Adam steps.
    pub iterations: usize,
    /// Adam's first step size in points (falling linearly to a tenth of it).
    pub rate: f64,
    /// The prior's standard deviation in points: how far data must pull an entry from its
    /// starting value.
    pub prior: f64,
    /// The values the fit starts from and its prior pulls toward: the classic ones, or the
    /// learned tables the engine plays (a refit on new games that keeps what older games
    /// taught, and leaves the slots of rules it does not read as they are).
    pub start: CellValues,
    /// Share of each target taken from the search's score where the record has one.
    pub score_share: f64,
    /// Only positions Rapfi scored with a value that is not a mate: the fit then learns
    /// from a stronger engine's judgement of quiet play, not from the last plies of attacks
    /// whose results (and mate scores) the search reads out anyway (E-393's finding).
    pub rapfi_only: bool,
    /// Positions this many plies or fewer before a game's last quiet position are left out:
    /// the ends of won attacks, which the data holds most of (E-451).
    pub skip_last: u16,
    /// Rules whose games are read.
    pub rules: Vec<Rule>,
}

/// The rules the learned tables cover.
pub const FITTED_RULES: [Rule; 3] = [Rule::Freestyle, Rule::Standard, Rule::Renju];

/// The entries being fitted, in one vector: the cell tables (slot by slot, the mover's
/// table first under [`Model::Split`]), then the threat tables.
#[derive(Clone, Debug)]
pub struct Tables {
    /// How the cell tables enter.
    pub model: Model,
    /// The entries.
    pub w: Vec<f64>,
}

impl Tables {
    /// Index of a cell entry: `role` 0 is the side to move's table, 1 the opponent's
    /// (the same table under [`Model::Shared`]).
    pub fn cell_index(model: Model, slot: EvalSlot, role: usize, code: usize) -> usize {
        let table = match model {
            Model::Shared => slot as usize,
            Model::Split => slot as usize * 2 + role,
        };
        table * SHAPE_CODES + code
    }

    /// Index of a threat-state entry.
    pub fn threat_index(model: Model, slot: EvalSlot, state: usize) -> usize {
        EvalSlot::COUNT * model.tables_per_slot() * SHAPE_CODES
            + slot as usize * THREAT_STATES
            + state
    }

    /// Number of entries.
    pub fn len(model: Model) -> usize {
        Tables::threat_index(model, EvalSlot::RenjuWhite, THREAT_STATES)
    }

    /// The classic evaluation's values in this layout (see [`Tables::from_values`]).
    pub fn classic(model: Model) -> Tables {
        Tables::from_values(model, CellValues::Classic)
    }

    /// The engine's tables under `values` in this layout: under [`Model::Split`] the mover's
    /// table holds 6/8 of each value and the opponent's 5/8, as the evaluation mixes them.
    pub fn from_values(model: Model, values: CellValues) -> Tables {
        let shared = Tables::of_values(values);
        let mut w = vec![0.0; Tables::len(model)];
        for slot in EvalSlot::ALL {
            for code in 0..SHAPE_CODES {
                let value = shared.w[Tables::cell_index(Model::Shared, slot, 0, code)];
                match model {
                    Model::Shared => w[Tables::cell_index(model, slot, 0, code)] = value,
                    Model::Split => {
                        w[Tables::cell_index(model, slot, 0, code)] =
                            value * MOVER_EIGHTHS as f64 / 8.0;
                        w[Tables::cell_index(model, slot, 1, code)] =
                            value * OPPONENT_EIGHTHS as f64 / 8.0;
                    }
                }
            }
            for state in 0..THREAT_STATES {
                w[Tables::threat_index(model, slot, state)] =
                    shared.w[Tables::threat_index(Model::Shared, slot, state)];
            }
        }
        Tables { model, w }
    }

    /// The tables the engine reads under `values`, in the [`Model::Shared`] layout.
    pub fn of_values(values: CellValues) -> Tables {
        let model = Model::Shared;
        let mut w = vec![0.0; Tables::len(model)];
        for slot in EvalSlot::ALL {
            let (rule, color) = slot.rule_and_color();
            for code in 0..SHAPE_CODES {
                let value = shapes_of(code).map_or(0, |p| cell_value(values, rule, color, p));
                w[Tables::cell_index(model, slot, 0, code)] = value as f64;
            }
            for (state, &bonus) in threat_table(values, rule, color).iter().enumerate() {
                w[Tables::threat_index(model, slot, state)] = bonus as f64;
            }
        }
        Tables { model, w }
    }

    /// The cell table of `slot` for `role` (0 the side to move's, 1 the opponent's).
    pub fn cells(&self, slot: EvalSlot, role: usize) -> &[f64] {
        let start = Tables::cell_index(self.model, slot, role, 0);
        &self.w[start..start + SHAPE_CODES]
    }

    /// The threat table of `slot`.
    pub fn threats(&self, slot: EvalSlot) -> &[f64] {
        let start = Tables::threat_index(self.model, slot, 0);
        &self.w[start..start + THREAT_STATES]
    }
}

/// One position ready for the fit: its features are `features[start..end]`.
#[derive(Clone, Copy, Debug)]
struct Row {
    start: u32,
    end: u32,
    /// Index into [`FITTED_RULES`].
    rule: u8,
    held_out: bool,
    result: f32,
    score: Option<Score>,
}

/// Positions as features.
pub struct Data {
    model: Model,
    rows: Vec<Row>,
    /// `(entry index, coefficient)`.
    features: Vec<(u32, f32)>,
}

/// A 64-bit mix of `x` (splitmix64's finaliser).
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d049bb133111eb);
    x ^ (x >> 31)
}

/// Whether a game is held out: a seeded hash of its file's name and its number.
pub fn is_held_out(file: &str, number: u32, seed: u64, permille: u64) -> bool {
    let mut h = mix(seed ^ 0x5eed);
    for b in file.bytes() {
        h = mix(h ^ u64::from(b));
    }
    mix(h ^ u64::from(number)) % 1000 < permille
}

impl Data {
    /// The positions of `files` under the rules of `options`, as features of `model`.
    pub fn new(files: &[(String, Vec<Game>)], options: &Options) -> Data {
        let model = options.model;
        let (mut rows, mut features) = (Vec::new(), Vec::new());
        for (name, games) in files {
            for game in games {
                let Some(rule) = FITTED_RULES
                    .iter()
                    .position(|&r| r == game.rule && options.rules.contains(&r))
                else {
                    continue;
                };
                let held_out =
                    is_held_out(name, game.number, options.seed, options.held_out_permille);
                let last = game.samples.last().map_or(0, |s| s.stones);
                for s in &game.samples {
                    if options.rapfi_only && !is_rapfi_value(s.score) {
                        continue;
                    }
                    if s.stones.saturating_add(options.skip_last) > last {
                        continue;
                    }
                    let start = features.len() as u32;
                    push_features(model, game.rule, s, |j, c| features.push((j as u32, c)));
                    rows.push(Row {
                        start,
                        end: features.len() as u32,
                        rule: rule as u8,
                        held_out,
                        result: game.result_for(s.mover) as f32,
                        score: s.score,
                    });
                }
            }
        }
        Data {
            model,
            rows,
            features,
        }
    }

    /// Positions of the rule `FITTED_RULES[rule]`, (trained on, held out).
    pub fn counts(&self, rule: usize) -> (usize, usize) {
        let of_rule = self.rows.iter().filter(|r| r.rule as usize == rule);
        let held = of_rule.clone().filter(|r| r.held_out).count();
        (of_rule.count() - held, held)
    }

    /// Positions with a search score of wuzi's and of Rapfi's.
    pub fn scored(&self) -> (usize, usize) {
        let wuzi = self
            .rows
            .iter()
            .filter(|r| matches!(r.score, Some(Score::Wuzi(_))));
        let rapfi = self
            .rows
            .iter()
            .filter(|r| matches!(r.score, Some(Score::Rapfi(_))));
        (wuzi.count(), rapfi.count())
    }

    fn eval(&self, row: &Row, w: &[f64]) -> f64 {
        self.features[row.start as usize..row.end as usize]
            .iter()
            .map(|&(j, c)| w[j as usize] * f64::from(c))
            .sum()
    }
}

/// Whether `score` is Rapfi's and not a mate.
fn is_rapfi_value(score: Option<Score>) -> bool {
    matches!(score, Some(Score::Rapfi(v)) if v.abs() < RAPFI_MATE)
}

/// Calls `push(entry index, coefficient)` for every feature of the position `s` under
/// `rule`: the shape-code counts of both colours (nothing under caro) and the threat state.
fn push_features(model: Model, rule: Rule, s: &Sample, mut push: impl FnMut(usize, f32)) {
    let sides = [s.mover, s.mover.opponent()];
    for (role, (&color, cells)) in sides.iter().zip(&s.cells).enumerate() {
        let Some(slot) = EvalSlot::of(rule, color) else {
            continue;
        };
        let weight = match (model, role) {
            (Model::Shared, 0) => MOVER_EIGHTHS as f32 / 8.0,
            (Model::Shared, _) => -(OPPONENT_EIGHTHS as f32) / 8.0,
            (Model::Split, 0) => 1.0,
            (Model::Split, _) => -1.0,
        };
        for &(code, count) in cells {
            push(
                Tables::cell_index(model, slot, role, code as usize),
                weight * f32::from(count),
            );
        }
    }
    if let Some(slot) = EvalSlot::of(rule, s.mover) {
        push(
            Tables::threat_index(model, slot, s.threat_state as usize),
            1.0,
        );
    }
}

/// The evaluation of the position `s` under `rule` by `tables`, as the fit computes it.
pub fn evaluation(tables: &Tables, rule: Rule, s: &Sample) -> f64 {
    let mut sum = 0.0;
    push_features(tables.model, rule, s, |j, c| {
        sum += tables.w[j] * f64::from(c)
    });
    sum
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Binary cross-entropy of the prediction `p` against the target `t`.
fn cross_entropy(p: f64, t: f64) -> f64 {
    let p = p.clamp(1e-12, 1.0 - 1e-12);
    -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
}

/// Mean cross-entropies of one rule's positions against their results: (trained on, held
/// out).
pub fn losses(data: &Data, tables: &Tables, rule: usize, k: f64) -> (f64, f64) {
    mean_losses(data, tables, rule, k, |_, row| f64::from(row.result))
}

/// Mean cross-entropies of one rule's positions against the fit's targets (results blended
/// with search scores by `share`, see [`fit`]): (trained on, held out). With targets from
/// Rapfi's values alone, this is how well `tables` predict Rapfi's judgement.
pub fn target_losses(
    data: &Data,
    tables: &Tables,
    rule: usize,
    scales: &[f64],
    share: f64,
) -> (f64, f64) {
    let goal = targets(data, scales, share);
    mean_losses(data, tables, rule, scales[rule], |i, _| goal[i])
}

/// Mean cross-entropies of one rule's positions at scale `k` against `target(row index,
/// row)`: (trained on, held out).
fn mean_losses(
    data: &Data,
    tables: &Tables,
    rule: usize,
    k: f64,
    target: impl Fn(usize, &Row) -> f64,
) -> (f64, f64) {
    let mut sums = [(0.0, 0usize); 2];
    for (i, row) in data.rows.iter().enumerate() {
        if row.rule as usize != rule {
            continue;
        }
        let p = sigmoid(k * data.eval(row, &tables.w));
        let s = &mut sums[row.held_out as usize];
        s.0 += cross_entropy(p, target(i, row));
        s.1 += 1;
    }
    let mean = |(sum, n): (f64, usize)| if n == 0 { f64::NAN } else { sum / n as f64 };
    (mean(sums[0]), mean(sums[1]))
}

/// The sigmoid's scale for one rule: the `k` (from 0.001, steps of 2 %) at which the
/// trained-on positions' loss under `tables` is least, against their results or, with
/// `options.rapfi_only`, against Rapfi's values (then the scale converts wuzi's points to
/// Rapfi's judgement, and the fitted values stay in wuzi's points).
pub fn fit_scale(data: &Data, tables: &Tables, rule: usize, options: &Options) -> f64 {
    // Rapfi's values read as results do not depend on the scales: the targets are made once.
    let goal = options
        .rapfi_only
        .then(|| targets(data, &[0.0; FITTED_RULES.len()], 1.0));
    let loss = |k: f64| match &goal {
        Some(goal) => mean_losses(data, tables, rule, k, |i, _| goal[i]).0,
        None => losses(data, tables, rule, k).0,
    };
    let mut k = 0.001;
    let mut best = loss(k);
    for step in [1.5, 1.1, 1.02] {
        loop {
            let up = loss(k * step);
            let down = loss(k / step);
            if up < best && up <= down {
                (best, k) = (up, k * step);
            } else if down < best {
                (best, k) = (down, k / step);
            } else {
                break;
            }
        }
    }
    k
}

/// What each position is fitted to: its result, blended with its search score read as an
/// expected result where it has one (wuzi's at the rule's scale, Rapfi's at its own).
fn targets(data: &Data, scales: &[f64], share: f64) -> Vec<f64> {
    data.rows
        .iter()
        .map(|r| {
            let result = f64::from(r.result);
            let expected = match r.score {
                Some(Score::Wuzi(s)) => sigmoid(scales[r.rule as usize] * f64::from(s)),
                Some(Score::Rapfi(v)) => sigmoid(f64::from(v) / RAPFI_SCALE),
                None => return result,
            };
            (1.0 - share) * result + share * expected
        })
        .collect()
}

/// Fits `tables` (from their current entries) to the trained-on positions of `data`, each
/// rule at its scale `scales[rule]`, pulled toward `anchor`. Returns the final mean loss
/// against the targets.
pub fn fit(
    data: &Data,
    tables: &mut Tables,
    anchor: &Tables,
    scales: &[f64],
    options: &Options,
    mut progress: impl FnMut(usize, f64),
) -> f64 {
    assert_eq!(tables.model, data.model);
    let n = tables.w.len();
    let goal = targets(data, scales, options.score_share);
    let train: Vec<usize> = (0..data.rows.len())
        .filter(|&i| !data.rows[i].held_out)
        .collect();
    let count = train.len().max(1) as f64;
    let prior = 1.0 / (options.prior * options.prior * count);
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    let mut gradient = vec![0.0; n];
    let mut loss = f64::NAN;
    for t in 1..=options.iterations {
        gradient.fill(0.0);
        let mut total = 0.0;
        for &i in &train {
            let row = &data.rows[i];
            let k = scales[row.rule as usize];
            let p = sigmoid(k * data.eval(row, &tables.w));
            total += cross_entropy(p, goal[i]);
            let g = k * (p - goal[i]) / count;
            for &(j, c) in &data.features[row.start as usize..row.end as usize] {
                gradient[j as usize] += g * f64::from(c);
            }
        }
        loss = total / count;
        let rate = options.rate * (1.0 - 0.9 * (t - 1) as f64 / options.iterations as f64);
        let (b1, b2) = (0.9f64, 0.999f64);
        for j in 0..n {
            let g = gradient[j] + prior * (tables.w[j] - anchor.w[j]);
            if g == 0.0 && m[j] == 0.0 {
                continue;
            }
            m[j] = b1 * m[j] + (1.0 - b1) * g;
            v[j] = b2 * v[j] + (1.0 - b2) * g * g;
            let m_hat = m[j] / (1.0 - b1.powi(t as i32));
            let v_hat = v[j] / (1.0 - b2.powi(t as i32));
            tables.w[j] -= rate * m_hat / (v_hat.sqrt() + 1e-12);
        }
        progress(t, loss);
    }
    loss
}

/// The fitted tables' entries that data moved: shape codes seen in the trained-on positions
/// of each slot, as (slot, seen codes).
pub fn coverage(data: &Data) -> Vec<(EvalSlot, usize)> {
    let mut seen = vec![false; Tables::len(data.model)];
    for row in data.rows.iter().filter(|r| !r.held_out) {
        for &(j, _) in &data.features[row.start as usize..row.end as usize] {
            seen[j as usize] = true;
        }
    }
    EvalSlot::ALL
        .iter()
        .map(|&slot| {
            let codes = (0..SHAPE_CODES)
                .filter(|&c| {
                    (0..data.model.tables_per_slot())
                        .any(|role| seen[Tables::cell_index(data.model, slot, role, c)])
                })
                .count();
            (slot, codes)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::pattern::Combo;
    use crate::board::Board;
    use crate::position::Position;
    use crate::search::pvs::evaluate;
    use crate::tune::samples::{is_quiet, sample_of};
    use crate::types::Pos;
    use rand::{Rng, SeedableRng};

    /// The fit's evaluation of a sample is the engine's evaluation of its position, for the
    /// classic and the learned values, on random games of every fitted rule: a fit made here
    /// is a fit of the real evaluation.
    #[test]
    fn the_fits_evaluation_is_the_engines() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(75);
        let mut counts = [0; SHAPE_CODES];
        let mut checked = 0;
        for values in [CellValues::Classic, CellValues::Learned] {
            let tables = Tables::of_values(values);
            let split = Tables::classic(Model::Split);
            for rule in FITTED_RULES {
                for _game in 0..20 {
                    let board = Board::new(15, 15, rule).expect("a board");
                    let mut pos = Position::with_values(&board, values);
                    pos.make_move(Pos::new(7, 7));
                    for _ in 0..60 {
                        if is_quiet(&pos) {
                            let s = sample_of(&pos, None, &mut counts);
                            // `evaluate` divides by 8 in integers: within one point.
                            let (fitted, real) =
                                (evaluation(&tables, rule, &s), f64::from(evaluate(&pos)));
                            assert!((fitted - real).abs() < 1.0, "{fitted} against {real}");
                            if values == CellValues::Classic {
                                let other = evaluation(&split, rule, &s);
                                assert!((other - real).abs() < 1.0, "{other} against {real}");
                            }
                            checked += 1;
                        }
                        let mut near = Vec::new();
                        pos.for_each_candidate(|p| near.push(p));
                        near.retain(|&p| !pos.is_forbidden(p));
                        if near.is_empty() || pos.combo_count(pos.side_to_move(), Combo::Five) > 0 {
                            break;
                        }
                        pos.make_move(near[rng.gen_range(0..near.len())]);
                    }
                }
            }
        }
        assert!(checked > 2000, "only {checked} positions checked");
    }

    #[test]
    fn held_out_games_are_about_the_share_asked_for() {
        let held = (0..10_000)
            .filter(|&n| is_held_out("batch-freestyle-self-3", n, 1, 100))
            .count();
        assert!((850..1150).contains(&held), "{held}");
        let other_seed = (0..10_000)
            .filter(|&n| is_held_out("batch-freestyle-self-3", n, 2, 100))
            .count();
        assert!((850..1150).contains(&other_seed), "{other_seed}");
        let same = (0..10_000)
            .filter(|&n| {
                is_held_out("batch-freestyle-self-3", n, 1, 100)
                    == is_held_out("batch-freestyle-self-3", n, 2, 100)
            })
            .count();
        assert!(same < 9_500, "the seed changes the split");
    }

    /// Options that read every position of every fitted rule, none held out, for the tests of
    /// which positions [`Data::new`] keeps.
    fn one_pass_options() -> Options {
        Options {
            model: Model::Shared,
            seed: 1,
            held_out_permille: 0,
            iterations: 1,
            rate: 1.0,
            prior: 100.0,
            score_share: 0.0,
            rapfi_only: false,
            skip_last: 0,
            rules: FITTED_RULES.to_vec(),
            start: CellValues::Classic,
        }
    }

    /// A position of `stones` stones with one cell entry per side, `mover` to move.
    fn filter_sample(stones: u16, mover: crate::types::Color, score: Option<Score>) -> Sample {
        Sample {
            stones,
            mover,
            threat_state: 0,
            score,
            cells: [vec![(1, 10)], vec![(2, 20)]],
        }
    }

    /// One record file holding one 15x15 game of `rule` with these positions.
    fn one_game_file(
        rule: Rule,
        black_halves: u8,
        samples: Vec<Sample>,
    ) -> Vec<(String, Vec<Game>)> {
        let game = Game {
            number: 1,
            rule,
            width: 15,
            height: 15,
            black_halves,
            samples,
        };
        vec![("batch".to_string(), vec![game])]
    }

    /// `rapfi_only` keeps the positions with a Rapfi value and drops those with a Rapfi mate,
    /// a wuzi score or none.
    #[test]
    fn rapfi_only_keeps_rapfi_values() {
        let sample = |score| filter_sample(3, crate::types::Color::White, score);
        let samples = vec![
            sample(Some(Score::Rapfi(120))),
            sample(Some(Score::Rapfi(RAPFI_MATE))),
            sample(Some(Score::Rapfi(-RAPFI_MATE))),
            sample(Some(Score::Wuzi(40))),
            sample(None),
            sample(Some(Score::Rapfi(-300))),
        ];
        let files = one_game_file(Rule::Freestyle, 2, samples);
        let mut options = Options {
            score_share: 1.0,
            ..one_pass_options()
        };
        assert_eq!(Data::new(&files, &options).counts(0), (6, 0));
        options.rapfi_only = true;
        let data = Data::new(&files, &options);
        assert_eq!(data.counts(0), (2, 0));
        assert_eq!(data.scored(), (0, 2));
    }

    /// `skip_last` leaves out the positions within that many plies of the game's last one.
    #[test]
    fn skip_last_leaves_out_the_end_of_each_game() {
        let samples = (6..=30)
            .map(|stones| filter_sample(stones, crate::types::Color::Black, None))
            .collect();
        let files = one_game_file(Rule::Renju, 0, samples);
        let mut options = one_pass_options();
        let renju = FITTED_RULES.iter().position(|&r| r == Rule::Renju).unwrap();
        assert_eq!(Data::new(&files, &options).counts(renju), (25, 0));
        options.skip_last = 10;
        // 30 - 10 = 20: positions of 6..=20 stones stay.
        assert_eq!(Data::new(&files, &options).counts(renju), (15, 0));
        options.skip_last = 40;
        assert_eq!(Data::new(&files, &options).counts(renju), (0, 0));
    }
}
