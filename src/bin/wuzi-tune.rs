//! `wuzi-tune`: fits the learned evaluation and the move ordering to match records (see
//! `wuzi-tune --help`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use wuzi::eval::learned::CellValues;
use wuzi::search::order_weights;
use wuzi::tune::codegen::weights_source;
use wuzi::tune::fit::{self, Data, Model, Options, Tables, FITTED_RULES};
use wuzi::tune::order::{self, Filter};
use wuzi::tune::samples;
use wuzi::types::{Color, Rule};

const HELP: &str = "\
wuzi-tune: fit the learned evaluation and the move ordering to match records.

USAGE:
  wuzi-tune extract --out DIR RECORDS...
      Replays every game of the wuzi-match --jsonl files RECORDS (directories: their
      .jsonl files) and writes the positions after each opening to DIR, one .samples file
      per record file. A record file is read again only when it is newer than its samples.
  wuzi-tune fit --samples DIR [--samples DIR ...] [OPTIONS]
      Fits the cell and threat tables to the positions of the DIRs and prints the loss of the
      classic evaluation and of the fit, on the positions trained on and on those held out.
      --model shared|split  one cell table per slot with the mover's cells at 6/8 and the
                            opponent's at 5/8, or one table each (default shared)
      --rules R,R           rules to read (default freestyle,standard,renju)
      --seed S              seed of the held-out split (default 1)
      --held-out PERMILLE   games held out per thousand (default 100)
      --iterations N        Adam steps (default 1000)
      --rate POINTS         first step size (default 4)
      --prior POINTS        standard deviation of the pull toward the starting values
                            (default 100)
      --start classic|learned
                            the values the fit starts from and is pulled toward: the
                            classic ones, or the learned tables the engine plays, whose
                            slots of rules not read then stay as they are (default classic)
      --score-share X       share of each target from the search's score (default 0)
      --rapfi-only          only the positions Rapfi scored, mates left out (with
                            --score-share 1, the fit learns Rapfi's judgement)
      --skip-last N         leave out each game's positions within N plies of its last
                            quiet one (the ends of won attacks; default 0)
      --write FILE          write the fitted tables as Rust source (src/eval/weights.rs)
  wuzi-tune classic --write FILE
      Writes the classic values in the learned tables' layout.
  wuzi-tune order --rule R [OPTIONS] RECORDS...
      Fits the ordering of positions where nothing is forced (src/search/order_weights.rs)
      to the moves played in the wuzi-match --jsonl files RECORDS (directories: their .jsonl
      files), from the fifth move after the opening on, starting from the engine's table:
      prints how well the engine's table and the fitted one predict the moves (cross-entropy,
      the share ranked first and within the first ten, trained on and held out) and the
      fitted table as an OrderWeights literal.
      --mover black|white   only that colour's moves (needed where the rule has a table
                            per colour)
      --moves-of NAME,...   only these players' moves (default everybody's)
      --exclude NAME,...    leave out the games of these players (default one-ply,threatspace)
      --size N              square boards of this size only (default 15)
      --iterations N        Adam steps (default 1500)

EXAMPLE:
  wuzi-tune order --rule renju --mover black data/rapfi-self/
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("wuzi-tune: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<()> {
    match args.first().map(String::as_str) {
        Some("extract") => extract(&args[1..]),
        Some("fit") => fit_command(args),
        Some("classic") => classic(&args[1..]),
        Some("order") => order_command(&args[1..]),
        Some("-h" | "--help") => {
            print!("{HELP}");
            Ok(())
        }
        _ => bail!("expected extract, fit, classic or order (see --help)"),
    }
}

/// The value of the option at `args[*i]`; moves `i` past both.
fn value<'a>(args: &'a [String], i: &mut usize) -> Result<&'a str> {
    let name = &args[*i];
    let v = args
        .get(*i + 1)
        .with_context(|| format!("{name} needs a value"))?;
    *i += 2;
    Ok(v)
}

fn number<T: std::str::FromStr>(name: &str, text: &str) -> Result<T> {
    text.parse()
        .ok()
        .with_context(|| format!("{name}: not a number: {text:?}"))
}

fn extract(args: &[String]) -> Result<()> {
    let (mut out, mut inputs) = (None, Vec::new());
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--out" => out = Some(PathBuf::from(value(args, &mut i)?)),
            other if other.starts_with("--") => bail!("unknown option {other}"),
            other => {
                inputs.push(PathBuf::from(other));
                i += 1;
            }
        }
    }
    let out = out.context("extract needs --out DIR")?;
    if inputs.is_empty() {
        bail!("extract needs record files");
    }
    let report = samples::extract(&inputs, &out)?;
    println!(
        "{} record files read ({} games, {} positions), {} already extracted",
        report.files_read, report.games, report.positions, report.files_kept
    );
    Ok(())
}

fn classic(args: &[String]) -> Result<()> {
    let (Some("--write"), Some(path), None) =
        (args.first().map(String::as_str), args.get(1), args.get(2))
    else {
        bail!("usage: wuzi-tune classic --write FILE");
    };
    let header = [
        "Learned evaluation tables, set to the classic values (line weights plus combination"
            .to_string(),
        "bonus per shape code, the classic threat bonuses): no fit yet.".to_string(),
        String::new(),
        "Command: `wuzi-tune classic --write src/eval/weights.rs`.".to_string(),
    ];
    std::fs::write(
        path,
        weights_source(&Tables::classic(Model::Shared), &header),
    )
    .with_context(|| format!("writing {path}"))?;
    Ok(())
}

fn fit_command(all: &[String]) -> Result<()> {
    let args = &all[1..];
    let mut options = Options {
        model: Model::Shared,
        seed: 1,
        held_out_permille: 100,
        iterations: 1000,
        rate: 4.0,
        prior: 100.0,
        score_share: 0.0,
        rapfi_only: false,
        skip_last: 0,
        rules: FITTED_RULES.to_vec(),
        start: CellValues::Classic,
    };
    let (mut dirs, mut write) = (Vec::new(), None);
    let mut i = 0;
    while i < args.len() {
        let name = args[i].clone();
        if name == "--rapfi-only" {
            options.rapfi_only = true;
            i += 1;
            continue;
        }
        let v = value(args, &mut i)?;
        match name.as_str() {
            "--samples" => dirs.push(PathBuf::from(v)),
            "--write" => write = Some(PathBuf::from(v)),
            "--model" => {
                options.model = match v {
                    "shared" => Model::Shared,
                    "split" => Model::Split,
                    _ => bail!("--model: shared or split, not {v:?}"),
                }
            }
            "--rules" => {
                options.rules = v
                    .split(',')
                    .map(|r| {
                        Rule::from_name(r)
                            .filter(|r| FITTED_RULES.contains(r))
                            .with_context(|| format!("--rules: {r:?} is not a fitted rule"))
                    })
                    .collect::<Result<_>>()?
            }
            "--seed" => options.seed = number(&name, v)?,
            "--held-out" => options.held_out_permille = number(&name, v)?,
            "--iterations" => options.iterations = number(&name, v)?,
            "--rate" => options.rate = number(&name, v)?,
            "--prior" => options.prior = number(&name, v)?,
            "--score-share" => options.score_share = number(&name, v)?,
            "--skip-last" => options.skip_last = number(&name, v)?,
            "--start" => {
                options.start = match v {
                    "classic" => CellValues::Classic,
                    "learned" => CellValues::Learned,
                    _ => bail!("--start: classic or learned, not {v:?}"),
                }
            }
            _ => bail!("unknown option {name}"),
        }
    }
    if dirs.is_empty() {
        bail!("fit needs --samples DIR");
    }
    if !(0.0..=1.0).contains(&options.score_share) || options.prior <= 0.0 {
        bail!("--score-share is 0 to 1 and --prior above 0");
    }
    let mut files = Vec::new();
    for dir in &dirs {
        files.extend(samples::load(dir)?);
    }
    let games: usize = files.iter().map(|(_, g)| g.len()).sum();
    let data = Data::new(&files, &options);
    let (wuzi_scores, rapfi_scores) = data.scored();
    println!(
        "{} sample files, {games} games; positions with a search score: {wuzi_scores} wuzi's, \
         {rapfi_scores} Rapfi's",
        files.len()
    );
    let anchor = Tables::from_values(options.model, options.start);
    let start = match options.start {
        CellValues::Classic => "classic",
        CellValues::Learned => "learned",
    };
    let mut tables = anchor.clone();
    let mut scales = vec![0.0; FITTED_RULES.len()];
    for (r, rule) in FITTED_RULES.iter().enumerate() {
        let (train, held) = data.counts(r);
        if train == 0 {
            continue;
        }
        scales[r] = fit::fit_scale(&data, &anchor, r, &options);
        let (lt, lh) = fit::losses(&data, &anchor, r, scales[r]);
        println!(
            "{}: {train} positions trained on, {held} held out; k = {:.6}; {start} loss {lt:.5} / held out {lh:.5}",
            rule.name(),
            scales[r]
        );
    }
    for (slot, codes) in fit::coverage(&data) {
        println!("{}: {codes} shape codes seen", slot.name());
    }
    let final_loss = fit::fit(&data, &mut tables, &anchor, &scales, &options, |t, loss| {
        if t % 100 == 0 {
            println!("step {t}: loss {loss:.5}");
        }
    });
    println!("fitted: loss against the targets {final_loss:.5}");
    let mut summary = Vec::new();
    for (r, rule) in FITTED_RULES.iter().enumerate() {
        if scales[r] == 0.0 {
            continue;
        }
        let (ct, ch) = fit::losses(&data, &anchor, r, scales[r]);
        let (ft, fh) = fit::losses(&data, &tables, r, scales[r]);
        let (train, held) = data.counts(r);
        let line = format!(
            "{}: {train} + {held} positions, k = {:.6}: {start} {ct:.5} / held out {ch:.5}, fitted {ft:.5} / held out {fh:.5}",
            rule.name(),
            scales[r]
        );
        println!("{line}");
        summary.push(line);
        if options.score_share > 0.0 {
            let share = options.score_share;
            let (ct, ch) = fit::target_losses(&data, &anchor, r, &scales, share);
            let (ft, fh) = fit::target_losses(&data, &tables, r, &scales, share);
            let line = format!(
                "{}: against the targets: {start} {ct:.5} / held out {ch:.5}, fitted {ft:.5} / held out {fh:.5}",
                rule.name()
            );
            println!("{line}");
            summary.push(line);
        }
    }
    if let Some(path) = write {
        let mut header = vec![
            "Learned evaluation tables, fitted by logistic regression to the positions of match"
                .to_string(),
            "records (losses: mean cross-entropy against the results, positions trained on and"
                .to_string(),
            "held out).".to_string(),
            String::new(),
            format!("Command: `wuzi-tune {}`.", all.join(" ")),
            format!(
                "Data: {} sample files, {games} games (positions with a search score: \
                 {wuzi_scores} wuzi's, {rapfi_scores} Rapfi's).",
                files.len()
            ),
        ];
        header.extend(summary);
        std::fs::write(&path, weights_source(&tables, &header))
            .with_context(|| format!("writing {}", path.display()))?;
        println!("wrote {}", path.display());
    }
    Ok(())
}

/// A comma-separated list of names.
fn names(text: &str) -> Vec<String> {
    text.split(',')
        .filter(|n| !n.is_empty())
        .map(str::to_string)
        .collect()
}

fn order_command(args: &[String]) -> Result<()> {
    let (mut rule, mut inputs, mut iterations) = (None, Vec::new(), 1500);
    let mut filter = Filter {
        rule: Rule::Freestyle,
        size: 15,
        mover: None,
        moves_of: Vec::new(),
        exclude: names("one-ply,threatspace"),
    };
    let mut i = 0;
    while i < args.len() {
        let name = args[i].clone();
        if !name.starts_with("--") {
            inputs.push(PathBuf::from(name));
            i += 1;
            continue;
        }
        let v = value(args, &mut i)?;
        match name.as_str() {
            "--rule" => rule = Some(Rule::from_name(v).with_context(|| format!("--rule: {v:?}"))?),
            "--mover" => {
                filter.mover = Some(match v {
                    "black" => Color::Black,
                    "white" => Color::White,
                    _ => bail!("--mover: black or white, not {v:?}"),
                })
            }
            "--moves-of" => filter.moves_of = names(v),
            "--exclude" => filter.exclude = names(v),
            "--size" => filter.size = number(&name, v)?,
            "--iterations" => iterations = number(&name, v)?,
            _ => bail!("unknown option {name}"),
        }
    }
    filter.rule = rule.context("order needs --rule R")?;
    if inputs.is_empty() {
        bail!("order needs record files");
    }
    let start = order_weights::weights(filter.rule, filter.mover.unwrap_or(Color::Black));
    if filter.mover.is_none() && start != order_weights::weights(filter.rule, Color::White) {
        bail!(
            "--mover: {} orders each colour by its own table",
            filter.rule.name()
        );
    }
    let (mut games, mut choices) = (0, Vec::new());
    for path in samples::record_files(&inputs)? {
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        games += text
            .lines()
            .filter(|line| order::read_game(line, &filter, &mut choices))
            .count();
    }
    let (train, held) = order::split(&choices);
    println!(
        "{games} games, {} positions with nothing forced ({} held out)",
        choices.len(),
        held.len()
    );
    if train.is_empty() {
        bail!("no position to fit");
    }
    let start = order::weights_of(start);
    let scale = order::fit_scale(&train, &start);
    println!("scale {scale:.6}");
    let report = |name: &str, w: &[f64; order::FEATURES]| {
        for (set, data) in [("train", &train), ("held out", &held)] {
            let s = order::stats(data, w, scale);
            println!(
                "{name} weights, {set}: cross-entropy {:.4}, played move first {:.1} %, \
                 in the first 10 {:.1} %",
                s.cross_entropy,
                100.0 * s.first,
                100.0 * s.within_ten
            );
        }
    };
    report("current", &start);
    let fitted = order::fit(&train, &start, scale, iterations);
    report("fitted", &fitted);
    let table = order::table_of(&fitted);
    println!("lines: [{:?}, {:?}],", table.lines[0], table.lines[1]);
    println!("combos: [{:?}, {:?}],", table.combos[0], table.combos[1]);
    Ok(())
}
