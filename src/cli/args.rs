//! Arguments shared by the subcommands: `GAME` (a rules file, or the rules text itself),
//! `--set NAME=VALUE`, `--to` of a box, `--color`, `--format`, `--lang`, and
//! `--checkpoint`/`--resume`.

use std::path::{Path, PathBuf};
use std::str::FromStr;

use clap::ValueEnum;

use crate::export::{Format, Lang};
use crate::rules::{self, Game, PathError, Play, SourceFile};

use super::{CliError, Console};

/// `GAME` and `--set`, shared by every subcommand that reads one game.
///
/// Flattened last in each subcommand, so that `--set` keeps its place after the subcommand's
/// own options in `--help`; `index = 1` keeps `GAME` the first positional argument.
#[derive(Debug, clap::Args)]
pub struct GameArgs {
    /// A rules file (e.g. rules/kayles.sg), or the rules text itself (e.g. 'octal 0.07')
    #[arg(index = 1)]
    game: String,
    #[command(flatten)]
    sets: Sets,
}

impl GameArgs {
    /// The game, with the `--set` values applied (see [`load_game`]); warnings about the rules
    /// are printed on `console`'s standard error.
    pub fn load(&self, console: &mut Console) -> Result<Game, CliError> {
        self.sets.load(&self.game, console)
    }

    /// The names given a value by `--set`, in order.
    pub fn set_names(&self) -> Vec<&str> {
        self.sets
            .sets
            .iter()
            .map(|(name, _)| name.as_str())
            .collect()
    }

    /// The game as given on the command line (a path, or rules text).
    pub fn spec(&self) -> &str {
        &self.game
    }
}

/// `--misere` / `--normal`: the play convention, for the subcommands that value positions.
///
/// A rules file may say `play misere`; a flag that disagrees with the file's `play` line wins,
/// and a note on stderr says so (with the line), so the two never disagree silently.
#[derive(Debug, Default, clap::Args)]
pub struct PlayArgs {
    /// Misère play: the player who makes the last move loses (the default of a file that
    /// says `play misere`).
    #[arg(long, conflicts_with = "normal")]
    pub misere: bool,
    /// Normal play, even for a file that says `play misere`.
    #[arg(long)]
    pub normal: bool,
}

impl PlayArgs {
    /// The convention to value `game` under: the flag if one is given, else the file's `play`
    /// line, else normal play. A flag overriding the file's line is noted on `console`.
    pub fn resolve(&self, game: &Game, console: &mut Console) -> Play {
        let flag = match (self.misere, self.normal) {
            (true, _) => Some(Play::Misere),
            (_, true) => Some(Play::Normal),
            _ => None,
        };
        match (flag, game.play) {
            (Some(flag), Some((file, span))) if flag != file => {
                let (line, column) = game.source.line_col(span.start);
                console.note(&format!(
                    "note: --{} overrides `play {}` at {}:{line}:{column}",
                    flag.word(),
                    file.word(),
                    game.source.name
                ));
                flag
            }
            (Some(flag), _) => flag,
            (None, Some((file, _))) => file,
            (None, None) => Play::Normal,
        }
    }
}

/// `--set NAME=VALUE` (repeatable): values for the parameters of a rules file.
#[derive(Debug, clap::Args)]
pub struct Sets {
    /// Set a parameter of the rules file, e.g. --set k=5 (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE", value_parser = parse_set)]
    sets: Vec<(String, i64)>,
}

impl Sets {
    /// The game named by `game` (see [`load_game`]), with these values applied; warnings
    /// about the rules are printed on `console`'s standard error.
    pub fn load(&self, game: &str, console: &mut Console) -> Result<Game, CliError> {
        let (game, warnings) = load_game_with_warnings(game, &self.sets)?;
        for warning in warnings {
            let text = warning.render_warning(&game.source);
            console.note(text.trim_end_matches('\n'));
        }
        Ok(game)
    }
}

/// Reads the game named by `game`: the file at that path if it exists, otherwise `game` itself
/// as rules text (so `sgscope period 'octal 0.07'` works without a file). A directory, a device
/// or an empty file is named as such; a file is read within the bounds of [`rules::load_path`].
pub fn load_game(game: &str, sets: &[(String, i64)]) -> Result<Game, CliError> {
    Ok(load_game_with_warnings(game, sets)?.0)
}

/// [`load_game`], with the warnings about the rules.
pub fn load_game_with_warnings(
    game: &str,
    sets: &[(String, i64)],
) -> Result<(Game, Vec<rules::Diagnostic>), CliError> {
    let cannot_read = |message: String| CliError::Read {
        path: game.to_string(),
        message,
    };
    let message = match rules::load_path_with_warnings(Path::new(game), sets) {
        Ok(loaded) => return Ok(loaded),
        Err(PathError::Rules(e)) => return Err(e.into()),
        Err(PathError::NotFound(_)) if !looks_like_path(game) => {
            let source = SourceFile::new("<command line>", game);
            return Ok(rules::load_with_warnings(source, sets)?);
        }
        Err(PathError::NotFound(_)) => {
            "no such file (to give the rules inline, write them in quotes, e.g. 'octal 0.07')"
                .to_string()
        }
        Err(PathError::Empty) => "the file is empty (a rules file holds `move …` rules or a family line such as `octal 0.07`)".to_string(),
        Err(PathError::Directory) => {
            "it is a directory, not a rules file (give a file, e.g. rules/kayles.sg)".to_string()
        }
        Err(PathError::Special { kind }) => {
            format!("it is {kind}, not a regular file (give a rules file, e.g. rules/kayles.sg)")
        }
        Err(PathError::Io(e)) => e.to_string(),
    };
    Err(cannot_read(message))
}

/// A single word ending in `.sg` or containing a path separator is meant as a file, not as rules.
fn looks_like_path(game: &str) -> bool {
    !game.contains(char::is_whitespace) && (game.ends_with(".sg") || game.contains('/'))
}

/// Parses `NAME=VALUE` for `--set`.
pub fn parse_set(arg: &str) -> Result<(String, i64), String> {
    let (name, value) = arg
        .split_once('=')
        .ok_or_else(|| format!("`{arg}` is not NAME=VALUE (e.g. --set k=5)"))?;
    let name = name.trim();
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!(
            "`{name}` is not a parameter name (letters, digits, _)"
        ));
    }
    let value = value.trim();
    let value: i64 = value.parse().map_err(|_| {
        let digits = value.strip_prefix(['-', '+']).unwrap_or(value);
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            format!(
                "`{value}` is too large (in --set {arg}): parameter values are integers from {} to {}",
                i64::MIN,
                i64::MAX
            )
        } else {
            format!("`{value}` is not an integer (in --set {arg})")
        }
    })?;
    Ok((name.to_string(), value))
}

/// `--max N`: a non-negative integer, with our own message for a negative one (clap's would
/// suggest `-- -1`).
pub(super) fn parse_max(text: &str) -> Result<u64, String> {
    let text = text.trim();
    match text.parse::<u64>() {
        Ok(max) => Ok(max),
        Err(_) if text.parse::<i128>().is_ok_and(|v| v < 0) => Err(format!(
            "`--max` must be a non-negative integer (not {text}), e.g. --max 65536"
        )),
        Err(_) if text.parse::<i128>().is_ok() => Err(format!(
            "`{text}` is too large for --max: the largest is {}",
            u64::MAX
        )),
        Err(_) => Err(format!(
            "`{text}` is not a non-negative integer, e.g. --max 65536"
        )),
    }
}

/// `--to`: one bound for every coordinate (`100`), or one per coordinate (`x=100,y=50`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoxArg {
    all: Option<u64>,
    named: Vec<(String, u64)>,
}

impl FromStr for BoxArg {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        if text.trim().parse::<i128>().is_ok_and(|v| v < 0) {
            return Err(format!(
                "`--to` must be a non-negative integer (not {}), e.g. --to 100",
                text.trim()
            ));
        }
        if let Ok(all) = text.trim().parse::<u64>() {
            return Ok(BoxArg {
                all: Some(all),
                named: Vec::new(),
            });
        }
        let named = text
            .split(',')
            .map(|part| {
                let (name, value) = part.split_once('=').ok_or_else(|| {
                    format!("`{part}` is not a bound: write N, or NAME=N for each coordinate (e.g. x=100,y=50)")
                })?;
                let value = value
                    .trim()
                    .parse::<u64>()
                    .map_err(|_| format!("`{}` is not a non-negative integer (in --to {text})", value.trim()))?;
                Ok((name.trim().to_string(), value))
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(BoxArg { all: None, named })
    }
}

impl BoxArg {
    /// The largest value of each of `coordinates`: every one named exactly once, or all equal.
    pub fn extents(&self, coordinates: &[String]) -> Result<Vec<u64>, CliError> {
        if let Some(all) = self.all {
            return Ok(vec![all; coordinates.len()]);
        }
        for (name, _) in &self.named {
            if !coordinates.contains(name) {
                return Err(CliError::Usage(format!(
                    "--to names `{name}`, but the coordinates are {}",
                    list(coordinates)
                )));
            }
        }
        coordinates
            .iter()
            .map(|c| {
                let mut bounds = self.named.iter().filter(|(n, _)| n == c);
                match (bounds.next(), bounds.next()) {
                    (Some(&(_, value)), None) => Ok(value),
                    (Some(_), Some(_)) => Err(CliError::Usage(format!("--to gives `{c}` twice"))),
                    (None, _) => Err(CliError::Usage(format!(
                        "--to gives no bound for `{c}`: write e.g. --to {}",
                        coordinates
                            .iter()
                            .map(|c| format!("{c}=100"))
                            .collect::<Vec<_>>()
                            .join(",")
                    ))),
                }
            })
            .collect()
    }

    /// The last heap of a heap game's table.
    pub fn heap_to(&self, game: &Game) -> Result<u64, CliError> {
        Ok(self.extents(std::slice::from_ref(&game.coordinate))?[0])
    }
}

fn list(names: &[String]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `--format` for `table`: text, csv, json, or matrix (position games only).
pub fn parse_format(text: &str) -> Result<Format, String> {
    text.parse::<Format>()
}

/// `--lang`.
pub fn parse_lang(text: &str) -> Result<Lang, String> {
    text.parse()
}

/// `--color`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour when stdout is a terminal.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

impl ColorChoice {
    /// Whether to colour output going to `output` (`-` is stdout).
    pub fn enabled(self, output: &str) -> bool {
        use std::io::IsTerminal;
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => output == "-" && std::io::stdout().is_terminal(),
        }
    }
}

/// `--checkpoint` and `--resume`, shared by the subcommands that can run long.
#[derive(Debug, clap::Args)]
pub struct Checkpointing {
    /// Save the computed values to FILE every two minutes and on Ctrl-C (exit code 130), so
    /// that an interrupted run can go on with --resume FILE.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Start from the values saved in FILE by --checkpoint (same game and --set values);
    /// FILE may be the --checkpoint file itself. A missing FILE is an error unless it is
    /// also the --checkpoint file, so the same command both starts and resumes a run.
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_arguments() {
        let names: Vec<String> = ["x", "y"].map(String::from).to_vec();
        assert_eq!(
            "7".parse::<BoxArg>().unwrap().extents(&names).unwrap(),
            [7, 7]
        );
        let named: BoxArg = "y=5, x=3".parse().unwrap();
        assert_eq!(named.extents(&names).unwrap(), [3, 5]);
        assert!("x=3"
            .parse::<BoxArg>()
            .unwrap()
            .extents(&names)
            .unwrap_err()
            .to_string()
            .contains("no bound for `y`"));
        assert!("z=3,x=1,y=2"
            .parse::<BoxArg>()
            .unwrap()
            .extents(&names)
            .is_err());
        assert!("x=-1".parse::<BoxArg>().is_err());
        assert!("-1"
            .parse::<BoxArg>()
            .unwrap_err()
            .contains("`--to` must be a non-negative integer"));
        assert!("big".parse::<BoxArg>().is_err());
    }

    #[test]
    fn set_values() {
        assert_eq!(parse_set("k=5"), Ok(("k".into(), 5)));
        assert_eq!(parse_set("L = -2"), Ok(("L".into(), -2)));
        assert!(parse_set("k").unwrap_err().contains("NAME=VALUE"));
        assert!(parse_set("k=x").unwrap_err().contains("not an integer"));
        // Issue 14 item 12: a value out of range is "too large", with the range.
        let big = parse_set("k=100000000000000000000").unwrap_err();
        assert!(
            big.contains("is too large") && big.contains("9223372036854775807"),
            "{big}"
        );
        assert!(parse_set("k=-100000000000000000000")
            .unwrap_err()
            .contains("too large"));
        assert!(parse_set("k=10^20").unwrap_err().contains("not an integer"));
        assert!(parse_set("=3").is_err());
    }

    #[test]
    fn paths_versus_inline_rules() {
        assert!(looks_like_path("rules/bash.sg"));
        assert!(looks_like_path("mine.sg"));
        assert!(!looks_like_path("octal 0.07"));
        assert!(!looks_like_path("subtraction {1,3,4}"));
    }
}
