use super::*;

/// A flex three seen through the counts: black can make a flex four, white must defend, and
/// a make/undo round trip restores every count. (tests/incremental.rs runs the long random
/// walks against the recomputation.)
#[test]
fn counts_follow_a_three_and_undo_restores_them() {
    let mut board = Board::new(15, 15, Rule::Freestyle).unwrap();
    for (x, y, c) in [
        (6, 7, Color::Black),
        (0, 0, Color::White),
        (7, 7, Color::Black),
        (14, 14, Color::White),
    ] {
        board.place(Pos::new(x, y), c);
    }
    board.set_side_to_move(Color::Black);
    let mut pos = Position::new(&board);
    let before = pos.totals;
    assert_eq!(pos.combo_count(Color::Black, Combo::FlexFour), 0);
    pos.make_move(Pos::new(8, 7));
    // Black's open three: 5,7 and 9,7 make flex fours for black.
    assert_eq!(pos.combo_count(Color::Black, Combo::FlexFour), 2);
    assert_eq!(
        pos.shape(Pos::new(9, 7), Color::Black).combo(),
        Combo::FlexFour
    );
    pos.assert_consistent();
    pos.undo_move();
    assert_eq!(pos.totals, before);
    pos.assert_consistent();
}

/// Black's four on row 7 under each rule, white to move: the cells where a white stone
/// leaves black no five.
fn five_blocks_on_row(rule: Rule, black: &[usize], white: &[usize]) -> Vec<Pos> {
    let stones = |xs: &[usize]| xs.iter().map(|&x| (x, 7)).collect::<Vec<_>>();
    let mut white = stones(white);
    white.push((0, 14));
    let board = Board::from_stones(15, 15, rule, &stones(black), &white, Color::White)
        .expect("a legal test position");
    let mut blocks = vec![Pos::new(14, 14)];
    Position::new(&board).five_blocks(Color::Black, &mut blocks);
    blocks.sort();
    blocks
}

#[test]
fn caro_fives_are_stopped_from_beside_them() {
    let row = |xs: &[usize]| xs.iter().map(|&x| Pos::new(x, 7)).collect::<Vec<_>>();
    // `oxxxx._`: the five point, or the point after it, which closes that five.
    assert_eq!(
        five_blocks_on_row(Rule::Caro, &[3, 4, 5, 6], &[2]),
        row(&[7, 8])
    );
    assert_eq!(
        five_blocks_on_row(Rule::Freestyle, &[3, 4, 5, 6], &[2]),
        row(&[7])
    );
    // `o.xxxx.`: two five points, both stopped by a stone on the right one.
    assert_eq!(
        five_blocks_on_row(Rule::Caro, &[4, 5, 6, 7], &[2]),
        row(&[8])
    );
    assert_eq!(
        five_blocks_on_row(Rule::Freestyle, &[4, 5, 6, 7], &[2]),
        row(&[])
    );
    // `.xxxx.` with room on both sides: no one stone stops it.
    assert_eq!(five_blocks_on_row(Rule::Caro, &[4, 5, 6, 7], &[]), row(&[]));
    // No four: nothing to stop.
    assert_eq!(five_blocks_on_row(Rule::Caro, &[4, 5, 6], &[]), row(&[]));
}

/// Points as `(x, y)`, the form `Board::from_stones` takes.
type Points = Vec<(usize, usize)>;

/// Stones thrown `throws` times at random points of a `size` x `size` board, black and
/// white in turn; a throw at a taken point is lost.
fn random_stones(rng: &mut impl rand::Rng, size: usize, throws: usize) -> (Points, Points) {
    let (mut black, mut white) = (Vec::new(), Vec::new());
    let mut taken = std::collections::HashSet::new();
    for i in 0..throws {
        let cell = (rng.gen_range(0..size), rng.gen_range(0..size));
        if taken.insert(cell) {
            if i % 2 == 0 {
                black.push(cell)
            } else {
                white.push(cell)
            }
        }
    }
    (black, white)
}

/// The caro blocks equal a test of every empty point, each put on a copy of the lines,
/// on random crowded boards (many fours, some fives closed or open by one stone).
#[test]
fn caro_five_blocks_match_a_test_of_every_point() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    let (mut positions, mut beside) = (0, 0);
    for round in 0..400 {
        let rule = if round % 2 == 0 {
            Rule::Caro
        } else {
            Rule::CaroExact
        };
        let size = [9, 15, 20][round % 3];
        let throws = rng.gen_range(size * 2..size * size / 2);
        let (black, white) = random_stones(&mut rng, size, throws);
        let board = Board::from_stones(size, size, rule, &black, &white, Color::Black)
            .expect("a legal test position");
        let pos = Position::new(&board);
        for attacker in [Color::Black, Color::White] {
            let mut fives = Vec::new();
            pos.four_cells(attacker, Combo::Five, &mut fives);
            let mut expected: Vec<Pos> = Vec::new();
            if !fives.is_empty() {
                for cell in board.empty_cells() {
                    let mut lines = board.lines().clone();
                    lines.add(attacker.opponent(), cell);
                    if fives
                        .iter()
                        .all(|&f| f == cell || !crate::board::is_win_on(&lines, rule, f, attacker))
                    {
                        expected.push(cell);
                    }
                }
                positions += 1;
                beside += expected.iter().any(|c| !fives.contains(c)) as usize;
            }
            let mut blocks = vec![Pos::new(0, 0)];
            pos.five_blocks(attacker, &mut blocks);
            blocks.sort();
            expected.sort();
            assert_eq!(
                blocks, expected,
                "{rule:?} {size} {attacker:?} {black:?} {white:?}"
            );
        }
    }
    // The boards are crowded enough that the test reaches both kinds of block.
    assert!(positions > 100 && beside > 10, "{positions} {beside}");
}

/// `only_five_after` names the five point a move leaves exactly when playing the move
/// and listing the five points gives one, on random crowded boards under the rules
/// without caro's closed fives.
#[test]
fn only_five_after_matches_playing_the_move() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    let (mut fours, mut ones) = (0, 0);
    for round in 0..300 {
        let rule = [Rule::Freestyle, Rule::Standard, Rule::Renju][round % 3];
        let size = [9, 15, 20][round / 3 % 3];
        let throws = rng.gen_range(size..size * size / 3);
        let (black, white) = random_stones(&mut rng, size, throws);
        for mover in [Color::Black, Color::White] {
            let Ok(board) = Board::from_stones(size, size, rule, &black, &white, mover) else {
                continue;
            };
            let mut pos = Position::new(&board);
            if pos.combo_count(mover, Combo::Five) > 0 {
                continue;
            }
            let mut cells = Vec::new();
            pos.four_cells(mover, Combo::Four, &mut cells);
            for cell in cells {
                let named = pos.only_five_after(cell, mover);
                pos.make_move(cell);
                let mut fives = Vec::new();
                pos.four_cells(mover, Combo::Five, &mut fives);
                pos.undo_move();
                let expected = (fives.len() == 1).then(|| fives[0]);
                assert_eq!(named, expected, "{rule:?} {size} {mover:?} {cell}");
                fours += 1;
                ones += expected.is_some() as usize;
            }
        }
    }
    assert!(fours > 1000 && ones > 500 && ones < fours, "{fours} {ones}");
}

/// A white stone never makes a renju foul candidate of a point that was not one: the VCF
/// solver judges black's block of a white four before the four stands on that. Each
/// point cleared before the move is also checked with the exact foul test after it.
#[test]
fn a_white_stone_never_raises_the_foul_filter() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(12);
    let (mut raised_before, mut checked) = (0, 0);
    for round in 0..200 {
        let size = [9, 15][round % 2];
        let throws = rng.gen_range(size..size * size / 2);
        let (black, white) = random_stones(&mut rng, size, throws);
        let Ok(board) = Board::from_stones(size, size, Rule::Renju, &black, &white, Color::White)
        else {
            continue;
        };
        let mut pos = Position::new(&board);
        let empty: Vec<Pos> = board.empty_cells().collect();
        let before: Vec<bool> = empty.iter().map(|&p| pos.may_be_foul(p)).collect();
        raised_before += before.iter().filter(|&&b| b).count();
        for _ in 0..4 {
            let Some(&mv) = empty.get(rng.gen_range(0..empty.len())) else {
                break;
            };
            pos.make_move(mv);
            for (&p, &was) in empty.iter().zip(&before) {
                if p == mv || was {
                    continue;
                }
                assert!(!pos.may_be_foul(p), "{size} {mv} raised {p}");
                assert!(
                    !pos.is_foul_for(p, Color::Black),
                    "{size} {mv} made {p} a foul"
                );
                checked += 1;
            }
            pos.undo_move();
        }
    }
    assert!(
        raised_before > 200 && checked > 50_000,
        "{raised_before} {checked}"
    );
}
