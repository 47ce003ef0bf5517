//! The command-line reader shared by `analyze` and `play`, and the options they share: the
//! rule, the board size and the search limits.

use std::collections::VecDeque;
use std::str::FromStr;

use anyhow::{anyhow, bail, Result};
use wuzi::search::limits::Limits;
use wuzi::types::{Rule, MAX_SIZE, MIN_SIZE};

/// The words of a command line, read one at a time; `--name=value` reads as `--name value`.
pub struct Words {
    words: VecDeque<String>,
}

impl Words {
    /// The words after the command's name.
    pub fn new(args: &[String]) -> Words {
        let mut words = VecDeque::new();
        for arg in args {
            match arg.split_once('=') {
                Some((name, value)) if name.starts_with("--") => {
                    words.push_back(name.to_string());
                    words.push_back(value.to_string());
                }
                _ => words.push_back(arg.clone()),
            }
        }
        Words { words }
    }

    /// The next word.
    pub fn next(&mut self) -> Option<String> {
        self.words.pop_front()
    }

    /// The value that must follow the option `flag`.
    ///
    /// # Errors
    /// When nothing follows, or another option does.
    pub fn value(&mut self, flag: &str) -> Result<String> {
        match self.words.front() {
            Some(word) if !is_option(word) => Ok(self.words.pop_front().unwrap_or_default()),
            _ => bail!("{flag} needs a value"),
        }
    }

    /// The number that must follow the option `flag`.
    ///
    /// # Errors
    /// When no value follows or it is not a number of that type.
    pub fn number<T: FromStr>(&mut self, flag: &str) -> Result<T> {
        let value = self.value(flag)?;
        value
            .parse()
            .map_err(|_| anyhow!("{flag}: {value:?} is not a valid number"))
    }

    /// The values that follow an option taking several: every word up to the next option.
    pub fn values(&mut self) -> Vec<String> {
        let mut values = Vec::new();
        while self.words.front().is_some_and(|w| !is_option(w)) {
            values.extend(self.words.pop_front());
        }
        values
    }
}

/// True for a word that names an option (`--rule`, `-h`).
pub fn is_option(word: &str) -> bool {
    word.starts_with('-') && word.len() > 1
}

/// The error for a word a command does not know.
pub fn unknown(word: &str, command: &str) -> anyhow::Error {
    if is_option(word) {
        anyhow!("{command}: unknown option {word:?} (see `pbrain-wuzi help`)")
    } else {
        anyhow!("{command}: unexpected argument {word:?} (see `pbrain-wuzi help`)")
    }
}

/// A rule by protocol number or name (`0`/`freestyle`, `1`/`standard`, `4`/`renju`,
/// `8`/`caro`, `9`/`caro-exact`).
///
/// # Errors
/// For anything else.
pub fn parse_rule(text: &str) -> Result<Rule> {
    Rule::from_name(text).ok_or_else(|| {
        anyhow!(
            "--rule: unknown rule {text:?} (freestyle or 0, standard or 1, renju or 4, \
             caro or 8, caro-exact or 9)"
        )
    })
}

/// A board size: `N` for N x N, or `WxH`.
///
/// # Errors
/// When it is not that form, or a side is outside the supported range.
pub fn parse_size(text: &str) -> Result<(usize, usize)> {
    let side = |t: &str| {
        t.trim()
            .parse::<usize>()
            .ok()
            .filter(|n| (MIN_SIZE..=MAX_SIZE).contains(n))
            .ok_or_else(|| {
                anyhow!("--size: {text:?} is not a board size (N or WxH, each side {MIN_SIZE}..{MAX_SIZE})")
            })
    };
    match text.split_once(['x', 'X']) {
        Some((w, h)) => Ok((side(w)?, side(h)?)),
        None => side(text).map(|n| (n, n)),
    }
}

/// Search limits as the command line gives them.
#[derive(Clone, Copy, Debug, Default)]
pub struct SearchLimits {
    /// `--time MS`: milliseconds per search.
    pub time_ms: Option<u64>,
    /// `--depth D`.
    pub depth: Option<u32>,
    /// `--nodes N`.
    pub nodes: Option<u64>,
}

impl SearchLimits {
    /// Takes `flag` and its value if it is one of the limits; true if it was.
    ///
    /// # Errors
    /// On a missing or bad value, or a zero.
    pub fn take(&mut self, flag: &str, words: &mut Words) -> Result<bool> {
        match flag {
            "--time" => self.time_ms = Some(positive(flag, words.number(flag)?)?),
            "--depth" => self.depth = Some(positive(flag, words.number(flag)?)?),
            "--nodes" => self.nodes = Some(positive(flag, words.number(flag)?)?),
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The engine's limits: the given ones, or `default_ms` per search when none is given.
    pub fn to_limits(self, default_ms: u64) -> Limits {
        let time_ms = match self {
            SearchLimits {
                time_ms: None,
                depth: None,
                nodes: None,
            } => Some(default_ms),
            _ => self.time_ms,
        };
        Limits {
            // No match clock: the turn limit alone binds.
            timeout_turn_ms: time_ms.map(|ms| ms.min(i64::MAX as u64) as i64),
            timeout_match_ms: Some(0),
            max_depth: self.depth,
            max_nodes: self.nodes,
            ..Limits::default()
        }
    }
}

/// `value` when it is above zero.
fn positive<T: PartialOrd + Default + std::fmt::Display>(flag: &str, value: T) -> Result<T> {
    if value > T::default() {
        Ok(value)
    } else {
        bail!("{flag} must be above 0, not {value}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Words {
        let args: Vec<String> = text.split_whitespace().map(String::from).collect();
        Words::new(&args)
    }

    #[test]
    fn values_stop_at_the_next_option() {
        let mut w = words("--black h8 j9 --white=i9 --time 500 x");
        assert_eq!(w.next().as_deref(), Some("--black"));
        assert_eq!(w.values(), ["h8", "j9"]);
        assert_eq!(w.next().as_deref(), Some("--white"));
        assert_eq!(w.values(), ["i9"]);
        assert_eq!(w.next().as_deref(), Some("--time"));
        assert_eq!(w.number::<u64>("--time").unwrap(), 500);
        assert_eq!(w.next().as_deref(), Some("x"));
        assert!(w.next().is_none());
        let mut w = words("--time --depth 3");
        w.next();
        assert!(w.value("--time").is_err());
    }

    #[test]
    fn rules_sizes_and_limits() {
        assert_eq!(parse_rule("4").unwrap(), Rule::Renju);
        assert_eq!(parse_rule("Renju").unwrap(), Rule::Renju);
        assert_eq!(parse_rule("caro-exact").unwrap(), Rule::CaroExact);
        assert!(parse_rule("5").is_err());
        assert_eq!(parse_size("20").unwrap(), (20, 20));
        assert_eq!(parse_size("20x18").unwrap(), (20, 18));
        assert!(parse_size("23").is_err() && parse_size("4x9").is_err());
        let none = SearchLimits::default().to_limits(700);
        assert_eq!(none.timeout_turn_ms, Some(700));
        let depth = SearchLimits {
            depth: Some(4),
            ..SearchLimits::default()
        };
        let limits = depth.to_limits(700);
        assert_eq!((limits.timeout_turn_ms, limits.max_depth), (None, Some(4)));
        let mut limits = SearchLimits::default();
        assert!(limits.take("--nodes", &mut words("0")).is_err());
        assert!(!limits.take("--rule", &mut words("4")).unwrap());
    }
}
