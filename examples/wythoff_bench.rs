//! Wythoff's game on a 1000 × 1000 box from `rules/wythoff.sg` against a hand-written loop for
//! the same table, in the same run; and the 2^20 masks of `rules/p2575-row.sg`.
//!
//! `cargo run --release --example wythoff_bench [SIDE]`

use std::time::Instant;

use sgscope::engine::multi::{compute_box_in_order, Order};
use sgscope::engine::MexSet;
use sgscope::rules::{load, SourceFile};

/// G(x, y) of Wythoff's game for `0..=side` by the definition, row-major.
fn hand_loop(side: usize) -> Vec<u32> {
    let width = side + 1;
    let mut values = vec![0u32; width * width];
    let mut options = MexSet::with_capacity(4 * width);
    for x in 0..width {
        for y in 0..width {
            options.clear();
            for t in 1..=x {
                options.insert(values[(x - t) * width + y]);
            }
            for t in 1..=y {
                options.insert(values[x * width + y - t]);
            }
            for t in 1..=x.min(y) {
                options.insert(values[(x - t) * width + y - t]);
            }
            values[x * width + y] = options.mex();
        }
    }
    values
}

fn load_file(path: &str) -> sgscope::rules::Game {
    let text = std::fs::read_to_string(path).expect("run from the repository root");
    load(SourceFile::new(path, text), &[]).expect("valid rules")
}

fn main() {
    let side: u64 = std::env::args()
        .nth(1)
        .map_or(1000, |s| s.parse().expect("SIDE is a number"));
    let game = load_file("rules/wythoff.sg");

    let started = Instant::now();
    let hand = hand_loop(side as usize);
    let hand_time = started.elapsed();

    for order in [Order::Auto, Order::Search] {
        let started = Instant::now();
        let table = compute_box_in_order(&game, &[side, side], order).expect("computes");
        let rules_time = started.elapsed();
        assert_eq!(table.values(), hand.as_slice(), "same table");
        println!(
            "wythoff {side}x{side}: hand loop {:.3} s, rules ({order:?}) {:.3} s, ratio {:.2}",
            hand_time.as_secs_f64(),
            rules_time.as_secs_f64(),
            rules_time.as_secs_f64() / hand_time.as_secs_f64()
        );
    }

    let row = load_file("rules/p2575-row.sg");
    let started = Instant::now();
    let table = compute_box_in_order(&row, &[(1 << 20) - 1], Order::Auto).expect("computes");
    println!(
        "p2575 row, 2^20 masks: {:.3} s (largest value {})",
        started.elapsed().as_secs_f64(),
        table.max_value()
    );
}
