//! wuzi's renju foul judge against Piskvork's, the checker Gomocup referees with, on every
//! empty point of 5,000 random positions (tests/data/renju_judge_verdicts.txt, written by
//! scripts/renju-fixture.py; format and source in tests/data/README.md).

use std::collections::BTreeSet;

use wuzi::board::Board;
use wuzi::notation::parse_pos_notation;
use wuzi::position::Position;
use wuzi::types::{Color, Pos, Rule};

/// One fixture line: the position (black to move) and the judge's forbidden points.
struct Verdicts {
    line: usize,
    board: Board,
    forbidden: BTreeSet<Pos>,
}

fn points(field: &str) -> Vec<Pos> {
    if field == "-" {
        return Vec::new();
    }
    parse_pos_notation(field, 15, 15).unwrap_or_else(|e| panic!("{field}: {e:#}"))
}

fn fixture() -> Vec<Verdicts> {
    let path = format!(
        "{}/tests/data/renju_judge_verdicts.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut all = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(fields.len(), 3, "line {}: {line}", i + 1);
        let mut board = Board::new(15, 15, Rule::Renju).unwrap();
        let (black, white) = (points(fields[0]), points(fields[1]));
        assert_eq!(black.len(), white.len(), "line {}: black to move", i + 1);
        for (stones, color) in [(black, Color::Black), (white, Color::White)] {
            for p in stones {
                assert!(board.is_empty(p), "line {}: {p} twice", i + 1);
                board.place(p, color);
            }
        }
        board.set_side_to_move(Color::Black);
        all.push(Verdicts {
            line: i + 1,
            board,
            forbidden: points(fields[2]).into_iter().collect(),
        });
    }
    all
}

/// Every empty point of every position: the board's judge (which the protocol and the match
/// runner's referee ask) and the search's `Position::is_forbidden` (which the move generator
/// and the VCF and VCT solvers ask, behind a cheap filter) both agree with Piskvork's judge.
#[test]
fn every_point_agrees_with_the_gomocup_judge() {
    let positions = fixture();
    let mut compared = 0;
    let mut with_fouls = 0;
    let mut failures = Vec::new();
    for v in &positions {
        let search = Position::new(&v.board);
        with_fouls += !v.forbidden.is_empty() as usize;
        for p in v.board.empty_cells() {
            let expected = v.forbidden.contains(&p);
            let (board, position) = (v.board.is_forbidden(p), search.is_forbidden(p));
            if board != expected || position != expected {
                failures.push(format!(
                    "line {}: {p}: judge {expected}, board {board}, search {position}",
                    v.line
                ));
            }
            compared += 1;
        }
    }
    println!(
        "{} positions ({with_fouls} with a forbidden point), {compared} points compared, \
         {} disagreements",
        positions.len(),
        failures.len()
    );
    assert!(positions.len() >= 5000, "{} positions", positions.len());
    assert!(
        with_fouls * 4 >= positions.len(),
        "{with_fouls} positions with a forbidden point"
    );
    let shown = failures.iter().take(20).cloned().collect::<Vec<_>>();
    assert!(
        failures.is_empty(),
        "{} disagreements, the first:\n{}",
        failures.len(),
        shown.join("\n")
    );
}
