//! The threat state of one empty cell for one colour: its shape on each of the four lines,
//! packed four bits a line, with the combined shape and its value read from a table built once
//! over every combination of line shapes.

use std::sync::OnceLock;

use super::boxed_array;
use crate::board::pattern::{Combo, Pattern};
use crate::eval::learned::{self, CellValues};
use crate::eval::CellShape;
use crate::types::{Color, Rule};

/// Threat state of one empty cell for one colour: eight bytes, so a cell's pair of shapes
/// moves as one 16-byte value when the update saves and restores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(8))]
pub struct Shape {
    /// Shape per direction, four bits each: direction `d` in bits `4d..4d + 4`. Packed, the
    /// four shapes are the combination table's index, and the update replaces one direction
    /// with a mask and a shift (as an array of bytes, rebuilding the index and the array took
    /// a fifth of the make+undo instructions). Bits 16..32 hold the cell's evaluation value
    /// (signed), which the table's entry brings along; the index masks them off.
    pub(super) packed: u32,
    /// The combination table's entry for `packed`: `value << 6 | foul << 5 | four << 4 |
    /// combo`, where `four` is set when the combo is at least [`Combo::Four`] and `foul` when
    /// [`Combo::is_foul_candidate`] holds for the patterns.
    pub(super) entry: u32,
}

impl Shape {
    pub(super) const DEAD: Shape = Shape {
        packed: 0,
        entry: 0,
    };

    /// Shape per direction.
    #[inline]
    pub fn patterns(&self) -> [Pattern; 4] {
        [0, 1, 2, 3].map(|d| self.pattern(d))
    }

    /// Shape along direction `dir`.
    #[inline(always)]
    pub(super) fn pattern(&self, dir: usize) -> Pattern {
        Pattern::from_u8(((self.packed >> (4 * dir)) & 15) as u8)
    }

    /// Whether a stone here would build on a stone of its colour: some line's shape is above
    /// [`Pattern::One`] (a two or better). Where neither colour's shape does, the cell shares
    /// no window of five with any stone, except on lines already dead or only overlines.
    #[inline(always)]
    pub fn builds(&self) -> bool {
        // A nibble of 8 or more (flexible four, five) has its top bit set; below 8, setting
        // the top bit and taking 3 (no borrow crosses nibbles) keeps it set from 3 (a two) up.
        const TOP: u32 = 0x8888;
        self.packed & TOP != 0 || ((self.packed | TOP) - 0x3333) & TOP != 0
    }

    /// Combined shape over the four lines.
    #[inline(always)]
    pub fn combo(&self) -> Combo {
        Combo::from_low_bits(self.entry)
    }

    /// The combined shape's discriminant, an index below [`Combo::COUNT`].
    #[inline(always)]
    pub(super) fn code(&self) -> usize {
        (self.entry & 15) as usize
    }

    /// Value of the shape (line weights plus combination bonus). Signed: a fitted bonus may
    /// take a combination below zero, so the shift is arithmetic.
    #[inline(always)]
    pub fn value(&self) -> i32 {
        (self.entry as i32) >> VALUE_SHIFT
    }

    /// What the cell adds to its colour's evaluation sum (`Position::value_sum`): the
    /// classic [`Shape::value`] or a learned value (see [`learned`]).
    #[inline(always)]
    pub fn eval_value(&self) -> i32 {
        (self.packed as i32) >> 16
    }

    pub(super) fn from_patterns(patterns: [Pattern; 4], table: &[Shape; COMBO_SLOTS]) -> Shape {
        Shape::from_packed(pack(patterns), table)
    }

    /// The shape whose four directions are the low 16 bits of `packed` (the rest is ignored).
    #[inline(always)]
    pub(super) fn from_packed(packed: u32, table: &[Shape; COMBO_SLOTS]) -> Shape {
        table[packed as usize & (COMBO_SLOTS - 1)]
    }
}

/// Four shapes packed four bits per direction: [`Shape`]'s form and the combination table's
/// index.
fn pack(patterns: [Pattern; 4]) -> u32 {
    patterns
        .iter()
        .enumerate()
        .map(|(d, &p)| (p as u32) << (4 * d))
        .sum()
}

/// Bit of a combination entry set when the combo is at least [`Combo::Four`].
pub(super) const FOUR_BIT: u32 = 1 << 4;
/// Bit of a combination entry set when the patterns may make a renju foul for black.
pub(super) const FOUL_BIT: u32 = 1 << 5;
/// Shift of the value in a combination entry.
const VALUE_SHIFT: u32 = 6;

/// Length of the combination table: one slot per four-bit-per-direction key, so a masked
/// key needs no bounds check. Only 10^4 slots are ever read, ten consecutive entries in each
/// 64-byte row of sixteen.
pub(super) const COMBO_SLOTS: usize = 1 << 16;

/// The shape of every four-pattern tuple, indexed by [`pack`], with the evaluation values
/// of `values` for `color`'s cells under `rule`: the combined shape and classic value in the
/// entry, packed as `value << 6 | foul << 5 | four << 4 | combo` in a `u32`, the value signed
/// (see [`combo_entry`]), and the evaluation value in the high half of `packed` (clamped to
/// 16 bits). One table per choice of values, slot of the learned tables (see
/// [`learned::EvalSlot`]) or the classic values, built once.
pub(super) fn shape_table(
    values: CellValues,
    rule: Rule,
    color: Color,
) -> &'static [Shape; COMBO_SLOTS] {
    static TABLES: [OnceLock<Box<[Shape; COMBO_SLOTS]>>; 1 + learned::EvalSlot::COUNT] =
        [const { OnceLock::new() }; 1 + learned::EvalSlot::COUNT];
    let index = match (values, learned::EvalSlot::of(rule, color)) {
        (CellValues::Learned, Some(slot)) => 1 + slot as usize,
        _ => 0,
    };
    TABLES[index].get_or_init(|| {
        let n = Pattern::COUNT;
        let mut table = boxed_array(Shape::DEAD);
        for i in 0..n * n * n * n {
            let patterns = [i % n, i / n % n, i / (n * n) % n, i / (n * n * n)]
                .map(|p| Pattern::from_u8(p as u8));
            let combo = Combo::of(patterns);
            let value = CellShape { patterns, combo }.value();
            let foul = Combo::is_foul_candidate(patterns);
            let eval = learned::cell_value(values, rule, color, patterns)
                .clamp(i16::MIN.into(), i16::MAX.into());
            let packed = pack(patterns);
            table[packed as usize] = Shape {
                packed: packed | (eval as u32) << 16,
                entry: combo_entry(value, combo, foul),
            };
        }
        table
    })
}

/// One entry of [`shape_table`]. The value is stored signed (read back by an arithmetic
/// shift): fitted weights may make a combination worth less than nothing.
fn combo_entry(value: i32, combo: Combo, foul: bool) -> u32 {
    debug_assert!((-(1 << (31 - VALUE_SHIFT))..1 << (31 - VALUE_SHIFT)).contains(&value));
    let four = (combo >= Combo::Four) as u32;
    ((value << VALUE_SHIFT) as u32) | (foul as u32 * FOUL_BIT) | (four * FOUR_BIT) | combo as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values below zero survive the packing with every flag (a logical shift read them back
    /// as about 2^26).
    #[test]
    fn combo_entries_keep_negative_values() {
        for value in [-11, -1, 0, 1, 693, 40_000, -40_000] {
            for (combo, foul) in [(Combo::DoubleFour, true), (Combo::Three, false)] {
                let shape = Shape {
                    packed: 0,
                    entry: combo_entry(value, combo, foul),
                };
                assert_eq!(shape.value(), value);
                assert_eq!(shape.combo(), combo);
                assert_eq!(shape.entry & FOUL_BIT != 0, foul);
                assert_eq!(shape.entry & FOUR_BIT != 0, combo >= Combo::Four);
            }
        }
    }

    /// The bit test agrees with reading the four shapes one by one, for every packing.
    #[test]
    fn builds_reads_every_direction() {
        for packed in 0..1u32 << 16 {
            let nibbles = [0, 1, 2, 3].map(|d| (packed >> (4 * d)) & 15);
            if nibbles.iter().any(|&n| n as usize >= Pattern::COUNT) {
                continue;
            }
            let shape = Shape { packed, entry: 0 };
            let expected = shape.patterns().iter().any(|&p| p > Pattern::One);
            assert_eq!(shape.builds(), expected, "packed {packed:#06x}");
        }
    }
}
