//! Fitting the move ordering of free positions ([`crate::search::order_weights`]) to the moves
//! players made in match records (behind `wuzi-tune order`).
//!
//! A candidate's ordering score is linear in its features: for the mover and for the
//! opponent, the weight of each of its four line shapes and of its combined shape
//! ([`cell_features`]; the unit test checks this against the move generator). Under a softmax
//! of the scores times a scale, the played move should have the highest chance: the fit
//! lowers that cross-entropy by full-batch Adam, starting from the engine's table, with the
//! scale fitted to the engine's table first and then kept, so the weights come out in the
//! engine's units. Every fifth block of 64 positions is held out to judge the fit.

use super::json::{self, Value};
use crate::arena::game::parse_move;
use crate::board::pattern::{Combo, Pattern};
use crate::board::Board;
use crate::position::Position;
use crate::search::movegen::{self, Situation};
use crate::search::order_weights::OrderWeights;
use crate::types::{Color, Pos, Rule};

const PATTERNS: usize = Pattern::COUNT;
/// Weights per side: line shapes, then combined shapes.
const SIDE_FEATURES: usize = PATTERNS + Combo::COUNT;
/// Weights in all: the mover's, then the opponent's.
pub const FEATURES: usize = 2 * SIDE_FEATURES;

/// The features of a candidate, as indices into the [`FEATURES`] weights: per side, its four
/// line shapes (one per direction) and its combined shape.
pub type CellFeatures = [u8; 10];

/// The features of the empty point `p` for the side to move.
pub fn cell_features(pos: &Position, p: Pos) -> CellFeatures {
    let me = pos.side_to_move();
    let mut f = [0u8; 10];
    for (side, color) in [me, me.opponent()].into_iter().enumerate() {
        let shape = pos.shape(p, color);
        let base = side * SIDE_FEATURES;
        let slots = &mut f[side * 5..side * 5 + 5];
        for (slot, pattern) in slots.iter_mut().zip(shape.patterns()) {
            *slot = (base + pattern as usize) as u8;
        }
        slots[4] = (base + PATTERNS + shape.combo() as usize) as u8;
    }
    f
}

/// A table's weights in [`FEATURES`] order.
pub fn weights_of(table: &OrderWeights) -> [f64; FEATURES] {
    let mut w = [0f64; FEATURES];
    for side in 0..2 {
        let base = side * SIDE_FEATURES;
        for (j, &v) in table.lines[side].iter().enumerate() {
            w[base + j] = f64::from(v);
        }
        for (j, &v) in table.combos[side].iter().enumerate() {
            w[base + PATTERNS + j] = f64::from(v);
        }
    }
    w
}

/// The table of weights `w`, rounded to whole points.
pub fn table_of(w: &[f64; FEATURES]) -> OrderWeights {
    let mut table = OrderWeights {
        lines: [[0; Pattern::COUNT]; 2],
        combos: [[0; Combo::COUNT]; 2],
    };
    for side in 0..2 {
        let base = side * SIDE_FEATURES;
        for (j, v) in table.lines[side].iter_mut().enumerate() {
            *v = w[base + j].round() as i32;
        }
        for (j, v) in table.combos[side].iter_mut().enumerate() {
            *v = w[base + PATTERNS + j].round() as i32;
        }
    }
    table
}

/// Which positions of the records the fit learns from.
#[derive(Clone, Debug)]
pub struct Filter {
    /// Games under this rule only.
    pub rule: Rule,
    /// On square boards of this size only.
    pub size: usize,
    /// Only this colour's moves, if set (renju orders each colour by its own table).
    pub mover: Option<Color>,
    /// Only these players' moves; empty: everybody's.
    pub moves_of: Vec<String>,
    /// Games of these players are left out (much weaker or different engines say more about
    /// the opponent than about the position).
    pub exclude: Vec<String>,
}

/// A free position's candidates and which of them was played.
#[derive(Clone, Debug)]
pub struct Choice {
    /// Each candidate's features, in the generator's order.
    pub candidates: Vec<CellFeatures>,
    /// Index of the played move in `candidates`.
    pub played: usize,
}

/// The ends of a game that say its moves were played to win: a five or a full board.
const KEPT_REASONS: [&str; 2] = ["five", "board full"];

/// Moves after the opening that are skipped: the first few follow the opening more than the
/// position.
const SKIPPED_MOVES: usize = 4;

/// Appends to `out` the choices of one record line that `filter` keeps: from the fifth move
/// after the opening on, every position where nothing is forced and the played move is one
/// of the generator's candidates. Returns whether the game was read (false for another rule
/// or size, an end that says nothing, an excluded player or a broken record).
pub fn read_game(line: &str, filter: &Filter, out: &mut Vec<Choice>) -> bool {
    let Ok(game) = json::parse(line) else {
        return false;
    };
    let text = |key: &str| game.get(key).and_then(Value::as_str);
    let players = [text("black").unwrap_or(""), text("white").unwrap_or("")];
    let size = filter.size as u64;
    if text("rule").and_then(Rule::from_name) != Some(filter.rule)
        || !text("reason").is_some_and(|r| KEPT_REASONS.contains(&r))
        || players
            .iter()
            .any(|p| filter.exclude.iter().any(|e| e == p))
        || game.get("width").and_then(Value::as_u64) != Some(size)
        || game.get("height").and_then(Value::as_u64) != Some(size)
    {
        return false;
    }
    let Ok(board) = Board::new(filter.size, filter.size, filter.rule) else {
        return false;
    };
    // A point off the board ends its list there: the record is cut short, not trusted.
    let points = |key: &str| -> Vec<Pos> {
        let list = game.get(key).and_then(Value::as_array).unwrap_or(&[]);
        list.iter()
            .map_while(|v| {
                let (x, y) = parse_move(v.as_str()?)?;
                let on = |c: i64| (0..size as i64).contains(&c);
                (on(x) && on(y)).then(|| Pos::new(x as usize, y as usize))
            })
            .collect()
    };
    let mut pos = Position::new(&board);
    for p in points("opening") {
        if !pos.board().is_empty(p) {
            return false;
        }
        pos.make_move(p);
    }
    let mut moves = Vec::new();
    for (i, p) in points("moves").into_iter().enumerate() {
        if !pos.board().is_empty(p) {
            break;
        }
        let mover = pos.side_to_move();
        let name = players[mover.index()];
        if i >= SKIPPED_MOVES
            && filter.mover.is_none_or(|c| c == mover)
            && (filter.moves_of.is_empty() || filter.moves_of.iter().any(|n| n == name))
            && movegen::generate(&pos, &mut moves) == Situation::Free
        {
            if let Some(played) = moves.iter().position(|m| m.0 == p) {
                let candidates = moves.iter().map(|m| cell_features(&pos, m.0)).collect();
                out.push(Choice { candidates, played });
            }
        }
        pos.make_move(p);
    }
    true
}

/// The choices split into those trained on and those held out (every fifth block of 64,
/// so that a game's positions mostly fall on one side).
pub fn split(choices: &[Choice]) -> (Vec<&Choice>, Vec<&Choice>) {
    choices
        .iter()
        .enumerate()
        .fold((Vec::new(), Vec::new()), |(mut train, mut held), (i, c)| {
            if i / 64 % 5 == 0 {
                held.push(c);
            } else {
                train.push(c);
            }
            (train, held)
        })
}

/// The candidates' scores under weights `w`, times `scale`.
fn logits(c: &Choice, w: &[f64; FEATURES], scale: f64) -> Vec<f64> {
    c.candidates
        .iter()
        .map(|f| scale * f.iter().map(|&j| w[j as usize]).sum::<f64>())
        .collect()
}

/// The softmax of `z`: each candidate's chance.
fn softmax(z: &[f64]) -> Vec<f64> {
    let max = z.iter().copied().fold(f64::MIN, f64::max);
    let e: Vec<f64> = z.iter().map(|v| (v - max).exp()).collect();
    let total: f64 = e.iter().sum();
    e.into_iter().map(|x| x / total).collect()
}

/// How well an ordering predicts the played moves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stats {
    /// Mean cross-entropy of the played moves under the softmax.
    pub cross_entropy: f64,
    /// Share of positions where the played move scores highest (ties count against).
    pub first: f64,
    /// Share where it is among the ten highest.
    pub within_ten: f64,
}

/// The [`Stats`] of weights `w` at `scale` on `choices` (all zero when there are none).
pub fn stats(choices: &[&Choice], w: &[f64; FEATURES], scale: f64) -> Stats {
    let (mut loss, mut first, mut within) = (0.0, 0usize, 0usize);
    for c in choices {
        let z = logits(c, w, scale);
        loss -= softmax(&z)[c.played].ln();
        let rank = z.iter().filter(|&&v| v >= z[c.played]).count();
        first += usize::from(rank == 1);
        within += usize::from(rank <= 10);
    }
    let n = choices.len().max(1) as f64;
    Stats {
        cross_entropy: loss / n,
        first: first as f64 / n,
        within_ten: within as f64 / n,
    }
}

/// The softmax's scale (from 0.001, in steps of 10 %, up to 80 of them) at which the
/// cross-entropy of `w` on `choices` is least.
pub fn fit_scale(choices: &[&Choice], w: &[f64; FEATURES]) -> f64 {
    let loss = |scale| stats(choices, w, scale).cross_entropy;
    let mut scale = 0.001;
    let mut best = loss(scale);
    for _ in 0..80 {
        for candidate in [scale * 1.1, scale / 1.1] {
            let l = loss(candidate);
            if l < best {
                (best, scale) = (l, candidate);
            }
        }
    }
    scale
}

/// Adam's step size, in the softmax's units.
const RATE: f64 = 0.02;

/// The weights fitted to `train` from `start` at `scale` by `iterations` Adam steps. Every
/// line shape but Dead and every combined shape but None of each side is fitted (a constant
/// added to all four directions' or to every combination's weight moves every candidate
/// alike).
pub fn fit(
    train: &[&Choice],
    start: &[f64; FEATURES],
    scale: f64,
    iterations: u32,
) -> [f64; FEATURES] {
    let fitted: Vec<usize> = (0..FEATURES)
        .filter(|&j| j % SIDE_FEATURES != 0 && j % SIDE_FEATURES != PATTERNS)
        .collect();
    let mut u = start.map(|w| w * scale);
    let (mut m, mut v) = ([0f64; FEATURES], [0f64; FEATURES]);
    let n = train.len().max(1) as f64;
    for t in 1..=iterations as i32 {
        let mut gradient = [0f64; FEATURES];
        for c in train {
            let p = softmax(&logits(c, &u, 1.0));
            for (f, p) in c.candidates.iter().zip(&p) {
                for &j in f {
                    gradient[j as usize] += p / n;
                }
            }
            for &j in &c.candidates[c.played] {
                gradient[j as usize] -= 1.0 / n;
            }
        }
        for &j in &fitted {
            m[j] = 0.9 * m[j] + 0.1 * gradient[j];
            v[j] = 0.999 * v[j] + 0.001 * gradient[j] * gradient[j];
            let m_hat = m[j] / (1.0 - 0.9f64.powi(t));
            let v_hat = v[j] / (1.0 - 0.999f64.powi(t));
            u[j] -= RATE * m_hat / (v_hat.sqrt() + 1e-12);
        }
    }
    u.map(|x| x / scale)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::order_weights;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// The generator's score of every candidate of a free position is its features' weights
    /// summed, under every rule's tables, so that a fit made here is a fit of the real
    /// ordering.
    #[test]
    fn features_times_weights_is_the_generators_score() {
        let mut rng = StdRng::seed_from_u64(11);
        let (mut checked, mut moves, mut near) = (0, Vec::new(), Vec::new());
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
            for _game in 0..10 {
                let mut pos = Position::new(&Board::new(15, 15, rule).unwrap());
                pos.make_move(Pos::new(7, 7));
                for _ in 0..50 {
                    if movegen::generate(&pos, &mut moves) == Situation::Free {
                        let w = weights_of(order_weights::weights(rule, pos.side_to_move()));
                        for &(p, score) in &moves {
                            let f = cell_features(&pos, p);
                            let sum: f64 = f.iter().map(|&j| w[j as usize]).sum();
                            assert_eq!(sum, f64::from(score), "{rule:?} at {p:?}");
                            checked += 1;
                        }
                    }
                    near.clear();
                    pos.for_each_candidate(|p| near.push(p));
                    near.retain(|&p| !pos.is_forbidden(p));
                    if near.is_empty() || pos.combo_count(pos.side_to_move(), Combo::Five) > 0 {
                        break;
                    }
                    pos.make_move(near[rng.gen_range(0..near.len())]);
                }
            }
        }
        assert!(checked > 10_000, "only {checked} candidates checked");
    }

    #[test]
    fn table_and_weights_round_trip() {
        for table in [order_weights::FREESTYLE, order_weights::RENJU_WHITE] {
            assert_eq!(table_of(&weights_of(&table)), table);
        }
    }

    /// Players who always take the candidate with the opponent's open three, where the
    /// starting weights prefer another: the fit raises that shape's weight for the opponent's
    /// side until it ranks first, and lowers the cross-entropy.
    #[test]
    fn the_fit_learns_the_played_feature() {
        let three = SIDE_FEATURES + Pattern::Three as usize;
        let other = Pattern::FlexThree as usize;
        let quiet = Pattern::One as usize;
        let cell = |a: usize| {
            [
                a,
                a,
                a,
                a,
                PATTERNS,
                SIDE_FEATURES,
                SIDE_FEATURES,
                SIDE_FEATURES,
                SIDE_FEATURES,
                SIDE_FEATURES + PATTERNS,
            ]
            .map(|j| j as u8)
        };
        let choices: Vec<Choice> = (0..50)
            .map(|i| {
                let mut candidates = vec![cell(other), cell(quiet), cell(quiet)];
                let mut block = cell(quiet);
                block[5] = three as u8;
                candidates.insert(i % 4, block);
                Choice {
                    candidates,
                    played: i % 4,
                }
            })
            .collect();
        let all: Vec<&Choice> = choices.iter().collect();
        let start = weights_of(&OrderWeights::CELL_VALUES);
        let scale = fit_scale(&all, &start);
        let before = stats(&all, &start, scale);
        let fitted = fit(&all, &start, scale, 300);
        let after = stats(&all, &fitted, scale);
        assert!(before.first < 1.0, "{before:?}");
        assert_eq!(after.first, 1.0, "{after:?}");
        assert!(after.cross_entropy < before.cross_entropy);
        assert!(fitted[three] > start[three]);
    }
}
