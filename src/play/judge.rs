//! `sgscope judge`: a contestant's program against perfect play, over its standard input and
//! output, one line per message.
//!
//! **The line protocol** (`--protocol lines`, the default):
//!
//! 1. The judge sends `position P` (the sum, as `solve` writes it), then `side first`,
//!    `side second` (the program's side, from `--side`) or `side choose`; after `side choose`
//!    the program answers `first` or `second`.
//! 2. The player to move sends a move as the rules name it, `[i:] label v1 v2 …` (`i`, the
//!    component counted from 1, only when the sum has several), or the position it leaves
//!    (`= 1 + 4`); or `none` when it has no move. A move replaces its component in place by
//!    what the component becomes, so both sides number the components alike.
//! 3. The judge answers each of the program's moves with its own, or with `none` when it has no
//!    move (the program has won), or `illegal` (an illegal or unreadable move, or `none` while a
//!    move exists: the program has lost). After `none`, `illegal` or `draw` (the move limit
//!    was reached) the game is over.
//!
//! **Green Hackenbush files** use the line protocol with their own position and moves: the
//! position line is `position ground G: U-V U-V …` (the ground's name, then every standing
//! edge by its two nodes, in the file's order; a file's edges already cut off from the ground
//! are left out), and a move is `cut U V` (when several standing edges join `U` and `V`, the
//! first of them in the file), `cut U V K` (the edge at place `K` of the file, counted from
//! 1 among all its `edge` lines) or `edge K`. The judge writes its own cuts as `cut U V`, or
//! `cut U V K` when several standing edges join `U` and `V`. Each cut takes down every edge
//! no longer joined to the ground.
//!
//! **The cards protocol** (`--protocol cards`) is AtCoder ABC278 G's: a heap of `n` is a row of
//! cards numbered `1..=n`; the judge sends the `--header` line (`{n}` and `{PARAM}` replaced,
//! e.g. `{n} {L} {R}`), the program answers `First` or `Second`, a move is `x y` (remove the
//! `y` cards `x..x+y−1`, all on the table), the judge answers `a b`, `0 0` when it cannot move
//! and `-1 -1` after an illegal move or the program's `0 0`. A move is legal when the rules
//! allow the heap holding those cards to become the cards left on either side.

use std::process::Command;
use std::sync::mpsc::RecvTimeoutError;
use std::time::Duration;

use super::contestant::{Contestant, Incoming};
use super::{not_utf8, quote, Analysis, PlayError, PlayMove, Referee};
use crate::value::Outcome;

/// The program's side, when the judge assigns it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The program moves first.
    First,
    /// The judge moves first.
    Second,
}

/// The messages' format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// sgscope's own (see the module docs).
    Lines,
    /// ABC278 G's: cards in a row, `x y` moves, the header line given.
    Cards {
        /// The first line, with `{n}` and `{PARAM}` to replace.
        header: String,
    },
}

/// How the judge runs.
#[derive(Clone, Debug)]
pub struct JudgeOptions {
    /// The program's side; `None`: the program chooses.
    pub side: Option<Side>,
    /// The messages' format.
    pub protocol: Protocol,
    /// How long the program may take for one line.
    pub time_limit: Duration,
    /// Moves after which a game is a draw.
    pub max_moves: u64,
}

/// How the game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Result_ {
    /// The program won.
    ProgramWon,
    /// The judge won: the program ran out of moves.
    JudgeWon,
    /// The move limit was reached.
    Draw,
    /// The program sent an illegal or unreadable line (its number among the program's lines,
    /// the line, and why).
    Illegal {
        /// The line's number among the program's lines (from 1).
        line: usize,
        /// The line, quoted by [`quote`]: control characters and bytes that are
        /// not UTF-8 escaped, at most [`QUOTED`](super::QUOTED) characters.
        text: String,
        /// What is wrong.
        why: String,
    },
    /// The program stopped, or sent nothing in time, when a line was due.
    NoAnswer {
        /// What was expected.
        expected: String,
        /// Why nothing came.
        why: String,
    },
}

/// The game as played: every line sent each way, and how it ended.
#[derive(Clone, Debug)]
pub struct Report {
    /// `(from the judge, line)`, in order; the program's lines quoted by
    /// [`quote`] (escaped, at most [`QUOTED`](super::QUOTED) characters).
    pub transcript: Vec<(bool, String)>,
    /// Moves made.
    pub moves: u64,
    /// How it ended.
    pub result: Result_,
    /// Whether the program could have won from the start on its side (perfect play).
    pub winnable: Option<bool>,
}

/// Runs `command` against perfect play from `start`.
///
/// The program runs in a process group of its own, killed whole at the verdict and on every
/// way out of the judge, `SIGINT`, `SIGTERM` and `SIGHUP` included (see
/// `play::contestant` for what `SIGKILL` of the judge leaves). Its lines are
/// read up to [`LINE_LIMIT`](super::LINE_LIMIT) bytes each (a longer one is illegal), and
/// lines are written to it by a thread, so that neither a program that never reads nor one
/// that floods its output holds the judge past the time limit.
pub fn judge(
    referee: &Referee<'_>,
    start: Vec<Vec<u64>>,
    command: &mut Command,
    options: &JudgeOptions,
) -> Result<Report, PlayError> {
    if let Protocol::Cards { header } = &options.protocol {
        if referee.is_hackenbush() {
            return Err(PlayError::Unsupported(
                "the cards protocol plays rows of cards; a hackenbush file is judged with --protocol lines".into(),
            ));
        }
        if start.len() != 1 || referee.game().position_program().is_some() {
            return Err(PlayError::Unsupported(
                "the cards protocol plays one row of cards: give one heap".into(),
            ));
        }
        expand_header(header, referee, start[0][0])?;
    }
    let program = Contestant::spawn(command)?;
    let mut game = Game {
        referee,
        options,
        sum: start,
        rows: Vec::new(),
        program,
        transcript: Vec::new(),
        program_lines: 0,
        moves: 0,
        winnable: None,
    };
    let result = game.play();
    let Game {
        program,
        transcript,
        moves,
        winnable,
        ..
    } = game;
    program.finish();
    Ok(Report {
        transcript,
        moves,
        result: result?,
        winnable,
    })
}

/// The cards protocol's first line when none is given: `{n}`, then the game's parameters in
/// the order the file declares them — `{n} {L} {R}` for `rules/abc278g.sg`, the `N L R` line
/// of AtCoder ABC278 G.
pub fn default_header(game: &crate::rules::Game) -> String {
    std::iter::once("{n}".to_string())
        .chain(game.params.iter().map(|(name, _)| format!("{{{name}}}")))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `header` with `{n}` and `{PARAM}` replaced.
fn expand_header(header: &str, referee: &Referee<'_>, n: u64) -> Result<String, PlayError> {
    let mut text = String::new();
    let mut rest = header;
    while let Some(open) = rest.find('{') {
        text.push_str(&rest[..open]);
        let close = rest[open..].find('}').map(|c| open + c).ok_or_else(|| {
            PlayError::Unsupported(format!("the header `{header}` has a `{{` without `}}`"))
        })?;
        let name = &rest[open + 1..close];
        let value = if name == referee.game().coordinate || name == "n" {
            n.to_string()
        } else {
            let params = &referee.game().params;
            let value = params.iter().find(|(p, _)| p == name).ok_or_else(|| {
                let known: Vec<&str> = params.iter().map(|(p, _)| p.as_str()).collect();
                PlayError::Unsupported(format!(
                    "the header names `{{{name}}}`, which is neither `{{n}}` nor a parameter of the game ({})",
                    if known.is_empty() { "it has none".to_string() } else { known.join(", ") }
                ))
            })?;
            value.1.to_string()
        };
        text.push_str(&value);
        rest = &rest[close + 1..];
    }
    text.push_str(rest);
    Ok(text)
}

/// One game in progress.
struct Game<'r, 'g> {
    referee: &'r Referee<'g>,
    options: &'r JudgeOptions,
    sum: Vec<Vec<u64>>,
    /// The cards protocol: each component's first card (numbered from 1).
    rows: Vec<u64>,
    program: Contestant,
    transcript: Vec<(bool, String)>,
    program_lines: usize,
    moves: u64,
    winnable: Option<bool>,
}

/// What the program sent as its move.
enum Sent {
    /// A legal move.
    Move(Vec<Vec<u64>>, Vec<u64>),
    /// `none` (or `0 0`): no move claimed.
    Nothing,
}

impl Game<'_, '_> {
    fn cards(&self) -> bool {
        matches!(self.options.protocol, Protocol::Cards { .. })
    }

    fn play(&mut self) -> Result<Result_, PlayError> {
        let side = match self.open()? {
            Ok(side) => side,
            Err(result) => return Ok(result),
        };
        let mut next = Some(self.referee.analyse(&self.sum)?);
        let first = next.as_ref().expect("analysed");
        self.winnable = Some(match side {
            Side::First => first.outcome == Outcome::N,
            Side::Second => first.outcome == Outcome::P,
        });
        let mut program_to_move = side == Side::First;
        while self.moves < self.options.max_moves {
            let analysis = match next.take() {
                Some(analysis) => analysis,
                None => self.referee.analyse(&self.sum)?,
            };
            if program_to_move {
                match self.program_move(&analysis)? {
                    Err(result) => return Ok(result),
                    Ok(Sent::Nothing) => {
                        // A true `none` loses (the player who cannot move loses); in the cards
                        // protocol `0 0` always ends the game as a loss.
                        if !analysis.moves.is_empty() || self.cards() {
                            let why = if analysis.moves.is_empty() {
                                "`0 0` ends the game: the program has no move and loses".to_string()
                            } else {
                                format!(
                                    "the program said it has no move, but it has {} (e.g. `{}`)",
                                    analysis.moves.len(),
                                    self.write_move(&analysis.moves[0])
                                )
                            };
                            self.send(if self.cards() { "-1 -1" } else { "illegal" })?;
                            if analysis.moves.is_empty() {
                                return Ok(Result_::JudgeWon);
                            }
                            return Ok(self.illegal(why));
                        }
                        return Ok(if analysis.outcome == Outcome::N {
                            Result_::ProgramWon // misère: no move wins
                        } else {
                            Result_::JudgeWon
                        });
                    }
                    Ok(Sent::Move(after, rows)) => {
                        self.sum = after;
                        self.rows = rows;
                    }
                }
            } else {
                match analysis.best() {
                    None => {
                        self.send(if self.cards() { "0 0" } else { "none" })?;
                        return Ok(if analysis.outcome == Outcome::N {
                            Result_::JudgeWon // misère: the judge, without a move, wins
                        } else {
                            Result_::ProgramWon
                        });
                    }
                    Some(best) => {
                        let text = self.write_move(best);
                        self.rows = self.rows_after(best)?;
                        self.sum = self.referee.after(&self.sum, best);
                        self.send(&text)?;
                    }
                }
            }
            self.moves += 1;
            program_to_move = !program_to_move;
        }
        if !self.cards() {
            self.send("draw")?;
        }
        Ok(Result_::Draw)
    }

    /// Sends the opening lines and learns the program's side.
    fn open(&mut self) -> Result<Result<Side, Result_>, PlayError> {
        if let Protocol::Cards { header } = &self.options.protocol {
            let header = expand_header(header, self.referee, self.sum[0][0])?;
            self.rows = vec![1];
            self.send(&header)?;
            let line = match self.receive("`First` or `Second`")? {
                Ok(line) => line,
                Err(result) => return Ok(Err(result)),
            };
            return Ok(match line.trim() {
                "First" => Ok(Side::First),
                "Second" => Ok(Side::Second),
                _ => {
                    self.send("-1 -1")?;
                    Err(self.illegal("expected `First` or `Second`".into()))
                }
            });
        }
        let position = self.referee.show_whole(&self.sum);
        self.send(&format!("position {position}"))?;
        match self.options.side {
            Some(Side::First) => self.send("side first").map(|()| Ok(Side::First)),
            Some(Side::Second) => self.send("side second").map(|()| Ok(Side::Second)),
            None => {
                self.send("side choose")?;
                let line = match self.receive("`first` or `second`")? {
                    Ok(line) => line,
                    Err(result) => return Ok(Err(result)),
                };
                Ok(match line.trim() {
                    "first" => Ok(Side::First),
                    "second" => Ok(Side::Second),
                    _ => {
                        self.send("illegal")?;
                        Err(self.illegal("expected `first` or `second`".into()))
                    }
                })
            }
        }
    }

    /// Reads the program's move and checks it.
    fn program_move(&mut self, analysis: &Analysis) -> Result<Result<Sent, Result_>, PlayError> {
        let line = match self.receive("a move")? {
            Ok(line) => line,
            Err(result) => return Ok(Err(result)),
        };
        let read = if self.cards() {
            self.read_cards(analysis, &line)
        } else {
            self.read_lines(analysis, &line)
        };
        match read {
            Ok(sent) => Ok(Ok(sent)),
            Err(why) => {
                self.send(if self.cards() { "-1 -1" } else { "illegal" })?;
                Ok(Err(self.illegal(why)))
            }
        }
    }

    fn read_lines(&self, analysis: &Analysis, line: &str) -> Result<Sent, String> {
        if line.trim() == "none" {
            return Ok(Sent::Nothing);
        }
        self.referee
            .read_move(analysis, line)
            .map(|m| Sent::Move(self.referee.after(&analysis.sum, m), Vec::new()))
            .map_err(|e| e.to_string())
    }

    /// `x y`: the cards `x..x+y−1` of one row.
    fn read_cards(&self, analysis: &Analysis, line: &str) -> Result<Sent, String> {
        let numbers: Vec<i64> = line
            .split_whitespace()
            .map(str::parse)
            .collect::<Result<_, _>>()
            .map_err(|_| "expected two integers `x y`".to_string())?;
        let [x, y] = numbers[..] else {
            return Err("expected two integers `x y`".into());
        };
        if (x, y) == (0, 0) {
            return Ok(Sent::Nothing);
        }
        let (x, y) = match (u64::try_from(x), u64::try_from(y)) {
            (Ok(x), Ok(y)) if x >= 1 && y >= 1 => (x, y),
            _ => return Err(format!("cards {x}..{} are not on the table", x + y - 1)),
        };
        let row = (0..self.sum.len())
            .find(|&i| self.rows[i] <= x && x + y <= self.rows[i] + self.sum[i][0])
            .ok_or_else(|| format!("cards {x}..={} are not all on the table", x + y - 1))?;
        let (start, n) = (self.rows[row], self.sum[row][0]);
        let left = x - start;
        let right = n - left - y;
        let mut parts: Vec<Vec<u64>> = [left, right]
            .into_iter()
            .filter(|&h| h > 0)
            .map(|h| vec![h])
            .collect();
        let mut key = parts.clone();
        key.sort();
        // Compared as multisets without copying: a move leaves at most a few rows.
        let same = |result: &[Vec<u64>]| {
            result.len() == key.len()
                && result.iter().all(|r| {
                    result.iter().filter(|x| *x == r).count()
                        == key.iter().filter(|x| *x == r).count()
                })
        };
        let legal = analysis
            .moves
            .iter()
            .any(|m| m.step.component == row && same(&m.step.result));
        if !legal {
            return Err(format!(
                "the rules do not allow taking cards {x}..={} from the row {start}..={}",
                x + y - 1,
                start + n - 1
            ));
        }
        let mut rows = self.rows.clone();
        let mut sum = self.sum.clone();
        let starts: Vec<u64> = [(left, start), (right, x + y)]
            .into_iter()
            .filter(|&(h, _)| h > 0)
            .map(|(_, s)| s)
            .collect();
        rows.splice(row..=row, starts);
        sum.splice(row..=row, parts.drain(..));
        Ok(Sent::Move(sum, rows))
    }

    /// The judge's move as the protocol writes it.
    fn write_move(&self, m: &PlayMove) -> String {
        if !self.cards() {
            return self.referee.notation(&self.sum, m);
        }
        let (start, n) = (self.rows[m.step.component], self.sum[m.step.component][0]);
        let left = m.step.result.first().map_or(0, |h| h[0]);
        let kept: u64 = m.step.result.iter().map(|h| h[0]).sum();
        format!("{} {}", start + left, n - kept)
    }

    /// The rows' first cards after the judge's move `m` (cards protocol): the first part kept
    /// on the left, the second on the right of the cards taken.
    fn rows_after(&self, m: &PlayMove) -> Result<Vec<u64>, PlayError> {
        if !self.cards() {
            return Ok(Vec::new());
        }
        let i = m.step.component;
        let (start, n) = (self.rows[i], self.sum[i][0]);
        let parts: Vec<u64> = m.step.result.iter().map(|h| h[0]).collect();
        let kept: u64 = parts.iter().sum();
        let starts = match parts[..] {
            [] => vec![],
            [_] => vec![start],
            [left, _] => vec![start, start + left + (n - kept)],
            _ => {
                return Err(PlayError::Unsupported(format!(
                    "the cards protocol takes one block of cards, leaving at most two rows; {} leaves {}",
                    m.step.rule,
                    parts.len()
                )))
            }
        };
        if n == kept {
            return Err(PlayError::Unsupported(format!(
                "the cards protocol needs every move to take a card; {} takes none",
                m.step.rule
            )));
        }
        let mut rows = self.rows.clone();
        rows.splice(i..=i, starts);
        Ok(rows)
    }

    fn send(&mut self, line: &str) -> Result<(), PlayError> {
        self.transcript.push((true, line.to_string()));
        self.program.send(line);
        Ok(())
    }

    /// The program's next line, or how it failed to send one. A line that is not UTF-8 or is
    /// longer than [`LINE_LIMIT`](super::LINE_LIMIT) is answered `illegal` (`-1 -1`) here.
    fn receive(&mut self, expected: &str) -> Result<Result<String, Result_>, PlayError> {
        let no_answer = |why: String| {
            Ok(Err(Result_::NoAnswer {
                expected: expected.to_string(),
                why,
            }))
        };
        let bytes = match self.program.lines.recv_timeout(self.options.time_limit) {
            Ok(Incoming::Line(bytes)) => bytes,
            Ok(Incoming::TooLong(head)) => {
                self.program_lines += 1;
                let mut text = quote(&head);
                if !text.ends_with('…') {
                    text.push('…');
                }
                self.transcript.push((false, text));
                self.reject()?;
                return Ok(Err(self.illegal(format!(
                    "the line is longer than {} MiB, the most the judge reads",
                    super::LINE_LIMIT >> 20
                ))));
            }
            Ok(Incoming::Failed(error)) => {
                return no_answer(format!("its output could not be read: {error}"))
            }
            Err(RecvTimeoutError::Disconnected) => {
                return no_answer("the program closed its output (it exited)".into())
            }
            Err(RecvTimeoutError::Timeout) => {
                return no_answer(format!(
                    "no line within {} s",
                    self.options.time_limit.as_secs_f64()
                ))
            }
        };
        self.program_lines += 1;
        self.transcript.push((false, quote(&bytes)));
        match String::from_utf8(bytes) {
            Ok(line) => Ok(Ok(line)),
            Err(e) => {
                let why = format!(
                    "the line is not UTF-8 text ({}); send moves as plain ASCII or UTF-8",
                    not_utf8(e.as_bytes())
                );
                self.reject()?;
                Ok(Err(self.illegal(why)))
            }
        }
    }

    /// Tells the program its line was illegal: `illegal`, or `-1 -1` in the cards protocol.
    fn reject(&mut self) -> Result<(), PlayError> {
        self.send(if self.cards() { "-1 -1" } else { "illegal" })
    }

    fn illegal(&self, why: String) -> Result_ {
        Result_::Illegal {
            line: self.program_lines,
            text: self
                .transcript
                .iter()
                .rev()
                .find(|(judge, _)| !judge)
                .map(|(_, t)| t.clone())
                .unwrap_or_default(),
            why,
        }
    }
}
