//! Every file in rules/ passes `check`, and its period agrees with the literature.

use serde_json::Value;

use crate::support::{ok, rel, rules_files};

#[test]
fn every_rules_file_passes_check() {
    let files = rules_files();
    assert!(files.len() >= 12, "rules/ has the contract's files");
    for file in &files {
        let out = ok(&["check", &rel(file)]);
        assert!(out.starts_with("ok: "), "{out}");
    }
}

#[test]
fn every_rules_file_has_a_comment_saying_what_game_it_is() {
    for file in rules_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(
            text.starts_with("# "),
            "{} starts with a comment",
            file.display()
        );
    }
}

fn period_json(file: &str, extra: &[&str]) -> Value {
    let mut args = vec!["period", file, "--json"];
    args.extend_from_slice(extra);
    serde_json::from_str(&ok(&args)).expect("period --json prints JSON")
}

/// (file, preperiod, period, saltus, proved), from the literature cited in each file's comment.
const PERIODS: &[(&str, u64, u64, i64, bool)] = &[
    // G(n) = n mod 4.
    ("rules/bash.sg", 0, 4, 0, true),
    // Ferguson: 0 1 0 1 2 3 2 repeating.
    ("rules/subtraction-134.sg", 0, 7, 0, true),
    // Guy & Smith 1956: period 12, last exceptional value at n = 70.
    ("rules/kayles.sg", 71, 12, 0, true),
    // Period 34; the last exception is G(52) = 2 (G(86) = 9), so the period holds from 53.
    ("rules/dawsons-kayles.sg", 53, 34, 0, true),
    ("rules/colouring-game.sg", 53, 34, 0, true),
    // G_0.137(n) = G_0.07(n + 1).
    ("rules/dawsons-chess.sg", 52, 34, 0, true),
    // Bouton: G(n) = n.
    ("rules/nim.sg", 0, 1, 1, false),
    // Lasker's Nim (Winning Ways ch. 4): G(n + 4) = G(n) + 4 from n = 1.
    ("rules/lasker-nim.sg", 1, 4, 4, false),
];

#[test]
fn periods_agree_with_the_literature() {
    for &(file, preperiod, period, saltus, proved) in PERIODS {
        let report = period_json(file, &[]);
        assert_eq!(report["preperiod"], preperiod, "{file}: {report}");
        assert_eq!(report["period"], period, "{file}: {report}");
        assert_eq!(report["saltus"], saltus, "{file}: {report}");
        assert_eq!(report["proved"], proved, "{file}: {report}");
    }
}

#[test]
fn bash_period_follows_its_parameter() {
    let report = period_json("rules/bash.sg", &["--set", "k=6"]);
    assert_eq!(report["period"], 7);
    assert_eq!(report["proved"], true);
}

#[test]
fn grundys_game_and_treblecross_have_no_known_period() {
    // Both are open problems (Winning Ways ch. 4; Grundy's game computed to 2^35 without a period).
    for file in ["rules/grundys-game.sg", "rules/treblecross.sg"] {
        let report = period_json(file, &["--max", "3000"]);
        assert_eq!(report["period"], Value::Null, "{file}: {report}");
        assert_eq!(report["proved"], false);
        assert_eq!(report["values_computed"], 3001);
    }
}

#[test]
fn all_but_game_is_arithmetic_periodic() {
    // Siegel (2006): every all-but subtraction game is arithmetic-periodic.
    let report = period_json("rules/all-but.sg", &["--max", "5000"]);
    assert!(report["period"].is_u64(), "{report}");
    assert!(report["saltus"].as_i64().unwrap() > 0, "{report}");
}

#[test]
fn large_published_octal_periods_are_proved() {
    // Gangolli & Plambeck (1989): 0.16 has preperiod 105351 and period 149459; 0.56 has
    // preperiod 326640 and period 144. The search to 700000 must not settle for a chance short
    // period near the end of the table (a regression: 0.16 once reported "period 3").
    for (game, preperiod, period) in [
        ("octal 0.16", 105_351, 149_459),
        ("octal 0.56", 326_640, 144),
    ] {
        let report = period_json(game, &["--max", "700000"]);
        assert_eq!(report["preperiod"], preperiod, "{game}: {report}");
        assert_eq!(report["period"], period, "{game}: {report}");
        assert_eq!(report["proved"], true, "{game}: {report}");
    }
}
