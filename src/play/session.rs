//! `sgscope play`: a person against perfect play, one line per move (any `BufRead` and
//! `Write`, so that tests drive it through pipes).

use std::io::{BufRead, Write};

use super::{not_utf8, quote, read_line_capped, Analysis, Line, PlayError, Referee, LINE_LIMIT};
use crate::value::Outcome;

/// Who moves first, when the command line says it (otherwise the session asks).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum First {
    /// The person.
    Me,
    /// The computer.
    Computer,
}

/// How a session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The person won.
    PersonWon,
    /// The computer won.
    ComputerWon,
    /// The move limit was reached (a game that can cycle, played to a draw).
    Draw,
    /// The person typed `quit`, or the input ended.
    Quit,
}

/// Most legal moves listed after an illegal one, or by `moves`.
const LISTED: usize = 30;

/// Plays the sum `start` between the person at `input`/`output` and perfect play, ending a
/// drawn game after `max_moves` moves.
pub fn run(
    referee: &Referee<'_>,
    start: Vec<Vec<u64>>,
    first: Option<First>,
    max_moves: u64,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> Result<Ending, PlayError> {
    let how = if referee.is_hackenbush() {
        "Type a cut as `cut U V` (e.g. `{}`; `cut U V K` for the edge at place K of the file when several join U and V, or `edge K`)"
    } else {
        "Type a move as `label values` (e.g. `{}`) or as the position it leaves"
    };
    writeln!(
        output,
        "{}: {}. {}; `moves` lists them, `hint` shows the winning ones, `quit` ends.",
        referee.game().name,
        referee.show(&start),
        how.replace("{}", &example(referee, &start)?),
    )?;
    let mut input = Lines {
        input,
        bytes: Vec::new(),
        number: 0,
    };
    let mut first = first;
    while first.is_none() {
        write!(output, "Who moves first, me or computer? ")?;
        output.flush()?;
        let Some(line) = input.next(output)? else {
            return Ok(Ending::Quit);
        };
        first = match line.trim() {
            "me" | "m" | "i" | "I" | "first" => Some(First::Me),
            "computer" | "c" | "you" | "second" => Some(First::Computer),
            "quit" | "q" => return Ok(Ending::Quit),
            _ => None,
        };
    }
    let mut person_to_move = first == Some(First::Me);
    let mut sum = start;
    for _ in 0..max_moves {
        let analysis = referee.analyse(&sum)?;
        if analysis.moves.is_empty() {
            // The player to move has no move: it wins in misère play, loses otherwise.
            let mover_wins = analysis.outcome == Outcome::N;
            let person_won = mover_wins == person_to_move;
            let who = if person_to_move {
                "You have"
            } else {
                "The computer has"
            };
            writeln!(output, "{who} no move.")?;
            return Ok(if person_won {
                writeln!(output, "You win.")?;
                Ending::PersonWon
            } else {
                writeln!(output, "The computer wins.")?;
                Ending::ComputerWon
            });
        }
        if person_to_move {
            writeln!(output, "position: {}   (your move)", referee.show(&sum))?;
            let Some(next) = person_move(referee, &sum, &analysis, &mut input, output)? else {
                writeln!(output, "Bye.")?;
                return Ok(Ending::Quit);
            };
            sum = next;
        } else {
            let best = analysis
                .best()
                .expect("a position with moves has a best one");
            writeln!(output, "computer: {}", referee.describe(&sum, best))?;
            sum = referee.after(&sum, best);
        }
        person_to_move = !person_to_move;
    }
    writeln!(
        output,
        "{max_moves} moves played: a draw (play could go on forever)."
    )?;
    Ok(Ending::Draw)
}

/// Reads lines until one is a legal move (`None` at `quit` or the end of the input); answers
/// `moves`, `hint` and `help` on the way.
fn person_move(
    referee: &Referee<'_>,
    sum: &[Vec<u64>],
    analysis: &Analysis,
    input: &mut Lines<'_>,
    output: &mut dyn Write,
) -> Result<Option<Vec<Vec<u64>>>, PlayError> {
    loop {
        write!(output, "> ")?;
        output.flush()?;
        let Some(line) = input.next(output)? else {
            return Ok(None);
        };
        match line.trim() {
            "" => continue,
            "quit" | "q" | "exit" => return Ok(None),
            "help" | "?" if referee.is_hackenbush() => writeln!(
                output,
                "A move: `cut U V` (the nodes of the edge cut; `cut U V K` for the edge at place K of the file when several join U and V), or `edge K`. Commands: moves, hint, quit."
            )?,
            "help" | "?" => writeln!(
                output,
                "A move: `label values` as the rules name it (`i: label values` for component i of a sum), or the position it leaves (`= 1 + 4`). Commands: moves, hint, quit."
            )?,
            "moves" => list(referee, sum, analysis.moves.iter(), output)?,
            "hint" => {
                let good: Vec<_> = analysis.moves.iter().filter(|m| m.good).collect();
                match analysis.outcome {
                    Outcome::P => writeln!(
                        output,
                        "No move wins: every move leaves a position the computer wins."
                    )?,
                    Outcome::D if good.is_empty() => {
                        writeln!(output, "Every move loses.")?
                    }
                    Outcome::D => {
                        writeln!(output, "No move wins; these keep the draw:")?;
                        list(referee, sum, good.into_iter(), output)?;
                    }
                    Outcome::N => {
                        writeln!(output, "Winning moves:")?;
                        list(referee, sum, good.into_iter(), output)?;
                    }
                }
            }
            text => match referee.read_move(analysis, text) {
                Ok(chosen) => {
                    writeln!(output, "you: {}", referee.describe(sum, chosen))?;
                    return Ok(Some(referee.after(sum, chosen)));
                }
                Err(error) => {
                    writeln!(output, "{error}. Legal moves:")?;
                    list(referee, sum, analysis.moves.iter(), output)?;
                }
            },
        }
    }
}

/// The person's lines, numbered from 1, each at most [`LINE_LIMIT`] bytes of UTF-8.
struct Lines<'i> {
    input: &'i mut dyn BufRead,
    bytes: Vec<u8>,
    number: usize,
}

impl Lines<'_> {
    /// The next line, `None` at the end of the input. A line that is not UTF-8 is not read as
    /// a move: the person is told which line and why, and gets an empty line. A line longer
    /// than [`LINE_LIMIT`] ends the session with an error naming it.
    fn next(&mut self, output: &mut dyn Write) -> Result<Option<String>, PlayError> {
        let Some(end) = read_line_capped(self.input, &mut self.bytes, LINE_LIMIT)? else {
            return Ok(None);
        };
        self.number += 1;
        if end == Line::TooLong {
            // Not skipped: an endless line (`< /dev/zero`) would be read forever.
            return Err(PlayError::Io(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!(
                    "line {} of the input is longer than {} MiB, the most `play` reads for a move",
                    self.number,
                    LINE_LIMIT >> 20
                ),
            )));
        }
        match std::str::from_utf8(&self.bytes) {
            Ok(text) => Ok(Some(text.to_string())),
            Err(_) => {
                writeln!(
                    output,
                    "Line {}, `{}`, is not UTF-8 text ({}): ignored; type moves in plain ASCII or UTF-8.",
                    self.number,
                    quote(&self.bytes),
                    not_utf8(&self.bytes)
                )?;
                Ok(Some(String::new()))
            }
        }
    }
}

fn list<'a>(
    referee: &Referee<'_>,
    sum: &[Vec<u64>],
    moves: impl Iterator<Item = &'a super::PlayMove>,
    output: &mut dyn Write,
) -> Result<(), PlayError> {
    let moves: Vec<_> = moves.collect();
    for m in moves.iter().take(LISTED) {
        writeln!(output, "  {}", referee.describe(sum, m))?;
    }
    if moves.len() > LISTED {
        writeln!(output, "  … and {} more", moves.len() - LISTED)?;
    }
    Ok(())
}

/// A legal move of `start` as typed, for the greeting (`quit` when there is none).
fn example(referee: &Referee<'_>, start: &[Vec<u64>]) -> Result<String, PlayError> {
    let analysis = referee.analyse(start)?;
    Ok(analysis.moves.first().map_or_else(
        || "quit".to_string(),
        // A graph's edges have no values to tell them apart: name the node reached.
        |m| match m.step.binders.is_empty() && m.step.rule == "edge" {
            true => referee.show(&m.after(start)),
            false => referee.notation(start, m),
        },
    ))
}
