//! Misère play at contest size (issue 22): anti-Nim (Luogu P4279) through `solve`, up to 100
//! heaps of up to 5000 and single heaps up to 10^6, against Bouton's misère-Nim rule written
//! here; `table` of anti-Nim to 4000 against Conway's genera of Nim heaps; and misère tables and
//! `solve` of games whose moves never split a component against a brute-force recursion
//! written here (the game's moves re-implemented in the test, never sgscope's values).

use std::collections::{BTreeSet, HashMap};

use serde_json::Value;

use crate::support::{assert_has, ok};

/// A small deterministic generator (xorshift64*), so that failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..=top`.
    fn upto(&mut self, top: u64) -> u64 {
        self.next() % (top + 1)
    }
}

/// Bouton (1902), misère Nim: the player to move loses iff every heap has at most one token and
/// the number of 1-heaps is odd, or some heap has two or more and the XOR of the heaps is 0.
fn bouton_loses(heaps: &[u64]) -> bool {
    let xor = heaps.iter().fold(0, |a, &h| a ^ h);
    let ones = heaps.iter().filter(|&&h| h == 1).count();
    if heaps.iter().all(|&h| h <= 1) {
        ones % 2 == 1
    } else {
        xor == 0
    }
}

/// Every winning move of misère Nim by Bouton's rule, as (heap index, tokens left): each move
/// of each heap, the position it leaves decided by the rule.
fn bouton_winning(heaps: &[u64]) -> BTreeSet<(usize, u64)> {
    let xor = heaps.iter().fold(0, |a, &h| a ^ h);
    let big = heaps.iter().filter(|&&h| h >= 2).count();
    let ones = heaps.iter().filter(|&&h| h == 1).count();
    let mut winning = BTreeSet::new();
    for (i, &h) in heaps.iter().enumerate() {
        let xor_rest = xor ^ h;
        let big_rest = big - usize::from(h >= 2);
        let ones_rest = ones - usize::from(h == 1);
        for left in 0..h {
            let loses = if big_rest == 0 && left <= 1 {
                (ones_rest + usize::from(left == 1)) % 2 == 1
            } else {
                xor_rest ^ left == 0
            };
            if loses {
                winning.insert((i, left));
            }
        }
    }
    winning
}

/// `solve rules/anti-nim.sg HEAPS --json`, checked against Bouton's rule: the outcome, `G⁻`'s
/// being 0, and the set of winning moves.
fn check_anti_nim(heaps: &[u64]) {
    let mut args: Vec<String> = vec!["solve".into(), "rules/anti-nim.sg".into()];
    args.extend(heaps.iter().map(u64::to_string));
    args.push("--json".into());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let json: Value = serde_json::from_str(&ok(&args)).unwrap();
    let loses = bouton_loses(heaps);
    let shown = &heaps[..heaps.len().min(6)];
    assert_eq!(json["play"], "misere");
    assert_eq!(json["outcome"], if loses { "P" } else { "N" }, "{shown:?}…");
    assert_eq!(json["value"] == 0, loses, "{shown:?}…");
    let method = json["method"].as_str().unwrap();
    assert!(method.starts_with("by the tame rule"), "{method}");
    let moves: BTreeSet<(usize, u64)> = json["winning_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let component = m["component"].as_u64().unwrap() as usize - 1;
            let left = m["result"].as_array().unwrap();
            (component, left.first().map_or(0, |h| h.as_u64().unwrap()))
        })
        .collect();
    assert_eq!(
        moves.len(),
        json["winning_moves"].as_array().unwrap().len(),
        "a move listed twice"
    );
    assert_eq!(moves, bouton_winning(heaps), "{shown:?}…");
}

#[test]
fn p4279_sums_of_up_to_100_heaps_of_up_to_5000_follow_boutons_rule() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut p_positions = 0;
    for case in 0..40 {
        let count = 1 + rng.upto(99) as usize;
        let mut heaps: Vec<u64> = (0..count).map(|_| rng.upto(5000)).collect();
        // Every other case is made a P-position when it can be (the last heap the XOR of the
        // others), so that both outcomes are checked often.
        if case % 2 == 0 && count >= 2 {
            let xor = heaps[..count - 1].iter().fold(0, |a, &h| a ^ h);
            if xor <= 5000 {
                heaps[count - 1] = xor;
            }
        }
        p_positions += usize::from(bouton_loses(&heaps));
        check_anti_nim(&heaps);
    }
    assert!(p_positions >= 10, "{p_positions} P-positions checked");
    // The two largest sizes, and small heaps with many of them.
    check_anti_nim(&[5000; 100]);
    let mut mixed = vec![5000; 99];
    mixed.push(4999);
    check_anti_nim(&mixed);
}

#[test]
fn p4279_sums_of_heaps_of_at_most_one_follow_boutons_rule() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    for count in [1, 2, 3, 4, 7, 50, 99, 100] {
        for _ in 0..2 {
            let heaps: Vec<u64> = (0..count).map(|_| rng.upto(1)).collect();
            check_anti_nim(&heaps);
        }
        // And with a single larger heap among them.
        let mut heaps: Vec<u64> = (0..count).map(|_| rng.upto(1)).collect();
        heaps[0] = 2 + rng.upto(3);
        check_anti_nim(&heaps);
    }
}

#[test]
fn p4279_single_heaps_up_to_a_million_follow_boutons_rule() {
    let mut rng = Rng(0x94D0_49BB_1331_11EB);
    let mut sizes = vec![0, 1, 2, 3, 4, 5000, 999_999, 1_000_000];
    sizes.extend((0..4).map(|_| 100_000 + rng.upto(900_000)));
    for n in sizes {
        check_anti_nim(&[n]);
    }
    check_anti_nim(&[1_000_000, 1_000_000]);
    check_anti_nim(&[1_000_000, 999_999, 1]);
}

/// Conway's genus of the nim-heap `*n`, written out (ONAG ch. 12): `0^{120}`, `1^{031}`, and
/// `n^{n(n⊕2)}` for `n ≥ 2`, the superscripts separated by commas when one has two digits.
fn nim_genus_text(n: u64) -> String {
    let superscripts = match n {
        0 => vec![1, 2, 0],
        1 => vec![0, 3, 1],
        _ => vec![n, n ^ 2],
    };
    let separator = if superscripts.iter().any(|&s| s >= 10) {
        ","
    } else {
        ""
    };
    let parts: Vec<String> = superscripts.iter().map(u64::to_string).collect();
    format!("{n}^{{{}}}", parts.join(separator))
}

#[test]
fn the_anti_nim_table_to_4000_has_nim_genera() {
    let csv = ok(&[
        "table",
        "rules/anti-nim.sg",
        "--to",
        "4000",
        "--format",
        "csv",
    ]);
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("n,sg,misere_sg,genus"));
    let mut rows = 0;
    for (n, line) in lines.enumerate() {
        let n = n as u64;
        let genus = nim_genus_text(n);
        let genus = if genus.contains(',') {
            format!("\"{genus}\"")
        } else {
            genus
        };
        // Bouton's rule on one heap: G⁻(*n) is 1 for n = 0, 0 for n = 1, n otherwise.
        let misere = match n {
            0 => 1,
            1 => 0,
            _ => n,
        };
        assert_eq!(line, format!("{n},{n},{misere},{genus}"));
        rows += 1;
    }
    assert_eq!(rows, 4001);
}

/// A heap game whose moves never split: from `n`, to each `t < n` with
/// `(n·a + t·b) mod 11 < k` (its rules text, and the same moves for the brute force).
struct Scattered {
    a: u64,
    b: u64,
    k: u64,
}

impl Scattered {
    fn rules(&self) -> String {
        format!(
            "move go: t in 0..n if (n * {} + t * {}) % 11 < {} => t",
            self.a, self.b, self.k
        )
    }

    fn options(&self, n: u64) -> Vec<u64> {
        (0..n)
            .filter(|&t| (n * self.a + t * self.b) % 11 < self.k)
            .collect()
    }
}

fn mex(values: impl IntoIterator<Item = u64>) -> u64 {
    let seen: BTreeSet<u64> = values.into_iter().collect();
    (0..).find(|v| !seen.contains(v)).unwrap()
}

/// Brute force: `G⁻` of a sum of positions plus `twos` nim-heaps of 2 and `ones` of 1, by the
/// definition (1 when no move is left, else the mex of the options'), over the whole tree of
/// the sum. `options` lists a position's options (single positions: these games never split).
fn brute_misere<P: Clone + Ord + std::hash::Hash>(
    positions: &[P],
    twos: u32,
    ones: u32,
    options: &dyn Fn(&P) -> Vec<P>,
    memo: &mut HashMap<(Vec<P>, u32, u32), u64>,
) -> u64 {
    let mut key_positions = positions.to_vec();
    key_positions.sort();
    let key = (key_positions, twos, ones);
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut values = Vec::new();
    for i in 0..positions.len() {
        for option in options(&positions[i]) {
            let mut next = positions.to_vec();
            next[i] = option;
            values.push(brute_misere(&next, twos, ones, options, memo));
        }
    }
    if twos > 0 {
        values.push(brute_misere(positions, twos - 1, ones + 1, options, memo));
        values.push(brute_misere(positions, twos - 1, ones, options, memo));
    }
    if ones > 0 {
        values.push(brute_misere(positions, twos, ones - 1, options, memo));
    }
    let value = if values.is_empty() { 1 } else { mex(values) };
    memo.insert(key, value);
    value
}

/// The superscripts `γ0 … γ5` of a genus as sgscope writes it (`g^{γ0γ1…}`, the last two
/// repeating): the parse of the text, for comparison with the brute force.
fn gammas(genus: &str) -> (u64, Vec<u64>) {
    let genus = genus.trim_matches('"');
    let (normal, rest) = genus.split_once("^{").unwrap();
    let inner = rest.strip_suffix('}').unwrap();
    let listed: Vec<u64> = if inner.contains(',') {
        inner.split(',').map(|s| s.parse().unwrap()).collect()
    } else {
        inner
            .chars()
            .map(|c| c.to_digit(10).unwrap() as u64)
            .collect()
    };
    let len = listed.len();
    let all = (0..6)
        .map(|k| {
            if k < len {
                listed[k]
            } else {
                listed[len - 2 + (k - (len - 2)) % 2]
            }
        })
        .collect();
    (normal.parse().unwrap(), all)
}

/// Brute-force normal value (for the `sg` column).
fn brute_normal<P: Clone + Ord + std::hash::Hash>(
    p: &P,
    options: &dyn Fn(&P) -> Vec<P>,
    memo: &mut HashMap<P, u64>,
) -> u64 {
    if let Some(&v) = memo.get(p) {
        return v;
    }
    let values: Vec<u64> = options(p)
        .iter()
        .map(|o| brute_normal(o, options, memo))
        .collect();
    let value = mex(values);
    memo.insert(p.clone(), value);
    value
}

#[test]
fn misere_tables_of_non_splitting_heap_games_match_the_brute_force() {
    // Some of these are wild (genera like 3^{1431}); the columns sg, misere_sg and the
    // genus's first six superscripts (γk = G⁻(G + k·*2)) against the brute force.
    let mut wild_seen = 0;
    for (a, b, k) in [
        (3, 2, 4),
        (5, 2, 3),
        (7, 2, 4),
        (7, 2, 5),
        (13, 7, 5),
        (1, 1, 6),
    ] {
        let game = Scattered { a, b, k };
        let options = |n: &u64| game.options(*n);
        let csv = ok(&[
            "table",
            &game.rules(),
            "--misere",
            "--to",
            "40",
            "--format",
            "csv",
        ]);
        let mut memo = HashMap::new();
        let mut normal_memo = HashMap::new();
        for (n, line) in csv.lines().skip(1).enumerate() {
            let n = n as u64;
            let fields: Vec<&str> = line.splitn(4, ',').collect();
            assert_eq!(fields[0], n.to_string());
            let (normal, gamma) = gammas(fields[3]);
            assert_eq!(normal, brute_normal(&n, &options, &mut normal_memo));
            assert_eq!(fields[1], normal.to_string(), "{line}");
            let brute_m = brute_misere(&[n], 0, 0, &options, &mut memo);
            assert_eq!(fields[2], brute_m.to_string(), "{} at {n}", game.rules());
            for (twos, &g) in gamma.iter().enumerate() {
                let brute = brute_misere(&[n], twos as u32, 0, &options, &mut memo);
                assert_eq!(g, brute, "{} at {n}: γ{twos}", game.rules());
            }
        }
        let text = ok(&["table", &game.rules(), "--misere", "--to", "40"]);
        wild_seen += usize::from(text.contains("first wild heap"));
    }
    assert!(wild_seen >= 3, "the cases should include wild games");
}

#[test]
fn solve_of_one_wild_non_splitting_component_is_by_the_recursion_and_sums_by_the_search() {
    let game = Scattered { a: 3, b: 2, k: 4 };
    let options = |n: &u64| game.options(*n);
    let mut memo = HashMap::new();
    for n in [16u64, 17, 25, 33, 40, 60] {
        let json: Value = serde_json::from_str(&ok(&[
            "solve",
            &game.rules(),
            &n.to_string(),
            "--misere",
            "--json",
        ]))
        .unwrap();
        let value = brute_misere(&[n], 0, 0, &options, &mut memo);
        assert_eq!(json["value"], value, "heap {n}");
        assert_eq!(json["outcome"], if value == 0 { "P" } else { "N" });
        let moves: BTreeSet<u64> = json["winning_moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["result"][0].as_u64().unwrap_or(0))
            .collect();
        let expected: BTreeSet<u64> = game
            .options(n)
            .into_iter()
            .filter(|&t| brute_misere(&[t], 0, 0, &options, &mut memo) == 0)
            .collect();
        assert_eq!(moves, expected, "heap {n}");
    }
    // Heap 16 is wild (3^{1431}): alone, by the recursion on options.
    let text = ok(&["solve", &game.rules(), "16", "--misere"]);
    assert_has(
        &text,
        &["by the recursion on options: one component, which is not tame"],
    );
    // A sum with a wild component is searched, and agrees with the brute force over sums.
    for sum in [[16u64, 3], [16, 16], [17, 9], [16, 25], [30, 22]] {
        let json: Value = serde_json::from_str(&ok(&[
            "solve",
            &game.rules(),
            &sum[0].to_string(),
            &sum[1].to_string(),
            "--misere",
            "--json",
        ]))
        .unwrap();
        // With the wild heap 16: the search, or the quick misère quotient (which gives the
        // outcome only). Heap 17 does not reach 16, and 17 + 9 may be tame.
        let method = json["method"].as_str().unwrap();
        if sum.contains(&16) {
            assert!(
                method.starts_with("by the search over sums")
                    || method.starts_with("by the misère quotient"),
                "{method}"
            );
        }
        let value = brute_misere(&sum, 0, 0, &options, &mut memo);
        if !json["value"].is_null() {
            assert_eq!(json["value"], value, "{sum:?}");
        }
        assert_eq!(
            json["outcome"],
            if value == 0 { "P" } else { "N" },
            "{sum:?}"
        );
    }
}

/// Fibonacci Nim as `rules/fibonacci-nim.sg` states it (whole = 1): from `(n, 0)` take any
/// `1..=n`; from `(n, l)`, `l ≥ 1`, take `1..=min(l, n)`; taking `t` leaves
/// `(n − t, min(2t, n − t))`.
fn fibonacci_options(&(n, limit): &(u64, u64)) -> Vec<(u64, u64)> {
    let most = if limit == 0 { n } else { limit.min(n) };
    (1..=most).map(|t| (n - t, (2 * t).min(n - t))).collect()
}

#[test]
fn the_misere_table_of_fibonacci_nim_to_100000_positions_matches_the_brute_force() {
    // 317 × 317 = 100 489 positions, about 5 million options: the recursion on options, no
    // search over sums (its moves never split).
    let csv = ok(&[
        "table",
        "rules/fibonacci-nim.sg",
        "--misere",
        "--to",
        "316",
        "--format",
        "csv",
    ]);
    let mut memo: HashMap<(u64, u64), u64> = HashMap::new();
    // Brute force in increasing n (every move lowers n), so no deep recursion.
    let mut rows = 0;
    for line in csv.lines().skip(1) {
        let fields: Vec<&str> = line.splitn(4, ',').collect();
        let position: (u64, u64) = (fields[0].parse().unwrap(), fields[1].parse().unwrap());
        let options = fibonacci_options(&position);
        let value = if options.is_empty() {
            1
        } else {
            mex(options.iter().map(|o| memo[o]))
        };
        memo.insert(position, value);
        assert_eq!(
            fields[3].split(',').next().unwrap(),
            value.to_string(),
            "{line}"
        );
        rows += 1;
    }
    assert_eq!(rows, 317 * 317);
}

#[test]
fn fibonacci_nim_small_boxes_have_the_brute_force_genera() {
    let csv = ok(&[
        "table",
        "rules/fibonacci-nim.sg",
        "--misere",
        "--to",
        "14",
        "--format",
        "csv",
    ]);
    let mut memo = HashMap::new();
    for line in csv.lines().skip(1) {
        let fields: Vec<&str> = line.splitn(5, ',').collect();
        let position: (u64, u64) = (fields[0].parse().unwrap(), fields[1].parse().unwrap());
        let (_, gamma) = gammas(fields[4]);
        for (twos, &g) in gamma.iter().enumerate() {
            let brute = brute_misere(&[position], twos as u32, 0, &fibonacci_options, &mut memo);
            assert_eq!(g, brute, "{line}: γ{twos}");
        }
    }
}
