//! `SWAP2BOARD`: the engine's answers in the three decisions of the swap2 opening rule:
//! proposing three stones, choosing a colour or adding two more, and choosing after five.

use std::time::Instant;

use super::replay::replay;
use super::{Reply, Session, NO_GAME, UNTIMED};
use crate::board::MoveCheck;
use crate::engine::time_for;
use crate::protocol::{Coord, Response};
use crate::search::time::{InstantClock, TimeManager};
use crate::types::{Color, Pos};

impl Session {
    /// SWAP2BOARD: answers the opening phase of swap2 (0, 3 or 5 stones, black first).
    pub(super) fn swap2(&mut self, stones: &[Coord], start: Instant) -> Reply {
        let old = self.board()?;
        let (width, height) = (old.width(), old.height());
        if !matches!(stones.len(), 0 | 3 | 5) {
            return Err(format!(
                "SWAP2BOARD needs 0, 3 or 5 stones, got {}",
                stones.len()
            ));
        }
        let mut placed = Vec::new();
        for (i, at) in stones.iter().enumerate() {
            if !old.in_bounds(at.x, at.y) {
                return Err(format!(
                    "SWAP2BOARD: stone {at} is off the {width}x{height} board"
                ));
            }
            let color = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            placed.push((Pos::new(at.x as usize, at.y as usize), color));
        }
        let (board, outcome) = replay(width, height, self.rule, &[], &placed, placed.len())
            .map_err(|why| format!("SWAP2BOARD: {why}"))?;
        if let Some(outcome) = outcome {
            return Err(format!("game over: {outcome}"));
        }
        self.board = Some(board);
        self.outcome = None;
        self.set_up = placed.len();
        let response = match stones.len() {
            0 => self.swap2_open(start),
            3 => self.swap2_second(start),
            _ => self.swap2_third(start),
        }?;
        self.charge_clock(start);
        self.flush_notes();
        self.writer.send(&response);
        Ok(())
    }

    /// The time of a swap2 decision that searches more than once, for a command read at
    /// `start`: the turn limit, at most an eighth of the match clock. Its searches share it
    /// through [`TimeManager::split`], each on the command's clock.
    fn swap2_time(&self, start: Instant) -> Result<TimeManager<InstantClock>, String> {
        let mut limits = self.limits.clone();
        // A swap2 decision is made once per game, early: a slice of the match clock is fair.
        let from_clock = limits
            .time_left_ms
            .filter(|&left| left != UNTIMED)
            .map(|left| left.max(0) / 8);
        limits.timeout_turn_ms = match (limits.timeout_turn_ms, from_clock) {
            (Some(turn), Some(clock)) => Some(turn.min(clock)),
            (turn, clock) => turn.or(clock),
        };
        Ok(time_for(&limits, self.board()?, start))
    }

    /// Zero stones: propose three (black, white, black) that look balanced to the engine.
    fn swap2_open(&mut self, start: Instant) -> Result<Response, String> {
        let board = self.board()?.clone();
        let centre = (board.width() as i64 / 2, board.height() as i64 / 2);
        let candidates: Vec<[Pos; 3]> = SWAP2_OPENINGS
            .iter()
            .filter_map(|shape| {
                let mut stones = [Pos::new(0, 0); 3];
                for (stone, (dx, dy)) in stones.iter_mut().zip(shape) {
                    let (x, y) = (centre.0 + dx, centre.1 + dy);
                    if !board.in_bounds(x, y) {
                        return None;
                    }
                    *stone = Pos::new(x as usize, y as usize);
                }
                Some(stones)
            })
            .collect();
        let time = self.swap2_time(start)?;
        let parts = candidates.len();
        let mut best: Option<([Pos; 3], i32)> = None;
        for (i, stones) in candidates.into_iter().enumerate() {
            // Out of time: the candidates searched so far decide.
            if best.is_some() && !time.has_time_to_share() {
                break;
            }
            let mut trial = board.clone();
            let mut legal = true;
            for &pos in &stones {
                legal &= trial.check_move(pos) == MoveCheck::Ordinary;
                trial.make_move(pos);
            }
            if !legal {
                continue;
            }
            self.board = Some(trial);
            let score = self.search(&time.split((parts - i) as u64))?.score;
            if best.is_none_or(|(_, s)| score.abs() < s.abs()) {
                best = Some((stones, score));
            }
        }
        let (stones, _) = best.ok_or("SWAP2BOARD: the board is too small for an opening")?;
        let mut result = board;
        for &pos in &stones {
            result.make_move(pos);
        }
        self.board = Some(result);
        Ok(Response::Moves(stones.to_vec()))
    }

    /// Three stones, white to move: take black (`SWAP`), stay white and play stone 4, or play
    /// stones 4 and 5 and let the opponent choose when the engine finds them balanced.
    fn swap2_second(&mut self, start: Instant) -> Result<Response, String> {
        let time = self.swap2_time(start)?;
        let white = self.search(&time.split(2))?;
        if white.score < -SWAP2_BALANCED {
            return Ok(Response::Swap);
        }
        self.play_own(white.best);
        if white.score > SWAP2_BALANCED {
            return Ok(Response::Move(white.best));
        }
        // Near balance: offer stone 5 too, the black move that keeps the balance best.
        let board = self.board.as_ref().ok_or(NO_GAME)?;
        if board.is_full() {
            return Ok(Response::Move(white.best));
        }
        let writer = self.writer.clone();
        let mut report = |text: &str| writer.send(&Response::Message(text.to_string()));
        // The rest of the time.
        let options = self
            .engine
            .nbest(board, &self.limits, &time, &self.stop, 8, &mut report);
        let balanced = options
            .iter()
            .filter(|r| board.check_move(r.best) == MoveCheck::Ordinary)
            .min_by_key(|r| r.score.unsigned_abs());
        match balanced {
            Some(black) if black.score.abs() <= SWAP2_BALANCED => {
                let black = black.best;
                self.play_own(black);
                Ok(Response::Moves(vec![white.best, black]))
            }
            _ => Ok(Response::Move(white.best)),
        }
    }

    /// Five stones, white to move: take black (`SWAP`) when black is better, else play stone 6.
    fn swap2_third(&mut self, start: Instant) -> Result<Response, String> {
        let time = self.move_time(start)?;
        let white = self.search(&time)?;
        if white.score < 0 {
            return Ok(Response::Swap);
        }
        self.play_own(white.best);
        Ok(Response::Move(white.best))
    }
}

/// Scores within this margin of zero count as balanced in swap2 decisions.
const SWAP2_BALANCED: i32 = 50;

/// Candidate swap2 openings: offsets of black, white, black from the centre, in the spirit of
/// the classic renju openings (direct and indirect).
const SWAP2_OPENINGS: [[(i64, i64); 3]; 6] = [
    [(0, 0), (1, -1), (2, 0)],
    [(0, 0), (1, 0), (0, 2)],
    [(0, 0), (1, 1), (-1, 2)],
    [(0, 0), (2, 0), (0, 2)],
    [(0, 0), (1, -1), (-1, -2)],
    [(0, 0), (0, 1), (2, 2)],
];
