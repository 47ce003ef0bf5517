//! How the search differs by rule. Every rule searches with one shared value of each field of
//! [`RuleSettings`] unless its own matches showed a difference; the ids on each field are
//! rows of `docs/experiments.md`. The evaluation's own per-rule choice, the threat-state
//! bonus table, is [`crate::eval::threat_bonus`].

use crate::board::pattern::Combo;
use crate::board::Board;
use crate::types::Rule;

/// Quiet moves searched in a non-PV node with nothing forced, by remaining depth (1..=6),
/// where late-move pruning applies ([`MoveLimit::LateMovePruning`]). Settled by matches: E-001,
/// E-021, E-029; other limits not adopted: E-042, E-043, E-236, E-237.
const LATE_MOVE_LIMIT: [usize; 7] = [usize::MAX, 10, 14, 18, 24, 32, 40];

/// The threat sequences the root defends against (see [`RuleSettings::root_defence`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Threats {
    /// VCF: fours only. No rule defends against these alone now (see
    /// [`RuleSettings::root_defence`]); the root still knows how, for matches that try it.
    #[expect(
        dead_code,
        reason = "no rule's settings choose it; the search still runs it"
    )]
    Fours,
    /// VCT: threes and fours.
    FoursAndThrees,
}

/// How many of its moves a node below the root searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveLimit {
    /// At most `3 + depth^1.32` moves once one of them has not lost, threats and blocks
    /// counted too, at every node (see `move_count_cap` in `search::pvs`). Freestyle,
    /// standard and renju (E-433).
    Cap,
    /// Late-move pruning: in non-PV nodes with nothing forced, reducible moves past
    /// [`LATE_MOVE_LIMIT`] are not searched, up to this remaining depth. Caro, where no
    /// other engine here plays, at 4 (E-032, E-324; before the cap, the other rules pruned
    /// to 6, E-021, E-022, and renju to 4, E-023, E-037, E-144, E-157, E-224, E-368).
    LateMovePruning(i32),
}

/// The search's per-rule settings. Every rule is named in [`RuleSettings::for_rule`], so a
/// new rule has to say where it differs from the value the others share.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleSettings {
    /// Which threat sequences of the opponent the root defends against, if any: a search of
    /// a few plies cannot read them. VCTs (E-048, E-049; on 20x20, E-199): renju's VCF
    /// defence (E-055) never showed a gain over that at the bar (E-050, E-051, E-131, E-298,
    /// E-367). Caro defends against none, one of its own values (see
    /// [`RuleSettings::for_rule`]; alone: E-052, E-056, E-320, E-321).
    pub root_defence: Option<Threats>,
    /// How many moves a node below the root searches: the move cap (freestyle, standard and
    /// renju, E-433) or, under caro, late-move pruning to its own depth.
    pub move_limit: MoveLimit,
    /// The weakest shape of the mover's that keeps a move from late-move pruning and
    /// reductions (never above a four: a reducible move is a quiet one that also stays below
    /// this). A flexible three threatens a flexible four and must be answered, so it is
    /// searched like a four (E-071, E-139, E-148, E-170; on 20x20, E-198). Caro keeps the four,
    /// one of its own values (see [`RuleSettings::for_rule`]; alone: E-083, E-322).
    pub own_threat_floor: Combo,
    /// Whether internal iterative reduction runs (a non-PV node with no table move, far enough
    /// from the horizon, searched a ply shallower): every rule (E-064, E-151, E-170; on 20x20,
    /// E-193) but caro, one of its own values (see [`RuleSettings::for_rule`]; alone: E-070,
    /// E-323).
    pub iir: bool,
    /// Whether the table's move may be extended as singular (see `SINGULAR_DEPTH` in
    /// `search::pvs`), or searched a ply shallower when the same test finds another move that
    /// holds (`tt_move_extension`). Every rule: E-100, E-101, E-106, E-107, E-170 (standard
    /// alone: E-102), E-194.
    pub singular: bool,
    /// The transposition table's keep margin (see `set_keep_margin` in `search::tt`): a
    /// non-exact store at most this many plies shallower than an entry of the same search for
    /// the same position overwrites it. 2 (E-155, E-158, E-159, E-176, E-335), except 0 under
    /// freestyle and standard, where a deeper bound always stays (E-154, E-190; on 20x20,
    /// E-168, E-192; standard: E-438).
    pub tt_keep_margin: i32,
    /// Plies less for the root's re-searches after a fail high at an aspiration window, until
    /// the next fail low: the move that failed high has just held at the full depth, and the
    /// shallower search settles the wider window sooner (the iteration still counts, and is
    /// reported, as its own depth). None, except one under freestyle and standard (E-182,
    /// E-186, E-438; the others: E-183, E-185, E-327), and none on larger boards (see
    /// [`RuleSettings::for_board`]).
    pub fail_high_reduction: i32,
    /// Whether the search leaves out idle points below the root when nothing is forced:
    /// points where neither colour's stone would build on another (see
    /// [`crate::position::Shape::builds`]). A stone there makes no shape and blocks none; it
    /// only waits for later stones. The root keeps every point. Freestyle and standard (E-204,
    /// E-438); renju and caro search them (E-205, E-207, E-340, E-341; standard had too:
    /// E-206, E-342), as do larger boards (see [`RuleSettings::for_board`]).
    pub skip_idle_points: bool,
    /// Whether the move ordering puts the killers (the last two quiet moves that cut off at the
    /// same ply, cleared two plies down at each node: E-211) right after the table's move.
    /// Caro, one of its own values (see [`RuleSettings::for_rule`]; alone: E-220, E-328);
    /// freestyle and renju order better without (E-218), and standard as freestyle (E-438;
    /// in self-play, dropping them had lost: E-219).
    pub killers: bool,
    /// Whether the move ordering adds the history term (each quiet move that cut off credited
    /// depth squared for its colour and cell, read over 64 next to the one-ply threat score
    /// times 8) and the search keeps those credits. Freestyle and standard order without it on
    /// every board (E-230, E-238, E-245, E-246, E-438); renju and caro keep it (E-231, E-233,
    /// E-239, E-240; heavier in renju: E-234, E-235).
    pub history: bool,
    /// Whether the root searches its fifth and later reducible moves (quiet, and below
    /// [`RuleSettings::own_threat_floor`] for the mover, as the tree's late-move reduction
    /// takes them) a ply shallower first, 3 or more plies deep, and again at the full depth
    /// only when that beats the best so far. Every rule (E-278, E-279, E-287, E-290; earlier,
    /// E-067); renju without it never showed a gain (E-286, E-369); not on larger boards (see
    /// [`RuleSettings::for_board`]).
    pub root_reduction: bool,
    /// Whether the VCF solver tries the plain fours of one combination by the attacker's shape
    /// value there (line weights and combination bonus: the four that also builds most), best
    /// first, instead of in board order. Every rule (E-345); renju's board order never showed a
    /// gain over it (E-346; one colour by value: E-349, E-358, E-361).
    pub vcf_fours_by_value: bool,
}

/// Most cells of a board on which the fail-high reduction
/// ([`RuleSettings::fail_high_reduction`]), the skipping of idle points
/// ([`RuleSettings::skip_idle_points`]) and the root's reduction
/// ([`RuleSettings::root_reduction`]) apply: each gained on 15x15, not on 20x20.
const SMALL_BOARD_MAX_CELLS: usize = 15 * 15;

/// The settings every rule searches with unless its own matches showed a difference (see
/// [`RuleSettings::for_rule`]): a difference that never reached the adoption bar of
/// `docs/experiments.md` goes back to this value.
const SHARED: RuleSettings = RuleSettings {
    root_defence: Some(Threats::FoursAndThrees),
    move_limit: MoveLimit::Cap,
    own_threat_floor: Combo::FlexThree,
    iir: true,
    singular: true,
    tt_keep_margin: 2,
    fail_high_reduction: 0,
    skip_idle_points: false,
    killers: false,
    history: true,
    root_reduction: true,
    vcf_fours_by_value: true,
};

/// Freestyle's settings, which standard shares: the two rules differ only in whether an
/// overline wins, which the board's shapes already tell. Standard with its own values
/// (history, killers, the keep margin of 2, idle points searched, no fail-high reduction and
/// the cell values for ordering, each from self-play) scored 22 of 160 against Rapfi, and 160
/// games on the same openings with freestyle's gained: E-438. The converse held too:
/// freestyle with the shared values lost against Rapfi (E-441), as did renju with these
/// (E-440).
const FREESTYLE: RuleSettings = RuleSettings {
    tt_keep_margin: 0,
    fail_high_reduction: 1,
    skip_idle_points: true,
    history: false,
    ..SHARED
};

impl RuleSettings {
    /// The settings a search of `board` uses: its rule's ([`RuleSettings::for_rule`]), with no
    /// fail-high reduction, no skipping of idle points and no root reduction on boards larger
    /// than 15x15 (E-191, E-248; E-208, E-247, E-255; E-280).
    pub fn for_board(board: &Board) -> RuleSettings {
        let settings = RuleSettings::for_rule(board.rule());
        if board.width() * board.height() > SMALL_BOARD_MAX_CELLS {
            RuleSettings {
                fail_high_reduction: 0,
                skip_idle_points: false,
                root_reduction: false,
                ..settings
            }
        } else {
            settings
        }
    }

    /// The settings `rule` searches with: `SHARED`, with only the differences that the rule's
    /// own matches showed (see each field); standard shares freestyle's (E-438). Caro keeps
    /// five values of its own together: none had shown a gain alone, but the shared ones in
    /// their place lost there (E-384). Renju's root defence, root reduction and VCF order went
    /// back to the shared ones (E-385).
    pub const fn for_rule(rule: Rule) -> RuleSettings {
        match rule {
            Rule::Freestyle | Rule::Standard => FREESTYLE,
            Rule::Renju => SHARED,
            // Caro's own values, kept together: the shared ones lost there as a group.
            Rule::Caro | Rule::CaroExact => RuleSettings {
                root_defence: None,
                move_limit: MoveLimit::LateMovePruning(4),
                own_threat_floor: Combo::Four,
                iir: false,
                killers: true,
                ..SHARED
            },
        }
    }

    /// Quiet moves searched at a node with `depth` plies left, where late-move pruning
    /// applies; `usize::MAX` (no limit) outside its depths and under the move cap.
    #[inline]
    pub fn late_move_limit(&self, depth: i32) -> usize {
        match self.move_limit {
            // Past the table's depths (a setting deeper than 6) there is no limit either.
            MoveLimit::LateMovePruning(last) if (1..=last).contains(&depth) => LATE_MOVE_LIMIT
                .get(depth as usize)
                .copied()
                .unwrap_or(usize::MAX),
            _ => usize::MAX,
        }
    }

    /// Whether the move cap ([`MoveLimit::Cap`]) applies.
    #[inline]
    pub fn move_cap(&self) -> bool {
        self.move_limit == MoveLimit::Cap
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The settings a search of an empty `w`x`h` board under `rule` uses.
    fn on_board(w: usize, h: usize, rule: Rule) -> RuleSettings {
        let board = Board::new(w, h, rule).expect("board");
        RuleSettings::for_board(&board)
    }

    #[test]
    fn fail_high_reduction_stops_above_fifteen_by_fifteen() {
        let reduction = |w, h, rule| on_board(w, h, rule).fail_high_reduction;
        assert_eq!(reduction(15, 15, Rule::Freestyle), 1);
        assert_eq!(reduction(12, 9, Rule::Freestyle), 1);
        assert_eq!(reduction(20, 20, Rule::Freestyle), 0);
        assert_eq!(reduction(15, 16, Rule::Freestyle), 0);
        assert_eq!(reduction(15, 15, Rule::Standard), 1);
        assert_eq!(reduction(20, 20, Rule::Standard), 0);
        assert_eq!(reduction(15, 15, Rule::Renju), 0);
        // Nothing else depends on the board.
        let settings = on_board(20, 20, Rule::Freestyle);
        assert_eq!(
            RuleSettings {
                fail_high_reduction: 1,
                skip_idle_points: true,
                history: false,
                root_reduction: true,
                ..settings
            },
            RuleSettings::for_rule(Rule::Freestyle)
        );
    }

    #[test]
    fn freestyle_and_standard_up_to_fifteen_by_fifteen_skip_idle_points() {
        let skips = |w, h, rule| on_board(w, h, rule).skip_idle_points;
        for rule in [Rule::Freestyle, Rule::Standard] {
            assert!(skips(15, 15, rule), "{rule:?}");
            assert!(skips(10, 10, rule), "{rule:?}");
            assert!(!skips(20, 20, rule), "{rule:?}");
        }
        for rule in [Rule::Renju, Rule::Caro, Rule::CaroExact] {
            assert!(!skips(15, 15, rule), "{rule:?}");
        }
    }

    #[test]
    fn freestyle_and_standard_order_without_history() {
        let history = |w, h, rule| on_board(w, h, rule).history;
        for rule in [Rule::Freestyle, Rule::Standard] {
            for size in [10, 15, 20, 22] {
                assert!(!history(size, size, rule), "{rule:?} {size}");
            }
        }
        for rule in [Rule::Renju, Rule::Caro, Rule::CaroExact] {
            assert!(history(15, 15, rule), "{rule:?}");
            assert!(history(20, 20, rule), "{rule:?}");
        }
    }

    #[test]
    fn every_rule_up_to_fifteen_by_fifteen_reduces_late_root_moves() {
        let reduces = |w, h, rule| on_board(w, h, rule).root_reduction;
        for rule in Rule::ALL {
            assert!(reduces(15, 15, rule), "{rule:?}");
            assert!(reduces(10, 10, rule), "{rule:?}");
            assert!(!reduces(20, 20, rule), "{rule:?}");
            assert!(!reduces(15, 16, rule), "{rule:?}");
        }
    }

    #[test]
    fn every_rule_but_caro_caps_the_moves_of_a_node() {
        for rule in Rule::ALL {
            let capped = RuleSettings::for_rule(rule).move_cap();
            assert_eq!(capped, !rule.is_caro(), "{rule:?}");
        }
    }

    #[test]
    fn late_move_limits_apply_only_without_the_cap() {
        for rule in Rule::ALL {
            let s = RuleSettings::for_rule(rule);
            assert_eq!(s.late_move_limit(0), usize::MAX, "{rule:?}");
            assert_eq!(s.late_move_limit(-1), usize::MAX, "{rule:?}");
            if s.move_cap() {
                for depth in 1..LATE_MOVE_LIMIT.len() as i32 {
                    assert_eq!(s.late_move_limit(depth), usize::MAX, "{rule:?}");
                }
            } else {
                assert_eq!(s.late_move_limit(1), 10, "{rule:?}");
                assert_eq!(s.late_move_limit(4), 24, "{rule:?}");
                assert_eq!(s.late_move_limit(5), usize::MAX, "{rule:?}");
            }
        }
        let deep = RuleSettings {
            move_limit: MoveLimit::LateMovePruning(9),
            ..RuleSettings::for_rule(Rule::Caro)
        };
        assert_eq!(deep.late_move_limit(6), 40);
        assert_eq!(deep.late_move_limit(7), usize::MAX);
    }
}
