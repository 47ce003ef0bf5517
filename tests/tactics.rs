//! Tactics with known answers: renju VCF problems (tests/data/vcf_public.jsonl, every winning
//! first move given) and the quintet mate problems. Searches are bounded by nodes, not time.

mod common;

use common::data::{records, search, setup, xy};
use wuzi::position::Position;
use wuzi::search::vcf::VcfSolver;
use wuzi::search::vct::VctSolver;
use wuzi::types::Pos;

/// The stride of a suite's subset: the environment variable `var` (1 runs the whole suite,
/// as scripts/tactics.sh does), else `default`.
fn stride_from_env(var: &str, default: usize) -> usize {
    std::env::var(var)
        .ok()
        .and_then(|s| s.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(default)
}

/// Solves every `stride`-th VCF problem; returns (solved, tried, failures) and prints the
/// solve rate with the median and slowest time per problem.
fn run_vcf(stride: usize, node_limit: u64) -> (usize, usize, Vec<String>) {
    let mut solver = VcfSolver::new();
    let (mut solved, mut tried) = (0, 0);
    let mut failures = Vec::new();
    let mut times = Vec::new();
    for rec in records("vcf_public.jsonl").iter().step_by(stride) {
        let board = setup(rec);
        let winning: Vec<Pos> = rec["helper_vcf_first_moves_xy"]
            .as_array()
            .unwrap()
            .iter()
            .map(xy)
            .collect();
        let started = std::time::Instant::now();
        let mut pos = Position::new(&board);
        tried += 1;
        // A fresh table per problem: each is timed on its own.
        solver.clear();
        let found = solver.solve(&mut pos, 100, node_limit);
        times.push(started.elapsed().as_secs_f64() * 1000.0);
        match found {
            Some(line) if winning.contains(&line[0]) => solved += 1,
            other => failures.push(format!("{}: got {:?}", rec["id"], other.map(|l| l[0]))),
        }
    }
    times.sort_by(f64::total_cmp);
    println!(
        "vcf_public: solved {solved}/{tried} ({:.1}%), median {:.3} ms, slowest {:.3} ms per problem",
        100.0 * solved as f64 / tried.max(1) as f64,
        times.get(times.len() / 2).copied().unwrap_or(0.0),
        times.last().copied().unwrap_or(0.0)
    );
    (solved, tried, failures)
}

#[test]
fn vcf_public_subset_under_node_limit() {
    let stride = stride_from_env("WUZI_VCF_STRIDE", 12);
    let (solved, tried, failures) = run_vcf(stride, 200_000);
    // The bar of the project is 98% of the whole suite; the subset must do at least as well.
    assert!(
        solved * 100 >= tried * 98,
        "solved {solved}/{tried}:\n{}",
        failures.join("\n")
    );
}

/// Node budget of a quintet mate search. Debug builds recompute the whole threat state after
/// every move as a check, so they get a smaller one; the fukumi problem, the largest, needs
/// about 139,000 nodes.
const NODES: u64 = if cfg!(debug_assertions) {
    200_000
} else {
    1_000_000
};

/// The quintet mate problems: VCF ones with the VCF solver, VCT ones with the VCT solver.
/// Graded against the published first move; every VCT answer must also hold when played out
/// against every legal defence (see [`Referee`]), graded or not. Known miss:
/// `test_vct_dual_forbiddens` is answered with I3 (8,12), another first move that the data
/// cannot grade (the published lines start J4 or K3; I3 is the third move of the K3 line,
/// played first as a four). It holds, with as many attacker threats as J4 and K3: the solver
/// tries fours before threes among moves that win at the same depth.
#[test]
fn quintet_mate_problems() {
    let mut vcf = VcfSolver::new();
    let mut vct = VctSolver::new();
    let mut referee = Referee {
        vct: VctSolver::new(),
        vcf: VcfSolver::new(),
        defences: 0,
    };
    let mut failures = Vec::new();
    let mut unsound = Vec::new();
    let all = records("quintet_mate.jsonl");
    for rec in &all {
        let board = setup(rec);
        let expected = xy(&rec["solution_line_xy"][0]);
        let mut pos = Position::new(&board);
        let (found, nodes) = match rec["task"].as_str() {
            Some("VCF") => (vcf.solve(&mut pos, 100, NODES).map(|l| l[0]), vcf.nodes()),
            _ => (vct.solve(&mut pos, 8, NODES), vct.nodes()),
        };
        let mut checked = String::new();
        if let (Some("VCT"), Some(answer)) = (rec["task"].as_str(), found) {
            referee.defences = 0;
            let holds = referee.holds(&mut pos, answer, 8);
            checked = format!(", holds: {holds} against {} defences", referee.defences);
            if !holds {
                unsound.push(format!("{}: {answer} does not hold", rec["id"]));
            }
        }
        println!("{}: {found:?} in {nodes} nodes{checked}", rec["id"]);
        if found != Some(expected) {
            failures.push(format!("{}: expected {expected}, got {found:?}", rec["id"]));
        }
    }
    assert_eq!(all.len(), 11);
    println!(
        "quintet: solved {}/{}\n{}",
        all.len() - failures.len(),
        all.len(),
        failures.join("\n")
    );
    assert!(unsound.is_empty(), "{}", unsound.join("\n"));
    assert!(failures.len() <= 1, "{}", failures.join("\n"));
}

/// The root VCT's node budget when a move may take `turn_ms` (`INFO timeout_turn`, no match
/// clock) on `board`.
fn root_vct_budget(turn_ms: i64, board: &wuzi::board::Board) -> u64 {
    use wuzi::search::limits::Limits;
    use wuzi::search::pvs::root_vct_budgets;
    use wuzi::search::time::{InstantClock, TimeManager};
    let limits = Limits {
        timeout_turn_ms: Some(turn_ms),
        ..Limits::default()
    };
    let time = TimeManager::new(
        &limits,
        board.stone_count(),
        board.empty_count(),
        InstantClock::new(std::time::Instant::now()),
    );
    root_vct_budgets(time.soft_limit_ms(), None).vct
}

/// Positions of self-play games (`file`: tests/data/vct_selfplay.jsonl, freestyle, or
/// vct_renju_selfplay.jsonl) in which the side to move has a VCT but no VCF: every
/// `stride`-th is solved from an empty table within `node_limit` nodes, and each answer is
/// played out by the [`Referee`]. Prints the solve rate, the nodes spent (the solver's
/// efficiency figure) and how many are solved within the root VCT's budgets of a 0.2 s and
/// a 1 s move ([`root_vct_budget`]); returns the failures.
fn run_vct_selfplay(file: &str, stride: usize, node_limit: u64) -> Vec<String> {
    let mut referee = Referee {
        vct: VctSolver::new(),
        vcf: VcfSolver::new(),
        defences: 0,
    };
    let mut failures = Vec::new();
    let (mut tried, mut nodes) = (0, Vec::new());
    // Skipping the first stride/4 picks, at the default stride, positions that a debug build
    // plays out in seconds (a few others take the referee minutes there).
    for rec in records(file).iter().skip(stride / 4).step_by(stride) {
        let board = setup(rec);
        let mut pos = Position::new(&board);
        tried += 1;
        let mut solver = VctSolver::new();
        match solver.solve(&mut pos, 8, node_limit) {
            Some(answer) => {
                nodes.push(solver.nodes());
                if !referee.holds(&mut pos, answer, 16) {
                    failures.push(format!("{}: {answer} does not hold", rec["id"]));
                }
            }
            None => failures.push(format!("{}: no VCT found", rec["id"])),
        }
    }
    nodes.sort_unstable();
    // Reach: how many the root VCT of a 0.2 s and of a 1 s move would solve.
    let empty = wuzi::board::Board::new(15, 15, wuzi::types::Rule::Freestyle).expect("15x15");
    let budgets = [200, 1000].map(|ms| root_vct_budget(ms, &empty));
    let within = budgets.map(|budget| nodes.iter().filter(|&&n| n <= budget).count());
    println!(
        "{}: solved {}/{tried}, {} nodes in all, median {} per problem, within {} nodes \
         (0.2 s/move) {}, within {} nodes (1 s/move) {}",
        file.trim_end_matches(".jsonl"),
        nodes.len(),
        nodes.iter().sum::<u64>(),
        nodes.get(nodes.len() / 2).copied().unwrap_or(0),
        budgets[0],
        within[0],
        budgets[1],
        within[1]
    );
    failures
}

#[test]
fn vct_selfplay_positions() {
    // Every 20th by default: the referee's play-outs are slow in a debug build.
    let stride = stride_from_env("WUZI_VCT_STRIDE", 20);
    let failures = run_vct_selfplay("vct_selfplay.jsonl", stride, 1_000_000);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn vct_renju_selfplay_positions() {
    // Black's answers must not pass through a foul, and white's may count on black's fouls:
    // the referee plays every legal defence, black's fouls aside.
    let stride = stride_from_env("WUZI_VCT_STRIDE", 70);
    let failures = run_vct_selfplay("vct_renju_selfplay.jsonl", stride, 1_000_000);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The root VCT's budget in a 1 s turn (the soft limit of `INFO timeout_turn 1000`, no match
/// clock) reaches every quintet VCT problem from an empty solver table, the fukumi problem
/// included; the earlier budget (capped at 40,000 nodes) did not.
#[test]
fn root_vct_budget_of_a_one_second_turn_solves_the_quintet_vct_problems() {
    let mut missed = Vec::new();
    for rec in records("quintet_mate.jsonl") {
        if rec["task"].as_str() != Some("VCT") {
            continue;
        }
        let board = setup(&rec);
        let budget = root_vct_budget(1000, &board);
        let mut pos = Position::new(&board);
        if VctSolver::new().solve(&mut pos, 8, budget).is_none() {
            missed.push(format!("{} (budget {budget})", rec["id"]));
        }
    }
    assert!(missed.is_empty(), "{}", missed.join("\n"));
}

/// Solvers that play a VCT answer out against every legal defence, to check that the answer
/// is a win and not one of a defender move set with a defence missing. Separate from the
/// graded solvers, whose tables (and so node counts) they would otherwise change.
struct Referee {
    vct: VctSolver,
    vcf: VcfSolver,
    /// Defences tried so far.
    defences: u64,
}

impl Referee {
    /// True if the attacker, to move, wins against every legal defence within `depth` more
    /// attacker moves: by a VCF, or by the VCT solver's move checked by
    /// [`holds`](Self::holds).
    fn wins(&mut self, pos: &mut Position, depth: u32) -> bool {
        if self.vcf.solve(pos, 30, 100_000).is_some() {
            return true;
        }
        match self.vct.solve(pos, 8, NODES) {
            Some(attack) if depth > 0 => self.holds(pos, attack, depth - 1),
            _ => false,
        }
    }

    /// True if the attacker's move `attack` wins: every move the defender may legally make
    /// after it (any empty point, renju fouls aside, not only the defences the solver
    /// generates) leaves a position the attacker [`wins`](Self::wins).
    fn holds(&mut self, pos: &mut Position, attack: Pos, depth: u32) -> bool {
        pos.make_move(attack);
        let defences: Vec<Pos> = pos.board().empty_cells().collect();
        let mut holds = true;
        for defence in defences {
            if pos.is_forbidden(defence) {
                continue;
            }
            self.defences += 1;
            pos.make_move(defence);
            holds = self.wins(pos, depth);
            pos.undo_move();
            if !holds {
                break;
            }
        }
        pos.undo_move();
        holds
    }
}

/// VCF problems turned around: the defender (white) moves first, under freestyle (where the
/// root defends against VCTs) and renju (against VCFs). In each, a depth-2 search without the
/// root defence answers with a move that leaves the attacker a VCF, although defences exist;
/// the engine must find one (same depth-2 search, capped at 2,000,000 nodes). Checked by the
/// VCF solver after the engine's move.
#[test]
fn defends_against_vcf_at_depth_two() {
    use wuzi::types::Rule;
    // Three of the 12 such problems under freestyle and three of the 19 under renju
    // (witness of 7 plies or more) that a scan of the suite found; the engine holds 11 of the
    // 12 and all 19. Each costs seconds in a debug build, where every move is checked against
    // a recomputation.
    const CASES: [(&str, Rule); 6] = [
        ("lfz084/入门-四追い/076", Rule::Freestyle),
        ("lfz084/黑先VCF/205", Rule::Freestyle),
        ("lfz084/黑先VCF/389", Rule::Freestyle),
        ("lfz084/入门-四追い/025", Rule::Renju),
        ("lfz084/黑先VCF/150", Rule::Renju),
        ("lfz084/黑先VCF/389", Rule::Renju),
    ];
    let all = records("vcf_public.jsonl");
    let mut solver = VcfSolver::new();
    let mut failures = Vec::new();
    for (id, rule) in CASES {
        let rec = all
            .iter()
            .find(|r| r["id"].as_str() == Some(id))
            .unwrap_or_else(|| panic!("{id} not in vcf_public.jsonl"));
        let mut board = setup(rec);
        board.set_rule(rule);
        let attacker = board.side_to_move();
        let mut pos = Position::new(&board);
        assert!(
            solver.solve(&mut pos, 100, 1_000_000).is_some(),
            "{id} ({rule}): the attacker has no VCF to defend against"
        );
        board.set_side_to_move(attacker.opponent());
        let answer = search(&board, 2).best;
        let mut pos = Position::new(&board);
        pos.make_move(answer);
        solver.clear();
        if let Some(line) = solver.solve(&mut pos, 100, 200_000) {
            let line: Vec<String> = line.iter().map(Pos::to_string).collect();
            failures.push(format!(
                "{id} ({rule}): {answer} leaves the VCF {}",
                line.join(" ")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Before the search, the root plays the shortest VCF it can find, not the first: for every
/// 12th public VCF problem, the engine's score gives the length of its line, which must be
/// that of the shortest line (found by solving with 1, 2, 3, ... attacker moves). In some of
/// them the solver's first line is longer, so the test tells the two apart.
#[test]
fn the_root_plays_the_shortest_vcf() {
    use wuzi::search::score::WIN_SCORE;
    let mut solver = VcfSolver::new();
    let mut longer_first = 0;
    for rec in records("vcf_public.jsonl").iter().step_by(12) {
        let board = setup(rec);
        let mut pos = Position::new(&board);
        solver.clear();
        let Some(first) = solver.solve(&mut pos, 100, 1_000_000) else {
            panic!("{}: no VCF", rec["id"]);
        };
        let shortest = (1..)
            .find_map(|depth| {
                solver.clear();
                solver.solve(&mut pos, depth, 1_000_000)
            })
            .expect("a line exists");
        longer_first += usize::from(first.len() > shortest.len());
        let result = search(&board, 1);
        let length = (WIN_SCORE - result.score) as usize;
        assert_eq!(length, shortest.len(), "{}: {result:?}", rec["id"]);
    }
    assert!(
        longer_first > 0,
        "no problem tells the first line from the shortest"
    );
    println!("the first line was longer in {longer_first} problems");
}
