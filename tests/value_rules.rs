//! The value-rule seam (issue 9): a value rule is one file plus its registration, and the
//! engine evaluates it on every kind of game. The toy rule here, "P-positions only", lives in
//! this file and is registered without touching the library; the generic evaluator with normal
//! play is checked against the fast kernels on random games.

use proptest::prelude::*;
use sgscope::engine::{self, multi, EngineError, EngineOptions};
use sgscope::rules::{self, Game, SourceFile};
use sgscope::value::{evaluate, Normal, Outcome, Registry, ValueRule};

use crate::support::{heap_rules, octal_code};

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
    let registry = Registry::standard().register(PPositionsOnly);
    assert_eq!(
        registry.names(),
        ["normal", "misere", "loopy", "p-positions"]
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
