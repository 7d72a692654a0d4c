//! The value-rule seam (issue 9): a value rule is one file plus its registration, and the
//! engine evaluates it on every kind of game. The toy rule here, "P-positions only", lives in
//! this file and is registered without touching the library; the generic evaluator with normal
//! play is checked against the fast kernels on random games.

use proptest::prelude::*;
use sgscope::api;
use sgscope::engine::{self, multi, EngineError, EngineOptions};
use sgscope::rules::{self, Game, SourceFile};
use sgscope::value::{evaluate, Normal, Outcome, Recursion, Registry, Request, ValueRule, Valued};

use crate::support::{fails, heap_rules, octal_code, ok};

/// Outcome classes only: a position is a P-position iff none of its options is one. It cannot
/// value a sum (whether `a + b` is a P-position is not decided by the outcomes of `a` and `b`:
/// *1 + *1 is P, *1 + *2 is N, and all three are N-positions).
struct PPositionsOnly;

impl ValueRule for PPositionsOnly {
    /// `true` for a P-position.
    type Value = bool;

    fn name(&self) -> &'static str {
        "p-positions"
    }

    fn of_options(&self, options: &mut dyn Iterator<Item = bool>) -> bool {
        let mut none_is_p = true;
        for p in options {
            none_is_p &= !p;
        }
        none_is_p
    }

    fn of_sum(&self, _: &[bool]) -> Option<bool> {
        None
    }

    fn outcome(&self, p: bool) -> Outcome {
        if p {
            Outcome::P
        } else {
            Outcome::N
        }
    }
}

fn game(text: &str) -> Game {
    rules::load(SourceFile::new("<test>", text), &[]).unwrap()
}

#[test]
fn a_toy_value_rule_is_one_type_and_a_registration() {
    let registry = Registry::standard().register(Recursion(PPositionsOnly));
    assert_eq!(
        registry.names(),
        ["normal", "misere", "loopy", "outcomes", "p-positions"]
    );
    let rule = registry.get("p-positions").unwrap();
    // The subtraction game {1, 3, 4}: P-positions n ≡ 0, 2 (mod 7) (Ferguson, Game Theory,
    // part I, §1.4); and Wythoff's game, whose P-positions are (⌊kφ⌋, ⌊kφ²⌋) (Wythoff 1907).
    let subtraction = rule
        .evaluate(&game("subtraction {1, 3, 4}"), &[40])
        .unwrap();
    for n in 0..=40u64 {
        let expected = if n % 7 == 0 || n % 7 == 2 {
            Outcome::P
        } else {
            Outcome::N
        };
        assert_eq!(subtraction.get(&[n]).unwrap().1, expected, "n = {n}");
    }
    let wythoff = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/wythoff.sg"),
    )
    .unwrap();
    let table = rule.evaluate(&game(&wythoff), &[20, 20]).unwrap();
    let golden = (1.0 + 5f64.sqrt()) / 2.0;
    for x in 0..=20u64 {
        for y in 0..=20u64 {
            let k = x.max(y) - x.min(y);
            let p = x.min(y) == (k as f64 * golden).floor() as u64;
            assert_eq!(table.get(&[x, y]).unwrap().0, p.to_string(), "({x}, {y})");
        }
    }
    // Kayles splits a row in two: outcomes alone cannot value that.
    let error = rule.evaluate(&game("octal 0.77"), &[10]).unwrap_err();
    assert!(
        matches!(
            error,
            EngineError::NotValued {
                rule: "p-positions"
            }
        ),
        "{error}"
    );
}

#[test]
fn normal_play_through_the_generic_evaluator_is_the_normal_kernel_on_the_rules_files() {
    let normal = Registry::standard();
    let normal = normal.get("normal").unwrap();
    for file in [
        "bash",
        "nim",
        "kayles",
        "strip-game",
        "divisor-game",
        "abc278g",
    ] {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("rules/{file}.sg"));
        let g = game(&std::fs::read_to_string(path).unwrap());
        let fast = engine::compute(&g, 60, &EngineOptions::default())
            .unwrap()
            .to_vec();
        let slow = evaluate::evaluate(&Normal, &g, &[60]).unwrap();
        assert_eq!(slow, fast, "{file}");
        let cells = normal.evaluate(&g, &[60]).unwrap();
        let texts: Vec<String> = fast.iter().map(u32::to_string).collect();
        let shown: Vec<String> = cells.cells().iter().map(|c| c.0.clone()).collect();
        assert_eq!(shown, texts, "{file}");
    }
    for file in ["wythoff", "knight", "staircase-nim", "fibonacci-nim"] {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("rules/{file}.sg"));
        let g = game(&std::fs::read_to_string(path).unwrap());
        let extents = vec![6; g.coordinates().len()];
        let fast = multi::compute_box(&g, &extents).unwrap();
        let slow = evaluate::evaluate(&Normal, &g, &extents).unwrap();
        assert_eq!(slow, fast.values(), "{file}");
    }
}

#[test]
fn moves_that_cycle_are_refused_by_the_recursion() {
    let g = game(
        "position (x, y)\nmove a: if x > 0 => (x - 1, y + 1)\nmove b: if y > 0 => (x + 1, y - 1)\n",
    );
    let error = evaluate::evaluate(&Normal, &g, &[2, 2]).unwrap_err();
    assert!(matches!(error, EngineError::Cycle { .. }), "{error}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn the_generic_evaluator_agrees_with_the_kernels(rules in prop_oneof![octal_code(4), heap_rules()]) {
        let g = game(&rules);
        let fast = engine::compute(&g, 40, &EngineOptions::default()).unwrap().to_vec();
        let slow = evaluate::evaluate(&Normal, &g, &[40]).unwrap();
        prop_assert_eq!(slow, fast, "{}", rules);
    }
}

/// The outcome classes of every position of `game` under `rule`, through the facade, as a string
/// of P, N and D.
fn outcomes(registry: &Registry, game: &Game, rule: &'static str, extents: &[u64]) -> String {
    let valued = api::value(registry, game, rule, &Request::new(extents)).unwrap();
    valued
        .cells(rule)
        .cells()
        .iter()
        .map(|(_, outcome)| outcome.to_string())
        .collect()
}

#[test]
fn the_facade_values_every_kind_of_game_under_every_built_in_rule() {
    let registry = Registry::standard();
    // Subtraction {1, 3, 4}: P-positions n ≡ 0, 2 (mod 7) (Ferguson, Game Theory, I §1.4).
    let subtraction = game("subtraction {1, 3, 4}");
    let expected: String = (0..=20)
        .map(|n| if n % 7 == 0 || n % 7 == 2 { 'P' } else { 'N' })
        .collect();
    for rule in ["normal", "loopy", "outcomes"] {
        assert_eq!(
            outcomes(&registry, &subtraction, rule, &[20]),
            expected,
            "{rule}"
        );
    }
    // Misère Nim heaps: a single heap n is a misère P-position iff n = 1 (Bouton 1901).
    let nim = game("move k in 1..=n => n - k");
    assert_eq!(outcomes(&registry, &nim, "misere", &[5]), "NPNNNN");
    // Kayles splits a row: the outcome rule reads normal play's values (P iff G = 0), and the
    // first P-positions of Kayles are 0 and 4 (Kayles' values 0 1 2 3 1 4 3 2 1 4 2 6 4 1 2 7
    // 1 4 3 2 1 4 6 7 4 1 2 8 5 4 7 2 1 8 6 7 4 1 2 3 1 4 7 2 1 8 2 7 4 1 2 8 1 4 7 2 1 4 2 7 4
    // 1 2 8 1 4 7 2 1 8 2 7 4 …, OEIS A002186, have no other zero).
    let kayles = game("octal 0.77");
    let values = api::value(&registry, &kayles, "normal", &Request::new(&[30])).unwrap();
    assert!(matches!(values, Valued::Normal(_)));
    let expected: String = (0..=30).map(|n| if n == 0 { 'P' } else { 'N' }).collect();
    assert_eq!(outcomes(&registry, &kayles, "outcomes", &[30]), expected);
    // A position game that cycles: x → x + 1 → x for x < 2 keeps going forever, 2 ends.
    let cycle =
        game("position (x)\nmove up: if x < 2 => (x + 1)\nmove down: if x == 1 => (x - 1)\n");
    let notices = std::cell::RefCell::new(Vec::new());
    let listen = |n: &sgscope::value::Notice| notices.borrow_mut().push(n.clone());
    let request = Request {
        notices: Some(&listen),
        ..Request::new(&[2])
    };
    let valued = api::value(&registry, &cycle, "normal", &request).unwrap();
    assert!(matches!(valued, Valued::Loopy(_)), "valued as a loopy game");
    assert_eq!(notices.borrow().len(), 1, "the fallback is told");
    // 2 has no move (P); 1 moves to 2 (N); 0 moves only to 1, an N-position: P.
    assert_eq!(outcomes(&registry, &cycle, "outcomes", &[2]), "PNP");
    let strict = Request {
        loopy_fallback: false,
        ..Request::new(&[2])
    };
    assert!(api::value(&registry, &cycle, "normal", &strict).is_err());
    // An unknown rule is a typed error naming the rules there are.
    match api::value(&registry, &nim, "bogus", &Request::new(&[3])) {
        Err(api::ApiError::UnknownRule { name, known }) => {
            assert_eq!(name, "bogus");
            assert_eq!(known, ["normal", "misere", "loopy", "outcomes"]);
        }
        other => panic!("{:?}", other.map(|v| v.kind())),
    }
}

#[test]
fn the_outcome_rule_is_reachable_from_the_command_line() {
    // Subtraction {1, 3, 4} (Ferguson, as above), the whole CSV.
    let csv = ok(&[
        "table",
        "subtraction {1, 3, 4}",
        "--to",
        "9",
        "--rule",
        "outcomes",
        "--format",
        "csv",
    ]);
    assert_eq!(
        csv,
        "n,outcome\n0,P\n1,N\n2,P\n3,N\n4,N\n5,N\n6,N\n7,P\n8,N\n9,P\n"
    );
    let text = ok(&[
        "table",
        "subtraction {1, 3, 4}",
        "--to",
        "3",
        "--rule",
        "outcomes",
    ]);
    assert_eq!(
        text,
        "n  outcome\n0  P\n1  N\n2  P\n3  N\n2 P (the player to move loses), 2 N (wins), 0 D (draw: neither can force a win) of 4 positions (outcomes rule)\n"
    );
    let json = ok(&[
        "table",
        "subtraction {1, 3, 4}",
        "--to",
        "2",
        "--rule",
        "outcomes",
        "--format",
        "json",
    ]);
    assert_eq!(
        json,
        "{\"game\":\"subtraction {1, 3, 4}\",\"rule\":\"outcomes\",\"coordinates\":[\"n\"],\"extents\":[2],\"positions\":[{\"n\":0,\"outcome\":\"P\"},{\"n\":1,\"outcome\":\"N\"},{\"n\":2,\"outcome\":\"P\"}],\"counts\":{\"D\":0,\"N\":1,\"P\":2}}\n"
    );
    // A graph with a draw: a ⇄ b forever, c → d and d ends (a node with no move loses).
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("draw.sg");
    std::fs::write(&path, "edge a b\nedge b a\nedge c d\n").unwrap();
    let csv = ok(&[
        "table",
        path.to_str().unwrap(),
        "--rule",
        "outcomes",
        "--format",
        "csv",
    ]);
    assert_eq!(csv, "node,outcome\na,D\nb,D\nc,N\nd,P\n");
}

#[test]
fn a_rule_the_command_cannot_use_or_show_is_refused_whole() {
    let err = fails(&["table", "octal 0.77", "--rule", "outcome"], 2);
    assert_eq!(
        err,
        "error: unknown value rule `outcome` (did you mean `outcomes`?); the rules are:
  normal    normal play: Sprague–Grundy values (the last player to move wins)
  misere    misère play: misère values G⁻ and genera (the last player to move loses)
  loopy     games that can cycle: outcome P, N or D, remoteness, generalized Sprague–Grundy value
  outcomes  outcome classes only: P (the player to move loses), N (wins) or D (draw), no values
"
    );
    let err = fails(
        &[
            "table",
            "rules/wythoff.sg",
            "--to",
            "3",
            "--rule",
            "outcomes",
            "--format",
            "matrix",
        ],
        2,
    );
    assert_eq!(
        err,
        "error: --format matrix is a grid of normal values of a position game's box; a value rule's table is one row per position: ask for text, csv or json\n"
    );
}

#[test]
fn a_rule_table_past_the_memory_is_refused_before_any_work() {
    // 10^12 positions of texts (64 bytes each) fit on no machine this runs on.
    let err = fails(
        &[
            "table",
            "subtraction {1, 3, 4}",
            "--to",
            "1000000000000",
            "--rule",
            "outcomes",
        ],
        2,
    );
    assert!(
        err.starts_with("error: a table up to n = 1000000000000 needs about 58.2 TiB but only "),
        "{err}"
    );
    assert!(
        err.ends_with(" is available\n  help: ask for a smaller --to/--max\n"),
        "{err}"
    );
}
