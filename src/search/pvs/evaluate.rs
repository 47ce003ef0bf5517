//! The static evaluation of a search node: the shape sums of both sides from the
//! [`Position`], and the threat state that says whose move it is when both sides have
//! threats.

use crate::board::pattern::Combo;
use crate::eval::{MOVER_EIGHTHS, OPPONENT_EIGHTHS};
use crate::position::Position;

/// Static evaluation for the side to move: its shape potential against the opponent's, the
/// mover's counted a little higher because it moves first, plus the bonus of its
/// [`threat_state`] (who can make a four, a four-three, a double three), which says what the
/// cell sums cannot: whose move it is when threats stand on both sides.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    let me = pos.side_to_move();
    let op = me.opponent();
    let own = pos.value_sum(me);
    let opp = pos.value_sum(op);
    (own * MOVER_EIGHTHS - opp * OPPONENT_EIGHTHS) / 8 + pos.threat_bonus(threat_state(pos))
}

/// The threats on the board as the side to move sees them, an index into [`Position::threat_bonus`]:
/// bit 0, the mover can make a four; 1, a four-three; 2, [`mover_double_three`]; 3, the
/// opponent can make a four; 4, a four-three; 5, a flexible four (it has an open three the
/// mover must answer); 6, a double three (not a renju foul). The cell sums count each
/// threat where it stands; only this says whose move it is when both sides have one. A
/// flexible-four point that is a renju foul is no threat: bit 5 reads
/// [`Position::has_legal_combo`] (E-216). Bits 0, 1, 3 and 4 still count foul points, as the
/// evaluation's fit did: E-217, E-225 (reading legal points there), not adopted.
#[inline]
pub fn threat_state(pos: &Position) -> usize {
    let me = pos.side_to_move();
    let op = me.opponent();
    let flag = |set: bool, bit: usize| usize::from(set) << bit;
    flag(pos.combo_count_at_least(me, Combo::Four) > 0, 0)
        | flag(pos.combo_count(me, Combo::FourThree) > 0, 1)
        | flag(mover_double_three(pos), 2)
        | flag(pos.combo_count_at_least(op, Combo::Four) > 0, 3)
        | flag(pos.combo_count(op, Combo::FourThree) > 0, 4)
        | flag(pos.has_legal_combo(op, &[Combo::FlexFour]), 5)
        | flag(
            pos.combo_count(op, Combo::DoubleThree) > 0 && !pos.rule().forbids(op),
            6,
        )
}

/// True if the side to move has a double three and the opponent no four to gain a tempo
/// with: that usually wins, and the static sum cannot see that only the mover gets to play
/// it. (Black's double three is a renju foul, so under renju it is left out.)
#[inline]
pub fn mover_double_three(pos: &Position) -> bool {
    let me = pos.side_to_move();
    pos.combo_count(me, Combo::DoubleThree) > 0
        && pos.combo_count_at_least(me.opponent(), Combo::Four) == 0
        && !pos.rule().forbids(me)
}
