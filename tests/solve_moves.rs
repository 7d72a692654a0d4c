//! `solve`'s move lists beyond the box: complete, or saying what they skipped; the smallest
//! winning move named by a pattern of the box (Luogu P6487), checked here against the
//! published answer computed by loops written in this file, never against sgscope's output.

use serde_json::Value;

use crate::support::ok;

/// The Fibonacci numbers 1, 2, 3, 5, 8, … up to 2^63 (F_2, F_3, … in the usual numbering).
fn fibonacci() -> Vec<u64> {
    let mut f = vec![1u64, 2];
    while let Some(next) = f[f.len() - 1].checked_add(f[f.len() - 2]) {
        if next > 1 << 63 {
            break;
        }
        f.push(next);
    }
    f
}

/// The terms of `n`'s Zeckendorf sum, largest first: greedily, the largest Fibonacci number
/// that fits, until nothing is left (Zeckendorf 1972).
fn zeckendorf(mut n: u64) -> Vec<u64> {
    let mut terms = Vec::new();
    for &f in fibonacci().iter().rev() {
        if f <= n {
            terms.push(f);
            n -= f;
        }
    }
    terms
}

/// P6487's answer: the smallest winning first take from `n` tokens is the smallest term of
/// n's Zeckendorf sum (n itself when n is a Fibonacci number).
fn p6487(n: u64) -> u64 {
    *zeckendorf(n).last().expect("n ≥ 1")
}

/// Whinihan 1963: `(m, limit)` with `m ≥ 1` is lost for the player to move exactly when
/// `limit` is below the smallest term of m's Zeckendorf sum; `(0, limit)` is lost.
fn whinihan_p(m: u64, limit: u64) -> bool {
    m == 0 || limit < p6487(m)
}

fn solve_json(n: u64) -> Value {
    let out = ok(&[
        "solve",
        "rules/fibonacci-nim.sg",
        &format!("({n}, 0)"),
        "--json",
    ]);
    serde_json::from_str(&out).expect("JSON")
}

fn solve_text(n: u64) -> String {
    ok(&["solve", "rules/fibonacci-nim.sg", &format!("({n}, 0)")])
}

/// The takes `t` of the JSON's winning moves, in its order.
fn takes(json: &Value) -> Vec<u64> {
    json["winning_moves"]
        .as_array()
        .expect("winning_moves")
        .iter()
        .map(|m| m["binders"]["t"].as_u64().expect("t"))
        .collect()
}

/// A list that may miss moves never calls itself the winning moves: its first line starts
/// with "incomplete", and no line presents "winning moves" plainly.
fn assert_honest(text: &str, complete: bool) {
    let header = text
        .lines()
        .find(|l| l.contains("winning moves"))
        .unwrap_or_default();
    if complete {
        assert!(!header.starts_with("incomplete"), "{text}");
    } else {
        assert!(
            header.starts_with("incomplete list of winning moves")
                && header.contains("not searched: "),
            "{text}"
        );
        assert!(
            !text.lines().any(|l| l.starts_with("winning moves")),
            "{text}"
        );
    }
}

#[test]
fn p6487_smallest_take_far_beyond_the_box() {
    let f = fibonacci();
    // Random n ≤ 10^15 (xorshift, fixed seed), and sums of far-apart Fibonacci numbers whose
    // smallest term lies deep in the unsearched middle of the range (F_70 + F_30 + F_5, …,
    // indices in the usual numbering F_1 = F_2 = 1, so F_k = f[k − 2] here).
    let fib = |k: usize| f[k - 2];
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut n_values: Vec<u64> = (0..6)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            1 + seed % 1_000_000_000_000_000
        })
        .collect();
    n_values.extend([
        fib(70) + fib(30) + fib(5),
        fib(73) + fib(40),
        fib(60) + fib(45) + fib(33),
        fib(50) + fib(31),
        41_266_478,
        fib(73),
        1_000_000_000_000_000,
    ]);
    for n in n_values {
        assert!(n <= 1_000_000_000_000_000, "{n}");
        let answer = p6487(n);
        let json = solve_json(n);
        assert_eq!(json["outcome"], "N", "n = {n}");
        let observed = &json["smallest_winning_move"];
        assert_eq!(observed["observed_on_the_box"], true, "n = {n}: {json}");
        assert_eq!(observed["claimed"], true, "n = {n}: {json}");
        assert_eq!(observed["move"]["binders"]["t"], answer, "n = {n}: {json}");
        let list = takes(&json);
        assert_eq!(list.iter().min(), Some(&answer), "n = {n}: {list:?}");
        // Every take listed leaves a P-position by Whinihan's rule (independently here).
        for &t in &list {
            let left = n - t;
            assert!(whinihan_p(left, (2 * t).min(left)), "n = {n}, t = {t}");
        }
        // n > 2·10^6: the middle of the range was not searched, and the JSON says so.
        assert_eq!(json["complete"], false, "n = {n}");
        assert!(!json["search"]["unsearched"].as_array().unwrap().is_empty());
        let text = solve_text(n);
        assert_honest(&text, false);
        assert!(
            text.contains(&format!(
                "smallest winning move, observed on the box: `first`, t = {answer} ("
            )),
            "n = {n}: {text}"
        );
    }
}

/// Every `G(n, limit)` for `n, limit ≤ side` by the mex over the takes (the whole pile allowed
/// at limit 0, as in P6487), filled here.
fn fibonacci_nim_values(side: usize) -> Vec<Vec<u32>> {
    let mut g = vec![vec![0u32; side + 1]; side + 1];
    let mut seen = vec![false; 2 * side + 2];
    for n in 0..=side {
        for limit in 0..=side {
            let most = if limit == 0 { n } else { limit.min(n) };
            seen.iter_mut().for_each(|s| *s = false);
            for t in 1..=most {
                seen[g[n - t][(2 * t).min(n - t)] as usize] = true;
            }
            g[n][limit] = seen.iter().position(|s| !s).unwrap() as u32;
        }
    }
    g
}

#[test]
fn fibonacci_nim_from_600_to_30000_is_answered() {
    // Exactly (a box fitted to the moves): every winning take, by a brute force over a table.
    let g = fibonacci_nim_values(720);
    for n in [600u64, 613, 717] {
        let json = solve_json(n);
        assert_eq!(json["complete"], true, "n = {n}");
        // The box grew to hold the limits the first move can leave (up to 2n/3).
        let method = json["method"].as_str().unwrap();
        assert_eq!(
            method,
            format!("exact SG values of the box 0..={n} × 0..={}", 2 * n / 3),
            "n = {n}"
        );
        let brute: Vec<u64> = (1..=n)
            .filter(|&t| {
                let left = (n - t) as usize;
                g[left][(2 * t as usize).min(left)] == 0
            })
            .collect();
        assert_eq!(takes(&json), brute, "n = {n}");
        assert_eq!(brute[0], p6487(n), "n = {n}");
    }
    // Further on, by the criterion with every move examined: the whole list, by Whinihan's rule.
    for n in [4_000u64, 12_345, 29_999] {
        let json = solve_json(n);
        assert_eq!(json["complete"], true, "n = {n}: {json}");
        let expected: Vec<u64> = (1..=n)
            .filter(|&t| whinihan_p(n - t, (2 * t).min(n - t)))
            .collect();
        assert_eq!(takes(&json), expected, "n = {n}");
        assert_eq!(expected[0], p6487(n));
        assert_honest(&solve_text(n), true);
    }
}

/// Whether `(a, b)` is a Wythoff pair, by exact integers: `m = ⌊kφ⌋` iff
/// `2m − k ≤ k√5 < 2m + 2 − k`, for `m = min`, `k = max − min` (Wythoff 1907).
fn wythoff_p(x: u64, y: u64) -> bool {
    let (m, k) = (i128::from(x.min(y)), i128::from(x.max(y) - x.min(y)));
    let (low, high) = (2 * m - k, 2 * m + 2 - k);
    (low < 0 || low * low <= 5 * k * k) && high > 0 && high * high > 5 * k * k
}

#[test]
fn a_list_from_the_search_only_is_flagged_incomplete() {
    // Wythoff's game far out: no pattern of the smallest move, so the list is the search's.
    let (x, y) = (1_000_000_000u64, 1_618_033_988u64);
    let out = ok(&[
        "solve",
        "rules/wythoff.sg",
        &format!("({x}, {y})"),
        "--json",
    ]);
    let json: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["complete"], false, "{json}");
    assert!(json.get("smallest_winning_move").is_none(), "{json}");
    let unsearched = json["search"]["unsearched"].as_array().unwrap();
    assert_eq!(unsearched.len(), 3, "{json}");
    for (u, rule) in unsearched
        .iter()
        .zip(["`take_x`", "`take_y`", "`take_both`"])
    {
        assert_eq!(u["rule"], rule);
        // The skipped values lie strictly between the two ends searched.
        let (after, before) = (
            u["after"][0].as_i64().unwrap(),
            u["before"][0].as_i64().unwrap(),
        );
        assert!(after < before - 1, "{u}");
    }
    // What it lists is winning (by the pattern, checked here by Wythoff's pairs).
    for m in json["winning_moves"].as_array().unwrap() {
        let r = &m["result"][0];
        assert!(
            wythoff_p(r[0].as_u64().unwrap(), r[1].as_u64().unwrap()),
            "{m}"
        );
    }
    let text = ok(&["solve", "rules/wythoff.sg", &format!("({x}, {y})")]);
    assert_honest(&text, false);
}

#[test]
fn patterns_report_the_smallest_winning_move() {
    // Bash game (subtraction 1..=k): take n mod (k + 1) (Winning Ways ch. 4).
    for k in [2u64, 3, 5] {
        let out = ok(&[
            "patterns",
            "rules/bash.sg",
            "--set",
            &format!("k={k}"),
            "--json",
        ]);
        let json: Value = serde_json::from_str(&out).unwrap();
        let found = &json["smallest_winning_move"]["smallest_move"];
        assert_eq!(found["function"]["kind"], "modulo", "k = {k}: {json}");
        assert_eq!(found["function"]["modulus"], k + 1, "k = {k}");
        assert_eq!(found["binder"], "take");
    }
    let out = ok(&["patterns", "rules/fibonacci-nim.sg", "--to", "40"]);
    assert!(
        out.contains(
            "smallest winning move: t = the smallest term of n's Zeckendorf sum (n itself when n \
             is a Fibonacci number) on every N-position of 0 ≤ n ≤ 40, 0 ≤ limit ≤ 40"
        ),
        "{out}"
    );
}
