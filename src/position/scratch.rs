//! The state computed from the stones alone: what a new position starts from, and what debug
//! builds compare the incremental update with after every move and undo.

use super::shape::Shape;
use super::{boxed_array, Position, Totals, KEY_SLOTS, ROW_SLOTS, SLOTS};
use crate::board::lines::PAD;
use crate::board::pattern::{self, Combo, PatternTable};
use crate::board::Cell;
use crate::eval::CellShape;
use crate::types::{Color, Pos, MAX_SIZE};

impl Position {
    /// Recomputes everything from the stones.
    pub(super) fn rebuild(&mut self) {
        let (shapes, totals) = self.compute_from_scratch();
        self.shapes = shapes;
        self.totals = totals;
        self.keys = self.keys_from_scratch();
        self.fours = self.fours_from_shapes();
        self.candidates = self.candidates_from_scratch();
    }

    /// Candidate rows counted cell by cell: the twin of [`Position::candidate_rows`].
    fn candidates_from_scratch(&self) -> [u32; MAX_SIZE] {
        let mut rows = [0; MAX_SIZE];
        let (w, h) = (self.board.width() as i32, self.board.height() as i32);
        for p in self.board.empty_cells() {
            let near = (-2..=2).any(|dy| {
                (-2..=2).any(|dx| {
                    let (x, y) = (p.x as i32 + dx, p.y as i32 + dy);
                    x >= 0
                        && y >= 0
                        && x < w
                        && y < h
                        && matches!(
                            self.board.cell(Pos::new(x as usize, y as usize)),
                            Cell::Stone(_)
                        )
                })
            });
            if near {
                rows[p.yu()] |= 1 << p.x;
            }
        }
        rows
    }

    fn fours_from_shapes(&self) -> [[u32; ROW_SLOTS]; 2] {
        let mut fours = [[0; ROW_SLOTS]; 2];
        for p in self.board.empty_cells() {
            for color in Color::ALL {
                if self.shapes[p.index()][color.index()].combo() >= Combo::Four {
                    fours[color.index()][p.yu()] |= 1 << p.x;
                }
            }
        }
        fours
    }

    /// The key pairs of the empty cells read from the lines: the twin of the incremental keys.
    fn keys_from_scratch(&self) -> Box<[u32; KEY_SLOTS]> {
        let mut keys = boxed_array(0);
        // The neighbours a key counts: the stone's window, moved to the centre of an 11-bit
        // window.
        let neighbours = self.window >> (PAD - 5);
        if let PatternTable::Ternary { weights, .. } = self.table {
            let lines = self.board.lines();
            for p in self.board.empty_cells() {
                for dir in 0..4 {
                    let (line, bit) = lines.locate(dir, p);
                    keys[p.index() * 4 + dir] = pattern::ternary_key_pair(
                        weights,
                        lines.stones(Color::Black, dir, line),
                        lines.stones(Color::White, dir, line),
                        lines.walls(dir, line),
                        bit,
                        neighbours,
                    );
                }
            }
        }
        keys
    }

    /// The from-scratch twin of the incremental shapes and totals.
    fn compute_from_scratch(&self) -> (Box<[[Shape; 2]; SLOTS]>, Totals) {
        let mut shapes = Box::new([[Shape::DEAD; 2]; SLOTS]);
        let mut totals = Totals::ZERO;
        for p in self.board.empty_cells() {
            for color in Color::ALL {
                let shape = Shape::from_patterns(
                    CellShape::at(&self.board, &self.table, p, color).patterns,
                    self.combos[color.index()],
                );
                shapes[p.index()][color.index()] = shape;
                totals.combo_count[color.index()][shape.combo() as usize] += 1;
                totals.value_sum[color.index()] += shape.eval_value();
            }
        }
        (shapes, totals)
    }

    /// Panics if the incremental state differs from a full recomputation.
    pub fn assert_consistent(&self) {
        let (shapes, totals) = self.compute_from_scratch();
        assert_eq!(totals, self.totals, "totals differ from recomputation");
        let keys = self.keys_from_scratch();
        for p in self.board.empty_cells() {
            assert_eq!(
                shapes[p.index()],
                self.shapes[p.index()],
                "shapes differ at {p}"
            );
            let slots = p.index() * 4..p.index() * 4 + 4;
            assert_eq!(keys[slots.clone()], self.keys[slots], "keys differ at {p}");
        }
        assert_eq!(
            self.fours_from_shapes(),
            self.fours,
            "four cells differ from recomputation"
        );
        assert_eq!(
            self.candidates_from_scratch(),
            self.candidates,
            "candidates differ from recomputation"
        );
    }
}
