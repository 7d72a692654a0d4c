//! `sgscope sweep`: formulas across a game's parameters, checked against independent brute
//! forces written here (never against sgscope's own output) and against published results.

use serde_json::Value;

use crate::support::{assert_render, fails, ok, root};

/// `G(0..len)` of the subtraction game with set `takes`, by the mex loop of the definition.
fn subtraction_values(takes: &[i64], len: usize) -> Vec<u64> {
    let mut values: Vec<u64> = Vec::with_capacity(len);
    for n in 0..len {
        let options: Vec<u64> = takes
            .iter()
            .filter(|&&t| t >= 1 && t as usize <= n)
            .map(|&t| values[n - t as usize])
            .collect();
        values.push((0..).find(|v| !options.contains(v)).unwrap());
    }
    values
}

/// `G(0..len)` of ABC278 G's card game: remove a contiguous block of `l..=r` cards from a row
/// of `n`, leaving the two rows beside it (the statement's move, by the definition).
fn block_removal_values(l: usize, r: usize, len: usize) -> Vec<u64> {
    let mut values: Vec<u64> = Vec::with_capacity(len);
    for n in 0..len {
        let mut options = Vec::new();
        for block in l..=r.min(n) {
            for left in 0..=n - block {
                options.push(values[left] ^ values[n - block - left]);
            }
        }
        values.push((0..).find(|v| !options.contains(v)).unwrap());
    }
    values
}

/// The smallest `p` with `values[n + p] = values[n]` for every `n` (a pure period), over a
/// prefix long enough to show it several times.
fn pure_period(values: &[u64]) -> usize {
    (1..values.len() / 3)
        .find(|&p| (0..values.len() - p).all(|n| values[n] == values[n + p]))
        .expect("a pure period within a third of the values")
}

fn sweep_json(args: &[&str]) -> Value {
    let mut all = vec!["sweep"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--format", "json"]);
    serde_json::from_str(&ok(&all)).expect("sweep --format json is JSON")
}

fn formula<'a>(report: &'a Value, quantity: &str) -> &'a Value {
    report["formulas"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["quantity"] == quantity)
        .unwrap_or_else(|| panic!("a {quantity} formula entry"))
}

fn pieces(formula: &Value) -> Vec<(String, String, u64)> {
    formula["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["when"].as_str().unwrap().to_string(),
                p["formula"].as_str().unwrap().to_string(),
                p["instances"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn bash_games_have_period_k_plus_1_and_g_equal_to_n_mod_k_plus_1() {
    // Bash's game: G(n) = n mod (k + 1), the P-positions the multiples of k + 1 (the classical
    // first exercise; e.g. Winning Ways ch. 4, subtraction game S(1, …, k)).
    let report = sweep_json(&["rules/bash.sg", "--set", "k=1..=50"]);
    assert_eq!(report["partial"], false);
    assert_eq!(report["instances"].as_array().unwrap().len(), 50);
    for (quantity, expected) in [
        ("period", "k + 1"),
        ("preperiod", "0"),
        ("saltus", "0"),
        ("p_positions", "n ≡ 0 (mod k + 1)"),
        ("g", "n mod (k + 1)"),
    ] {
        let f = formula(&report, quantity);
        assert_eq!(
            pieces(f),
            vec![("always".to_string(), expected.to_string(), 50)],
            "{quantity}"
        );
        assert_eq!(f["complete"], true, "{quantity}");
        assert_eq!(f["every_n"], true, "{quantity}");
        assert_eq!(
            f["proved"], false,
            "{quantity}: observed on the sweep, not proved"
        );
    }
    // Every instance against the mex loop.
    for instance in report["instances"].as_array().unwrap() {
        let k = instance["params"]["k"].as_i64().unwrap();
        let takes: Vec<i64> = (1..=k).collect();
        let values = subtraction_values(&takes, 8 * (k as usize + 1));
        assert_eq!(instance["period"], pure_period(&values) as u64, "k = {k}");
        assert_eq!(instance["proved"], true);
    }
}

#[test]
fn two_element_subtraction_sets_have_period_2a_or_a_plus_b() {
    // Benesh, Carter, Coleman, Crabill, Good, Smith, Travis and Ward, "The periodicity of
    // nim-sequences in two-element subtraction games", INTEGERS 20 (2020) #G5: the nim-sequence
    // of {a, b}, a < b, is purely periodic with period 2a when b is an odd multiple of a
    // (b ≡ a (mod 2a)), and a + b otherwise.
    let report = sweep_json(&[
        "rules/subtraction-ab.sg",
        "--set",
        "a=1..=11",
        "--set",
        "b=a+1..=12",
    ]);
    assert_eq!(report["partial"], false);
    let period = formula(&report, "period");
    assert_eq!(
        pieces(period),
        vec![
            (
                "b is an odd multiple of a".to_string(),
                "2·a".to_string(),
                9
            ),
            (
                "b is not an odd multiple of a".to_string(),
                "a + b".to_string(),
                57
            ),
        ]
    );
    assert_eq!(period["complete"], true);
    assert_eq!(pieces(formula(&report, "preperiod"))[0].1, "0");
    // Each instance against the mex loop, independently of the fitted formula.
    let instances = report["instances"].as_array().unwrap();
    assert_eq!(instances.len(), 66);
    for instance in instances {
        let (a, b) = (
            instance["params"]["a"].as_i64().unwrap(),
            instance["params"]["b"].as_i64().unwrap(),
        );
        let values = subtraction_values(&[a, b], 40 * b as usize);
        let brute = pure_period(&values) as u64;
        assert_eq!(instance["period"], brute, "{{{a}, {b}}}");
        assert_eq!(instance["preperiod"], 0, "{{{a}, {b}}}");
        let theorem = if b % (2 * a) == a { 2 * a } else { a + b };
        assert_eq!(brute, theorem as u64, "the theorem on {{{a}, {b}}}");
    }
}

#[test]
fn abc278g_first_player_wins_every_row_of_at_least_l_cards_when_l_is_below_r() {
    // AtCoder ABC278 G (editorial): with L < R the first player wins from every row of n ≥ L
    // cards (remove a middle block of L or L + 1 cards leaving two equal rows, then mirror);
    // with L = R only when n − L is even by that argument, otherwise by the Grundy values.
    let report = sweep_json(&[
        "rules/abc278g.sg",
        "--set",
        "L=1..=4",
        "--set",
        "R=L..=6",
        "--max",
        "600",
    ]);
    let p = formula(&report, "p_positions");
    assert_eq!(
        pieces(p),
        vec![("L < R".to_string(), "n < L".to_string(), 14)]
    );
    assert_eq!(p["complete"], false);
    let missing: Vec<Vec<i64>> = serde_json::from_value(p["missing"].clone()).unwrap();
    assert_eq!(
        missing,
        vec![vec![1, 1], vec![2, 2], vec![3, 3], vec![4, 4]]
    );
    for instance in report["instances"].as_array().unwrap() {
        let (l, r) = (
            instance["params"]["L"].as_u64().unwrap() as usize,
            instance["params"]["R"].as_u64().unwrap() as usize,
        );
        let values = block_removal_values(l, r, 200);
        let p_positions: Vec<u64> = (0..200u64).filter(|&n| values[n as usize] == 0).collect();
        let first: Vec<u64> = serde_json::from_value(instance["p_first"].clone()).unwrap();
        assert_eq!(first[..], p_positions[..first.len()], "L = {l}, R = {r}");
        if l < r {
            assert_eq!(
                p_positions,
                (0..l as u64).collect::<Vec<_>>(),
                "L = {l}, R = {r}"
            );
        } else {
            // The mirror strategy: n ≥ L with n − L even is a first-player win.
            assert!((l..200).step_by(2).all(|n| values[n] != 0), "L = R = {l}");
        }
    }
    // The first line says which instances have no period within --max.
    let text = ok(&[
        "sweep",
        "rules/abc278g.sg",
        "--set",
        "L=1..=4",
        "--set",
        "R=L..=6",
        "--max",
        "600",
    ]);
    assert!(
        text.starts_with("partial: 10 of 18 instances of ABC278 G (remove a block of L..R cards) over L=1..=4, R=L..=6 have no period found (none within their limit, or an error): (L = 1, R = 3), "),
        "{text}"
    );
}

#[test]
fn the_text_report_of_a_small_sweep() {
    let text = ok(&["sweep", "rules/bash.sg", "--set", "k=2..=5"]);
    assert_render(
        &text,
        "sweep of Bash game over k=2..=5: 4 instances, a period found for each, every period proved
k  preperiod  period  saltus  proved  values  max value  P-positions    G(n)
2          0       3       0     yes       6          2  n ≡ 0 (mod 3)  n mod 3
3          0       4       0     yes       8          3  n ≡ 0 (mod 4)  n mod 4
4          0       5       0     yes      10          4  n ≡ 0 (mod 5)  n mod 5
5          0       6       0     yes      12          5  n ≡ 0 (mod 6)  n mod 6

formulas in k, observed on the instances swept (each checked on every instance it covers; not proved for other values):
  period:       k + 1   (4 of 4 instances)
                each instance's value proved by the periodicity theorem
  preperiod:    0   (4 of 4 instances)
                each instance's value proved by the periodicity theorem
  saltus:       0   (4 of 4 instances)
                each instance's value proved by the periodicity theorem
  P-positions:  n ≡ 0 (mod k + 1)   (4 of 4 instances)
                holds for every n of each instance covered (its period proved, checked over a common period)
  G(n):         n mod (k + 1)   (4 of 4 instances)
                holds for every n of each instance covered (its period proved, checked over a common period)
",
    );
}

#[test]
fn csv_jsonl_and_the_chart() {
    let csv = ok(&[
        "sweep",
        "rules/subtraction-ab.sg",
        "--set",
        "a=2",
        "--set",
        "b=3,5",
        "--format",
        "csv",
    ]);
    assert_eq!(
        csv,
        "a,b,preperiod,period,saltus,proved,values_computed,max_value,p_positions,g,error\n\
         2,3,0,5,0,yes,9,2,n mod 5 < 2,,\n\
         2,5,0,7,0,yes,13,2,\"{0, 1, 4, 7, 8, 11, 14, 15, …}\",,\n"
    );
    let jsonl = ok(&[
        "sweep",
        "rules/bash.sg",
        "--set",
        "k=1..=3",
        "--format",
        "jsonl",
    ]);
    let lines: Vec<Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[2]["params"]["k"], 3);
    assert_eq!(lines[2]["g"]["text"], "n mod 4");
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("bash.svg");
    ok(&[
        "sweep",
        "rules/bash.sg",
        "--set",
        "k=1..=9",
        "--plot",
        svg.to_str().unwrap(),
    ]);
    let drawing = std::fs::read_to_string(&svg).unwrap();
    assert!(
        drawing.contains("<svg") && drawing.contains("preperiod"),
        "{drawing}"
    );
}

#[test]
fn refusals_say_what_to_do() {
    assert_render(
        &fails(&["sweep", "rules/bash.sg", "--set", "kk=1..=5"], 2),
        "error: `kk` is not a parameter of Bash game (in --set)\n  help: its parameters are `k`\n",
    );
    assert_render(
        &fails(&["sweep", "rules/abc278g.sg", "--set", "R=L..=8", "--set", "L=1..=3"], 2),
        "error: `L` in `R=L..=8` is not a parameter given before it (in --set)\n  help: give --set L=… first\n",
    );
    assert_render(
        &fails(&["sweep", "rules/bash.sg", "--set", "k=1..=100000000"], 2),
        "error: the ranges give 100000000 instances, more than the 100000 a sweep runs (in --set)\n  help: sweep fewer values, or split the sweep\n",
    );
    assert_render(
        &fails(&["sweep", "rules/wythoff.sg", "--set", "k=1..=3"], 2),
        "error: `k` is not a parameter of Wythoff's game (in --set)\n  help: the rules declare no parameter: add a line such as `param k = 3` and use k in the rules\n",
    );
    let graph = fails(&["sweep", "rules/graph-cycle.sg", "--set", "k=1..=3"], 2);
    assert!(
        graph.contains("is a graph file: it has no parameters to sweep"),
        "{graph}"
    );
    assert!(root().join("rules/subtraction-ab.sg").exists());
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]

    /// Every shape and every formula a sweep reports, evaluated at each instance it covers,
    /// agrees with the mex loop on G(0..3000) — past the values sgscope computed when its
    /// period was proved early (the shapes claim every n then).
    #[test]
    fn every_formula_a_sweep_reports_agrees_with_the_mex_loop(
        fixed in proptest::collection::btree_set(1i64..=7, 0..3),
    ) {
        use sgscope::sweep::{self, shapes, ParamRange, Quantity, SweepRequest};
        let mut set: Vec<String> = fixed.iter().map(i64::to_string).collect();
        set.push("c".into());
        let text = format!("param c = 1\nsubtraction {{{}}}", set.join(", "));
        let game = sgscope::api::load_text("<prop>", &text, &[]).unwrap();
        let ranges = ParamRange::parse_all(&["c=1..=9".to_string()]).unwrap();
        let report = sweep::run(&game, &ranges, &SweepRequest::default()).unwrap();
        let brute: Vec<Vec<u64>> = report
            .instances
            .iter()
            .map(|i| {
                let mut takes: Vec<i64> = fixed.iter().copied().collect();
                takes.push(i.params[0]);
                subtraction_values(&takes, 3000)
            })
            .collect();
        let indicator = |v: u64| u64::from(v == 0);
        for (instance, values) in report.instances.iter().zip(&brute) {
            let summary = instance.result.as_ref().unwrap();
            let len = if summary.report.proved { 3000 } else { summary.report.values_computed };
            for (found, is_p) in [(&summary.g_form, false), (&summary.p_set, true)] {
                if let Some(found) = found {
                    let upto = if found.every_n { len } else { summary.report.values_computed };
                    for (n, &value) in values.iter().enumerate().take(upto) {
                        let expected = if is_p { indicator(value) } else { value };
                        let at = shapes::eval(found.shape.kind, &found.shape.constants, n as u64);
                        proptest::prop_assert_eq!(at, Some(expected), "{} at n = {}", text, n);
                    }
                }
            }
        }
        for quantity in [Quantity::G, Quantity::PPositions] {
            let fitted = report.formula(quantity);
            let Some(fit) = &fitted.fit else { continue };
            for &i in &fitted.covered {
                let params = &report.instances[i].params;
                let piece = fit.piece(params).unwrap();
                let constants: Vec<i64> =
                    piece.constants.iter().map(|a| a.eval(params).unwrap()).collect();
                let computed = report.instances[i].result.as_ref().unwrap().report.values_computed;
                let upto = if fitted.every_n { 3000 } else { computed };
                for (n, &v) in brute[i].iter().enumerate().take(upto) {
                    let expected = if quantity == Quantity::G { v } else { indicator(v) };
                    proptest::prop_assert_eq!(
                        shapes::eval(piece.kind, &constants, n as u64),
                        Some(expected)
                    );
                }
            }
        }
    }
}

/// P-positions of Moore's Nim_k on four heaps of at most `top` tokens, by the definition:
/// a move takes from at least one and at most `k` heaps.
fn moore_p_positions(k: usize, top: usize) -> Vec<[usize; 4]> {
    let side = top + 1;
    let index = |p: [usize; 4]| ((p[0] * side + p[1]) * side + p[2]) * side + p[3];
    let mut is_p = vec![false; side.pow(4)];
    let mut all = Vec::new();
    for code in 0..side.pow(4) {
        let p = [
            code / side.pow(3),
            code / side.pow(2) % side,
            code / side % side,
            code % side,
        ];
        // Positions in increasing code order: every option (smaller in some heap) came before.
        let mut wins = false;
        'moves: for takes in 1..side.pow(4) {
            let t = [
                takes / side.pow(3),
                takes / side.pow(2) % side,
                takes / side % side,
                takes % side,
            ];
            let heaps = t.iter().filter(|&&x| x > 0).count();
            if heaps > k || (0..4).any(|i| t[i] > p[i]) {
                continue;
            }
            let q = [p[0] - t[0], p[1] - t[1], p[2] - t[2], p[3] - t[3]];
            if is_p[index(q)] {
                wins = true;
                break 'moves;
            }
        }
        is_p[code] = !wins;
        if !wins {
            all.push(p);
        }
    }
    all
}

#[test]
fn moore_nim_k_sweeps_its_criterion_divisible_by_k_plus_1() {
    // Moore (1910), "A generalization of the game called nim": in Nim_k a position is a
    // P-position exactly when, in every binary digit, the number of heaps with a 1 there is
    // divisible by k + 1.
    let report = sweep_json(&["rules/nim-k.sg", "--set", "k=1..=3", "--to", "5"]);
    assert_eq!(report["partial"], false);
    let formulas = report["formulas"].as_array().unwrap();
    assert_eq!(
        formulas.len(),
        1,
        "a position game's sweep has P-position formulas only"
    );
    assert_eq!(
        pieces(&formulas[0]),
        vec![(
            "always".to_string(),
            "in every binary digit, the number of coordinates with a 1 is divisible by k + 1"
                .to_string(),
            3
        )]
    );
    assert_eq!(formulas[0]["every_n"], false, "read on a box only");
    for instance in report["instances"].as_array().unwrap() {
        let k = instance["params"]["k"].as_u64().unwrap() as usize;
        let brute = moore_p_positions(k, 5);
        assert_eq!(instance["p_positions"], brute.len() as u64, "k = {k}");
        let moore = |p: &[usize; 4]| {
            (0..3).all(|bit| p.iter().filter(|&&h| h >> bit & 1 == 1).count() % (k + 1) == 0)
        };
        assert!(
            brute.iter().all(moore),
            "Moore's theorem on the brute force, k = {k}"
        );
    }
    let refused = fails(
        &[
            "sweep",
            "rules/nim-k.sg",
            "--set",
            "k=1..=2",
            "--plot",
            "x.svg",
        ],
        2,
    );
    assert!(refused.contains("is a position game"), "{refused}");
}
