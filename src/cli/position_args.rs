//! The position a command is about, from its command line: moves in either notation (`h8 i9`
//! or `7,7 8,8`), a game record (`--file`, SGF or PSQ), or stones set up by colour (`--black`,
//! `--white`, `--to-move`). Moves are refereed one by one like a game; set-up stones are not
//! (puzzles and edited positions list their stones in any order).

use std::fmt;

use anyhow::{anyhow, bail, Context, Result};
use wuzi::arena::game::parse_move;
use wuzi::arena::record::read_record;
use wuzi::board::{is_win_on, Board, MoveCheck};
use wuzi::notation::{pos_name, read_pos_points};
use wuzi::types::{Color, Pos, Rule};

use super::options::Words;

/// A point as read, before it is checked against a board: column and row from 0.
type Point = (i64, i64);

/// How points are written: pos notation (`h8`: the column's letter from `a`, the row's number
/// from 1 at the top) or the protocol's `x,y` (from 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// `h8`.
    Pos,
    /// `7,7`.
    Xy,
}

impl Notation {
    /// `pos` in this notation.
    pub fn name(self, pos: Pos) -> String {
        match self {
            Notation::Pos => pos_name(pos),
            Notation::Xy => pos.to_string(),
        }
    }

    /// A point that may be off the board, for messages.
    fn raw_name(self, (x, y): Point) -> String {
        match self {
            Notation::Pos if (0..26).contains(&x) => {
                format!("{}{}", (b'a' + x as u8) as char, y + 1)
            }
            _ => format!("{x},{y}"),
        }
    }
}

/// Points read from words: each word is `x,y` or a run of pos notation (`h8` or `h8i9`);
/// words may also hold several points separated by spaces. Returns them with the notation of
/// the first one.
///
/// # Errors
/// On a word that is neither notation.
pub fn read_points(words: &[String]) -> Result<(Vec<Point>, Option<Notation>)> {
    let mut points = Vec::new();
    let mut notation = None;
    for token in words.iter().flat_map(|w| w.split_whitespace()) {
        if token.contains(',') {
            let point = parse_move(token)
                .ok_or_else(|| anyhow!("{token:?} is not a point (h8, or x,y from 0)"))?;
            notation.get_or_insert(Notation::Xy);
            points.push(point);
        } else {
            let run =
                read_pos_points(token).with_context(|| format!("{token:?} is not a point"))?;
            notation.get_or_insert(Notation::Pos);
            points.extend(run);
        }
    }
    Ok((points, notation))
}

/// How a game ended before the position to analyse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameOver {
    /// `color` has five through `pos`, made by move `number` (none for set-up stones).
    Five {
        /// The winner.
        color: Color,
        /// A stone of the five (the move that made it).
        pos: Pos,
        /// 1-based move number.
        number: Option<usize>,
    },
    /// Black's move `number` at `pos` is a renju foul: white wins.
    Foul {
        /// The foul.
        pos: Pos,
        /// 1-based move number.
        number: usize,
    },
    /// No empty point is left: a draw.
    Full,
}

impl GameOver {
    /// The winner, if any.
    pub fn winner(self) -> Option<Color> {
        match self {
            GameOver::Five { color, .. } => Some(color),
            GameOver::Foul { .. } => Some(Color::White),
            GameOver::Full => None,
        }
    }

    /// A sentence saying how it ended, points in `notation`.
    pub fn describe(self, notation: Notation) -> String {
        match self {
            GameOver::Five {
                color,
                pos,
                number: Some(n),
            } => format!("{color} made five with move {n} ({})", notation.name(pos)),
            GameOver::Five { color, pos, .. } => {
                format!("{color} has five (through {})", notation.name(pos))
            }
            GameOver::Foul { pos, number } => format!(
                "black's move {number} ({}) is a renju foul: white wins",
                notation.name(pos)
            ),
            GameOver::Full => "the board is full: a draw".to_string(),
        }
    }
}

/// A position to analyse: the board with the side to move, the notation to answer in, and
/// how the game ended if it has.
pub struct Setup {
    /// The position.
    pub board: Board,
    /// The notation the position was given in (pos notation for a record).
    pub notation: Notation,
    /// Set when the game is already over.
    pub over: Option<GameOver>,
}

/// What the command line says about the position.
#[derive(Default)]
pub struct PositionArgs {
    moves: Vec<String>,
    file: Option<String>,
    black: Option<Vec<String>>,
    white: Option<Vec<String>>,
    to_move: Option<Color>,
    ply: Option<usize>,
}

impl PositionArgs {
    /// Takes `word` (with its values) if it belongs to the position; true if it did. A word
    /// that is not an option is a move.
    ///
    /// # Errors
    /// On a missing or bad value.
    pub fn take(&mut self, word: &str, words: &mut Words) -> Result<bool> {
        match word {
            "--file" => self.file = Some(words.value(word)?),
            "--black" => self
                .black
                .get_or_insert_with(Vec::new)
                .extend(words.values()),
            "--white" => self
                .white
                .get_or_insert_with(Vec::new)
                .extend(words.values()),
            "--to-move" => {
                let side = words.value(word)?;
                self.to_move = Some(match side.to_ascii_lowercase().as_str() {
                    "black" | "b" => Color::Black,
                    "white" | "w" => Color::White,
                    _ => bail!("--to-move: {side:?} is neither black nor white"),
                });
            }
            "--ply" => self.ply = Some(words.number(word)?),
            w if !super::options::is_option(w) => self.moves.push(w.to_string()),
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The position under `rule` (the record's own if none is given, else freestyle) on a
    /// board of `size` (the record's own, else 15x15).
    ///
    /// # Errors
    /// On contradicting options, an unreadable file, or a move or stone that cannot be played
    /// (named in the message).
    pub fn build(&self, rule: Option<Rule>, size: Option<(usize, usize)>) -> Result<Setup> {
        let set_up = self.black.is_some() || self.white.is_some();
        let sources = [!self.moves.is_empty(), self.file.is_some(), set_up];
        if sources.iter().filter(|&&s| s).count() > 1 {
            bail!("give the position one way: moves, --file, or --black/--white stones");
        }
        if self.to_move.is_some() && !set_up {
            bail!(
                "--to-move is for a set-up position (--black/--white); moves say whose turn it is"
            );
        }
        if set_up {
            if self.ply.is_some() {
                bail!("--ply is for moves or a record, not set-up stones");
            }
            let (width, height) = size.unwrap_or((15, 15));
            return self.set_up(rule.unwrap_or(Rule::Freestyle), width, height);
        }
        let (points, notation, record_rule, dims, from_record) = match &self.file {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("cannot read --file {path}"))?;
                let record = read_record(&text).with_context(|| format!("--file {path}"))?;
                if let Some(given) = size.filter(|&s| s != (record.width, record.height)) {
                    bail!(
                        "--file {path} is a {}x{} game, not {}x{}",
                        record.width,
                        record.height,
                        given.0,
                        given.1
                    );
                }
                let points: Vec<(Point, Option<Color>)> = record
                    .stones
                    .iter()
                    .map(|&(p, c)| ((p.x as i64, p.y as i64), Some(c)))
                    .collect();
                let dims = (record.width, record.height);
                (points, Notation::Pos, record.rule, dims, true)
            }
            None => {
                let (points, notation) = read_points(&self.moves)?;
                let points = points.into_iter().map(|p| (p, None)).collect();
                let dims = size.unwrap_or((15, 15));
                (points, notation.unwrap_or(Notation::Pos), None, dims, false)
            }
        };
        let mut points = points;
        if let Some(ply) = self.ply {
            if ply > points.len() {
                bail!("--ply {ply} is beyond the last move ({})", points.len());
            }
            points.truncate(ply);
        }
        let rule = rule.or(record_rule).unwrap_or(Rule::Freestyle);
        let (board, over) = referee(dims, rule, &points, notation, from_record)?;
        Ok(Setup {
            board,
            notation,
            over,
        })
    }

    /// The set-up position of `--black`/`--white`.
    fn set_up(&self, rule: Rule, width: usize, height: usize) -> Result<Setup> {
        let mut board = Board::new(width, height, rule)?;
        let mut notation = None;
        let mut counts = [0; 2];
        for (words, color) in [(&self.black, Color::Black), (&self.white, Color::White)] {
            let (points, given) = read_points(words.as_deref().unwrap_or_default())?;
            notation = notation.or(given);
            let shown = notation.unwrap_or(Notation::Pos);
            for point in points {
                let name = shown.raw_name(point);
                let pos = on_board(point, &board).ok_or_else(|| {
                    anyhow!("{color} stone {name} is off the {width}x{height} board")
                })?;
                if !board.is_empty(pos) {
                    bail!("{color} stone {name} is on a point already taken");
                }
                board.place(pos, color);
                counts[color.index()] += 1;
            }
        }
        let [black, white] = counts;
        let side = match self.to_move {
            Some(side) => side,
            None if black == white => Color::Black,
            None if black == white + 1 => Color::White,
            None => bail!(
                "black has {black} stones and white {white}: say whose turn it is with --to-move"
            ),
        };
        board.set_side_to_move(side);
        let over = set_up_five(&board).or_else(|| board.is_full().then_some(GameOver::Full));
        Ok(Setup {
            board,
            notation: notation.unwrap_or(Notation::Pos),
            over,
        })
    }
}

/// The point on `board`, if it is on it.
fn on_board((x, y): Point, board: &Board) -> Option<Pos> {
    board
        .in_bounds(x, y)
        .then(|| Pos::new(x as usize, y as usize))
}

/// A five among set-up stones, if any stone is part of one.
fn set_up_five(board: &Board) -> Option<GameOver> {
    board.history().iter().find_map(|&(pos, color)| {
        let mut lines = board.lines().clone();
        lines.remove(color, pos);
        is_win_on(&lines, board.rule(), pos, color).then_some(GameOver::Five {
            color,
            pos,
            number: None,
        })
    })
}

/// Plays `points` in order from an empty board, as a referee would. A record's colours must
/// alternate from black; its last move may be the foul that ended it.
fn referee(
    (width, height): (usize, usize),
    rule: Rule,
    points: &[(Point, Option<Color>)],
    notation: Notation,
    from_record: bool,
) -> Result<(Board, Option<GameOver>)> {
    let mut board = Board::new(width, height, rule)?;
    let mut over: Option<GameOver> = None;
    for (i, &(point, color)) in points.iter().enumerate() {
        let number = i + 1;
        let name = notation.raw_name(point);
        let side = board.side_to_move();
        if let Some(ended) = over {
            bail!(
                "move {number} ({name}) comes after the end of the game: {}",
                ended.describe(notation)
            );
        }
        if color.is_some_and(|c| c != side) {
            bail!(
                "move {number} ({name}) is {}'s, but {side} is to move",
                side.opponent()
            );
        }
        let pos = on_board(point, &board)
            .ok_or_else(|| anyhow!("move {number} ({name}) is off the {width}x{height} board"))?;
        match board.check_move(pos) {
            MoveCheck::OffBoard => bail!("move {number} ({name}) is off the board"),
            MoveCheck::Occupied => {
                let earlier = board.history().iter().position(|&(p, _)| p == pos);
                match earlier {
                    Some(k) => bail!("move {number} ({name}) repeats move {}", k + 1),
                    None => bail!("move {number} ({name}) is on a point already taken"),
                }
            }
            MoveCheck::Forbidden if from_record && number == points.len() => {
                over = Some(GameOver::Foul { pos, number });
            }
            MoveCheck::Forbidden => bail!(
                "move {number} ({name}) is a renju foul for black (a double three, a double \
                 four or an overline)"
            ),
            MoveCheck::Win => {
                over = Some(GameOver::Five {
                    color: side,
                    pos,
                    number: Some(number),
                })
            }
            MoveCheck::Ordinary => {}
        }
        board.make_move(pos);
    }
    if over.is_none() && board.is_full() {
        over = Some(GameOver::Full);
    }
    Ok((board, over))
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Notation::Pos => "pos",
            Notation::Xy => "x,y",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(args: &str, rule: Option<Rule>) -> Result<Setup> {
        let list: Vec<String> = args.split_whitespace().map(String::from).collect();
        let mut words = Words::new(&list);
        let mut position = PositionArgs::default();
        while let Some(word) = words.next() {
            assert!(position.take(&word, &mut words)?, "{word}");
        }
        position.build(rule, None)
    }

    fn error(args: &str, rule: Option<Rule>) -> String {
        match build(args, rule) {
            Ok(_) => panic!("{args}: accepted"),
            Err(e) => format!("{e:#}"),
        }
    }

    #[test]
    fn moves_in_either_notation() {
        let a = build("h8 i9 j7", None).unwrap();
        let b = build("7,7 8,8 9,6", None).unwrap();
        let c = build("h8i9 j7", None).unwrap();
        assert_eq!(a.board.history(), b.board.history());
        assert_eq!(a.board.history(), c.board.history());
        assert_eq!(a.board.side_to_move(), Color::White);
        assert_eq!((a.notation, b.notation), (Notation::Pos, Notation::Xy));
        assert_eq!(build("h8 i9 --ply 1", None).unwrap().board.stone_count(), 1);
        assert!(build("", None).unwrap().board.history().is_empty());
    }

    #[test]
    fn bad_moves_are_named() {
        assert!(error("h8 i9 h8", None).contains("move 3 (h8) repeats move 1"));
        assert!(error("h8 p16", None).contains("move 2 (p16) is off the 15x15 board"));
        assert!(error("h8 7,x", None).contains("\"7,x\" is not a point"));
        assert!(error("h8 8h", None).contains("\"8h\" is not a point"));
        // Black's five on row 1, then one more move.
        let five = "a1 a2 b1 b2 c1 c2 d1 d2 e1 f5";
        assert!(error(five, None).contains("move 10 (f5) comes after the end of the game"));
        let over = build("a1 a2 b1 b2 c1 c2 d1 d2 e1", None).unwrap().over;
        assert!(matches!(
            over,
            Some(GameOver::Five {
                number: Some(9),
                ..
            })
        ));
        // Black's move 7 at h8 makes two open threes.
        let foul = "f8 a1 g8 a3 h6 a5 h7 a7 h8";
        assert!(build(foul, None).is_ok(), "not a foul in freestyle");
        let message = error(foul, Some(Rule::Renju));
        assert!(message.contains("move 9 (h8) is a renju foul"), "{message}");
        assert!(error("h8 --ply 3", None).contains("beyond the last move (1)"));
    }

    #[test]
    fn set_up_stones_and_whose_turn() {
        let s = build("--black h8 i9 --white j10", None).unwrap();
        assert_eq!(s.board.side_to_move(), Color::White);
        let s = build("--black h8 --white j10 --to-move white", None).unwrap();
        assert_eq!(s.board.side_to_move(), Color::White);
        let s = build("--black 7,7 --white 8,8", None).unwrap();
        assert_eq!(
            (s.board.side_to_move(), s.notation),
            (Color::Black, Notation::Xy)
        );
        assert!(error("--black h8 i9 j10", None).contains("--to-move"));
        assert!(error("--black h8 --white h8", None).contains("already taken"));
        assert!(error("h8 --black i9", None).contains("one way"));
        assert!(error("h8 --to-move black", None).contains("set-up"));
        // A set-up double three is not judged; a five among the stones ends the game.
        let s = build("--black f8 g8 h6 h7 --white a1 a3 a5 a7", Some(Rule::Renju)).unwrap();
        assert!(s.over.is_none());
        let s = build("--black a1 b1 c1 d1 e1 --white a3 a5 a7 a9 a11", None).unwrap();
        assert_eq!(s.over.and_then(GameOver::winner), Some(Color::Black));
    }
}
