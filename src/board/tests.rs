use super::*;

fn board_with(rule: Rule, black: &[(usize, usize)], white: &[(usize, usize)]) -> Board {
    Board::from_stones(15, 15, rule, black, white, Color::Black).unwrap()
}

#[test]
fn from_stones_refuses_bad_stone_lists() {
    assert!(Board::from_stones(15, 15, Rule::Freestyle, &[(15, 0)], &[], Color::Black).is_err());
    assert!(
        Board::from_stones(15, 15, Rule::Freestyle, &[(3, 3)], &[(3, 3)], Color::Black).is_err()
    );
    let b =
        Board::from_stones(15, 15, Rule::Freestyle, &[(3, 3)], &[(4, 4)], Color::White).unwrap();
    assert_eq!(b.stone_count(), 2);
    assert_eq!(b.side_to_move(), Color::White);
}

#[test]
fn sizes_outside_5_to_22_are_refused() {
    assert!(Board::new(4, 15, Rule::Freestyle).is_err());
    assert!(Board::new(15, 23, Rule::Freestyle).is_err());
    assert!(Board::new(5, 22, Rule::Freestyle).is_ok());
}

#[test]
fn make_undo_restores_hash_and_side() {
    let mut board = Board::new(15, 15, Rule::Freestyle).unwrap();
    let start = board.hash();
    let moves = [
        Pos::new(7, 7),
        Pos::new(8, 8),
        Pos::new(0, 0),
        Pos::new(14, 14),
    ];
    let mut hashes = vec![start];
    for &m in &moves {
        let predicted = board.hash_after(m);
        board.make_move(m);
        assert_eq!(board.hash(), predicted, "hash_after({m})");
        hashes.push(board.hash());
    }
    assert_eq!(board.side_to_move(), Color::Black);
    for _ in &moves {
        hashes.pop();
        board.undo_move();
        assert_eq!(board.hash(), *hashes.last().unwrap());
    }
    assert_eq!(board.hash(), start);
    assert_eq!(board.empty_count(), 225);
    // The same stones in another order give the same hash.
    let mut other = Board::new(15, 15, Rule::Freestyle).unwrap();
    other.make_move(Pos::new(0, 0));
    other.make_move(Pos::new(14, 14));
    other.make_move(Pos::new(7, 7));
    other.make_move(Pos::new(8, 8));
    board.make_move(Pos::new(7, 7));
    board.make_move(Pos::new(8, 8));
    board.make_move(Pos::new(0, 0));
    board.make_move(Pos::new(14, 14));
    assert_eq!(board.hash(), other.hash());
}

#[test]
fn five_and_overline_under_each_rule() {
    // Black has 0..3 and 5 on row 7: playing 4 makes six, playing (x=4) without (5) five.
    let six = board_with(
        Rule::Freestyle,
        &[(0, 7), (1, 7), (2, 7), (3, 7), (5, 7)],
        &[],
    );
    let p = Pos::new(4, 7);
    assert!(six.is_win_move(p, Color::Black));
    let mut b = six.clone();
    for rule in [Rule::Standard, Rule::CaroExact] {
        b.set_rule(rule);
        assert!(!b.is_win_move(p, Color::Black), "{rule}");
        assert!(!b.is_win_move(p, Color::White), "{rule}");
    }
    b.set_rule(Rule::Renju);
    assert!(!b.is_win_move(p, Color::Black));
    assert!(b.is_forbidden(p));
    assert_eq!(b.check_move(p), MoveCheck::Forbidden);
    b.set_rule(Rule::Caro);
    assert!(b.is_win_move(p, Color::Black));
    // White overline wins under renju.
    let w = board_with(Rule::Renju, &[], &[(0, 7), (1, 7), (2, 7), (3, 7), (5, 7)]);
    assert!(w.is_win_move(p, Color::White));
}

#[test]
fn caro_five_closed_at_both_ends_does_not_win() {
    // White at 2 and 8, black 3..6: black's five at 3..7 is closed by white on both sides.
    let black = [(3, 7), (4, 7), (5, 7), (6, 7)];
    let closed = board_with(Rule::Caro, &black, &[(2, 7), (8, 7)]);
    assert!(!closed.is_win_move(Pos::new(7, 7), Color::Black));
    // Closed at one end only: wins.
    let open = board_with(Rule::Caro, &black, &[(2, 7)]);
    assert!(open.is_win_move(Pos::new(7, 7), Color::Black));
    // The edge is not a stone: a five against the edge and a white stone wins.
    let edge = board_with(Rule::Caro, &[(0, 3), (1, 3), (2, 3), (3, 3)], &[(5, 3)]);
    assert!(edge.is_win_move(Pos::new(4, 3), Color::Black));
    // Caro-exact: a six does not win, a free five does.
    let six = board_with(
        Rule::CaroExact,
        &[(0, 7), (1, 7), (2, 7), (3, 7), (5, 7)],
        &[],
    );
    assert!(!six.is_win_move(Pos::new(4, 7), Color::Black));
    let five = board_with(Rule::CaroExact, &black, &[(2, 7)]);
    assert!(five.is_win_move(Pos::new(7, 7), Color::Black));
    // Freestyle ignores the closed ends.
    let mut free = closed.clone();
    free.set_rule(Rule::Freestyle);
    assert!(free.is_win_move(Pos::new(7, 7), Color::Black));
}

#[test]
fn renju_basic_fouls() {
    // Double three around (7,7).
    let b = board_with(Rule::Renju, &[(5, 7), (6, 7), (7, 5), (7, 6)], &[]);
    assert!(b.is_forbidden(Pos::new(7, 7)));
    // Double four: two lines of three with one gap each.
    let b = board_with(
        Rule::Renju,
        &[(4, 7), (5, 7), (6, 7), (7, 4), (7, 5), (7, 6)],
        &[(3, 7), (7, 3)],
    );
    assert!(b.is_forbidden(Pos::new(7, 7)));
    // Four-three is allowed.
    let b = board_with(
        Rule::Renju,
        &[(4, 7), (5, 7), (6, 7), (7, 5), (7, 6)],
        &[(3, 7)],
    );
    assert!(!b.is_forbidden(Pos::new(7, 7)));
    // A five is never forbidden, even with a double four elsewhere.
    let b = board_with(
        Rule::Renju,
        &[
            (3, 7),
            (4, 7),
            (5, 7),
            (6, 7),
            (7, 4),
            (7, 5),
            (7, 6),
            (4, 4),
            (5, 5),
            (6, 6),
        ],
        &[],
    );
    assert!(!b.is_forbidden(Pos::new(7, 7)));
    assert_eq!(b.check_move(Pos::new(7, 7)), MoveCheck::Win);
    // White is never restricted.
    let mut b = board_with(Rule::Renju, &[(5, 7), (6, 7), (7, 5), (7, 6)], &[]);
    b.set_side_to_move(Color::White);
    assert!(b.forbidden_points().is_empty());
    // Other rules have no fouls.
    b.set_rule(Rule::Freestyle);
    assert!(!b.is_forbidden(Pos::new(7, 7)));
}

#[test]
fn one_line_double_four_is_forbidden() {
    // X.XXX.X with the centre played: O . O O O . O is two fours on one line.
    let b = board_with(Rule::Renju, &[(3, 7), (6, 7), (7, 7), (9, 7)], &[]);
    assert!(b.is_forbidden(Pos::new(5, 7)));
    // A straight four is a single four.
    let b = board_with(Rule::Renju, &[(5, 7), (6, 7), (7, 7)], &[]);
    assert!(!b.is_forbidden(Pos::new(8, 7)));
}

#[test]
fn blocked_points_act_as_walls() {
    let mut b = board_with(Rule::Freestyle, &[(3, 7), (4, 7), (5, 7), (6, 7)], &[]);
    b.set_blocked(Pos::new(7, 7));
    assert_eq!(b.cell(Pos::new(7, 7)), Cell::Blocked);
    assert_eq!(b.check_move(Pos::new(7, 7)), MoveCheck::Occupied);
    assert!(b.is_win_move(Pos::new(2, 7), Color::Black));
    b.set_blocked(Pos::new(2, 7));
    assert!(b.empty_cells().all(|p| !b.is_win_move(p, Color::Black)));
}

#[test]
fn last_move_won_reports_the_finished_line() {
    let mut b = board_with(Rule::Standard, &[(3, 7), (4, 7), (5, 7), (6, 7)], &[]);
    assert!(!b.last_move_won());
    b.place(Pos::new(7, 7), Color::Black);
    assert!(b.last_move_won());
}
