//! The match driver: checks the engines, builds the schedule, plays the games on worker
//! threads, keeps the tables, writes the records and runs the SPRT.
//!
//! Workers take jobs from a shared queue and send finished games back over a channel; only
//! the calling thread prints and writes files, so records never interleave. Stopping (Ctrl-C
//! or a decided SPRT) raises one flag: workers take no new job, running games are abandoned
//! without a record, and what had finished is kept.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::fmt::Write as _;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{bail, Context, Result};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use crate::arena::config::Config;
use crate::arena::engine::{EngineProcess, EngineSpec, StartFailure};
use crate::arena::game::{check_opening, play_game, Aborted, GameRecord, Outcome, Reason, Slot};
use crate::arena::openings::{load_openings, symmetry_count, transform, Opening};
use crate::arena::record::{to_json, to_psq, to_sgf, GameInfo};
use crate::arena::stats::{
    elo_pentanomial, elo_trinomial, format_elo, los, EloEstimate, Sprt, SprtDecision, Wld,
};
use crate::board::Board;
use crate::types::Color;

/// One scheduled game.
#[derive(Clone)]
struct Job {
    /// 1-based number in schedule order.
    number: usize,
    /// 1-based round.
    round: usize,
    /// Index into the pair list.
    pair: usize,
    /// Engine playing black.
    black: usize,
    /// Engine playing white.
    white: usize,
    /// Games sharing an opening (same pair, colours swapped) share this key.
    twin_key: usize,
    /// The opening as played (after any symmetry).
    opening: Opening,
    /// The position after the opening.
    start: Board,
}

/// Results of one engine pair, from the first engine's point of view.
#[derive(Clone, Debug, Default)]
pub struct PairStats {
    /// Index of the first engine.
    pub first: usize,
    /// Index of the second engine.
    pub second: usize,
    /// All games.
    pub total: Wld,
    /// Games in which the first engine played black.
    pub as_black: Wld,
    /// Games in which the first engine played white.
    pub as_white: Wld,
    /// Completed game pairs by the first engine's points in the pair (0, ½, 1, 1½, 2).
    pub penta: [u64; 5],
    /// How the games ended.
    pub reasons: BTreeMap<Reason, u64>,
    /// Losses of each engine (first, second) by reason, to spot faulty engines.
    pub faults: [BTreeMap<Reason, u64>; 2],
    /// First engine's score in games whose twin has not finished yet.
    pending: HashMap<usize, f64>,
}

impl PairStats {
    /// Records a game between the two engines; `first_color` is the first engine's colour.
    fn add(&mut self, first_color: Color, outcome: Outcome, reason: Reason, twin_key: usize) {
        let score = outcome.score_for(first_color);
        self.total.add(score);
        match first_color {
            Color::Black => self.as_black.add(score),
            Color::White => self.as_white.add(score),
        }
        *self.reasons.entry(reason).or_default() += 1;
        if let Outcome::Win(winner) = outcome {
            let loser = if winner == first_color { 1 } else { 0 };
            if !matches!(reason, Reason::Five) {
                *self.faults[loser].entry(reason).or_default() += 1;
            }
        }
        if let Some(twin) = self.pending.remove(&twin_key) {
            // Pair score in quarters of a point: 0..=4.
            let index = ((twin + score) * 2.0).round() as usize;
            self.penta[index.min(4)] += 1;
        } else {
            self.pending.insert(twin_key, score);
        }
    }

    /// Number of completed game pairs.
    pub fn pairs(&self) -> u64 {
        self.penta.iter().sum()
    }

    /// The Elo estimate: from game pairs when there are any, else from single games.
    pub fn elo(&self, paired: bool) -> Option<(EloEstimate, &'static str)> {
        if paired && self.pairs() > 0 {
            elo_pentanomial(&self.penta).map(|e| (e, "pentanomial"))
        } else {
            elo_trinomial(&self.total).map(|e| (e, "trinomial"))
        }
    }

    /// The SPRT log-likelihood ratio, with the same model as [`PairStats::elo`].
    pub fn llr(&self, sprt: &Sprt, paired: bool) -> f64 {
        if paired && self.pairs() > 0 {
            sprt.llr_pentanomial(&self.penta)
        } else {
            sprt.llr_trinomial(&self.total)
        }
    }
}

/// What a run produced.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Engine names as used in the tables.
    pub names: Vec<String>,
    /// One entry per engine pair that plays.
    pub pairs: Vec<PairStats>,
    /// Games finished and recorded.
    pub games_played: usize,
    /// Games scheduled.
    pub games_planned: usize,
    /// True when stopped by Ctrl-C before the end.
    pub interrupted: bool,
    /// Final LLR and decision when an SPRT ran.
    pub sprt: Option<(f64, SprtDecision)>,
    /// The seed used for opening order and symmetries.
    pub seed: u64,
}

/// Runs the match described by `config`, printing progress and tables to `out`.
/// `interrupt` is watched for a stop request (the binary points it at its Ctrl-C flag).
///
/// # Errors
/// Setup problems, each naming the engine, file or line at fault: an engine that cannot be
/// started or does not answer `START`, an unreadable or illegal opening file, an output file
/// or directory that cannot be created; and write errors on the records.
pub fn run(config: &Config, out: &mut dyn Write, interrupt: &AtomicBool) -> Result<Summary> {
    let settings = &config.game;
    let names = check_engines(config, interrupt)?;
    let openings = match &config.openings {
        Some(path) => load_openings(
            path,
            config.opening_format,
            settings.width,
            settings.height,
            settings.rule,
        )?,
        None => vec![Opening::empty()],
    };
    let seed = config.seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0)
    });
    let pair_list = engine_pairs(config.engines.len(), config.gauntlet);
    let jobs = schedule(config, &pair_list, &openings, seed)?;
    let mut writers = RecordWriters::open(config)?;

    let mut summary = Summary {
        names: names.clone(),
        pairs: pair_list
            .iter()
            .map(|&(first, second)| PairStats {
                first,
                second,
                ..PairStats::default()
            })
            .collect(),
        games_planned: jobs.len(),
        seed,
        ..Summary::default()
    };
    let paired = config.games >= 2;
    writeln!(
        out,
        "wuzi-match: {} on {}x{}, tc {}/{} ms (+{} ms{}), {} games, {} opening(s){}, seed {}",
        settings.rule,
        settings.width,
        settings.height,
        settings.time.turn_ms,
        settings.time.match_ms,
        settings.time.tolerance_ms,
        if settings.time.strict_clock {
            ", strict clock"
        } else {
            ""
        },
        jobs.len(),
        openings.len(),
        if config.openings.is_some() {
            format!(
                " from {}",
                config
                    .openings
                    .as_ref()
                    .map_or(String::new(), |p| p.display().to_string())
            )
        } else {
            String::new()
        },
        seed
    )?;
    for (index, spec) in config.engines.iter().enumerate() {
        writeln!(
            out,
            "  engine {}: {} ({})",
            index + 1,
            names[index],
            spec.cmd
        )?;
    }

    let abort = AtomicBool::new(false);
    let queue = Mutex::new(jobs.into_iter().collect::<VecDeque<Job>>());
    let (sender, receiver) = mpsc::channel::<(Job, Result<GameRecord, Aborted>)>();
    let workers = config.concurrency.min(summary.games_planned).max(1);
    thread::scope(|scope| -> Result<()> {
        for _ in 0..workers {
            let sender = sender.clone();
            let (queue, abort, names) = (&queue, &abort, &names);
            scope.spawn(move || worker(config, names, queue, sender, abort));
        }
        drop(sender);
        let mut since_report = 0;
        let mut collect = || -> Result<()> {
            loop {
                if interrupt.load(Ordering::Relaxed) && !abort.load(Ordering::Relaxed) {
                    summary.interrupted = true;
                    abort.store(true, Ordering::Relaxed);
                    writeln!(out, "Interrupted: finishing with the games already played.")?;
                }
                let (job, result) = match receiver.recv_timeout(Duration::from_millis(100)) {
                    Ok(item) => item,
                    Err(mpsc::RecvTimeoutError::Timeout) => continue,
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                };
                let Ok(game) = result else { continue };
                summary.games_played += 1;
                let info = GameInfo {
                    number: job.number,
                    round: job.round,
                    opening_source: job.opening.source.clone(),
                };
                writers.write(&game, &info)?;
                let stats = &mut summary.pairs[job.pair];
                let first_color = if job.black == stats.first {
                    Color::Black
                } else {
                    Color::White
                };
                stats.add(first_color, game.outcome, game.reason, job.twin_key);
                if !config.quiet {
                    writeln!(out, "{}", progress_line(&game, &job, summary.games_planned))?;
                }
                if let Some(sprt) = &config.sprt {
                    let llr = summary.pairs[0].llr(sprt, paired);
                    let decision = sprt.decide(llr);
                    summary.sprt = Some((llr, decision));
                    if decision != SprtDecision::Continue && !abort.load(Ordering::Relaxed) {
                        abort.store(true, Ordering::Relaxed);
                    }
                }
                since_report += 1;
                if !config.quiet && config.report_every > 0 && since_report >= config.report_every {
                    since_report = 0;
                    write!(out, "{}", table(&summary, config, paired))?;
                }
            }
            Ok(())
        };
        let collected = collect();
        if collected.is_err() {
            // The scope waits for the workers: make them stop before returning the error.
            abort.store(true, Ordering::Relaxed);
        }
        collected
    })?;
    if summary.sprt.is_none() {
        if let Some(sprt) = &config.sprt {
            let llr = summary.pairs[0].llr(sprt, paired);
            summary.sprt = Some((llr, sprt.decide(llr)));
        }
    }
    writeln!(
        out,
        "Final results after {} of {} games:",
        summary.games_played, summary.games_planned
    )?;
    write!(out, "{}", table(&summary, config, paired))?;
    out.flush()?;
    Ok(summary)
}

/// Starts each engine once: learns its name (`ABOUT`) and checks that it answers `START`.
fn check_engines(config: &Config, interrupt: &AtomicBool) -> Result<Vec<String>> {
    let settings = &config.game;
    let tolerance = Duration::from_millis(settings.time.tolerance_ms.max(1));
    let mut names: Vec<String> = Vec::new();
    for spec in &config.engines {
        let label = spec.fallback_name();
        let mut process = EngineProcess::spawn(spec, &label, settings.engine_stderr)?;
        let mut name = match &spec.name {
            Some(name) => name.clone(),
            None => process
                .about_name(tolerance, interrupt)
                .unwrap_or_else(|| label.clone()),
        };
        process.set_name(&name);
        match process.start(settings.width, settings.height, tolerance, interrupt) {
            Ok(()) => {}
            Err(StartFailure::Aborted) => bail!("interrupted"),
            Err(failure) => bail!(
                "engine {name} (`{}`): {failure} (waited {} ms)",
                spec.cmd,
                tolerance.as_millis()
            ),
        }
        process.request_end();
        process.finish_by(Instant::now() + Duration::from_millis(500));
        // Two engines with one name (e.g. two builds of the same program) get numbered.
        let base = name.clone();
        let mut count = 1;
        while names.contains(&name) {
            count += 1;
            name = format!("{base}#{count}");
        }
        names.push(name);
    }
    Ok(names)
}

/// The engine pairs that play: every pair, or the first engine against each other one.
fn engine_pairs(engines: usize, gauntlet: bool) -> Vec<(usize, usize)> {
    if gauntlet {
        (1..engines).map(|other| (0, other)).collect()
    } else {
        (0..engines)
            .flat_map(|a| (a + 1..engines).map(move |b| (a, b)))
            .collect()
    }
}

/// Builds every job: for each round and opening slot, each pair plays the opening twice with
/// colours swapped (once if the game count is odd and this is the last slot).
fn schedule(
    config: &Config,
    pairs: &[(usize, usize)],
    openings: &[Opening],
    seed: u64,
) -> Result<Vec<Job>> {
    let settings = &config.game;
    let mut rng = StdRng::seed_from_u64(seed);
    let mut order: Vec<usize> = (0..openings.len()).collect();
    if config.random_order {
        order.shuffle(&mut rng);
    }
    let slots_per_round = config.games.div_ceil(2);
    let symmetries = symmetry_count(settings.width, settings.height);
    let mut jobs = Vec::new();
    let mut twin_key = 0;
    for round in 0..config.rounds {
        for slot in 0..slots_per_round {
            let sequence = round * slots_per_round + slot;
            let base = &openings[order[sequence % order.len()]];
            let symmetry = if config.symmetry {
                rng.gen_range(0..symmetries)
            } else {
                0
            };
            let opening = transform(base, symmetry, settings.width, settings.height);
            let start = check_opening(
                settings.width,
                settings.height,
                settings.rule,
                &opening.stones,
            )
            .with_context(|| format!("opening {}", opening.source))?;
            let games_here = if slot * 2 + 1 == config.games { 1 } else { 2 };
            for (pair_index, &(first, second)) in pairs.iter().enumerate() {
                for game in 0..games_here {
                    let (black, white) = if game == 0 {
                        (first, second)
                    } else {
                        (second, first)
                    };
                    jobs.push(Job {
                        number: jobs.len() + 1,
                        round: round + 1,
                        pair: pair_index,
                        black,
                        white,
                        twin_key,
                        opening: opening.clone(),
                        start: start.clone(),
                    });
                }
                twin_key += 1;
            }
        }
    }
    Ok(jobs)
}

/// Worker thread: plays jobs until the queue is empty or the run stops.
fn worker(
    config: &Config,
    names: &[String],
    queue: &Mutex<VecDeque<Job>>,
    results: mpsc::Sender<(Job, Result<GameRecord, Aborted>)>,
    abort: &AtomicBool,
) {
    let specs: &[EngineSpec] = &config.engines;
    // Processes kept between games with --reuse, by engine index.
    let mut pool: Vec<Slot> = (0..specs.len()).map(|_| None).collect();
    loop {
        if abort.load(Ordering::Relaxed) {
            break;
        }
        let job = {
            let mut queue = queue.lock().unwrap_or_else(|e| e.into_inner());
            queue.pop_front()
        };
        let Some(job) = job else { break };
        let (black, white) = (job.black, job.white);
        let mut slots = [pool[black].take(), pool[white].take()];
        let result = play_game(
            &config.game,
            [&specs[black], &specs[white]],
            [&names[black], &names[white]],
            &mut slots,
            config.reuse,
            &job.start,
            abort,
        );
        let [black_slot, white_slot] = slots;
        pool[black] = black_slot;
        pool[white] = white_slot;
        if results.send((job, result)).is_err() {
            break;
        }
    }
    let deadline = Instant::now() + Duration::from_millis(500);
    let mut closing = Vec::new();
    for mut process in pool.into_iter().flatten() {
        process.request_end();
        closing.push(process);
    }
    for process in closing {
        process.finish_by(deadline);
    }
}

/// One line per finished game.
fn progress_line(game: &GameRecord, job: &Job, planned: usize) -> String {
    let black = &game.names[Color::Black.index()];
    let white = &game.names[Color::White.index()];
    let winner = match game.outcome {
        Outcome::Win(color) => format!("{} wins", game.names[color.index()]),
        Outcome::Draw => "draw".to_string(),
    };
    format!(
        "Game {}/{}: {} (black) vs {} (white), opening {}: {} {} by {} with {} stones on the board ({})",
        job.number,
        planned,
        black,
        white,
        job.opening.notation(),
        game.outcome.result_string(),
        winner,
        game.reason,
        game.opening.len() + game.moves.len(),
        game.detail
    )
}

/// The results table: per pair W/L/D overall and per colour, score, Elo, LOS, how games
/// ended; standings when more than two engines play; the SPRT state.
pub fn table(summary: &Summary, config: &Config, paired: bool) -> String {
    let mut text = String::new();
    let names = &summary.names;
    for stats in &summary.pairs {
        let (a, b) = (&names[stats.first], &names[stats.second]);
        let total = &stats.total;
        let score = total
            .score()
            .map_or("-".to_string(), |s| format!("{:.3}", s));
        let _ = writeln!(
            text,
            "Score of {a} vs {b}: {} - {} - {}  [{score}] {} games",
            total.wins,
            total.losses,
            total.draws,
            total.games()
        );
        let _ = writeln!(
            text,
            "  {a} as black: {} - {} - {}   {a} as white: {} - {} - {}",
            stats.as_black.wins,
            stats.as_black.losses,
            stats.as_black.draws,
            stats.as_white.wins,
            stats.as_white.losses,
            stats.as_white.draws
        );
        if let Some((elo, model)) = stats.elo(paired) {
            let _ = writeln!(
                text,
                "  Elo {} +/- {:.1} [{}, {}] (95%, {model}, {} {})  LOS {:.1}%",
                format_elo(elo.elo),
                elo.margin(),
                format_elo(elo.low),
                format_elo(elo.high),
                elo.samples,
                if model == "pentanomial" {
                    "pairs"
                } else {
                    "games"
                },
                los(total.wins, total.losses) * 100.0
            );
        }
        if paired {
            let p = &stats.penta;
            let _ = writeln!(
                text,
                "  Pairs (0, 1/2, 1, 3/2, 2 points): {} {} {} {} {}",
                p[0], p[1], p[2], p[3], p[4]
            );
        }
        if !stats.reasons.is_empty() {
            let ends: Vec<String> = stats
                .reasons
                .iter()
                .map(|(reason, count)| format!("{reason} {count}"))
                .collect();
            let _ = writeln!(text, "  Ends: {}", ends.join(", "));
        }
        for (side, faults) in stats.faults.iter().enumerate() {
            if faults.is_empty() {
                continue;
            }
            let name = if side == 0 { a } else { b };
            let list: Vec<String> = faults
                .iter()
                .map(|(reason, count)| format!("{reason} {count}"))
                .collect();
            let _ = writeln!(text, "  Losses of {name} by fault: {}", list.join(", "));
        }
    }
    if names.len() > 2 {
        let mut standings: Vec<(usize, Wld)> =
            (0..names.len()).map(|i| (i, Wld::default())).collect();
        for stats in &summary.pairs {
            let t = stats.total;
            let first = &mut standings[stats.first].1;
            first.wins += t.wins;
            first.losses += t.losses;
            first.draws += t.draws;
            let second = &mut standings[stats.second].1;
            second.wins += t.losses;
            second.losses += t.wins;
            second.draws += t.draws;
        }
        standings.sort_by(|x, y| y.1.points().total_cmp(&x.1.points()));
        let _ = writeln!(
            text,
            "Rank  Name                  Games  Points  Score  Elo"
        );
        for (rank, (index, wld)) in standings.iter().enumerate() {
            let (score, elo) = match wld.score() {
                Some(s) => (
                    format!("{:.1}%", s * 100.0),
                    format_elo(crate::arena::stats::elo_from_score(s)),
                ),
                None => ("-".to_string(), "-".to_string()),
            };
            let _ = writeln!(
                text,
                "{:<5} {:<21} {:>5} {:>7.1} {:>6}  {}",
                rank + 1,
                names[*index],
                wld.games(),
                wld.points(),
                score,
                elo
            );
        }
    }
    if let (Some(sprt), Some(stats)) = (&config.sprt, summary.pairs.first()) {
        let llr = stats.llr(sprt, paired);
        let (lower, upper) = sprt.bounds();
        let state = match sprt.decide(llr) {
            SprtDecision::Continue => "continue".to_string(),
            SprtDecision::AcceptH0 => format!(
                "H0 accepted: {} is not stronger by {} Elo",
                names[stats.first], sprt.elo1
            ),
            SprtDecision::AcceptH1 => format!("H1 accepted: {} is stronger", names[stats.first]),
        };
        let _ = writeln!(
            text,
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.2} [{:.2}, {:.2}] {state}",
            sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta, llr, lower, upper
        );
    }
    text
}

/// Open record destinations.
struct RecordWriters {
    sgf: Option<PathBuf>,
    psq: Option<PathBuf>,
    jsonl: Option<(PathBuf, File)>,
}

impl RecordWriters {
    /// Creates the directories and opens the JSON file for appending.
    fn open(config: &Config) -> Result<RecordWriters> {
        for dir in [&config.sgf_dir, &config.psq_dir].into_iter().flatten() {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create directory {}", dir.display()))?;
        }
        let jsonl = match &config.jsonl {
            Some(path) => {
                let file = OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .with_context(|| format!("cannot open {} for appending", path.display()))?;
                Some((path.clone(), file))
            }
            None => None,
        };
        Ok(RecordWriters {
            sgf: config.sgf_dir.clone(),
            psq: config.psq_dir.clone(),
            jsonl,
        })
    }

    /// Writes every requested record of one game.
    fn write(&mut self, game: &GameRecord, info: &GameInfo) -> Result<()> {
        if let Some(dir) = &self.sgf {
            let path = dir.join(format!("game-{:05}.sgf", info.number));
            std::fs::write(&path, to_sgf(game, info))
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        if let Some(dir) = &self.psq {
            let path = dir.join(format!("game-{:05}.psq", info.number));
            std::fs::write(&path, to_psq(game))
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        if let Some((path, file)) = &mut self.jsonl {
            let mut line = to_json(game, info);
            line.push('\n');
            file.write_all(line.as_bytes())
                .and_then(|()| file.flush())
                .with_context(|| format!("cannot write to {}", path.display()))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_for_round_robin_and_gauntlet() {
        assert_eq!(engine_pairs(3, false), vec![(0, 1), (0, 2), (1, 2)]);
        assert_eq!(engine_pairs(3, true), vec![(0, 1), (0, 2)]);
    }

    #[test]
    fn pentanomial_counts_from_twins() {
        let mut stats = PairStats::default();
        // Twin 0: first wins as black, draws as white → 1.5 points.
        stats.add(Color::Black, Outcome::Win(Color::Black), Reason::Five, 0);
        stats.add(Color::White, Outcome::Draw, Reason::BoardFull, 0);
        // Twin 1: first loses both → 0 points; one loss is a time-out.
        stats.add(Color::Black, Outcome::Win(Color::White), Reason::TimeOut, 1);
        stats.add(Color::White, Outcome::Win(Color::Black), Reason::Five, 1);
        // Twin 2: only one game so far.
        stats.add(Color::Black, Outcome::Win(Color::Black), Reason::Five, 2);
        assert_eq!(stats.penta, [1, 0, 0, 1, 0]);
        assert_eq!(
            stats.total,
            Wld {
                wins: 2,
                losses: 2,
                draws: 1
            }
        );
        assert_eq!(
            stats.as_black,
            Wld {
                wins: 2,
                losses: 1,
                draws: 0
            }
        );
        assert_eq!(
            stats.as_white,
            Wld {
                wins: 0,
                losses: 1,
                draws: 1
            }
        );
        assert_eq!(stats.faults[0].get(&Reason::TimeOut), Some(&1));
        assert!(stats.faults[1].is_empty());
    }
}
