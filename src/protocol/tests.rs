//! Parser and formatter unit tests.

use super::*;

/// Feeds all lines and collects every result.
fn feed_all(lines: &[&str]) -> Vec<Result<Command, ParseError>> {
    let mut parser = Parser::new();
    lines.iter().flat_map(|l| parser.feed(l)).collect()
}

fn one(line: &str) -> Result<Command, ParseError> {
    let mut results = feed_all(&[line]);
    assert_eq!(results.len(), 1, "{line:?} gave {results:?}");
    results.remove(0)
}

fn c(x: i64, y: i64) -> Coord {
    Coord { x, y }
}

#[test]
fn simple_commands_any_case_and_blanks() {
    assert_eq!(one("START 15"), Ok(Command::Start(15)));
    assert_eq!(one("  start 20 \r"), Ok(Command::Start(20)));
    assert_eq!(one("RestArt"), Ok(Command::Restart));
    assert_eq!(one("BEGIN"), Ok(Command::Begin));
    assert_eq!(one("turn 7,8"), Ok(Command::Turn(c(7, 8))));
    assert_eq!(one("TURN 7, 8"), Ok(Command::Turn(c(7, 8))));
    assert_eq!(one("PLAY 0,0"), Ok(Command::Play(c(0, 0))));
    assert_eq!(one("TAKEBACK 3,4"), Ok(Command::TakeBack(c(3, 4))));
    assert_eq!(one("ABOUT"), Ok(Command::About));
    assert_eq!(one("END"), Ok(Command::End));
    assert_eq!(one("STOP"), Ok(Command::Stop));
    assert_eq!(one("yxstop"), Ok(Command::Stop));
    assert_eq!(one("YXSHOWFORBID"), Ok(Command::YxShowForbid));
    assert_eq!(one("YXHASHCLEAR"), Ok(Command::YxHashClear));
    assert_eq!(one("YXNBEST 3"), Ok(Command::YxNbest(3)));
    assert_eq!(
        one("RECTSTART 20,15"),
        Ok(Command::RectStart {
            width: 20,
            height: 15
        })
    );
    assert!(feed_all(&["", "   ", "\r"]).is_empty());
}

#[test]
fn bad_arguments_are_errors() {
    for line in [
        "START",
        "START x",
        "START 4",
        "START 23",
        "START -1",
        "RECTSTART 20",
        "RECTSTART 4,10",
        "RECTSTART 10,30",
        "TURN",
        "TURN 7",
        "TURN 7,",
        "TURN a,b",
        "TURN 7,8,9",
        "TURN 99999999999999999999,1",
        "PLAY 1;2",
        "TAKEBACK",
        "YXNBEST 0",
        "YXNBEST many",
        "DONE",
    ] {
        let result = one(line);
        match result {
            Err(e) => {
                assert!(!e.is_deferred(), "{line}");
                let reply = e.response().to_string();
                assert!(reply.starts_with("ERROR "), "{line} -> {reply}");
            }
            Ok(cmd) => panic!("{line:?} parsed as {cmd:?}"),
        }
    }
    assert_eq!(one("START 4"), Err(ParseError::UnsupportedSize(4)));
}

#[test]
fn unknown_commands() {
    let e = one("FOO bar").unwrap_err();
    assert_eq!(e, ParseError::UnknownCommand("FOO".into()));
    assert_eq!(e.response().to_string(), "UNKNOWN command \"FOO\"");
    // Very long keywords are shortened in the echo.
    let long = "X".repeat(1000);
    let reply = one(&long).unwrap_err().response().to_string();
    assert!(
        reply.starts_with("UNKNOWN ") && reply.len() < 100,
        "{reply}"
    );
}

#[test]
fn info_keys() {
    let info = |line: &str| match one(line) {
        Ok(Command::Info(info)) => info,
        other => panic!("{line}: {other:?}"),
    };
    assert_eq!(info("INFO timeout_turn 30000"), Info::TimeoutTurn(30000));
    assert_eq!(info("INFO TIMEOUT_MATCH 0"), Info::TimeoutMatch(0));
    assert_eq!(info("INFO time_left -120"), Info::TimeLeft(-120));
    assert_eq!(
        info("INFO time_left 2147483647"),
        Info::TimeLeft(2147483647)
    );
    assert_eq!(
        info("INFO max_memory 8589934592"),
        Info::MaxMemory(8_589_934_592)
    );
    assert_eq!(info("INFO game_type 3"), Info::GameType(3));
    assert_eq!(info("INFO rule 4"), Info::Rule(4));
    assert_eq!(info("INFO rule 3"), Info::Rule(3));
    assert_eq!(
        info("INFO folder C:\\Program Files\\My Data  "),
        Info::Folder("C:\\Program Files\\My Data".into())
    );
    assert_eq!(info("INFO thread_num 4"), Info::ThreadNum(4));
    assert_eq!(info("INFO max_depth 12"), Info::MaxDepth(12));
    assert_eq!(info("INFO max_node 1000000"), Info::MaxNode(1_000_000));
    assert_eq!(info("INFO hash_size 65536"), Info::HashSize(65536));
    assert_eq!(info("INFO evaluate 7,7"), Info::Other("evaluate".into()));
    assert_eq!(
        info("INFO Caution_Factor 3"),
        Info::Other("caution_factor".into())
    );
    for bad in [
        "INFO",
        "INFO timeout_turn",
        "INFO timeout_turn fast",
        "INFO max_memory -5",
        "INFO thread_num 0",
        "INFO folder",
    ] {
        let e = one(bad).unwrap_err();
        assert!(e.is_deferred(), "{bad}: {e:?}");
    }
}

#[test]
fn board_block() {
    let results = feed_all(&["BOARD", "7,7,1", "", "8,8,2 ", " 0,0,3", "done"]);
    assert_eq!(
        results,
        vec![Ok(Command::Board(vec![
            Stone {
                at: c(7, 7),
                owner: StoneOwner::Own
            },
            Stone {
                at: c(8, 8),
                owner: StoneOwner::Opponent
            },
            Stone {
                at: c(0, 0),
                owner: StoneOwner::Blocked
            },
        ]))]
    );
    assert_eq!(
        feed_all(&["BOARD", "DONE"]),
        vec![Ok(Command::Board(vec![]))]
    );
    assert_eq!(
        feed_all(&["yxboard", "1,2,2", "DONE"]),
        vec![Ok(Command::YxBoard(vec![Stone {
            at: c(1, 2),
            owner: StoneOwner::Opponent
        }]))]
    );
}

#[test]
fn board_block_errors_are_reported_once_after_done() {
    let mut parser = Parser::new();
    for line in ["BOARD", "7,7,1", "7,7,2", "x,y,z", "9,9"] {
        assert!(parser.feed(line).is_empty(), "{line}");
        assert!(parser.in_block());
    }
    let results = parser.feed("DONE");
    assert_eq!(
        results,
        vec![Err(ParseError::DuplicateStone {
            block: "BOARD",
            at: c(7, 7)
        })]
    );
    assert!(!parser.in_block());

    for (line, expected) in [
        ("7,7", "malformed"),
        ("7,7,4", "malformed"),
        ("7,7,1,1", "malformed"),
        ("-1,7,1", "off the board"),
        ("22,0,1", "off the board"),
        ("junk", "malformed"),
    ] {
        let results = feed_all(&["BOARD", line, "DONE"]);
        assert_eq!(results.len(), 1);
        let text = results[0].clone().unwrap_err().response().to_string();
        assert!(
            text.starts_with("ERROR BOARD: ") && text.contains(expected),
            "{line}: {text}"
        );
    }
}

#[test]
fn unreadable_lines() {
    let mut parser = Parser::new();
    assert_eq!(
        parser.feed_too_long("7,7,1,7,7,1"),
        vec![Err(ParseError::LineTooLong)]
    );
    assert!(parser.feed("BOARD").is_empty());
    assert!(parser.feed("1,1,1").is_empty());
    assert!(parser.feed_too_long("3,3,1,3,3,1").is_empty());
    // An overlong INFO is a note and leaves the block open.
    assert_eq!(
        parser.feed_too_long("  info folder aaaa"),
        vec![Err(ParseError::InfoTooLong)]
    );
    assert!(parser.feed("2,2,2").is_empty());
    assert_eq!(parser.feed("DONE"), vec![Err(ParseError::LineTooLong)]);
}

#[test]
fn info_inside_block_is_taken_in_place() {
    let results = feed_all(&[
        "BOARD",
        "7,7,1",
        "INFO time_left 1000",
        "info timeout_turn soon",
        "8,8,2",
        "DONE",
    ]);
    assert_eq!(results.len(), 3, "{results:?}");
    assert_eq!(results[0], Ok(Command::Info(Info::TimeLeft(1000))));
    assert!(results[1].as_ref().is_err_and(ParseError::is_deferred));
    let Ok(Command::Board(stones)) = &results[2] else {
        panic!("{results:?}")
    };
    assert_eq!(stones.len(), 2);
}

#[test]
fn command_inside_block_interrupts_it() {
    let results = feed_all(&["BOARD", "7,7,1", "ABOUT"]);
    assert_eq!(
        results,
        vec![
            Err(ParseError::UnterminatedBlock("BOARD")),
            Ok(Command::About)
        ]
    );
    // A new block keyword restarts the block.
    let results = feed_all(&["BOARD", "1,1,1", "BOARD", "2,2,2", "DONE"]);
    assert_eq!(
        results,
        vec![
            Err(ParseError::UnterminatedBlock("BOARD")),
            Ok(Command::Board(vec![Stone {
                at: c(2, 2),
                owner: StoneOwner::Opponent
            }]))
        ]
    );
}

#[test]
fn swap2_block_accepts_both_stone_forms() {
    assert_eq!(
        feed_all(&["SWAP2BOARD", "7,7", "8,7,2", "7,9", "DONE"]),
        vec![Ok(Command::Swap2Board(vec![c(7, 7), c(8, 7), c(7, 9)]))]
    );
    assert_eq!(
        feed_all(&["SWAP2BOARD", "DONE"]),
        vec![Ok(Command::Swap2Board(vec![]))]
    );
    assert!(feed_all(&["SWAP2BOARD", "7,7,3", "DONE"])[0].is_err());
}

#[test]
fn block_lists_take_bare_points_once_each() {
    assert_eq!(
        feed_all(&["YXBLOCK", "7,7", "8,7,1", "7,7", "DONE"]),
        vec![Ok(Command::YxBlock(vec![c(7, 7), c(8, 7)]))]
    );
    assert_eq!(
        feed_all(&["yxblockundo", "8,7", "DONE"]),
        vec![Ok(Command::YxBlockUndo(vec![c(8, 7)]))]
    );
    assert_eq!(
        feed_all(&["YXBLOCK", "DONE"]),
        vec![Ok(Command::YxBlock(vec![]))]
    );
    assert_eq!(one("YXBLOCKRESET"), Ok(Command::YxBlockReset));
    assert_eq!(
        feed_all(&["YXBLOCK", "7,7,3", "DONE"]),
        vec![Err(ParseError::BadStoneLine {
            block: "YXBLOCK",
            line: "7,7,3".into()
        })]
    );
    // Cut short by another command: one error, which says the list is unchanged, then the
    // command.
    let results = feed_all(&["YXBLOCK", "7,7", "BEGIN"]);
    assert_eq!(
        results,
        vec![
            Err(ParseError::UnterminatedBlock("YXBLOCK")),
            Ok(Command::Begin)
        ]
    );
    assert_eq!(
        results[0].as_ref().unwrap_err().to_string(),
        "YXBLOCK block interrupted before DONE; blocked points unchanged"
    );
}

#[test]
fn responses_format() {
    let p = |x, y| Pos::new(x, y);
    assert_eq!(Response::Ok.to_string(), "OK");
    assert_eq!(Response::Move(p(7, 8)).to_string(), "7,8");
    assert_eq!(
        Response::Moves(vec![p(7, 7), p(8, 7), p(9, 9)]).to_string(),
        "7,7 8,7 9,9"
    );
    assert_eq!(Response::Swap.to_string(), "SWAP");
    assert_eq!(Response::Error("a\r\nb".into()).to_string(), "ERROR a  b");
    assert_eq!(Response::Message(String::new()).to_string(), "MESSAGE -");
    assert_eq!(Response::Forbid(vec![]).to_string(), "FORBID .");
    assert_eq!(
        Response::Forbid(vec![p(7, 5), p(12, 10)]).to_string(),
        "FORBID 07051210."
    );
}

#[test]
fn about_line_is_safe_for_naive_parsers() {
    let line = about_line();
    assert!(line.starts_with("name=\"wuzi\", version=\""), "{line}");
    assert!(line.contains(&format!("version=\"{}\"", env!("CARGO_PKG_VERSION"))));
    // Split the way GomocupJudgeLocal does: on ',' then on '='.
    for pair in line.split(',') {
        let parts: Vec<&str> = pair.split('=').collect();
        assert_eq!(parts.len(), 2, "{pair}");
        let value = parts[1];
        assert!(value.starts_with('"') && value.ends_with('"'), "{pair}");
        assert!(!value[1..value.len() - 1].contains('"'));
    }
}

#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.lock().expect("buffer lock").extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn writer_writes_whole_lines_until_closed() {
    let buffer = Shared::default();
    let writer = Writer::new(Box::new(buffer.clone()));
    writer.send(&Response::Ok);
    writer.send(&Response::Message("depth 3".into()));
    writer.close();
    assert!(writer.is_closed());
    writer.send(&Response::Move(Pos::new(1, 2)));
    let text = String::from_utf8(buffer.0.lock().expect("lock").clone()).expect("utf8");
    assert_eq!(text, "OK\nMESSAGE depth 3\n");
}
