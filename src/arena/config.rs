//! Command-line options of `wuzi-match`, parsed by hand (GNU style: `--flag value` or
//! `--flag=value`).

use std::path::PathBuf;

use anyhow::{anyhow, bail, Context, Result};

use crate::arena::engine::{memory_limit_supported, EngineSpec};
use crate::arena::game::GameSettings;
use crate::arena::openings::OpeningFormat;
use crate::arena::stats::Sprt;
use crate::types::{Rule, MAX_SIZE, MIN_SIZE};

/// Everything a run needs.
#[derive(Clone, Debug)]
pub struct Config {
    /// The engines, in the order given.
    pub engines: Vec<EngineSpec>,
    /// First engine against each of the others, instead of every pair.
    pub gauntlet: bool,
    /// Board, rule, time and memory settings shared by every game.
    pub game: GameSettings,
    /// Games per engine pair in each round.
    pub games: usize,
    /// Rounds: the whole schedule is repeated this many times.
    pub rounds: usize,
    /// Opening file; games start from an empty board without one.
    pub openings: Option<PathBuf>,
    /// Notation of the opening file.
    pub opening_format: OpeningFormat,
    /// Take openings in a seeded random order instead of file order.
    pub random_order: bool,
    /// Seed for the opening order and symmetries; from the clock when not given.
    pub seed: Option<u64>,
    /// Apply a random board symmetry to each opening (the same for both games of a pair).
    pub symmetry: bool,
    /// Games played at the same time.
    pub concurrency: usize,
    /// Keep engine processes alive between games (new `START` each game).
    pub reuse: bool,
    /// Stop as soon as this test decides (two engines only).
    pub sprt: Option<Sprt>,
    /// Directory for one SGF file per game.
    pub sgf_dir: Option<PathBuf>,
    /// Directory for one PSQ file per game.
    pub psq_dir: Option<PathBuf>,
    /// File to which one JSON line per game is appended.
    pub jsonl: Option<PathBuf>,
    /// Print only the final table.
    pub quiet: bool,
    /// Print the table after every this many games (0: only at the end).
    pub report_every: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            engines: Vec::new(),
            gauntlet: false,
            game: GameSettings::default(),
            games: 2,
            rounds: 1,
            openings: None,
            opening_format: OpeningFormat::Auto,
            random_order: false,
            seed: None,
            symmetry: false,
            concurrency: 1,
            reuse: false,
            sprt: None,
            sgf_dir: None,
            psq_dir: None,
            jsonl: None,
            quiet: false,
            report_every: 10,
        }
    }
}

/// What the command line asks for.
#[derive(Clone, Debug)]
pub enum Command {
    /// Play the match.
    Run(Box<Config>),
    /// Print [`HELP`].
    Help,
    /// Print the version.
    Version,
}

/// The `--help` text.
pub const HELP: &str = r#"wuzi-match: play pbrain (Gomocup protocol) engines against each other.

USAGE:
  wuzi-match --engine cmd=PATH [name=NAME] [dir=DIR] [info=KEY=VALUE] --engine cmd=PATH ...
             [OPTIONS]

ENGINES
  --engine cmd=CMD [name=N] [dir=D] [info=KEY=VALUE ...]
                      An engine (repeat for each). CMD is the program with optional
                      arguments (quote the whole item: "cmd=./pbrain-x --fast"). The name
                      defaults to the engine's ABOUT name= value; dir is its working
                      directory; each info= item is sent to this engine alone as
                      INFO KEY VALUE after the common INFO lines of every game.
                      e.g. --engine cmd=./pbrain-new name=new info=thread_num=2
  -e, --engine-path PATH
                      Shorthand for --engine cmd=PATH.   e.g. -e ./pbrain-old
  --gauntlet          The first engine plays each of the others (default: every pair
                      plays, round-robin).
  --reuse             Keep engine processes between games and send a new START (default:
                      a fresh process per game, as GomocupJudge does).
  --engine-stderr     Show the engines' stderr (default: discarded).
  --reply-gap MS      Least time between an engine's move and the next line written to
                      it, charged to no clock; some engines drop input that follows their
                      own move within a few ms (default 20).   e.g. --reply-gap 50
  --skip-unparsable   Pass over reply lines that are neither a move nor a known reply
                      (kept as messages), as GomocupJudge does (default: such a line
                      loses the game, as in Piskvork).

BOARD AND RULE
  --rule R            0 freestyle, 1 standard (exact five), 4 renju, 8 caro, 9 caro with
                      exact five; names also work (default 0).   e.g. --rule 4
  --size N            Square board N x N, 5..22 (default 15).   e.g. --size 20
  --rect W,H          Rectangular board (sent as RECTSTART).   e.g. --rect 20,15
  --draw-after N      Draw once N stones (opening included) are on the board (default:
                      only a full board is a draw).   e.g. --draw-after 200

TIME AND MEMORY
  --tc TURN[/MATCH]   Milliseconds per move and per game for each side; MATCH 0 or left
                      out = no match limit (default 5000/120000).   e.g. --tc 1000/30000
  --turn-ms MS        Per-move limit alone (0 = move at once: only the tolerance is left).
  --match-ms MS       Per-game limit alone (0 = unlimited).
  --tolerance-ms MS   Grace on top of min(turn, time_left) before a move is late; the
                      watchdog kills a silent engine then (default 1000). Also the time
                      allowed to answer START.   e.g. --tolerance-ms 500
  --strict-clock      A move that leaves the match clock below zero loses, whatever the
                      tolerance, as in c-gomoku-cli (default: only the tolerance counts).
  --max-memory BYTES  Value sent as INFO max_memory (default 367001600, 0 = unlimited).
  --mem-limit MB      An engine whose peak resident memory (Linux VmHWM, read after
                      each move) exceeds MB MiB loses.   e.g. --mem-limit 350

GAMES AND OPENINGS
  --games N           Games per engine pair per round (default 2: one opening, both
                      colours).   e.g. --games 1000
  --rounds N          Repeat the whole schedule N times (default 1).
  --openings FILE     Opening file, one opening per line; each is played twice with
                      colours swapped. '#' lines and blank lines are skipped.
                      e.g. --openings openings.txt
  --opening-format F  offset ("0,0, 1,0" from the centre), pos ("h8i9") or auto (per
                      line: offset if it has a comma; default).   e.g. --opening-format pos
  --random-order      Take openings in a seeded random order (default: file order).
  --seed S            Seed for --random-order and --symmetry (default: from the clock;
                      the seed used is printed).   e.g. --seed 42
  --symmetry          Apply one of the 8 board symmetries (4 on a rectangle), chosen at
                      random, to each opening pair.
  --concurrency N     Games played at the same time (default 1).   e.g. --concurrency 2

RESULTS
  --sprt [elo0=E0,elo1=E1,alpha=A,beta=B]
                      Sequential test that the first engine is stronger (two engines
                      only); stops as soon as it decides. Keys left out keep their
                      defaults elo0=0,elo1=5,alpha=0.05,beta=0.05.
                      e.g. --sprt elo0=0,elo1=10
  --sgf DIR           Write one SGF file per game into DIR.   e.g. --sgf games/
  --psq DIR           Write one Piskvork PSQ file per game into DIR.
  --jsonl FILE        Append one JSON line per game to FILE.   e.g. --jsonl games.jsonl
  --report N          Print the table every N games (default 10, 0 = only at the end).
  --quiet             No per-game lines and no running table; only the final table.
  -h, --help          This text.
  -V, --version       Version.

EXAMPLE
  wuzi-match --engine cmd=target/release/pbrain-wuzi name=new \
             --engine cmd=builds/base/pbrain-wuzi name=base \
             --rule 4 --size 15 --tc 1000/30000 --openings tests/data/openings.txt \
             --games 2000 --concurrency 2 --sprt elo0=0,elo1=5 --jsonl run.jsonl

Exit status: 0 when the run completed, 130 when stopped by Ctrl-C, 1 on an error.
"#;

/// Parses the arguments (without the program name).
///
/// # Errors
/// A message naming the offending flag or value.
pub fn parse_args(args: &[String]) -> Result<Command> {
    let mut config = Config::default();
    // Split `--flag=value` into two items so that the loop below sees one shape.
    let mut items: Vec<String> = Vec::new();
    for arg in args {
        match arg.split_once('=') {
            Some((flag, value)) if arg.starts_with("--") && !flag.contains(' ') => {
                items.push(flag.to_string());
                items.push(value.to_string());
            }
            _ => items.push(arg.clone()),
        }
    }
    let mut tc_turn: Option<u64> = None;
    let mut tc_match: Option<u64> = None;
    let mut i = 0;
    while i < items.len() {
        let flag = items[i].clone();
        i += 1;
        let mut value = |what: &str| -> Result<String> {
            let v = items
                .get(i)
                .cloned()
                .ok_or_else(|| anyhow!("{flag} needs a value ({what})"))?;
            i += 1;
            Ok(v)
        };
        match flag.as_str() {
            "-h" | "--help" => return Ok(Command::Help),
            "-V" | "--version" => return Ok(Command::Version),
            "--engine" => {
                let mut spec: Option<EngineSpec> = None;
                let mut name = None;
                let mut dir = None;
                let mut infos = Vec::new();
                while let Some(item) = items.get(i) {
                    let Some((key, val)) = item.split_once('=') else {
                        break;
                    };
                    match key {
                        "cmd" => spec = Some(EngineSpec::from_command(val)?),
                        "name" => name = Some(val.to_string()),
                        "dir" => dir = Some(PathBuf::from(val)),
                        "info" => infos.push(info_line(val)?),
                        _ => break,
                    }
                    i += 1;
                }
                let mut spec = spec.ok_or_else(|| {
                    anyhow!("--engine needs cmd=PATH (e.g. --engine cmd=./pbrain-x name=x)")
                })?;
                spec.name = name;
                spec.dir = dir;
                spec.infos = infos;
                config.engines.push(spec);
            }
            "-e" | "--engine-path" => {
                let path = value("engine path")?;
                let mut spec = EngineSpec::from_command(&path)?;
                // A bare path is a path, even with spaces in it.
                if std::path::Path::new(&path).exists() {
                    spec.program = path;
                    spec.args.clear();
                }
                config.engines.push(spec);
            }
            "--gauntlet" => config.gauntlet = true,
            "--reuse" => config.reuse = true,
            "--engine-stderr" => config.game.engine_stderr = true,
            "--rule" => {
                let v = value("0, 1, 4, 8 or 9")?;
                config.game.rule = Rule::from_name(&v)
                    .ok_or_else(|| anyhow!("--rule: unknown rule `{v}` (use 0, 1, 4, 8 or 9)"))?;
            }
            "--size" => {
                let n = parse_number(&flag, &value("board side")?)?;
                config.game.width = n;
                config.game.height = n;
            }
            "--rect" => {
                let v = value("W,H")?;
                let (w, h) = v
                    .split_once(',')
                    .ok_or_else(|| anyhow!("--rect expects W,H, got `{v}`"))?;
                config.game.width = parse_number(&flag, w)?;
                config.game.height = parse_number(&flag, h)?;
            }
            "--draw-after" => {
                config.game.draw_after = Some(parse_number(&flag, &value("stones")?)?)
            }
            "--tc" => {
                let v = value("TURN_MS/MATCH_MS")?;
                let (turn, matc) = match v.split_once('/') {
                    Some((turn, matc)) => (turn, matc),
                    None => (v.as_str(), "0"),
                };
                tc_turn = Some(parse_number(&flag, turn)?);
                tc_match = Some(parse_number(&flag, matc)?);
            }
            "--turn-ms" => tc_turn = Some(parse_number(&flag, &value("milliseconds")?)?),
            "--match-ms" => tc_match = Some(parse_number(&flag, &value("milliseconds")?)?),
            "--tolerance-ms" => {
                config.game.time.tolerance_ms = parse_number(&flag, &value("milliseconds")?)?
            }
            "--strict-clock" => config.game.time.strict_clock = true,
            "--reply-gap" => {
                let ms: u64 = parse_number(&flag, &value("milliseconds")?)?;
                config.game.reply_gap = std::time::Duration::from_millis(ms);
            }
            "--skip-unparsable" => config.game.skip_unparsable = true,
            "--max-memory" => config.game.max_memory = parse_number(&flag, &value("bytes")?)?,
            "--mem-limit" => {
                let mb: u64 = parse_number(&flag, &value("MiB")?)?;
                config.game.memory_limit = Some(mb.saturating_mul(1 << 20));
            }
            "--games" => config.games = parse_number(&flag, &value("games")?)?,
            "--rounds" => config.rounds = parse_number(&flag, &value("rounds")?)?,
            "--openings" => config.openings = Some(PathBuf::from(value("file")?)),
            "--opening-format" => {
                let v = value("offset, pos or auto")?;
                config.opening_format = OpeningFormat::from_name(&v)
                    .ok_or_else(|| anyhow!("--opening-format: `{v}` is not offset, pos or auto"))?;
            }
            "--random-order" => config.random_order = true,
            "--seed" => config.seed = Some(parse_number(&flag, &value("seed")?)?),
            "--symmetry" => config.symmetry = true,
            "--concurrency" | "-j" => config.concurrency = parse_number(&flag, &value("games")?)?,
            "--sprt" => {
                // The value is optional: `--sprt` alone uses the defaults.
                let spec = match items.get(i) {
                    Some(v) if !v.starts_with('-') => {
                        i += 1;
                        v.clone()
                    }
                    _ => String::new(),
                };
                config.sprt = Some(parse_sprt(&spec)?);
            }
            "--sgf" => config.sgf_dir = Some(PathBuf::from(value("directory")?)),
            "--psq" => config.psq_dir = Some(PathBuf::from(value("directory")?)),
            "--jsonl" => config.jsonl = Some(PathBuf::from(value("file")?)),
            "--report" => config.report_every = parse_number(&flag, &value("games")?)?,
            "--quiet" | "-q" => config.quiet = true,
            other => bail!("unknown option `{other}` (see --help)"),
        }
    }
    if let Some(turn) = tc_turn {
        config.game.time.turn_ms = turn;
    }
    if let Some(matc) = tc_match {
        config.game.time.match_ms = matc;
    }
    validate(&config)?;
    Ok(Command::Run(Box::new(config)))
}

/// The `INFO` line of an `info=KEY=VALUE` engine item (`KEY=VALUE` given): one word of key,
/// a value without line breaks.
fn info_line(item: &str) -> Result<String> {
    let (key, value) = item
        .split_once('=')
        .filter(|(key, value)| {
            !key.is_empty()
                && !key.contains(char::is_whitespace)
                && !value.trim().is_empty()
                && !value.contains(['\n', '\r'])
        })
        .ok_or_else(|| anyhow!("info={item}: expected info=KEY=VALUE (e.g. info=thread_num=2)"))?;
    Ok(format!("INFO {key} {}", value.trim()))
}

/// Checks the combination of options.
fn validate(config: &Config) -> Result<()> {
    if config.engines.len() < 2 {
        bail!("need at least two engines (--engine cmd=PATH, twice); see --help");
    }
    for side in [config.game.width, config.game.height] {
        if !(MIN_SIZE..=MAX_SIZE).contains(&side) {
            bail!("board side {side} is outside {MIN_SIZE}..{MAX_SIZE}");
        }
    }
    if config.games == 0 || config.rounds == 0 {
        bail!("--games and --rounds must be at least 1");
    }
    if config.concurrency == 0 {
        bail!("--concurrency must be at least 1");
    }
    if config.sprt.is_some() && config.engines.len() != 2 {
        bail!("--sprt needs exactly two engines");
    }
    if config.game.memory_limit.is_some() && !memory_limit_supported() {
        bail!("--mem-limit is not supported on this platform (it reads /proc on Linux)");
    }
    Ok(())
}

/// Parses a non-negative integer option value.
fn parse_number<T: std::str::FromStr>(flag: &str, value: &str) -> Result<T> {
    value
        .trim()
        .parse::<T>()
        .map_err(|_| anyhow!("{flag}: `{value}` is not a non-negative integer"))
}

/// Parses `elo0=0,elo1=5,alpha=0.05,beta=0.05` (any subset, any order).
///
/// # Errors
/// On an unknown key, a bad number, `elo1 <= elo0` or `alpha`/`beta` outside (0, 1).
pub fn parse_sprt(spec: &str) -> Result<Sprt> {
    let mut sprt = Sprt::default();
    for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (key, value) = part
            .split_once('=')
            .ok_or_else(|| anyhow!("--sprt: expected key=value, got `{part}`"))?;
        let number: f64 = value
            .trim()
            .parse()
            .with_context(|| format!("--sprt: `{value}` is not a number"))?;
        match key.trim() {
            "elo0" => sprt.elo0 = number,
            "elo1" => sprt.elo1 = number,
            "alpha" => sprt.alpha = number,
            "beta" => sprt.beta = number,
            other => bail!("--sprt: unknown key `{other}` (elo0, elo1, alpha, beta)"),
        }
    }
    if sprt.elo1 <= sprt.elo0 {
        bail!("--sprt: elo1 must be greater than elo0");
    }
    for p in [sprt.alpha, sprt.beta] {
        if !(p > 0.0 && p < 1.0) {
            bail!("--sprt: alpha and beta must be between 0 and 1");
        }
    }
    Ok(sprt)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    fn run(text: &str) -> Config {
        match parse_args(&args(text)).unwrap() {
            Command::Run(config) => *config,
            other => panic!("expected a run, got {other:?}"),
        }
    }

    #[test]
    fn parses_a_full_command_line() {
        let config = run(
            "--engine cmd=./a name=A dir=/tmp info=thread_num=2 info=hash_size=64 -e ./b \
             --rule 4 --size 20 --tc 1000/30000 --tolerance-ms=500 --games 10 --rounds 2 \
             --openings o.txt --opening-format pos --random-order --seed 7 --symmetry \
             --concurrency 2 --draw-after 100 --reuse --sprt elo0=1,elo1=6 --sgf s \
             --psq p --jsonl j --quiet --gauntlet --mem-limit 64 --max-memory 1000 \
             --strict-clock",
        );
        assert_eq!(config.engines.len(), 2);
        assert_eq!(config.engines[0].name.as_deref(), Some("A"));
        assert_eq!(config.engines[0].dir, Some(PathBuf::from("/tmp")));
        assert_eq!(
            config.engines[0].infos,
            ["INFO thread_num 2", "INFO hash_size 64"]
        );
        assert_eq!(config.engines[1].program, "./b");
        assert!(config.engines[1].infos.is_empty());
        assert_eq!(config.game.rule, Rule::Renju);
        assert_eq!((config.game.width, config.game.height), (20, 20));
        assert_eq!(config.game.time.turn_ms, 1000);
        assert_eq!(config.game.time.match_ms, 30000);
        assert_eq!(config.game.time.tolerance_ms, 500);
        assert!(config.game.time.strict_clock);
        assert_eq!((config.games, config.rounds), (10, 2));
        assert_eq!(config.opening_format, OpeningFormat::Pos);
        assert!(config.random_order && config.symmetry && config.reuse && config.quiet);
        assert!(config.gauntlet);
        assert_eq!(config.seed, Some(7));
        assert_eq!(config.concurrency, 2);
        assert_eq!(config.game.draw_after, Some(100));
        assert_eq!(config.game.max_memory, 1000);
        assert_eq!(config.game.memory_limit, Some(64 << 20));
        let sprt = config.sprt.unwrap();
        assert_eq!((sprt.elo0, sprt.elo1, sprt.alpha), (1.0, 6.0, 0.05));
    }

    #[test]
    fn malformed_engine_info_items_are_refused() {
        for item in [
            "info=thread_num",
            "info==2",
            "info=thread num=2",
            "info=thread_num=",
        ] {
            let text = format!("--engine cmd=./a {item} -e ./b");
            let err = parse_args(&args(&text)).expect_err(&text);
            assert!(err.to_string().contains("info=KEY=VALUE"), "{text}: {err}");
        }
    }

    #[test]
    fn engine_command_with_arguments() {
        let list = vec![
            "--engine".to_string(),
            "cmd=./engine --mode fast".to_string(),
            "--engine".to_string(),
            "cmd=./other".to_string(),
            "--rect".to_string(),
            "20,15".to_string(),
            "--tc".to_string(),
            "300".to_string(),
        ];
        let Command::Run(config) = parse_args(&list).unwrap() else {
            panic!("expected a run");
        };
        assert_eq!(config.engines[0].program, "./engine");
        assert_eq!(config.engines[0].args, vec!["--mode", "fast"]);
        assert_eq!((config.game.width, config.game.height), (20, 15));
        assert_eq!(config.game.time.turn_ms, 300);
        assert_eq!(config.game.time.match_ms, 0);
    }

    #[test]
    fn rejects_bad_input() {
        let bad = [
            "--engine cmd=./a",
            "--engine cmd=./a --engine cmd=./b --size 4",
            "--engine cmd=./a --engine cmd=./b --rule 3",
            "--engine cmd=./a --engine cmd=./b --games x",
            "--engine cmd=./a --engine cmd=./b --frobnicate",
            "--engine cmd=./a --engine cmd=./b --sprt elo0=5,elo1=1",
            "--engine cmd=./a --engine cmd=./b --engine cmd=./c --sprt",
            "--engine name=x",
            "--engine cmd=./a --engine cmd=./b --concurrency 0",
        ];
        for line in bad {
            assert!(parse_args(&args(line)).is_err(), "{line}");
        }
        assert!(matches!(parse_args(&args("--help")), Ok(Command::Help)));
    }

    #[test]
    fn sprt_defaults() {
        assert_eq!(parse_sprt("").unwrap(), Sprt::default());
        assert!(parse_sprt("alpha=1.5").is_err());
        assert!(parse_sprt("gamma=1").is_err());
    }
}
