//! The `GAME` argument (a rules file, or the rules text itself) and `--set NAME=VALUE`.

use std::path::Path;

use crate::rules::{self, Game, SourceFile};

use super::CliError;

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
    /// The game, with the `--set` values applied (see [`load_game`]).
    pub fn load(&self) -> Result<Game, CliError> {
        self.sets.load(&self.game)
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
    /// The game named by `game` (see [`load_game`]), with these values applied.
    pub fn load(&self, game: &str) -> Result<Game, CliError> {
        load_game(game, &self.sets)
    }
}

/// Reads the game named by `game`: the file at that path if it exists, otherwise `game` itself
/// as rules text (so `sgscope period 'octal 0.07'` works without a file).
pub fn load_game(game: &str, sets: &[(String, i64)]) -> Result<Game, CliError> {
    let path = Path::new(game);
    let source = if path.is_file() {
        let text = std::fs::read_to_string(path).map_err(|e| CliError::Read {
            path: game.to_string(),
            message: e.to_string(),
        })?;
        SourceFile::new(game, text)
    } else if looks_like_path(game) {
        return Err(CliError::Read {
            path: game.to_string(),
            message:
                "no such file (to give the rules inline, write them in quotes, e.g. 'octal 0.07')"
                    .into(),
        });
    } else {
        SourceFile::new("<command line>", game)
    };
    Ok(rules::load(source, sets)?)
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
    let value: i64 = value
        .trim()
        .parse()
        .map_err(|_| format!("`{}` is not an integer (in --set {arg})", value.trim()))?;
    Ok((name.to_string(), value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_values() {
        assert_eq!(parse_set("k=5"), Ok(("k".into(), 5)));
        assert_eq!(parse_set("L = -2"), Ok(("L".into(), -2)));
        assert!(parse_set("k").unwrap_err().contains("NAME=VALUE"));
        assert!(parse_set("k=x").unwrap_err().contains("not an integer"));
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
