//! `quotient GAME --max-heap N`: the misère quotients of the heaps `≤ n` for `n = 1..=N`.

use crate::export;
use crate::value::misere::quotient;

use super::args::GameArgs;
use super::{CliError, Context};

/// `quotient` arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The largest heap: the quotients of the sums of heaps ≤ n, n = 1..=N.
    #[arg(long, default_value_t = 6, value_name = "N")]
    max_heap: u64,
    /// Print a JSON object instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    game: GameArgs,
}

/// The largest --max-heap accepted (every bound below it is searched in turn).
const MAX_HEAP: u64 = 10_000;

/// Runs `quotient`.
pub fn run(args: Args, context: &mut Context<'_>) -> Result<(), CliError> {
    let game = args.game.load(&mut context.console)?;
    super::refuse_graph(&game, "quotient")?;
    if game.position_program().is_some() {
        return Err(CliError::Usage(format!(
            "`quotient` is for heap games (sums of heaps); {} is a position game",
            game.name
        )));
    }
    if args.max_heap == 0 || args.max_heap > MAX_HEAP {
        return Err(CliError::Usage(format!(
            "--max-heap must be from 1 to {MAX_HEAP}"
        )));
    }
    context.console.note(&format!(
        "note: searching the misère quotients of {} for heaps ≤ 1..={} (each is proved before it is printed)",
        game.name, args.max_heap
    ));
    let started = std::time::Instant::now();
    let console = &mut context.console;
    // The exact outcomes behind each guess are held to a few seconds of sums rather than the
    // search's memory limit: past it a bound is reported not found, with the reason, instead
    // of running for minutes.
    let limits = quotient::Limits {
        max_sums: quotient::QUOTIENT_SUMS,
        ..quotient::Limits::default()
    };
    let steps = quotient::quotients_within(&game, args.max_heap, 6, limits, &mut |step| {
        let line = match step {
            quotient::Step::Found(q) => format!(
                "  heaps ≤ {}: order {}, P-portion {} ({:.1} s)",
                q.max_heap,
                q.order(),
                q.p_portion.len(),
                started.elapsed().as_secs_f64()
            ),
            quotient::Step::NotFound { max_heap, .. } => {
                format!("  heaps ≤ {max_heap}: not found")
            }
        };
        console.note(&line);
    })?;
    let text = if args.json {
        export::misere::quotient_json(&game.name, &steps)
    } else {
        export::misere::quotient_text(&super::period::game_title(&game), &steps)
    };
    context.console.print(&text)?;
    Ok(())
}
