//! Loopy games on big random graphs: retrograde analysis and generalized Sprague–Grundy values
//! on 10^6 nodes and 10^7 edges, and the naive references side by side on a smaller graph.
//!
//! Usage: `cargo bench --bench loopy [-- --quick]` (`--quick`: graphs ten times smaller).
//! Prints markdown tables; exits with status 1 when a fast result differs from a reference.

use std::process::ExitCode;
use std::time::Instant;

use sgscope::graph::Graph;
use sgscope::oracle::loopy::{check_generalized_sg, outcomes_by_horizon};
use sgscope::value::loopy::{gamma, retrograde};
use sgscope::value::Outcome;

/// Marsaglia's xorshift64: deterministic and dependency-free.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u32 {
        (self.next() % n) as u32
    }
}

/// `edges` random edges on `nodes` nodes; the tails avoid the last `sinks` nodes, which stay
/// terminal (so that the analysis has something to propagate from).
fn random_graph(nodes: usize, edges: usize, sinks: usize, seed: u64) -> Graph {
    let mut rng = XorShift(seed);
    let tails = (nodes - sinks) as u64;
    let list: Vec<(u32, u32)> = (0..edges)
        .map(|_| (rng.below(tails), rng.below(nodes as u64)))
        .collect();
    Graph::from_edges(nodes, &list)
}

fn time<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let start = Instant::now();
    let value = f();
    (value, start.elapsed().as_secs_f64())
}

fn main() -> ExitCode {
    let quick = std::env::args().any(|a| a == "--quick");
    let scale = if quick { 10 } else { 1 };
    let (n, m) = (1_000_000 / scale, 10_000_000 / scale);
    let mut ok = true;

    println!("| graph | nodes | edges | retrograde s | γ s | P / N / D | γ_max | ∞ nodes |");
    println!("|---|---:|---:|---:|---:|---|---:|---:|");
    for (name, sinks) in [("uniform", 0), ("10% sinks", n / 10)] {
        let g = random_graph(n, m, sinks, 0x9E37_79B9_7F4A_7C15);
        let (r, t_retro) = time(|| retrograde(&g));
        let (gam, t_gamma) = time(|| gamma(&g).expect("within the budget"));
        let count = |o: Outcome| r.outcome.iter().filter(|&&x| x == o).count();
        let max = (0..n as u32).filter_map(|v| gam.finite(v)).max();
        let infinite = (0..n as u32).filter(|&v| gam.finite(v).is_none()).count();
        println!(
            "| {name} | {n} | {m} | {t_retro:.3} | {t_gamma:.3} | {} / {} / {} | {} | {infinite} |",
            count(Outcome::P),
            count(Outcome::N),
            count(Outcome::D),
            max.map_or("-".to_string(), |x| x.to_string()),
        );
    }

    let (small_n, small_m) = (20_000 / scale, 200_000 / scale);
    println!();
    println!(
        "| reference, {small_n} nodes, {small_m} edges, 10% sinks | fast s | naive s | ratio |"
    );
    println!("|---|---:|---:|---:|");
    let g = random_graph(small_n, small_m, small_n / 10, 0x2545_F491_4F6C_DD1D);
    let (fast, t_fast) = time(|| retrograde(&g));
    let (slow, t_slow) = time(|| outcomes_by_horizon(&g));
    ok &= fast == slow;
    println!(
        "| outcome + remoteness (retrograde vs horizon recursion) | {t_fast:.4} | {t_slow:.4} | {:.0}× |",
        t_slow / t_fast
    );
    let (values, t_fast) = time(|| gamma(&g).expect("within the budget").values(&g));
    let (check, t_slow) = time(|| check_generalized_sg(&g, &values));
    if let Err(e) = &check {
        eprintln!("γ check failed: {e}");
        ok = false;
    }
    println!(
        "| γ (rounds vs checking the definition) | {t_fast:.4} | {t_slow:.4} | {:.0}× |",
        t_slow / t_fast
    );
    if ok {
        ExitCode::SUCCESS
    } else {
        eprintln!("a fast result differs from its reference");
        ExitCode::FAILURE
    }
}
