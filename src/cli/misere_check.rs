//! `misere-check GAME --heaps K --to N`: checks the contest shortcuts for misère sums (the
//! anti-SG rule of the SJ theorem, and the XOR of misère values) on every sum of at most `K`
//! heaps of sizes `1..=N`, with [`crate::analysis::misere_check::check`], and writes the report
//! with [`crate::export::misere_check`].

use crate::analysis::misere_check::{self, MisereCheckError, MAX_COMPONENTS};
use crate::export;
use crate::export::period::game_title;

use super::args::GameArgs;
use super::{CliError, Context};

/// The long help of `misere-check` (`--help`).
pub const LONG_ABOUT: &str = "\
Check the contest shortcuts for misère sums against the exact misère outcome.

For every sum of 1 to K heaps (a multiset) of sizes 1..=N of a heap game, the true misère \
outcome (the player who makes the last move loses) is computed exactly: P iff the misère \
Grundy value of the whole sum is 0, by the search over sums (Conway's genus, with tame \
addition where it applies). Two rules that decide a sum from its components' values alone \
are compared with it:

anti-sg: the anti-SG rule (SJ theorem, Jia Zhihao 2009), on the normal SG values g: the first \
player wins iff (XOR of the g ≠ 0 and some g > 1) or (XOR = 0 and every g ≤ 1). This is also \
\"play Nim until only heaps of value ≤ 1 remain\", Bouton's misère-Nim rule applied to the SG \
values: the two are one formula, so they are one rule here. The SJ theorem proves it only for \
games where play stops once every component has SG value 0. On tame heaps it holds on every sum \
iff it holds on every single heap (by Conway's tame addition); past the first wild heap only the \
search can tell.

misere-xor: the XOR of the components' misère Grundy values G⁻ (each component valued in misère \
play, then added as in normal play): the first player wins iff it is ≠ 0. Exact for one heap, by \
definition; already wrong for misère Nim's 1 + 1.

For each rule the report says \"holds for all S sums …\" or gives the smallest \
counterexample (fewest components, then smallest total, then lexicographic) with its SG \
values, its misère values, the prediction and the true outcome, and on how many sums the rule \
fails. A counterexample is a finding, not an error: the exit code is 0 either way (use --json \
and the `holds` fields in scripts). Requests of more than 5000000 sums are refused before \
any work; the search over sums runs from the sums asked and stops past its budget of stored sums \
(exit 1, naming how far it got). Position games (tuples) are refused: their components are not heaps.";

/// `misere-check` arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The most components of a sum (K ≥ 1): every multiset of 1 to K heaps is checked.
    #[arg(long, default_value = "3", value_name = "K",
          value_parser = clap::value_parser!(u64).range(1..=MAX_COMPONENTS as u64))]
    heaps: u64,
    /// The largest heap (N ≥ 1): components are heaps of sizes 1..=N (0 is the empty game).
    #[arg(long, default_value = "10", value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..))]
    to: u64,
    /// Print a JSON object instead of text: sums_checked, first_wild_heap, and per rule
    /// holds, failures and counterexample (null, or components, sg_values, misere_values,
    /// predicted, actual).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    game: GameArgs,
}

/// Runs `misere-check`: the header (how many sums) first, then the findings.
pub fn run(args: Args, context: &mut Context<'_>) -> Result<(), CliError> {
    let game = args.game.load(&mut context.console)?;
    super::refuse_graph(&game, "misere-check")?;
    let heaps = args.heaps as usize;
    let title = game_title(&game);
    let sums = misere_check::refuse(&game, heaps, args.to).map_err(cli_error)?;
    if !args.json {
        context.console.write_to("-", |out| {
            export::misere_check::write_header(out, &title, heaps, args.to, sums)
        })?;
    }
    let report =
        misere_check::check(&game, heaps, args.to, super::progress::sink()).map_err(cli_error)?;
    context.console.write_to("-", |out| {
        if args.json {
            export::misere_check::write_json(out, &title, &report)
        } else {
            export::misere_check::write_text(out, &report)
        }
    })?;
    Ok(())
}

/// A refusal is a usage error (exit 2), with what to ask for instead; the engine's errors keep
/// their own help.
fn cli_error(error: MisereCheckError) -> CliError {
    let help = match &error {
        MisereCheckError::Engine(_) | MisereCheckError::Stopped { .. } => None,
        MisereCheckError::PositionGame { .. } => {
            Some("give a heap game: a family form such as 'octal 0.77', or rules on one heap n")
        }
        MisereCheckError::Empty | MisereCheckError::TooManyComponents { .. } => {
            Some("ask for --heaps from 1 to 64 and --to 1 or more")
        }
        MisereCheckError::TooManySums { .. } => Some("ask for fewer --heaps or a smaller --to"),
    };
    match (error, help) {
        // Stopped while it ran, past the budget (exit 1, not a usage error).
        (error @ MisereCheckError::Stopped { .. }, _) => CliError::Failed(super::with_help(
            error.to_string(),
            Some("ask for fewer --heaps or a smaller --to".to_string()),
        )),
        (MisereCheckError::Engine(e), _) => e.into(),
        (error, Some(help)) => super::usage_with_help(error.to_string(), help.to_string()),
        (error, None) => CliError::Usage(error.to_string()),
    }
}
