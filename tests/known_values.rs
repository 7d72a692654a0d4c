//! Published Sprague–Grundy sequences, computed through the whole pipeline (rules text → engine).

use sgscope::engine::{self, EngineOptions};
use sgscope::rules::{self, SourceFile};

fn values(rules_text: &str, to: u64) -> Vec<u32> {
    let game = rules::load(SourceFile::new("<test>", rules_text), &[]).expect("valid rules");
    engine::compute(&game, to, &EngineOptions::default())
        .expect("computes")
        .to_vec()
}

/// Kayles, octal 0.77: OEIS A002186 (Winning Ways, ch. 4, Table 6).
const KAYLES: [u32; 84] = [
    0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1, 2, 8, 5, 4, 7, 2,
    1, 8, 6, 7, 4, 1, 2, 3, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 4, 2, 7, 4, 1, 2, 8,
    1, 4, 7, 2, 1, 8, 6, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7,
];

/// Dawson's Kayles, octal 0.07: OEIS A002187 (Winning Ways, ch. 4).
const DAWSONS_KAYLES: [u32; 90] = [
    0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5,
    2, 7, 4, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0,
    4, 5, 3, 7, 4, 8, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 9, 3, 3, 0,
];

/// Grundy's game, 4!.0: OEIS A002188; Winning Ways p. 96 lists G(0..=59).
const GRUNDYS_GAME: [u32; 60] = [
    0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0, 4, 3, 0, 4, 1, 2, 3, 1,
    2, 4, 1, 2, 4, 1, 2, 4, 1, 5, 4, 1, 5, 4, 1, 5, 4, 1, 0, 2, 1, 0, 2, 1, 5, 2, 1, 3,
];

#[test]
fn kayles_matches_oeis_a002186() {
    assert_eq!(values("octal 0.77", 83), KAYLES);
}

#[test]
fn dawsons_kayles_matches_oeis_a002187() {
    assert_eq!(values("octal 0.07", 89), DAWSONS_KAYLES);
    // The same game in its other notations.
    assert_eq!(values("octal .07", 89), DAWSONS_KAYLES);
    assert_eq!(values("takebreak 0.07", 89), DAWSONS_KAYLES);
}

#[test]
fn dawsons_chess_is_dawsons_kayles_shifted() {
    // Winning Ways ch. 4: Dawson's chess 0.137 has G(n) = G_0.07(n + 1).
    assert_eq!(values("octal 0.137", 88), DAWSONS_KAYLES[1..]);
}

#[test]
fn grundys_game_matches_winning_ways() {
    assert_eq!(values("takebreak 4!.0", 59), GRUNDYS_GAME);
}

#[test]
fn nim_is_the_identity() {
    // Bouton (1901): a single Nim heap of n tokens has value n.
    let expected: Vec<u32> = (0..=300).collect();
    assert_eq!(values("takebreak 0.[3]", 300), expected);
    assert_eq!(values("move x in 1..=n => n - x", 300), expected);
}

#[test]
fn subtraction_games() {
    // Ferguson, Game Theory I §1.4: S = {1, 3, 4} has 0 1 0 1 2 3 2 repeating.
    let expected: Vec<u32> = (0..700).map(|n| [0, 1, 0, 1, 2, 3, 2][n % 7]).collect();
    assert_eq!(values("subtraction {1, 3, 4}", 699), expected);
    // Bash game: G(n) = n mod (k + 1).
    let bash: Vec<u32> = (0..500).map(|n| n % 6).collect();
    assert_eq!(values("param k = 5\nsubtraction 1..=k", 499), bash);
    assert_eq!(values("subtraction 1..=5", 499), bash);
}

#[test]
fn take_at_most_half_closed_form() {
    // G(2m) = m and G(2m + 1) = G(m): the options of n are ceil(n/2)..n.
    let g = values("move x in 1..=n/2 => n - x", 2000);
    for n in 0..=2000usize {
        let expected = if n % 2 == 0 { (n / 2) as u32 } else { g[n / 2] };
        assert_eq!(g[n], expected, "n = {n}");
    }
}

#[test]
fn luogu_p4018_losses_are_the_multiples_of_six() {
    // Luogu P4018: take 1 or a prime power; the P-positions are exactly the multiples of 6
    // (no prime power is a multiple of 6, and every other residue reaches one).
    let g = values(include_str!("../rules/p4018.sg"), 200);
    for (n, &v) in g.iter().enumerate() {
        assert_eq!(v == 0, n % 6 == 0, "n = {n}, G = {v}");
    }
    // The spelling with a set binder, given in the file's comment: the same values.
    let listed = values(
        "move take_one: if n >= 1 => n - 1\nmove take: q in prime_powers(2, n) => n - q",
        200,
    );
    assert_eq!(listed, g);
}

#[test]
fn divisor_game_values_are_the_2_adic_valuation() {
    // rules/divisor-game.sg: G(n) = v_2(n) = ctz(n) for n >= 1 (OEIS A007814, the ruler
    // function), G(0) = 0. Checked here against both spellings of the rule.
    let g = values(include_str!("../rules/divisor-game.sg"), 5000);
    for (n, &v) in g.iter().enumerate().skip(1) {
        assert_eq!(v, n.trailing_zeros(), "n = {n}");
    }
    assert_eq!(g[0], 0);
    let old = values("move d in 1..n if n % d == 0 => n - d", 600);
    assert_eq!(old[..], g[..=600]);
}

#[test]
fn divisor_game_first_player_wins_exactly_on_even_n() {
    // LeetCode 1025: P-positions are the odd n (and n = 0 has no move... nor does n = 1).
    let g = values("move d in 1..n if n % d == 0 => n - d", 600);
    for (n, &v) in g.iter().enumerate().skip(1) {
        assert_eq!(v == 0, n % 2 == 1, "n = {n}, G = {v}");
    }
}

/// `patterns --json`'s closed form of G for `file` (`formula.formula`, null when none).
fn formula_of(file: &str, to: &str) -> serde_json::Value {
    let json = crate::support::ok(&["patterns", file, "--to", to, "--json"]);
    let report: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    report["formula"]["formula"].clone()
}

#[test]
fn patterns_find_the_known_closed_forms_of_g() {
    // Nim: G(n) = n (Bouton 1901; OEIS A001477).
    assert_eq!(formula_of("rules/nim.sg", "200")["kind"], "identity");
    // Luogu P4018: G(n) = n mod 6 (the losses are the multiples of 6).
    let p4018 = formula_of("rules/p4018.sg", "200");
    assert_eq!(
        (&p4018["kind"], &p4018["modulus"]),
        (&"modulo".into(), &6.into())
    );
    // Subtraction {1, 2, 3} (Bash): n mod 4 (Winning Ways ch. 4).
    assert_eq!(formula_of("rules/bash.sg", "200")["modulus"], 4);
    // The divisor game: G(n) = ctz(n) = v_2(n) for n ≥ 1 (OEIS A007814), G(0) = 0.
    let divisor = formula_of("rules/divisor-game.sg", "300");
    assert_eq!(
        (&divisor["kind"], &divisor["prime"]),
        (&"valuation".into(), &2.into())
    );
    // Lasker's Nim: n − 1, n, n, n + 1 by n mod 4 from n = 1 (Winning Ways ch. 4).
    let lasker = formula_of("rules/lasker-nim.sg", "300");
    assert_eq!(lasker["kind"], "residue_linear");
    assert_eq!(lasker["modulus"], 4);
    // The chocolate bar: (ab − 1) mod 2 for a, b ≥ 1 (every play lasts ab − 1 moves).
    let bar = formula_of("rules/chocolate.sg", "16");
    assert_eq!(bar["kind"], "polynomial_mod");
    assert_eq!(bar["coefficients"], serde_json::json!([1, 0, 0, 1]));
    // No closed form: Wythoff's game, Kayles (only a period, left to `period`), Grundy's game.
    assert!(formula_of("rules/wythoff.sg", "40").is_null());
    assert!(formula_of("rules/kayles.sg", "300").is_null());
    assert!(formula_of("rules/grundys-game.sg", "300").is_null());
    let text = crate::support::ok(&["patterns", "rules/divisor-game.sg", "--to", "64"]);
    assert!(
        text.contains("G(n) = ctz(n) for all 1 ≤ n ≤ 64, and G(0) = 0"),
        "{text}"
    );
}

/// Luogu P6487 (the file's default, `whole = 1`: the first take may be the whole pile): the
/// smallest winning first take from `(n, 0)` is the smallest term of n's Zeckendorf sum, which
/// is n itself exactly when n is a Fibonacci number; with `--set whole=0` (Whinihan 1963) the
/// start is `(n, n − 1)`, lost exactly at the Fibonacci numbers.
#[test]
fn fibonacci_nim_first_take_follows_zeckendorf() {
    let fib = [1u64, 2, 3, 5, 8, 13, 21, 34];
    let smallest_term = |mut n: u64| {
        let mut last = n;
        while n > 0 {
            let f = *fib.iter().rev().find(|&&f| f <= n).unwrap();
            last = f;
            n -= f;
        }
        last
    };
    for n in 1..=34u64 {
        let out = crate::support::ok(&[
            "solve",
            "rules/fibonacci-nim.sg",
            &format!("({n}, 0)"),
            "--json",
        ]);
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        let takes: Vec<i64> = json["winning_moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["binders"]["t"].as_i64().unwrap())
            .collect();
        assert_eq!(
            takes.iter().min().copied(),
            Some(smallest_term(n) as i64),
            "n = {n}: {takes:?}"
        );
        let whinihan = crate::support::ok(&[
            "solve",
            "rules/fibonacci-nim.sg",
            &format!("({n}, {})", n - 1),
            "--set",
            "whole=0",
            "--json",
        ]);
        let json: serde_json::Value = serde_json::from_str(&whinihan).unwrap();
        assert_eq!(json["outcome"] == "P", fib.contains(&n), "n = {n}");
    }
}
