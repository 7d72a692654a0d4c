//! `misere-check`: the anti-SG (SJ) rule and the XOR of misère values against the true misère
//! outcome of every small sum. Every expectation is recomputed here by a naive oracle that
//! knows nothing of genera or tame addition: misère Grundy values of explicit multisets of
//! heaps, by the recursion `G⁻(no move) = 1`, `G⁻(S) = mex{G⁻(S')}` over every move of every
//! component (and, for the counterexamples, by the library's `Sums` valued afresh).

use std::collections::HashMap;

use serde_json::Value;
use sgscope::rules::{self, SourceFile};
use sgscope::value::misere::Sums;

use crate::support::{assert_has, assert_render, fails, ok};

/// The options of a heap: each a list of heaps (zeros may appear; they are dropped).
type HeapOptions = fn(u64) -> Vec<Vec<u64>>;

fn nim(n: u64) -> Vec<Vec<u64>> {
    (0..n).map(|m| vec![m]).collect()
}

/// Kayles (octal 0.77): knock down one pin or two adjacent ones, anywhere in the row.
fn kayles(n: u64) -> Vec<Vec<u64>> {
    let mut options = Vec::new();
    for take in 1..=2.min(n) {
        let rest = n - take;
        for left in 0..=rest / 2 {
            options.push(vec![left, rest - left]);
        }
    }
    options
}

fn subtraction_1_2(n: u64) -> Vec<Vec<u64>> {
    [1, 2]
        .iter()
        .filter(|&&s| s <= n)
        .map(|&s| vec![n - s])
        .collect()
}

fn mex(values: impl IntoIterator<Item = u32>) -> u32 {
    let mut seen: Vec<u32> = values.into_iter().collect();
    seen.sort_unstable();
    seen.dedup();
    seen.iter()
        .enumerate()
        .find(|&(i, &v)| v != i as u32)
        .map_or(seen.len() as u32, |(i, _)| i as u32)
}

/// The naive oracle: normal values of heaps, misère values of whole sums.
struct Oracle {
    options: HeapOptions,
    misere: HashMap<Vec<u64>, u32>,
    normal: HashMap<u64, u32>,
}

impl Oracle {
    fn new(options: HeapOptions) -> Self {
        Oracle {
            options,
            misere: HashMap::new(),
            normal: HashMap::new(),
        }
    }

    /// G(n), normal play: the mex of the XORs of the options' heaps.
    fn normal(&mut self, n: u64) -> u32 {
        if let Some(&g) = self.normal.get(&n) {
            return g;
        }
        let options = (self.options)(n);
        let values: Vec<u32> = options
            .iter()
            .map(|o| o.iter().fold(0, |x, &h| x ^ self.normal(h)))
            .collect();
        let g = mex(values);
        self.normal.insert(n, g);
        g
    }

    /// G⁻ of the sum of `heaps`, by the recursion over the whole sum.
    fn misere(&mut self, heaps: &[u64]) -> u32 {
        let mut key: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
        key.sort_unstable();
        if let Some(&g) = self.misere.get(&key) {
            return g;
        }
        let mut values = Vec::new();
        for i in 0..key.len() {
            for option in (self.options)(key[i]) {
                let mut next = key.clone();
                next.remove(i);
                next.extend(option);
                values.push(self.misere(&next));
            }
        }
        let g = if values.is_empty() { 1 } else { mex(values) };
        self.misere.insert(key, g);
        g
    }
}

/// Every multiset of 1 to `k` heaps of `1..=n`, sorted, smallest first (components, then
/// total, then lexicographically) — by brute force: all non-decreasing tuples, then sorted.
fn all_sums(k: usize, n: u64) -> Vec<Vec<u64>> {
    let mut sums: Vec<Vec<u64>> = Vec::new();
    let mut layer: Vec<Vec<u64>> = vec![vec![]];
    for _ in 0..k {
        layer = layer
            .iter()
            .flat_map(|s| {
                let from = s.last().copied().unwrap_or(1);
                (from..=n).map(move |h| {
                    let mut t = s.clone();
                    t.push(h);
                    t
                })
            })
            .collect();
        sums.extend(layer.iter().cloned());
    }
    sums.sort_by_key(|s| (s.len(), s.iter().sum::<u64>(), s.clone()));
    sums
}

/// "N" or "P" by the two rules, from the components' values (the formulas of the help).
fn anti_sg(sg: &[u32]) -> &'static str {
    let xor = sg.iter().fold(0, |a, &g| a ^ g);
    let big = sg.iter().any(|&g| g > 1);
    if (xor != 0 && big) || (xor == 0 && !big) {
        "N"
    } else {
        "P"
    }
}

fn misere_xor(misere: &[u32]) -> &'static str {
    if misere.iter().fold(0, |a, &g| a ^ g) != 0 {
        "N"
    } else {
        "P"
    }
}

/// A shortcut's prediction ("N" or "P") from the components' SG values and misère values.
type Prediction = fn(&[u32], &[u32]) -> &'static str;

/// Runs `misere-check GAME --heaps k --to n --json` and checks every field against the
/// oracle; returns the JSON.
fn check_against_oracle(game: &str, options: HeapOptions, k: usize, n: u64) -> Value {
    let (ks, ns) = (k.to_string(), n.to_string());
    let out = ok(&["misere-check", game, "--heaps", &ks, "--to", &ns, "--json"]);
    let json: Value = serde_json::from_str(&out).expect("one JSON object");
    let mut oracle = Oracle::new(options);
    let sums = all_sums(k, n);
    assert_eq!(json["sums_checked"], sums.len() as u64, "{out}");
    let rules: [(&str, Prediction); 2] = [
        ("anti-sg", |sg, _| anti_sg(sg)),
        ("misere-xor", |_, misere| misere_xor(misere)),
    ];
    for (index, (name, rule)) in rules.iter().enumerate() {
        let reported = &json["rules"][index];
        assert_eq!(reported["rule"], *name, "{out}");
        let mut failures = 0u64;
        let mut first: Option<Value> = None;
        for sum in &sums {
            let sg: Vec<u32> = sum.iter().map(|&h| oracle.normal(h)).collect();
            let misere: Vec<u32> = sum.iter().map(|&h| oracle.misere(&[h])).collect();
            let actual = if oracle.misere(sum) == 0 { "P" } else { "N" };
            let predicted = rule(&sg, &misere);
            if predicted != actual {
                failures += 1;
                first.get_or_insert_with(|| {
                    serde_json::json!({
                        "components": sum,
                        "sg_values": sg,
                        "misere_values": misere,
                        "predicted": predicted,
                        "actual": actual,
                    })
                });
            }
        }
        assert_eq!(reported["failures"], failures, "{name}: {out}");
        assert_eq!(reported["holds"], failures == 0, "{name}: {out}");
        // The genera are the library's own; the rest is the oracle's.
        let mut counterexample = reported["counterexample"].clone();
        if let Some(c) = counterexample.as_object_mut() {
            assert!(
                c.remove("genera").is_some() && c.remove("tame").is_some(),
                "{out}"
            );
        }
        assert_eq!(
            counterexample,
            first.unwrap_or(Value::Null),
            "{name}: {out}"
        );
    }
    json
}

/// The true misère outcome of `heaps` by the library's search, valued afresh.
fn outcome_by_sums(game: &str, heaps: &[u64]) -> &'static str {
    let game = rules::load(SourceFile::new("<test>", game), &[]).expect("rules load");
    let mut sums = Sums::new(&game);
    let sum = sums.canonical(heaps).expect("canonical");
    if sums.value(&sum).expect("valued").genus.misere() == 0 {
        "P"
    } else {
        "N"
    }
}

#[test]
fn nim_keeps_the_anti_sg_rule_and_breaks_the_misere_xor_at_one_plus_one() {
    let json = check_against_oracle("move take: x in 1..=n => n - x", nim, 3, 7);
    assert_eq!(json["first_wild_heap"], Value::Null);
    assert_eq!(json["rules"][0]["holds"], true);
    // Misère Nim (Bouton 1902): 1 + 1 is a first-player win, though G⁻(1) = 0.
    let xor = &json["rules"][1]["counterexample"];
    assert_eq!(xor["components"], serde_json::json!([1, 1]));
    assert_eq!(xor["actual"], "N");
    // The text says so in the words of the help.
    let text = ok(&[
        "misere-check",
        "move take: x in 1..=n => n - x",
        "--heaps",
        "3",
        "--to",
        "7",
    ]);
    assert_has(
        &text,
        &[
            "every one of the 119 sums of at most 3 heaps of sizes 1..=7",
            "heaps 1..=7: all tame",
            "holds for all 119 sums of at most 3 heaps of sizes 1..=7",
            "fails on ",
            "sum:                 1 + 1",
        ],
    );
}

#[test]
fn kayles_is_wild_and_breaks_the_anti_sg_rule() {
    let json = check_against_oracle("octal 0.77", kayles, 3, 10);
    assert_eq!(json["first_wild_heap"], 5);
    let anti_sg = &json["rules"][0];
    assert_eq!(anti_sg["holds"], false);
    let c = &anti_sg["counterexample"];
    let heaps: Vec<u64> = c["components"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_u64().unwrap())
        .collect();
    assert_eq!(c["actual"], outcome_by_sums("octal 0.77", &heaps));
    assert_ne!(c["actual"], c["predicted"]);
}

#[test]
fn subtraction_1_2_is_tame_with_fickle_zeros_and_keeps_the_anti_sg_rule() {
    // Heaps 3k have SG value 0 and moves, outside the SJ theorem's hypothesis, but their genus
    // is 0^{120}, that of the empty game: the sums add like misère Nim.
    let json = check_against_oracle("subtraction {1, 2}", subtraction_1_2, 4, 12);
    assert_eq!(json["first_wild_heap"], Value::Null);
    assert_eq!(json["rules"][0]["holds"], true);
    assert_eq!(json["rules"][1]["holds"], false);
}

#[test]
fn position_games_and_huge_requests_are_refused_before_any_work() {
    assert_render(
        &fails(&["misere-check", "rules/wythoff.sg"], 2),
        r"
error: misere-check sums heaps, and Wythoff's game is a position game (coordinates x, y): its components are tuples, not heaps
  help: give a heap game: a family form such as 'octal 0.77', or rules on one heap n
",
    );
    let err = fails(
        &[
            "misere-check",
            "octal 0.77",
            "--heaps",
            "10",
            "--to",
            "1000",
        ],
        2,
    );
    // 2.9e23: the multisets of at most 10 sizes from 1..=1000, C(1010, 10) - 1.
    assert_render(
        &err,
        r"
error: there are 2.9e23 sums of at most 10 heaps of sizes 1..=1000: more than the 5000000 the search over sums can keep (each is stored, about 572.2 MiB for the limit)
  help: ask for fewer --heaps or a smaller --to
",
    );
    assert_render(
        &fails(&["misere-check", "octal 0.77", "--heaps", "0"], 2),
        r"
error: invalid value '0' for '--heaps <K>': 0 is not in 1..=64

For more information, try '--help'.
",
    );
    assert_render(
        &fails(&["misere-check", "octal 0.77", "--to", "0"], 2),
        r"
error: invalid value '0' for '--to <N>': 0 is not in 1..18446744073709551615

For more information, try '--help'.
",
    );
}

#[test]
fn help_names_both_rules_and_says_why_bouton_is_not_a_third() {
    let help = ok(&["misere-check", "--help"]);
    assert_has(
        &help,
        &[
            "anti-sg:",
            "misere-xor:",
            "Bouton's misère-Nim rule applied to the SG",
            "one formula",
            "exit code is 0",
            "Examples:",
            "sgscope misere-check 'octal 0.77'",
        ],
    );
    // The examples of the help run.
    let mut examples = 0;
    for line in help
        .lines()
        .filter(|l| l.trim_start().starts_with("sgscope misere-check"))
    {
        let command = line.trim_start().split("   #").next().unwrap().trim();
        let args = shell_words(command.trim_start_matches("sgscope "));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        ok(&args);
        examples += 1;
    }
    assert_eq!(examples, 3, "{help}");
}

/// `misere-check 'octal 0.77' --to 10` → its words, `'…'` quoting (no escapes).
fn shell_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in text.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    words.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            c => {
                word.push(c);
                any = true;
            }
        }
    }
    if any {
        words.push(word);
    }
    words
}
