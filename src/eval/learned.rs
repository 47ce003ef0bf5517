//! The learned evaluation: a value per [shape code](super::shape_code) for each colour's empty
//! cells, and a threat-state bonus for the side to move, per rule slot. The tables are fitted
//! by `wuzi-tune` to game records and written into `super::weights`; they ship inside the
//! binary. The engine reads them under every rule with a slot ([`ENGINE_VALUES`]).
//!
//! A slot is a rule and, under renju, a colour: black's and white's cells (and black's and
//! white's threat states when to move) are worth different things there. Caro has no slot
//! and keeps the classic values: no caro games were fitted.

use super::shape_code::shape_code;
use super::{threat_bonus, CellShape, THREAT_STATES};
use crate::board::pattern::{Combo, Pattern};
use crate::types::{Color, Rule};

/// A rule and, under renju, a colour: one set of learned tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalSlot {
    /// Freestyle, both colours.
    Freestyle,
    /// Standard (exact five), both colours.
    Standard,
    /// Renju, black.
    RenjuBlack,
    /// Renju, white.
    RenjuWhite,
}

impl EvalSlot {
    /// Number of slots.
    pub const COUNT: usize = 4;
    /// Every slot, in table order.
    pub const ALL: [EvalSlot; EvalSlot::COUNT] = [
        EvalSlot::Freestyle,
        EvalSlot::Standard,
        EvalSlot::RenjuBlack,
        EvalSlot::RenjuWhite,
    ];

    /// The slot of `color` under `rule` (the owner of a cell, or the side to move for the
    /// threat states); `None` under caro.
    pub fn of(rule: Rule, color: Color) -> Option<EvalSlot> {
        match (rule, color) {
            (Rule::Freestyle, _) => Some(EvalSlot::Freestyle),
            (Rule::Standard, _) => Some(EvalSlot::Standard),
            (Rule::Renju, Color::Black) => Some(EvalSlot::RenjuBlack),
            (Rule::Renju, Color::White) => Some(EvalSlot::RenjuWhite),
            (Rule::Caro | Rule::CaroExact, _) => None,
        }
    }

    /// A rule and colour of the slot (the colour is black's where both share it).
    pub fn rule_and_color(self) -> (Rule, Color) {
        match self {
            EvalSlot::Freestyle => (Rule::Freestyle, Color::Black),
            EvalSlot::Standard => (Rule::Standard, Color::Black),
            EvalSlot::RenjuBlack => (Rule::Renju, Color::Black),
            EvalSlot::RenjuWhite => (Rule::Renju, Color::White),
        }
    }

    /// Short name, as the tables' comments print it.
    pub fn name(self) -> &'static str {
        match self {
            EvalSlot::Freestyle => "freestyle",
            EvalSlot::Standard => "standard",
            EvalSlot::RenjuBlack => "renju black",
            EvalSlot::RenjuWhite => "renju white",
        }
    }
}

/// Which values the evaluation reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellValues {
    /// The line weights, combination bonuses and threat bonuses of [`super`].
    Classic,
    /// The fitted tables of `super::weights` (caro keeps the classic ones).
    Learned,
}

/// The values the engine plays with: the learned tables, which played better against Rapfi
/// at 0.5 s/move under freestyle and renju (E-477) and as well under standard (E-478). Caro
/// has no slot, so it reads the classic values (see [`cell_value`], [`threat_table`]).
pub const ENGINE_VALUES: CellValues = CellValues::Learned;

/// The classic value of a cell whose line shapes are `patterns`: the line weights plus the
/// combination's bonus (what the move ordering reads under every choice of values).
pub fn classic_value(patterns: [Pattern; 4]) -> i32 {
    CellShape {
        patterns,
        combo: Combo::of(patterns),
    }
    .value()
}

/// What an empty cell of `color` with line shapes `patterns` adds to `color`'s evaluation
/// sum under `rule` and `values`.
pub fn cell_value(values: CellValues, rule: Rule, color: Color, patterns: [Pattern; 4]) -> i32 {
    match (values, EvalSlot::of(rule, color)) {
        (CellValues::Learned, Some(slot)) => {
            i32::from(super::weights::CELL_VALUES[slot as usize][shape_code(patterns)])
        }
        _ => classic_value(patterns),
    }
}

/// The threat-state bonuses of the side to move, `mover`, under `rule` and `values`.
pub fn threat_table(values: CellValues, rule: Rule, mover: Color) -> &'static [i32; THREAT_STATES] {
    match (values, EvalSlot::of(rule, mover)) {
        (CellValues::Learned, Some(slot)) => &super::weights::THREAT_VALUES[slot as usize],
        _ => threat_bonus(rule),
    }
}
