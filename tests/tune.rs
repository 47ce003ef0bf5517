//! Fitting the shape weights of `src/eval.rs` to game results (the Texel method).
//!
//! The evaluation is linear in its weights: for each colour, the number of (empty cell,
//! direction) pairs with each line shape, the number of empty cells with each combined shape,
//! and a flag for the threat state (`threat_state`). [`features`] reads those counts from a
//! position, and the test below checks that the weights times the counts give exactly what
//! [`evaluate`] gives, so a fit made here is a fit of the real evaluation.
//!
//! The fit itself reads `wuzi-match --jsonl` records and is run by hand:
//!
//! ```text
//! WUZI_TUNE_RECORDS="a.jsonl b.jsonl" cargo test --release --test tune -- --ignored --nocapture
//! ```
//!
//! Optional: `WUZI_TUNE_RULE` (default `freestyle`; a comma-separated list fits one table to
//! the games of several rules, as the engine uses one; renju has its own threat states, so
//! it is fitted alone), `WUZI_TUNE_SIZE` (square boards of this size only, default 15),
//! `WUZI_TUNE_EXCLUDE` (comma-separated player names whose games are left out, default
//! `one-ply,threatspace`: games against much weaker or different engines say more about the
//! opponent than about the position), `WUZI_TUNE_ITERATIONS` (default 1000),
//! `WUZI_TUNE_STATES_ONLY=1` (keep the shape tables, fit the threat states alone),
//! `WUZI_TUNE_SHAPES_ONLY=1` (keep the threat states, fit the shape tables alone),
//! `WUZI_TUNE_SCORE_SHARE` (0 to 1, default 0: how much of each position's target is the
//! score of the mover's last completed depth in the record's messages, read as an expected
//! result, rather than the game's result; positions without a score keep the result). It
//! prints the fitted tables; a match decides whether they are kept.
//!
//! The move ordering is fitted by `wuzi-tune order` (`src/tune/order.rs`).

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::Value;
use wuzi::arena::game::parse_move;
use wuzi::board::pattern::{Combo, Pattern};
use wuzi::board::Board;
use wuzi::eval::{
    threat_bonus, COMBO_BONUS, MOVER_EIGHTHS, OPPONENT_EIGHTHS, PATTERN_WEIGHT, THREAT_STATES,
};
use wuzi::position::Position;
use wuzi::search::pvs::{evaluate, threat_state};
use wuzi::types::{Color, Pos, Rule};

const PATTERNS: usize = Pattern::COUNT;
const COMBOS: usize = Combo::COUNT;
/// Line shapes, combined shapes, one flag per threat state.
const FEATURES: usize = PATTERNS + COMBOS + THREAT_STATES;
/// Index of the first threat-state flag.
const STATES: usize = PATTERNS + COMBOS;

/// The evaluation's inputs for the side to move, mixed as `evaluate` mixes them (the mover's
/// counts weigh [`MOVER_EIGHTHS`]/8, the opponent's -[`OPPONENT_EIGHTHS`]/8). `None` where
/// the position is decided by the next move or two (a five to make or to block, or a flexible
/// or double four of the mover), which the search reads out and the evaluation never sees.
fn features(pos: &Position) -> Option<[f64; FEATURES]> {
    let me = pos.side_to_move();
    let op = me.opponent();
    if pos.combo_count(me, Combo::Five) + pos.combo_count(op, Combo::Five) > 0
        || pos.combo_count(me, Combo::FlexFour) + pos.combo_count(me, Combo::DoubleFour) > 0
    {
        return None;
    }
    let mut counts = [[0f64; PATTERNS + COMBOS]; 2];
    for p in pos.board().empty_cells() {
        for color in Color::ALL {
            let shape = pos.shape(p, color);
            for pattern in shape.patterns() {
                counts[color.index()][pattern as usize] += 1.0;
            }
            counts[color.index()][PATTERNS + shape.combo() as usize] += 1.0;
        }
    }
    let (mine, theirs) = (MOVER_EIGHTHS as f64 / 8.0, OPPONENT_EIGHTHS as f64 / 8.0);
    let mut x = [0f64; FEATURES];
    for (j, v) in x.iter_mut().enumerate().take(PATTERNS + COMBOS) {
        *v = mine * counts[me.index()][j] - theirs * counts[op.index()][j];
    }
    x[STATES + threat_state(pos)] = 1.0;
    Some(x)
}

/// The weights of `src/eval.rs` that `rule` plays with, in feature order.
fn current_weights(rule: Rule) -> [f64; FEATURES] {
    let mut w = [0f64; FEATURES];
    for (j, &v) in PATTERN_WEIGHT.iter().enumerate() {
        w[j] = v as f64;
    }
    for (j, &v) in COMBO_BONUS.iter().enumerate() {
        w[PATTERNS + j] = v as f64;
    }
    for (j, &v) in threat_bonus(rule).iter().enumerate() {
        w[STATES + j] = v as f64;
    }
    w
}

/// Plays a random legal move among the candidates near the stones; false, playing nothing,
/// when there is none or the side to move has a five to make (the game is over).
fn random_move_near_the_stones(pos: &mut Position, rng: &mut StdRng) -> bool {
    let mut near = Vec::new();
    pos.for_each_candidate(|p| near.push(p));
    near.retain(|&p| !pos.is_forbidden(p));
    if near.is_empty() || pos.combo_count(pos.side_to_move(), Combo::Five) > 0 {
        return false;
    }
    pos.make_move(near[rng.gen_range(0..near.len())]);
    true
}

fn dot(x: &[f64; FEATURES], w: &[f64; FEATURES]) -> f64 {
    x.iter().zip(w).map(|(a, b)| a * b).sum()
}

#[test]
fn features_times_weights_is_the_evaluation() {
    let mut rng = StdRng::seed_from_u64(7);
    let mut checked = 0;
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro] {
        let w = current_weights(rule);
        for _game in 0..20 {
            let mut pos = Position::new(&Board::new(15, 15, rule).unwrap());
            pos.make_move(Pos::new(7, 7));
            for _ in 0..60 {
                if let Some(x) = features(&pos) {
                    // `evaluate` divides by 8 in integers: the two agree to within one point.
                    let (fitted, real) = (dot(&x, &w), evaluate(&pos) as f64);
                    assert!((fitted - real).abs() < 1.0, "{fitted} against {real}");
                    checked += 1;
                }
                // Random moves near the stones, so that shapes of every kind turn up.
                if !random_move_near_the_stones(&mut pos, &mut rng) {
                    break;
                }
            }
        }
    }
    assert!(checked > 1000, "only {checked} positions checked");
}

#[test]
fn search_scores_keep_each_plys_last_depth() {
    let game: Value = serde_json::from_str(
        r#"{"messages":[
            {"ply":4,"color":"black","text":"depth 1 score 370 nodes 582 pv 4,8"},
            {"ply":4,"color":"black","text":"depth 2 score -145 nodes 839 pv 4,5 6,8"},
            {"ply":5,"color":"white","text":"vcf win in 5"},
            {"ply":6,"color":"black","text":"depth 3 score x nodes 1"},
            {"ply":7,"color":"white","text":"depth 5 score 42 nodes 9"}
        ]}"#,
    )
    .expect("valid JSON");
    let scores = search_scores(&game);
    assert_eq!(scores.get(&4), Some(&-145.0));
    assert_eq!(scores.get(&7), Some(&42.0));
    assert_eq!(scores.len(), 2, "{scores:?}");
}

/// One position of a recorded game, the mover's result (1, 1/2 or 0) and, when the record
/// has one, the score of the mover's last completed depth.
struct Sample {
    x: [f64; FEATURES],
    result: f64,
    score: Option<f64>,
}

/// The score of the last `depth D score S ...` message of each ply in a record (the
/// mover's view; the deepest completed iteration comes last).
fn search_scores(game: &Value) -> std::collections::HashMap<u64, f64> {
    let mut scores = std::collections::HashMap::new();
    for m in game["messages"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or(&[])
    {
        let (Some(ply), Some(text)) = (m["ply"].as_u64(), m["text"].as_str()) else {
            continue;
        };
        let mut words = text.split_whitespace();
        if words.next() != Some("depth") || words.nth(1) != Some("score") {
            continue;
        }
        if let Some(score) = words.next().and_then(|w| w.parse::<f64>().ok()) {
            scores.insert(ply, score);
        }
    }
    scores
}

/// A recorded `"x,y"` point on a `size` x `size` board (read as the match runner reads
/// moves).
fn parse_point(v: &Value, size: usize) -> Option<Pos> {
    let (x, y) = parse_move(v.as_str()?)?;
    let on_board = |c: i64| (0..size as i64).contains(&c);
    (on_board(x) && on_board(y)).then(|| Pos::new(x as usize, y as usize))
}

/// One position of a recorded game, from the fifth move after the opening on, as
/// [`walk_records`] shows it: the position before the move, the game's result for black (1,
/// 1/2 or 0) and the record's search score for this ply, if any.
struct Visit<'a> {
    pos: &'a Position,
    black_result: f64,
    score: Option<f64>,
}

/// Walks every finished game of the records under one of the settings' rules and on its
/// board size (games of the players it excludes left out) and shows `visit` each position
/// from the fifth move after the opening on. Returns the number of games walked.
fn walk_records(settings: &Settings, mut visit: impl FnMut(Visit)) -> usize {
    let Settings {
        paths,
        rules,
        size,
        exclude,
        ..
    } = settings;
    let size = *size;
    let mut games = 0;
    for path in paths.split_whitespace() {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        for line in text.lines() {
            let Ok(game) = serde_json::from_str::<Value>(line) else {
                continue;
            };
            let players = [&game["black"], &game["white"]].map(|v| v.as_str().unwrap_or(""));
            let Some(rule) = rules
                .iter()
                .find(|r| game["rule"] == r.as_str())
                .and_then(|r| Rule::from_name(r))
            else {
                continue;
            };
            if !matches!(game["reason"].as_str(), Some("five" | "board full"))
                || players.iter().any(|p| exclude.iter().any(|e| e == p))
            {
                continue;
            }
            if game["width"].as_u64() != Some(size) || game["height"].as_u64() != Some(size) {
                continue;
            }
            let Ok(board) = Board::new(size as usize, size as usize, rule) else {
                continue;
            };
            let black_result = match game["result"].as_str() {
                Some("1-0") => 1.0,
                Some("0-1") => 0.0,
                _ => 0.5,
            };
            // Points off the board end the list there: the record is cut short, not trusted.
            let points = |key: &str| -> Vec<Pos> {
                let list = game[key].as_array().map(Vec::as_slice).unwrap_or(&[]);
                list.iter()
                    .map_while(|v| parse_point(v, size as usize))
                    .collect()
            };
            // A record that repeats a point is skipped (in its opening) or cut short.
            let mut pos = Position::new(&board);
            let opening = points("opening");
            let mut unique = std::collections::HashSet::new();
            if !opening.iter().all(|&p| unique.insert(p)) {
                continue;
            }
            for &p in &opening {
                pos.make_move(p);
            }
            games += 1;
            let scores = search_scores(&game);
            for (i, p) in points("moves").into_iter().enumerate() {
                if !pos.board().is_empty(p) {
                    break;
                }
                if i >= 4 {
                    visit(Visit {
                        pos: &pos,
                        black_result,
                        score: scores.get(&((opening.len() + i) as u64)).copied(),
                    });
                }
                pos.make_move(p);
            }
        }
    }
    games
}

/// The evaluation's samples of the records (see [`walk_records`]): every position
/// [`features`] reads.
fn samples(settings: &Settings) -> (usize, Vec<Sample>) {
    let mut out = Vec::new();
    let games = walk_records(settings, |v| {
        if let Some(x) = features(v.pos) {
            let result = match v.pos.side_to_move() {
                Color::Black => v.black_result,
                Color::White => 1.0 - v.black_result,
            };
            out.push(Sample {
                x,
                result,
                score: v.score,
            });
        }
    });
    (games, out)
}

/// An evaluation or search score read as an expected result: `1 / (1 + e^(-k * score))`.
fn expected_result(k: f64, score: f64) -> f64 {
    1.0 / (1.0 + (-k * score).exp())
}

/// Mean squared error of the predicted results ([`expected_result`] of the evaluation)
/// against each sample's target.
fn loss(samples: &[Sample], w: &[f64; FEATURES], k: f64, target: &[f64]) -> f64 {
    let sum: f64 = samples
        .iter()
        .zip(target)
        .map(|(s, t)| (expected_result(k, dot(&s.x, w)) - t).powi(2))
        .sum();
    sum / samples.len() as f64
}

/// What each sample is fitted to: its result, mixed with the search's score where the record
/// has one, `score_share` of it read as an expected result.
fn targets(samples: &[Sample], k: f64, score_share: f64) -> Vec<f64> {
    samples
        .iter()
        .map(|s| match s.score {
            Some(score) if score_share > 0.0 => {
                (1.0 - score_share) * s.result + score_share * expected_result(k, score)
            }
            _ => s.result,
        })
        .collect()
}

/// The environment variable `key`, or `default` when it is not set.
fn env(key: &str, default: &str) -> String {
    std::env::var(key).unwrap_or_else(|_| default.into())
}

/// The comma-separated list in the environment variable `key`, or in `default`.
fn env_list(key: &str, default: &str) -> Vec<String> {
    env(key, default).split(',').map(str::to_string).collect()
}

/// What both fits read: `WUZI_TUNE_RECORDS`, `WUZI_TUNE_RULE`, `WUZI_TUNE_EXCLUDE`,
/// `WUZI_TUNE_SIZE` and `WUZI_TUNE_ITERATIONS` (see the top of this file).
struct Settings {
    paths: String,
    rules: Vec<String>,
    exclude: Vec<String>,
    size: u64,
    iterations: i32,
}

impl Settings {
    fn from_env(default_iterations: &str) -> Settings {
        Settings {
            paths: env("WUZI_TUNE_RECORDS", ""),
            rules: env_list("WUZI_TUNE_RULE", "freestyle"),
            exclude: env_list("WUZI_TUNE_EXCLUDE", "one-ply,threatspace"),
            size: env("WUZI_TUNE_SIZE", "15")
                .parse()
                .expect("WUZI_TUNE_SIZE: a board size"),
            iterations: env("WUZI_TUNE_ITERATIONS", default_iterations)
                .parse()
                .expect("WUZI_TUNE_ITERATIONS: a count"),
        }
    }
}

/// The scale (from 0.001, in steps of 10 %, up to 80 of them) at which `loss` is least, and
/// that loss: the sigmoid's `k` of the evaluation fit.
fn fit_scale(loss: impl Fn(f64) -> f64) -> (f64, f64) {
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
    (scale, best)
}

/// The weights of `w` in `range`, rounded to whole points for printing.
fn rounded(w: &[f64], range: std::ops::Range<usize>) -> Vec<i64> {
    range.map(|j| w[j].round() as i64).collect()
}

/// Adam's moment estimates, for a fit of the weights at the indices given to each step.
struct Adam {
    m: Vec<f64>,
    v: Vec<f64>,
}

impl Adam {
    fn new(len: usize) -> Adam {
        Adam {
            m: vec![0.0; len],
            v: vec![0.0; len],
        }
    }

    /// Step `t` (from 1) of about `rate` for each weight of `w` in `fitted`, down `gradient`.
    fn step(&mut self, t: i32, rate: f64, w: &mut [f64], gradient: &[f64], fitted: &[usize]) {
        for &j in fitted {
            self.m[j] = 0.9 * self.m[j] + 0.1 * gradient[j];
            self.v[j] = 0.999 * self.v[j] + 0.001 * gradient[j] * gradient[j];
            let m_hat = self.m[j] / (1.0 - 0.9f64.powi(t));
            let v_hat = self.v[j] / (1.0 - 0.999f64.powi(t));
            w[j] -= rate * m_hat / (v_hat.sqrt() + 1e-12);
        }
    }
}

#[test]
#[ignore = "a tuning run over match records named by WUZI_TUNE_RECORDS"]
fn fit_weights_to_match_records() {
    let settings = Settings::from_env("1000");
    let rules = &settings.rules;
    let rule = |name: &String| {
        Rule::from_name(name).unwrap_or_else(|| panic!("WUZI_TUNE_RULE: unknown rule {name}"))
    };
    let first = rule(&rules[0]);
    assert!(
        rules
            .iter()
            .all(|r| threat_bonus(rule(r)) == threat_bonus(first)),
        "WUZI_TUNE_RULE: these rules play with different threat-state tables"
    );
    let (games, samples) = samples(&settings);
    assert!(!samples.is_empty(), "no positions in WUZI_TUNE_RECORDS");
    println!("{games} games, {} positions", samples.len());

    // The scale k comes from the current weights and stays fixed, so the fitted weights keep
    // the evaluation's scale (the search's windows and margins are in its points).
    let mut w = current_weights(first);
    let results: Vec<f64> = samples.iter().map(|s| s.result).collect();
    let (k, best) = fit_scale(|k| loss(&samples, &w, k, &results));
    println!("k = {k:.6}; loss with the current weights {best:.6}");
    // `WUZI_TUNE_SCORE_SHARE` (0 to 1, default 0): how much of each target is the search's
    // score rather than the game's result.
    let score_share: f64 = env("WUZI_TUNE_SCORE_SHARE", "0")
        .parse()
        .expect("WUZI_TUNE_SCORE_SHARE: a number from 0 to 1");
    assert!(
        (0.0..=1.0).contains(&score_share),
        "WUZI_TUNE_SCORE_SHARE: 0 to 1"
    );
    let target = targets(&samples, k, score_share);
    let scored = samples.iter().filter(|s| s.score.is_some()).count();
    println!(
        "{scored} positions with a search score; loss against the targets {:.6}",
        loss(&samples, &w, k, &target)
    );

    // Fitted: line shapes One..FlexFour, combined shapes DoubleTwo..FlexFour, and the threat
    // states seen in at least MIN_STATE_SAMPLES positions (a rarer state's bonus would follow
    // the results of a few games). Dead and Overline stay 0; fives never occur in the samples.
    const MIN_STATE_SAMPLES: usize = 200;
    let mut seen = [0usize; THREAT_STATES];
    for s in &samples {
        seen[(0..THREAT_STATES)
            .find(|&j| s.x[STATES + j] != 0.0)
            .unwrap_or(0)] += 1;
    }
    // `WUZI_TUNE_STATES_ONLY=1` keeps the shape tables and fits the threat states alone;
    // `WUZI_TUNE_SHAPES_ONLY=1` the other way round.
    let shapes_too = env("WUZI_TUNE_STATES_ONLY", "0") != "1";
    let states_too = env("WUZI_TUNE_SHAPES_ONLY", "0") != "1";
    let fitted: Vec<usize> = (Pattern::One as usize..=Pattern::FlexFour as usize)
        .chain(PATTERNS + Combo::DoubleTwo as usize..=PATTERNS + Combo::FlexFour as usize)
        .filter(|_| shapes_too)
        .chain(
            (0..THREAT_STATES)
                .filter(|&j| states_too && seen[j] >= MIN_STATE_SAMPLES)
                .map(|j| STATES + j),
        )
        .collect();
    // Adam on the mean squared error; steps of about one point.
    let mut adam = Adam::new(FEATURES);
    let n = samples.len() as f64;
    for t in 1..=settings.iterations {
        let mut gradient = [0f64; FEATURES];
        for (s, goal) in samples.iter().zip(&target) {
            let p = expected_result(k, dot(&s.x, &w));
            let common = 2.0 * (p - goal) * p * (1.0 - p) * k / n;
            for (g, x) in gradient.iter_mut().zip(&s.x) {
                *g += common * x;
            }
        }
        adam.step(t, 1.0, &mut w, &gradient, &fitted);
    }
    let round = |range| rounded(&w, range);
    println!(
        "loss with the fitted weights {:.6} (against the results {:.6})",
        loss(&samples, &w, k, &target),
        loss(&samples, &w, k, &results)
    );
    println!("PATTERN_WEIGHT = {:?}", round(0..PATTERNS));
    println!("COMBO_BONUS = {:?}", round(PATTERNS..PATTERNS + COMBOS));
    println!("THREAT_BONUS = {:?}", round(STATES..FEATURES));
    println!("THREAT_BONUS (positions seen, bonus) =");
    for row in 0..THREAT_STATES / 8 {
        let states = row * 8..row * 8 + 8;
        let cells: Vec<String> = states
            .map(|j| format!("{:>6} {:>6}", seen[j], w[STATES + j].round() as i64))
            .collect();
        println!("  {}", cells.join(" |"));
    }
}
