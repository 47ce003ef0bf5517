//! Line shapes (`Pattern`) and their four-direction combination (`Combo`), read from tables.
//!
//! The shape a stone on an empty cell would make along one line depends only on the five cells
//! on each side of it. Those ten neighbours form a 20-bit key: bit `s` says "own stone or wall"
//! and bit `10 + s` says "opponent stone or wall" for neighbour slot `s` (offsets -5..-1 then
//! +1..+5), so a wall is both. One table per five-rule variant maps every key to its shape; the
//! tables are built once, by a memoised recursion from "five" down ("a four is one move from a
//! five"), the first time a rule needs them.

use std::sync::OnceLock;

use super::lines::Lines;
use crate::types::{Color, Rule};

/// The shape one stone makes along one line, ordered by strength.
///
/// Diagrams show the line with the new stone as `X`, own stones `x`, opponent `o`, empty `.`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Hash)]
#[repr(u8)]
pub enum Pattern {
    /// No five can ever pass through the cell on this line: `oxX.xo`.
    Dead = 0,
    /// A run longer than five where only exactly five wins: `xxXxxx`.
    Overline,
    /// A five is still possible, but more than two moves away: `..X....`.
    One,
    /// One move makes a (blocked) three: `oxX....`.
    Two,
    /// One move makes a flexible three: `..xX...`.
    FlexTwo,
    /// One move makes a four: `oxxX..`.
    Three,
    /// One move makes a flexible four: `..xxX..`.
    FlexThree,
    /// One move makes five: `oxxxX.`.
    Four,
    /// Two or more moves make five: `.xxxX.` (also `x.xX.x` style double fours on one line).
    FlexFour,
    /// The stone makes a winning line: `xxxxX`.
    Five,
}

impl Pattern {
    /// Number of shapes.
    pub const COUNT: usize = 10;
    const ALL: [Pattern; Pattern::COUNT] = [
        Pattern::Dead,
        Pattern::Overline,
        Pattern::One,
        Pattern::Two,
        Pattern::FlexTwo,
        Pattern::Three,
        Pattern::FlexThree,
        Pattern::Four,
        Pattern::FlexFour,
        Pattern::Five,
    ];

    /// The shape with the given discriminant.
    #[inline]
    pub fn from_u8(v: u8) -> Pattern {
        Pattern::ALL[v as usize]
    }
}

/// The combined shape of one cell over its four lines, ordered by threat strength.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Hash)]
#[repr(u8)]
pub enum Combo {
    /// Nothing better than twos.
    None = 0,
    /// Two or more flexible twos: `FlexTwo` + `FlexTwo`.
    DoubleTwo,
    /// A blocked three (one move from a four).
    Three,
    /// One flexible three.
    FlexThree,
    /// Two or more flexible threes (a renju foul candidate for black).
    DoubleThree,
    /// A blocked four.
    Four,
    /// A blocked four and a flexible three on another line.
    FourThree,
    /// Two or more fours (a renju foul candidate for black).
    DoubleFour,
    /// A flexible four.
    FlexFour,
    /// A winning line.
    Five,
}

impl Combo {
    /// Number of combined shapes.
    pub const COUNT: usize = 10;
    const ALL: [Combo; Combo::COUNT] = [
        Combo::None,
        Combo::DoubleTwo,
        Combo::Three,
        Combo::FlexThree,
        Combo::DoubleThree,
        Combo::Four,
        Combo::FourThree,
        Combo::DoubleFour,
        Combo::FlexFour,
        Combo::Five,
    ];

    /// The combined shape whose discriminant is the low four bits of `v` (codes above
    /// [`Combo::Five`] do not occur; they read as `Five`). No bounds check.
    #[inline(always)]
    pub fn from_low_bits(v: u32) -> Combo {
        const BY_CODE: [Combo; 16] = {
            let mut all = [Combo::Five; 16];
            let mut i = 0;
            while i < Combo::COUNT {
                all[i] = Combo::ALL[i];
                i += 1;
            }
            all
        };
        BY_CODE[(v & 15) as usize]
    }

    /// The combined shape of four line shapes.
    pub fn of(patterns: [Pattern; 4]) -> Combo {
        let mut count = [0u8; Pattern::COUNT];
        for p in patterns {
            count[p as usize] += 1;
        }
        let n = |p: Pattern| count[p as usize];
        let fours = n(Pattern::Four) + n(Pattern::FlexFour);
        if n(Pattern::Five) > 0 {
            Combo::Five
        } else if n(Pattern::FlexFour) > 0 && fours == 1 {
            Combo::FlexFour
        } else if fours >= 2 {
            Combo::DoubleFour
        } else if fours == 1 && n(Pattern::FlexThree) > 0 {
            Combo::FourThree
        } else if fours == 1 {
            Combo::Four
        } else if n(Pattern::FlexThree) >= 2 {
            Combo::DoubleThree
        } else if n(Pattern::FlexThree) == 1 {
            Combo::FlexThree
        } else if n(Pattern::Three) > 0 {
            Combo::Three
        } else if n(Pattern::FlexTwo) >= 2 {
            Combo::DoubleTwo
        } else {
            Combo::None
        }
    }

    /// True if black's move here needs the exact renju foul test: it may be an overline, a
    /// double four (possibly on one line) or a double three.
    pub fn is_foul_candidate(patterns: [Pattern; 4]) -> bool {
        let mut threes_and_fours = 0;
        for p in patterns {
            match p {
                Pattern::Five => return false,
                Pattern::Overline | Pattern::FlexFour => return true,
                Pattern::FlexThree | Pattern::Four => threes_and_fours += 1,
                _ => {}
            }
        }
        threes_and_fours >= 2
    }
}

/// How a line of stones wins, which decides the table used.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum FiveRule {
    /// Five or more.
    AtLeast,
    /// Exactly five.
    Exact,
    /// Caro: five or more, but a five closed by opponent stones at both ends does not count.
    Caro,
    /// Caro with exactly five.
    CaroExact,
}

const KEY_BITS: u32 = 20;
const TABLE_SIZE: usize = 1 << KEY_BITS;
const UNKNOWN: u8 = u8::MAX;

/// Neighbour code of the 11-cell window: own stone, opponent stone, wall or empty.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Slot {
    Empty,
    Own,
    Opp,
    Wall,
}

/// Window slot of neighbour `s` (0..10): slots 0..5 are offsets -5..-1, 5..10 are +1..+5.
#[inline]
fn window_index(s: usize) -> usize {
    if s < 5 {
        s
    } else {
        s + 1
    }
}

fn decode(key: usize) -> [Slot; 11] {
    let mut cells = [Slot::Own; 11];
    for s in 0..10 {
        let own = key >> s & 1 == 1;
        let opp = key >> (10 + s) & 1 == 1;
        cells[window_index(s)] = match (own, opp) {
            (false, false) => Slot::Empty,
            (true, false) => Slot::Own,
            (false, true) => Slot::Opp,
            (true, true) => Slot::Wall,
        };
    }
    cells
}

/// Length of the own run through the centre (index 5) and whether it is a winning line.
fn centre_five(cells: &[Slot; 11], rule: FiveRule) -> (usize, bool) {
    let mut lo = 5;
    while lo > 0 && cells[lo - 1] == Slot::Own {
        lo -= 1;
    }
    let mut hi = 5;
    while hi < 10 && cells[hi + 1] == Slot::Own {
        hi += 1;
    }
    let len = hi - lo + 1;
    let closed = lo > 0 && hi < 10 && cells[lo - 1] == Slot::Opp && cells[hi + 1] == Slot::Opp;
    let wins = match rule {
        FiveRule::AtLeast => len >= 5,
        FiveRule::Exact => len == 5,
        FiveRule::Caro => len >= 6 || (len == 5 && !closed),
        FiveRule::CaroExact => len == 5 && !closed,
    };
    (len, wins)
}

/// How a table key encodes the ten neighbours.
#[derive(Clone, Copy)]
enum KeySpace {
    /// 20 bits: bit `s` own-or-wall, bit `10 + s` opponent-or-wall (caro tells walls apart).
    Binary,
    /// Base 3: digit `s` is 0 empty, 1 own, 2 opponent or wall (3^10 keys).
    Ternary,
}

const POWERS_OF_3: [usize; 10] = [1, 3, 9, 27, 81, 243, 729, 2187, 6561, 19683];

impl KeySpace {
    fn size(self) -> usize {
        match self {
            KeySpace::Binary => TABLE_SIZE,
            KeySpace::Ternary => TERNARY_SIZE,
        }
    }

    fn decode(self, key: usize) -> [Slot; 11] {
        match self {
            KeySpace::Binary => decode(key),
            KeySpace::Ternary => {
                let mut cells = [Slot::Own; 11];
                for (s, power) in POWERS_OF_3.iter().enumerate() {
                    cells[window_index(s)] = match key / power % 3 {
                        0 => Slot::Empty,
                        1 => Slot::Own,
                        _ => Slot::Opp,
                    };
                }
                cells
            }
        }
    }

    /// The key with an own stone added on the empty neighbour `s`.
    fn with_own(self, key: usize, s: usize) -> usize {
        match self {
            KeySpace::Binary => key | 1 << s,
            KeySpace::Ternary => key + POWERS_OF_3[s],
        }
    }
}

fn compute(key: usize, rule: FiveRule, space: KeySpace, memo: &mut [u8]) -> u8 {
    if memo[key] != UNKNOWN {
        return memo[key];
    }
    let cells = space.decode(key);
    let (len, wins) = centre_five(&cells, rule);
    let result = if wins {
        Pattern::Five
    } else if len > 5 {
        Pattern::Overline
    } else {
        let mut fives = 0;
        let mut best = Pattern::Dead;
        // Fives through the centre lie within four cells of it: slots 1..9 (offsets -4..+4).
        for s in 1..9 {
            if cells[window_index(s)] != Slot::Empty {
                continue;
            }
            let child = Pattern::from_u8(compute(space.with_own(key, s), rule, space, memo));
            if child == Pattern::Five {
                fives += 1;
            }
            best = best.max(child);
        }
        match (fives, best) {
            (f, _) if f >= 2 && !one_stone_stops_all(key, rule, space, memo) => Pattern::FlexFour,
            (f, _) if f >= 2 => Pattern::Four,
            (1, _) => Pattern::Four,
            (_, Pattern::FlexFour) => Pattern::FlexThree,
            (_, Pattern::Four) => Pattern::Three,
            (_, Pattern::FlexThree) => Pattern::FlexTwo,
            (_, Pattern::Three) => Pattern::Two,
            (_, Pattern::Dead | Pattern::Overline) => Pattern::Dead,
            _ => Pattern::One,
        }
    };
    memo[key] = result as u8;
    result as u8
}

/// Caro only: true if one opponent stone on the window stops every five the centre's line can
/// make in one move. Only opponent stones close a caro five, so a stone on one five point can
/// close the other's five: in `o.xxXx.` the points on either side make five, but an
/// opponent stone on the right one closes the left one's five at both ends. Such a shape is a
/// four (one block answers it), not a flexible four. Under the other rules a stone stops only
/// the five through its own point.
fn one_stone_stops_all(key: usize, rule: FiveRule, space: KeySpace, memo: &mut [u8]) -> bool {
    if !matches!(rule, FiveRule::Caro | FiveRule::CaroExact) {
        return false;
    }
    let KeySpace::Binary = space else {
        return false;
    };
    let cells = space.decode(key);
    (0..10).any(|s| {
        cells[window_index(s)] == Slot::Empty
            && Pattern::from_u8(compute(key | 1 << (10 + s), rule, space, memo)) < Pattern::Four
    })
}

fn build(rule: FiveRule, space: KeySpace) -> Box<[u8]> {
    let mut memo = vec![UNKNOWN; space.size()].into_boxed_slice();
    for key in 0..space.size() {
        // Every key is meaningful (in the binary space "own and opponent" is a wall).
        compute(key, rule, space, &mut memo);
    }
    memo
}

/// Length of a binary-keyed table (a power of two, so a masked key needs no bounds check).
pub const BINARY_SLOTS: usize = TABLE_SIZE;
/// Length of a ternary-keyed table: 3^10 keys padded to a power of two for the same reason.
pub const TERNARY_SLOTS: usize = 1 << 16;
const _: () = assert!(TERNARY_SIZE <= TERNARY_SLOTS);

/// A built table as shapes, padded with [`Pattern::Dead`] to `N` entries.
fn to_patterns<const N: usize>(memo: &[u8]) -> Box<[Pattern; N]> {
    let mut out = vec![Pattern::Dead; N];
    for (slot, &v) in out.iter_mut().zip(memo) {
        *slot = Pattern::from_u8(v);
    }
    out.into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| unreachable!("the vector has N entries"))
}

fn table(rule: FiveRule) -> &'static [Pattern; BINARY_SLOTS] {
    static TABLES: [OnceLock<Box<[Pattern; BINARY_SLOTS]>>; 4] = [const { OnceLock::new() }; 4];
    let index = rule as usize;
    TABLES[index].get_or_init(|| to_patterns(&build(rule, KeySpace::Binary)))
}

/// Ternary weights of an 11-bit window: `TERNARY[m]` = sum of `3^s` over the set neighbour
/// bits `s` (the centre bit, 5, is ignored), so a window needs no squeezing before lookup.
fn ternary() -> &'static [u16; 2048] {
    static TERNARY: OnceLock<[u16; 2048]> = OnceLock::new();
    TERNARY.get_or_init(|| {
        let mut t = [0u16; 2048];
        for (m, v) in t.iter_mut().enumerate() {
            let neighbours = squeeze(m as u32);
            let mut power = 1u16;
            for s in 0..10 {
                if neighbours >> s & 1 == 1 {
                    *v += power;
                }
                power = power.wrapping_mul(3);
            }
        }
        t
    })
}

/// Number of ternary keys (3^10).
const TERNARY_SIZE: usize = 59_049;

/// The table indexed by ternary keys (own = 1, blocked = 2 per neighbour), for rules where
/// an opponent stone and a wall block alike: 59 K entries instead of 1 M, so lookups stay in
/// cache, and built directly in a few milliseconds (the first move of a fresh process pays).
fn compact(rule: FiveRule) -> &'static [Pattern; TERNARY_SLOTS] {
    static TABLES: [OnceLock<Box<[Pattern; TERNARY_SLOTS]>>; 2] = [const { OnceLock::new() }; 2];
    TABLES[rule as usize].get_or_init(|| to_patterns(&build(rule, KeySpace::Ternary)))
}

impl PatternTable {
    /// Reach of a stone's influence along a line: the farthest neighbour whose shape can
    /// change when a stone is added. Five or more wins for both colours only under
    /// freestyle, and there a cell five away never matters (a five through a cell lies
    /// within four of it); exact fives and caro's closed fives look one cell further.
    pub fn reach(rule: Rule) -> u32 {
        if rule == Rule::Freestyle {
            4
        } else {
            5
        }
    }
}

/// The pattern tables for one rule, per colour.
#[derive(Clone, Copy)]
pub enum PatternTable {
    /// Ternary-keyed tables (rules without caro's closed-five exception).
    Ternary {
        /// Per colour.
        tables: [&'static [Pattern; TERNARY_SLOTS]; 2],
        /// Window to ternary key.
        weights: &'static [u16; 2048],
    },
    /// Binary-keyed tables (caro tells walls from opponent stones).
    Binary {
        /// Per colour.
        tables: [&'static [Pattern; BINARY_SLOTS]; 2],
    },
}

impl PatternTable {
    /// The tables for `rule` (built on first use).
    pub fn for_rule(rule: Rule) -> PatternTable {
        let five_rule = |color: Color| match (rule.is_caro(), rule.exact_five(color)) {
            (false, false) => FiveRule::AtLeast,
            (false, true) => FiveRule::Exact,
            (true, false) => FiveRule::Caro,
            (true, true) => FiveRule::CaroExact,
        };
        if rule.is_caro() {
            PatternTable::Binary {
                tables: [
                    table(five_rule(Color::Black)),
                    table(five_rule(Color::White)),
                ],
            }
        } else {
            PatternTable::Ternary {
                tables: [
                    compact(five_rule(Color::Black)),
                    compact(five_rule(Color::White)),
                ],
                weights: ternary(),
            }
        }
    }

    /// The shape `color` would make on the empty cell at `bit` of `line` in direction `dir`.
    #[inline(always)]
    pub fn pattern(
        &self,
        lines: &Lines,
        color: Color,
        dir: usize,
        line: usize,
        bit: u32,
    ) -> Pattern {
        let walls = lines.walls(dir, line);
        let own = lines.stones(color, dir, line);
        let opp = lines.stones(color.opponent(), dir, line) | walls;
        let shift = bit - 5;
        match self {
            PatternTable::Ternary { tables, weights } => {
                let key =
                    weights[window(own, shift)] as usize + 2 * weights[window(opp, shift)] as usize;
                tables[color.index()][key & (TERNARY_SLOTS - 1)]
            }
            PatternTable::Binary { tables } => {
                let own = own | walls;
                let key = squeeze(own >> shift) | squeeze(opp >> shift) << 10;
                tables[color.index()][key & (BINARY_SLOTS - 1)]
            }
        }
    }
}

/// The ternary keys of black and white for the empty cell at `bit` of a line with the given
/// masks, packed as `black | white << 16`, counting only the neighbours set in `neighbours`
/// (an 11-bit window mask). Ternary keys add up over disjoint masks, so three weight lookups
/// serve both colours: black's key is `w(black) + 2 (w(white) + w(walls))`, white's the
/// mirror. Both are below 3^10, so neither half overflows into the other.
#[inline(always)]
pub fn ternary_key_pair(
    weights: &[u16; 2048],
    black: u32,
    white: u32,
    walls: u32,
    bit: u32,
    neighbours: u32,
) -> u32 {
    let shift = bit - 5;
    let b = weights[window(black, shift) & neighbours as usize] as u32;
    let w = weights[window(white, shift) & neighbours as usize] as u32;
    let x = weights[window(walls, shift) & neighbours as usize] as u32;
    (b + 2 * (w + x)) | (w + 2 * (b + x)) << 16
}

/// The shapes black and white make for a pair of ternary keys from [`ternary_key_pair`].
#[inline(always)]
pub fn ternary_patterns(
    tables: &[&'static [Pattern; TERNARY_SLOTS]; 2],
    pair: u32,
) -> [Pattern; 2] {
    [
        tables[0][pair as usize & (TERNARY_SLOTS - 1)],
        tables[1][(pair >> 16) as usize & (TERNARY_SLOTS - 1)],
    ]
}

/// What a stone of `color` adds to the ternary key pair of an empty cell `k - 5` cells away
/// on the same line (`k` in `0..=10`, 5 being the stone's own cell, which adds nothing).
pub const fn key_delta(color: Color, k: usize) -> u32 {
    // The stone is at offset 5 - k from the cell: slots 0..=4 hold offsets -5..=-1 and
    // slots 5..=9 offsets 1..=5.
    let slot = match k {
        0..=4 => 9 - k,
        6..=10 => 10 - k,
        _ => return 0,
    };
    let power = POWERS_OF_3[slot] as u32;
    match color {
        Color::Black => power | (2 * power) << 16,
        Color::White => (2 * power) | power << 16,
    }
}

/// The shapes black and white make on the empty cell at `bit` of a line with the given
/// masks, for binary (caro) tables.
#[inline(always)]
pub fn binary_both(
    tables: &[&'static [Pattern; BINARY_SLOTS]; 2],
    black: u32,
    white: u32,
    walls: u32,
    bit: u32,
) -> [Pattern; 2] {
    let shift = bit - 5;
    let key = |own: u32, opp: u32| {
        squeeze((own | walls) >> shift) | squeeze((opp | walls) >> shift) << 10
    };
    [
        tables[0][key(black, white) & (BINARY_SLOTS - 1)],
        tables[1][key(white, black) & (BINARY_SLOTS - 1)],
    ]
}

/// The 11-bit window starting at bit `shift` of a line mask (an index into the weights).
#[inline(always)]
fn window(mask: u32, shift: u32) -> usize {
    (mask >> shift & 0x7ff) as usize
}

/// The ten neighbour bits of an 11-bit window (centre at bit 5 dropped).
#[inline(always)]
fn squeeze(window: u32) -> usize {
    ((window & 0x1f) | ((window >> 6) & 0x1f) << 5) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Pos;

    /// Shape for black at the `X` of a one-line diagram on row 7 of a 15x15 board.
    fn shape(rule: Rule, diagram: &str) -> Pattern {
        let mut lines = Lines::new(15, 15);
        let mut centre = None;
        for (x, c) in diagram.chars().enumerate() {
            let pos = Pos::new(x, 7);
            match c {
                'x' => lines.add(Color::Black, pos),
                'o' => lines.add(Color::White, pos),
                'X' => centre = Some(pos),
                _ => {}
            }
        }
        let pos = centre.expect("diagram has an X");
        let (line, bit) = lines.locate(0, pos);
        PatternTable::for_rule(rule).pattern(&lines, Color::Black, 0, line, bit)
    }

    #[test]
    fn freestyle_shapes() {
        let f = Rule::Freestyle;
        assert_eq!(shape(f, "...xxXxx......."), Pattern::Five);
        assert_eq!(shape(f, "..xxxXxx......."), Pattern::Five);
        assert_eq!(shape(f, "....xxXx......."), Pattern::FlexFour);
        assert_eq!(shape(f, "...oxxXx......."), Pattern::Four);
        assert_eq!(shape(f, "...x.xXx......."), Pattern::Four);
        assert_eq!(shape(f, "..x.xXx.x......"), Pattern::FlexFour);
        assert_eq!(shape(f, ".xxxX.x........"), Pattern::FlexFour);
        assert_eq!(shape(f, ".....xXx......."), Pattern::FlexThree);
        assert_eq!(shape(f, "....x.Xx......."), Pattern::FlexThree);
        assert_eq!(shape(f, "....oxXx......."), Pattern::Three);
        assert_eq!(shape(f, "......Xx......."), Pattern::FlexTwo);
        assert_eq!(shape(f, ".....oXx......."), Pattern::Two);
        assert_eq!(shape(f, "......X........"), Pattern::One);
        assert_eq!(shape(f, "...o..X.o......"), Pattern::Dead);
        // The edge is a wall.
        assert_eq!(shape(f, "xxXx..........."), Pattern::Four);
    }

    /// A stone changes a cell's key pair by its [`key_delta`]: the update's arithmetic
    /// agrees with keys read afresh from the lines, at every distance on both sides.
    #[test]
    fn key_deltas_match_recomputed_keys() {
        let weights = ternary();
        let all = 0x7ff;
        for color in Color::ALL {
            for k in 0..=10usize {
                if k == 5 {
                    continue;
                }
                let mut lines = Lines::new(15, 15);
                let cell = Pos::new(7, 7);
                let (line, bit) = lines.locate(0, cell);
                let key = |lines: &Lines| {
                    ternary_key_pair(
                        weights,
                        lines.stones(Color::Black, 0, line),
                        lines.stones(Color::White, 0, line),
                        lines.walls(0, line),
                        bit,
                        all,
                    )
                };
                let before = key(&lines);
                // The cell is k - 5 from the stone, so the stone is 5 - k from the cell.
                lines.add(color, Pos::new(12 - k, 7));
                assert_eq!(key(&lines), before + key_delta(color, k), "{color:?} k={k}");
            }
        }
    }

    #[test]
    fn exact_five_shapes() {
        let s = Rule::Standard;
        assert_eq!(shape(s, "..xxxXxx......."), Pattern::Overline);
        assert_eq!(shape(s, "...xxXxx......."), Pattern::Five);
        // One end would make six: only one way to five left.
        assert_eq!(shape(s, ".xxxX.x........"), Pattern::Four);
        assert_eq!(shape(s, "....xxXx......."), Pattern::FlexFour);
        // Renju: black is exact, white is not.
        assert_eq!(shape(Rule::Renju, "..xxxXxx......."), Pattern::Overline);
    }

    #[test]
    fn caro_shapes() {
        let c = Rule::Caro;
        assert_eq!(shape(c, "..oxxXxxo......"), Pattern::Dead);
        assert_eq!(shape(c, "..oxxXxx......."), Pattern::Five);
        assert_eq!(shape(c, "xxXxx.........."), Pattern::Five);
        assert_eq!(shape(c, "..oxxXx.o......"), Pattern::Dead);
        assert_eq!(shape(c, "..oxxXx..o....."), Pattern::Four);
        assert_eq!(shape(Rule::CaroExact, "..xxxXxx......."), Pattern::Overline);
        // Two five points, but an opponent stone on the right one closes the left one's five
        // at both ends: a four, which one block answers.
        assert_eq!(shape(c, "..o.xxXx......."), Pattern::Four);
        assert_eq!(shape(c, "..o.xxXx.o....."), Pattern::Four);
        assert_eq!(shape(c, "...o.xxXx......"), Pattern::Four);
        // With room on the left, no one stone stops both.
        assert_eq!(shape(c, "..o..xxXx......"), Pattern::FlexFour);
        assert_eq!(shape(c, "...xxXx........"), Pattern::FlexFour);
        assert_eq!(shape(Rule::Freestyle, "..o.xxXx......."), Pattern::FlexFour);
        // The threes follow: beside such a point a three makes only fours.
        assert_eq!(shape(c, "..o.xxX........"), Pattern::Three);
        assert_eq!(
            shape(Rule::Freestyle, "..o.xxX........"),
            Pattern::FlexThree
        );
        assert_eq!(shape(c, "....xxX........"), Pattern::FlexThree);
    }

    /// Freestyle shapes never depend on the cells five away (the update skips them, and the
    /// incremental keys leave them out).
    #[test]
    fn at_least_shapes_ignore_the_window_ends() {
        let table = compact(FiveRule::AtLeast);
        for key in 0..TERNARY_SIZE {
            let inner = key - key % 3 - (key / POWERS_OF_3[9]) * POWERS_OF_3[9];
            assert_eq!(table[key], table[inner], "key {key}");
        }
    }

    #[test]
    fn ternary_tables_agree_with_binary_tables() {
        let t = ternary();
        for rule in [FiveRule::AtLeast, FiveRule::Exact] {
            let (full, compact) = (table(rule), compact(rule));
            for own in 0..1024usize {
                for opp in (0..1024usize).filter(|opp| own & opp == 0) {
                    // The weights take 11-bit windows: put the centre (bit 5) back.
                    let spread = |m: usize| (m & 0x1f) | (m >> 5) << 6;
                    let ternary_key = t[spread(own)] as usize + 2 * t[spread(opp)] as usize;
                    assert_eq!(
                        compact[ternary_key],
                        full[own | opp << 10],
                        "{rule:?} {own:#x} {opp:#x}"
                    );
                }
            }
        }
    }

    #[test]
    fn combos() {
        use Pattern::*;
        assert_eq!(Combo::of([Four, FlexThree, Dead, One]), Combo::FourThree);
        assert_eq!(Combo::of([Four, Four, Dead, One]), Combo::DoubleFour);
        assert_eq!(Combo::of([FlexFour, Dead, Dead, One]), Combo::FlexFour);
        assert_eq!(Combo::of([FlexFour, Four, Dead, One]), Combo::DoubleFour);
        assert_eq!(
            Combo::of([FlexThree, FlexThree, Dead, One]),
            Combo::DoubleThree
        );
        assert_eq!(Combo::of([Five, FlexThree, Dead, One]), Combo::Five);
        assert!(Combo::is_foul_candidate([FlexThree, FlexThree, Dead, One]));
        assert!(Combo::is_foul_candidate([Overline, Dead, Dead, One]));
        assert!(!Combo::is_foul_candidate([Five, Overline, Dead, One]));
        assert!(!Combo::is_foul_candidate([FlexThree, Three, Dead, One]));
    }
}
