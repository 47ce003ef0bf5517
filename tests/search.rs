//! The searching engine on positions whose answer is known, under depth or node limits, on
//! one search thread and on two (the answers must not depend on the helpers).

mod common;

use common::data::{search, search_threads};
use wuzi::board::Board;
use wuzi::search::score::WIN_SCORE;
use wuzi::types::{Color, Pos, Rule};

fn board(rule: Rule, black: &[(usize, usize)], white: &[(usize, usize)], to_move: Color) -> Board {
    Board::from_stones(15, 15, rule, black, white, to_move).unwrap()
}

#[test]
fn takes_the_win_in_one() {
    let b = board(
        Rule::Freestyle,
        &[(3, 3), (4, 4), (5, 5), (6, 6)],
        &[(3, 4), (4, 5), (5, 6), (9, 9)],
        Color::Black,
    );
    for threads in [1, 2] {
        let r = search_threads(&b, 4, threads);
        assert!(
            r.best == Pos::new(7, 7) || r.best == Pos::new(2, 2),
            "{r:?}"
        );
        assert!(r.score > WIN_SCORE - 100);
    }
}

#[test]
fn blocks_a_four() {
    let b = board(
        Rule::Standard,
        &[(7, 7), (8, 8), (1, 1)],
        &[(3, 10), (4, 10), (5, 10), (6, 10)],
        Color::Black,
    );
    for threads in [1, 2] {
        let r = search_threads(&b, 4, threads);
        assert!(
            r.best == Pos::new(7, 10) || r.best == Pos::new(2, 10),
            "{r:?}"
        );
    }
}

#[test]
fn makes_a_flex_four_from_an_open_three() {
    // Black's open three on row 7 with room on both sides; white has nothing.
    let b = board(
        Rule::Freestyle,
        &[(5, 7), (6, 7), (7, 7)],
        &[(5, 8), (6, 9)],
        Color::Black,
    );
    for threads in [1, 2] {
        let r = search_threads(&b, 3, threads);
        assert!(
            r.best == Pos::new(4, 7) || r.best == Pos::new(8, 7),
            "{r:?}"
        );
        assert!(r.score > WIN_SCORE - 100, "{r:?}");
    }
}

#[test]
fn defends_an_open_three() {
    // White threatens an open four on row 5; black has no four of its own.
    let b = board(
        Rule::Freestyle,
        &[(7, 7), (8, 8)],
        &[(5, 5), (6, 5), (7, 5)],
        Color::Black,
    );
    for threads in [1, 2] {
        let r = search_threads(&b, 4, threads);
        assert!(
            [
                Pos::new(4, 5),
                Pos::new(8, 5),
                Pos::new(3, 5),
                Pos::new(9, 5)
            ]
            .contains(&r.best),
            "{r:?}"
        );
    }
}

#[test]
fn finds_a_four_three_win() {
    // Black plays (7,7): a four on row 7 (3..6 + 7, blocked at 2) and an open three on column 7.
    let b = board(
        Rule::Freestyle,
        &[(4, 7), (5, 7), (6, 7), (7, 5), (7, 6)],
        &[(3, 7), (0, 0), (14, 14), (0, 14), (14, 0)],
        Color::Black,
    );
    for threads in [1, 2] {
        let r = search_threads(&b, 6, threads);
        assert_eq!(r.best, Pos::new(7, 7), "{r:?}");
        assert!(r.score > WIN_SCORE - 100, "{r:?}");
    }
}

#[test]
fn renju_black_never_wins_through_a_foul() {
    // (7,7) would give black a double four: forbidden, so black must not play it.
    let b = board(
        Rule::Renju,
        &[(4, 7), (5, 7), (6, 7), (7, 4), (7, 5), (7, 6)],
        &[(3, 7), (7, 3), (0, 0), (14, 14), (0, 14), (14, 0)],
        Color::Black,
    );
    assert!(b.is_forbidden(Pos::new(7, 7)));
    for threads in [1, 2] {
        let r = search_threads(&b, 4, threads);
        assert_ne!(r.best, Pos::new(7, 7));
    }
}

#[test]
fn fixed_depth_search_is_deterministic() {
    let b = board(
        Rule::Freestyle,
        &[(7, 7), (8, 7), (6, 9)],
        &[(7, 8), (8, 9)],
        Color::White,
    );
    let first = search(&b, 4);
    let second = search(&b, 4);
    assert_eq!(first, second);
    assert!(first.nodes > 0);
}

/// Caro: only opponent stones close a five, so in `o.xxxx.` a white stone on the right five
/// point also closes the left one's five at both ends. Black's `x.xx` in a column under a
/// white stone (`o.x.xx..`) makes only that, which one block answers: no win for black,
/// where under freestyle the same stones make an open four at once.
#[test]
fn caro_four_closed_by_its_own_block_does_not_win() {
    let black = [(7, 3), (7, 5), (7, 6)];
    let white = [(7, 1), (0, 14), (14, 0)];
    let b = board(Rule::Caro, &black, &white, Color::Black);
    let r = search(&b, 5);
    assert!(r.score < WIN_SCORE - 1000, "caro: {r:?}");
    let b = board(Rule::Freestyle, &black, &white, Color::Black);
    let r = search(&b, 5);
    assert!(r.score > WIN_SCORE - 1000, "freestyle: {r:?}");

    // White to move against the four: the one stone that stops both fives.
    let black = [(7, 3), (7, 4), (7, 5), (7, 6)];
    let b = board(Rule::Caro, &black, &white, Color::White);
    for threads in [1, 2] {
        let r = search_threads(&b, 5, threads);
        assert_eq!(r.best, Pos::new(7, 7), "{r:?}");
        assert!(r.score > -(WIN_SCORE - 1000), "{r:?}");
    }
}
