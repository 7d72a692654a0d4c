//! `solve --misere` (issue 10): misère Nim against Bouton's rule, the tame rule against the
//! full search on random octal games, a wild game (Kayles) decided by the search, position
//! games, the limit on sums, and `--json` in both conventions.

use std::collections::{BTreeSet, HashMap};

use proptest::prelude::*;
use serde_json::Value;
use sgscope::engine::{EngineError, Hint};
use sgscope::export::solve::{write_json, write_text};
use sgscope::rules::{self, Game, SourceFile};
use sgscope::solve::{self, solve_misere, Method, MisereOptions, SolveError, SolveReport};
use sgscope::value::{Notice, Outcome};

use crate::support::{assert_has, fails, ok, sgscope};

const NIM: &str = "move take: x in 1..=n => n - x";

fn game(text: &str) -> Game {
    rules::load(SourceFile::new("t.sg", text), &[]).unwrap()
}

fn heaps(sizes: &[u64]) -> Vec<Vec<u64>> {
    sizes.iter().map(|&h| vec![h]).collect()
}

fn misere(game: &Game, components: &[Vec<u64>]) -> SolveReport {
    solve_misere(game, components, MisereOptions::default()).unwrap()
}

fn forced(game: &Game, components: &[Vec<u64>]) -> SolveReport {
    let options = MisereOptions {
        force_search: true,
        ..Default::default()
    };
    solve_misere(game, components, options).unwrap()
}

use sgscope::oracle::misere::bouton_misere_p as bouton_loses;

/// The winning moves of misère Nim by Bouton's rule: (component index, heap left).
fn bouton_winning(sizes: &[u64]) -> BTreeSet<(usize, u64)> {
    let mut winning = BTreeSet::new();
    for (i, &h) in sizes.iter().enumerate() {
        for left in 0..h {
            let mut after = sizes.to_vec();
            after[i] = left;
            if bouton_loses(&after) {
                winning.insert((i, left));
            }
        }
    }
    winning
}

/// Every multiset of `count` heaps of `0..=top`.
fn multisets(count: usize, top: u64) -> Vec<Vec<u64>> {
    if count == 0 {
        return vec![vec![]];
    }
    let mut all = Vec::new();
    for rest in multisets(count - 1, top) {
        let from = rest.last().copied().unwrap_or(0);
        for h in from..=top {
            let mut next = rest.clone();
            next.push(h);
            all.push(next);
        }
    }
    all
}

#[test]
fn misere_nim_follows_boutons_rule_on_every_sum_of_up_to_four_heaps_of_up_to_seven() {
    let nim = game(NIM);
    let mut checked = 0;
    for count in 1..=4 {
        for sizes in multisets(count, 7) {
            let report = misere(&nim, &heaps(&sizes));
            let loses = bouton_loses(&sizes);
            assert_eq!(report.outcome == Outcome::P, loses, "{sizes:?}");
            assert_eq!(report.value == Some(0), loses, "{sizes:?}");
            assert!(
                matches!(report.method, Method::TameRule { .. }),
                "{sizes:?}"
            );
            let moves: BTreeSet<(usize, u64)> = report
                .winning_moves
                .iter()
                .map(|m| (m.component, m.result.first().map_or(0, |r| r[0])))
                .collect();
            assert_eq!(moves.len(), report.winning_moves.len(), "{sizes:?}");
            assert_eq!(moves, bouton_winning(&sizes), "{sizes:?}");
            checked += 1;
        }
    }
    assert_eq!(checked, 8 + 36 + 120 + 330);
}

#[test]
fn cli_misere_nim() {
    let p = ok(&["solve", NIM, "1", "1", "1", "--misere"]);
    assert_has(
        &p,
        &[
            "position: 1 + 1 + 1\n",
            "by the tame rule: every component is tame (Conway, ONAG ch. 12)",
            "G⁻ = 0 (genus 1^{031}): the first player loses",
        ],
    );
    assert!(!p.contains("winning moves"), "{p}");

    let n = ok(&["solve", NIM, "2", "2", "3", "--misere"]);
    assert_has(&n, &["G⁻ = 3", "the first player wins"]);
    let sizes = [2, 2, 3];
    let expected: BTreeSet<String> = bouton_winning(&sizes)
        .into_iter()
        .map(|(i, left)| {
            let left = if left == 0 {
                "nothing".to_string()
            } else {
                left.to_string()
            };
            format!("component {}: {} → {left}", i + 1, sizes[i])
        })
        .collect();
    let listed: BTreeSet<String> = n
        .lines()
        .filter_map(|l| l.trim().split("   by ").next())
        .filter(|l| l.starts_with("component "))
        .map(str::to_string)
        .collect();
    assert_eq!(listed, expected, "{n}");
    assert_has(&n, &[&format!("winning moves ({}):", expected.len())]);
}

#[test]
fn a_play_misere_file_is_misere_by_default_and_normal_overrides_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("misere-nim.sg");
    std::fs::write(&path, format!("play misere\n{NIM}\n")).unwrap();
    let path = path.to_str().unwrap();
    let by_file = ok(&["solve", path, "1", "1", "1"]);
    assert_has(&by_file, &["misère play", "the first player loses"]);
    let out = sgscope(&["solve", path, "1", "1", "1", "--normal"]);
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_has(&stdout, &["G = 1: the first player wins"]);
    assert_has(
        &String::from_utf8(out.stderr).unwrap(),
        &["--normal overrides `play misere`"],
    );
}

#[test]
fn kayles_is_wild_and_decided_by_the_search() {
    // Kayles (octal 0.77) is wild from heap 5 (Winning Ways ch. 13): a sum with heaps of 5 is
    // searched, and the search agrees with the direct recursion over its positions.
    let text = ok(&["solve", "rules/kayles.sg", "5", "5", "3", "--misere"]);
    assert_has(
        &text,
        &[
            "position: 5 + 5 + 3\n",
            "misère play, by the search over sums: components 1, 2 are wild; ",
            "G⁻ = ",
        ],
    );
    let kayles = game("octal 0.77");
    let report = misere(&kayles, &heaps(&[5, 5, 3]));
    assert!(matches!(report.method, Method::SumSearch { .. }));
    let direct = misere_by_definition(&kayles, &[5, 5, 3], &mut HashMap::new());
    assert_eq!(report.value, Some(direct));
    for m in &report.winning_moves {
        let mut after = vec![5, 5, 3];
        after.remove(m.component);
        after.extend(m.result.iter().map(|r| r[0]));
        assert_eq!(
            misere_by_definition(&kayles, &after, &mut HashMap::new()),
            0
        );
    }
    // Heap 4 and below are tame: a sum of them goes by the tame rule.
    let tame = misere(&kayles, &heaps(&[4, 4, 2, 1]));
    assert!(
        matches!(tame.method, Method::TameRule { .. }),
        "{:?}",
        tame.method
    );
    assert_eq!(
        tame.value,
        Some(misere_by_definition(
            &kayles,
            &[4, 4, 2, 1],
            &mut HashMap::new()
        ))
    );
}

/// `G⁻` of a sum of heaps, straight from the definition: the heaps as one-coordinate tuples
/// of [`tuples_by_definition`].
fn misere_by_definition(game: &Game, sizes: &[u64], memo: &mut HashMap<Vec<Vec<u64>>, u32>) -> u32 {
    let parts: Vec<Vec<u64>> = sizes.iter().filter(|&&h| h > 0).map(|&h| vec![h]).collect();
    tuples_by_definition(game, &parts, memo)
}

#[test]
fn position_games_are_solved_in_misere_play() {
    let wythoff =
        game(&std::fs::read_to_string(crate::support::root().join("rules/wythoff.sg")).unwrap());
    // Every sum of two positions of 0..=3 × 0..=3 against the definition (the options of a sum
    // of tuples move one of them).
    let singles: Vec<Vec<u64>> = (0..=3)
        .flat_map(|x| (0..=3).map(move |y| vec![x, y]))
        .collect();
    let mut memo = HashMap::new();
    for (i, a) in singles.iter().enumerate() {
        for b in &singles[i..] {
            let report = misere(&wythoff, &[a.clone(), b.clone()]);
            let direct = tuples_by_definition(&wythoff, &[a.clone(), b.clone()], &mut memo);
            assert_eq!(report.value, Some(direct), "{a:?} + {b:?}");
            for m in &report.winning_moves {
                let mut after = vec![a.clone(), b.clone()];
                after.remove(m.component);
                after.extend(m.result.iter().cloned());
                assert_eq!(tuples_by_definition(&wythoff, &after, &mut memo), 0);
            }
        }
    }
    let text = ok(&["solve", "rules/wythoff.sg", "(3, 4) + (5, 2)", "--misere"]);
    assert_has(
        &text,
        &["position: (3, 4) + (5, 2)\n", "misère play, by the "],
    );
}

/// `G⁻` of a sum of tuples straight from the definition, memoised on the sorted tuples (a
/// tuple with no move is left out: it is the empty game).
fn tuples_by_definition(
    game: &Game,
    parts: &[Vec<u64>],
    memo: &mut HashMap<Vec<Vec<u64>>, u32>,
) -> u32 {
    let mut key: Vec<Vec<u64>> = parts
        .iter()
        .filter(|p| !solve::moves::moves_of(game, 0, p).unwrap().is_empty())
        .cloned()
        .collect();
    key.sort();
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut seen = BTreeSet::new();
    for (i, part) in key.iter().enumerate() {
        for m in solve::moves::moves_of(game, i, part).unwrap() {
            let mut after = key.clone();
            after.remove(i);
            after.extend(m.result.iter().cloned());
            seen.insert(tuples_by_definition(game, &after, memo));
        }
    }
    // No move at all (the empty sum, or heaps without moves): the player to move wins.
    let value = if seen.is_empty() {
        1
    } else {
        (0..).find(|v| !seen.contains(v)).unwrap()
    };
    memo.insert(key, value);
    value
}

#[test]
fn too_many_sums_stops_with_the_hint() {
    let kayles = game("octal 0.77");
    let options = MisereOptions {
        max_sums: Some(50),
        ..Default::default()
    };
    let err = solve_misere(&kayles, &heaps(&[9, 9, 9]), options).unwrap_err();
    assert!(
        matches!(
            err,
            SolveError::Engine(EngineError::TooManySums { limit: 50, .. })
        ),
        "{err}"
    );
    assert_eq!(err.hint(), Some(Hint::SmallerSums));
    // The up-front note, before the search over the sum (once its components are valued):
    // the bound on the sums needed is past the limit.
    let bound = solve::misere::sums_bound(&kayles, &heaps(&[9, 9, 9])).unwrap();
    let noted = [100, 200, 400, 800, 1600, 3200].into_iter().find(|&limit| {
        let notes = std::cell::RefCell::new(Vec::new());
        let note = |notice: &Notice| notes.borrow_mut().push(notice.clone());
        let options = MisereOptions {
            max_sums: Some(limit),
            notices: Some(&note),
            ..Default::default()
        };
        let _ = solve_misere(&kayles, &heaps(&[9, 9, 9]), options);
        let notes = notes.into_inner();
        assert!(notes.len() <= 1, "{notes:?}");
        notes.first().is_some_and(|n| {
            assert_eq!(n, &Notice::ManySums { bound, limit });
            true
        })
    });
    assert!(noted.is_some(), "no note below the bound {bound}");
    // A heap whose smaller heaps' options alone are past the limit stops while listing them
    // (`sgscope solve rules/kayles.sg 20000 --misere` stops so in about 4 s).
    let options = MisereOptions {
        max_sums: Some(100_000),
        ..Default::default()
    };
    let started = std::time::Instant::now();
    let err = solve_misere(&kayles, &heaps(&[2000]), options).unwrap_err();
    assert!(
        matches!(
            err,
            SolveError::Engine(EngineError::TooManySums { limit: 100_000, .. })
        ),
        "{err}"
    );
    assert!(started.elapsed().as_secs() < 10);
    // A code's heap too large to list the moves of is refused before any work.
    let err = fails(&["solve", "rules/kayles.sg", "100000", "--misere"], 2);
    assert!(err.contains("would take too long"), "{err}");
}

fn json_of(report: &SolveReport) -> Value {
    let mut out = Vec::new();
    write_json(&mut out, report).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.ends_with('\n') && text.lines().count() == 1, "{text}");
    serde_json::from_str(&text).unwrap()
}

/// The documented fields of `solve --json` (src/export/solve.rs), checked against the report.
fn check_json(json: &Value, report: &SolveReport) {
    let play = if report.genus.is_some() {
        "misere"
    } else {
        "normal"
    };
    assert_eq!(json["play"], play);
    assert_eq!(json["outcome"], report.outcome.to_string());
    assert_eq!(json["value"], serde_json::json!(report.value));
    assert!(json["method"].is_string());
    match &report.genus {
        Some(genus) => assert_eq!(json["genus"], genus.to_string()),
        None => assert!(json.get("genus").is_none()),
    }
    let moves = json["winning_moves"].as_array().unwrap();
    assert_eq!(moves.len(), report.winning_moves.len());
    for m in moves {
        let component = m["component"].as_u64().unwrap() as usize;
        assert!((1..=report.components.len()).contains(&component), "{m}");
        assert!(m["rule"].is_string() || m["rule"].is_null(), "{m}");
        assert!(m["by"].is_string(), "{m}");
        assert!(m["binders"].is_object(), "{m}");
        assert!(m["result"].is_array(), "{m}");
        let matching = report.winning_moves.iter().any(|w| {
            w.component + 1 == component
                && m["binders"]
                    .as_object()
                    .unwrap()
                    .iter()
                    .all(|(n, v)| w.binders.iter().any(|(bn, bv)| bn == n && v == bv))
        });
        assert!(matching, "{m}");
    }
}

#[test]
fn json_in_both_conventions() {
    let normal = ok(&["solve", "rules/nim.sg", "3", "5", "7", "--json"]);
    let json: Value = serde_json::from_str(&normal).unwrap();
    assert_eq!(json["play"], "normal");
    assert_eq!(json["outcome"], "N");
    assert_eq!(json["value"], 1);
    assert_eq!(json["method"], "exact SG values of the heaps 0..=7");
    assert_eq!(json["position"], serde_json::json!([3, 5, 7]));
    assert_eq!(
        json["winning_moves"][0],
        serde_json::json!({"component": 1, "rule": "take", "by": "`take`", "binders": {"x": 1}, "result": [2]})
    );

    let misere = ok(&[
        "solve",
        "rules/kayles.sg",
        "5",
        "5",
        "3",
        "--misere",
        "--json",
    ]);
    let json: Value = serde_json::from_str(&misere).unwrap();
    assert_eq!(json["play"], "misere");
    assert!(json["genus"].as_str().unwrap().contains("^{"), "{json}");
    assert!(json["method"]
        .as_str()
        .unwrap()
        .starts_with("by the search over sums"));
    let report = solve_misere(&game("octal 0.77"), &heaps(&[5, 5, 3]), Default::default()).unwrap();
    check_json(&json, &report);

    let p = ok(&["solve", NIM, "1", "1", "1", "--misere", "--json"]);
    let json: Value = serde_json::from_str(&p).unwrap();
    assert_eq!(json["outcome"], "P");
    assert_eq!(json["value"], 0);
    assert_eq!(json["genus"], "1^{031}");
    assert_eq!(json["winning_moves"], serde_json::json!([]));

    let tuples = ok(&["solve", "rules/wythoff.sg", "(3, 4) + (5, 2)", "--json"]);
    let json: Value = serde_json::from_str(&tuples).unwrap();
    assert_eq!(json["position"], serde_json::json!([[3, 4], [5, 2]]));
    assert_eq!(
        json["winning_moves"][0]["result"],
        serde_json::json!([[0, 4]])
    );
}

/// `octal 0.d1d2`: random digits (at least one non-zero).
fn octal_code() -> impl Strategy<Value = String> {
    (0u32..8, 0u32..8, 0u32..8)
        .prop_filter("a move", |(a, b, c)| a + b + c > 0)
        .prop_map(|(a, b, c)| {
            if c == 0 {
                format!("octal 0.{a}{b}")
            } else {
                format!("octal 0.{a}{b}{c}")
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn the_tame_rule_agrees_with_the_full_search(
        code in octal_code(),
        sizes in prop::collection::vec(0u64..9, 1..4),
    ) {
        let g = game(&code);
        let components = heaps(&sizes);
        let quick = misere(&g, &components);
        let full = forced(&g, &components);
        let searched = matches!(full.method, Method::SumSearch { .. });
        prop_assert!(searched);
        prop_assert_eq!(&quick.genus, &full.genus, "{} {:?}", code, sizes);
        prop_assert_eq!(quick.outcome, full.outcome);
        prop_assert_eq!(&quick.winning_moves, &full.winning_moves);
        // And both against the definition.
        let direct = misere_by_definition(&g, &sizes, &mut HashMap::new());
        prop_assert_eq!(quick.value, Some(direct), "{} {:?}", code, sizes);
        check_json(&json_of(&quick), &quick);
        let normal = solve::solve(&g, &components).unwrap();
        check_json(&json_of(&normal), &normal);
        let mut text = Vec::new();
        write_text(&mut text, &quick).unwrap();
        prop_assert!(String::from_utf8(text).unwrap().contains("misère play, by the "));
    }
}

#[test]
fn classic_games_agree_with_the_full_search_and_the_definition() {
    // Whatever the rule deciding them (tame or search), the answer is the forced search's and
    // the definition's: Dawson's Kayles, Grundy's game (general rules), Kayles.
    for (file, sizes) in [
        ("rules/dawsons-kayles.sg", vec![9, 9, 4]),
        ("rules/grundys-game.sg", vec![10, 10, 7]),
        ("rules/kayles.sg", vec![6, 5, 2]),
        ("rules/treblecross.sg", vec![8, 3]),
    ] {
        let text = std::fs::read_to_string(crate::support::root().join(file)).unwrap();
        let g = game(&text);
        let quick = misere(&g, &heaps(&sizes));
        let full = forced(&g, &heaps(&sizes));
        assert_eq!(quick.genus, full.genus, "{file} {sizes:?}");
        assert_eq!(quick.winning_moves, full.winning_moves, "{file} {sizes:?}");
        let direct = misere_by_definition(&g, &sizes, &mut HashMap::new());
        assert_eq!(quick.value, Some(direct), "{file} {sizes:?}");
    }
}

fn by_quotient(game: &Game, components: &[Vec<u64>]) -> SolveReport {
    solve_misere(
        game,
        components,
        MisereOptions {
            quotient_from: Some(0),
            ..Default::default()
        },
    )
    .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// A sum decided by the misère quotient (Plambeck–Siegel) has the outcome and the winning
    /// moves of the exact search, on random octal games and sums of up to four heaps.
    #[test]
    fn the_quotient_agrees_with_the_search(
        code in crate::support::octal_code(3),
        sizes in proptest::collection::vec(0u64..10, 1..5),
    ) {
        let g = game(&code);
        let quick = by_quotient(&g, &heaps(&sizes));
        let full = forced(&g, &heaps(&sizes));
        prop_assert_eq!(quick.outcome, full.outcome, "{} {:?}", code, sizes);
        prop_assert_eq!(&quick.winning_moves, &full.winning_moves, "{} {:?}", code, sizes);
        if let Method::Quotient { max_heap, .. } = quick.method {
            prop_assert_eq!(max_heap, *sizes.iter().max().unwrap());
            prop_assert_eq!(quick.value, None);
        }
    }
}

#[test]
fn a_large_sum_of_a_wild_game_goes_by_its_quotient() {
    // 0.75: its misère quotient has order 8 (Plambeck, "Taming the wild in impartial
    // combinatorial games", Integers 5 (2005) G5, the first example); the sum of six heaps of
    // 30 is past the threshold of the search.
    let g = game("octal 0.75");
    let report = misere(&g, &heaps(&[30, 30, 30, 30, 30, 30]));
    let Method::Quotient {
        order, max_heap, ..
    } = report.method
    else {
        panic!("{:?}", report.method)
    };
    assert_eq!((order, max_heap), (8, 30));
    let out = ok(&[
        "solve",
        "octal 0.75",
        "30",
        "30",
        "30",
        "30",
        "30",
        "30",
        "--misere",
    ]);
    assert_has(&out, &["by the misère quotient of the heaps ≤ 30"]);
    let json: Value = serde_json::from_str(&ok(&[
        "solve",
        "octal 0.75",
        "30",
        "29",
        "--misere",
        "--json",
    ]))
    .unwrap();
    assert_eq!(json["value"], Value::Null);
    assert!(json["method"].as_str().unwrap().contains("misère quotient"));
}
