//! The command-line contract, run as a user would.

use serde_json::Value;

use crate::support::{csv_values, fails, ok, root, sgscope};

#[test]
fn dawsons_kayles_period_json_is_proved() {
    let out = ok(&["period", "octal 0.07", "--json"]);
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["period"], 34);
    assert_eq!(report["preperiod"], 53);
    assert_eq!(report["saltus"], 0);
    assert_eq!(report["proved"], true);
    assert_eq!(report["max_value"], 9);
    // The theorem needs G(n + 34) = G(n) for 53 <= n < 2*53 + 34 + 2 = 142, i.e. values to 175.
    assert!(
        report["values_computed"].as_u64().unwrap() >= 176,
        "{report}"
    );
    assert!(
        report["reason"].as_str().unwrap().contains("theorem"),
        "{report}"
    );
}

#[test]
fn period_text_output_names_the_game() {
    let out = ok(&["period", "rules/kayles.sg"]);
    assert!(out.contains("Kayles"), "{out}");
    assert!(out.contains("period:     12"), "{out}");
    assert!(out.contains("proved:     yes"), "{out}");
}

#[test]
fn colouring_game_rules_give_the_dawsons_kayles_table() {
    let general = ok(&[
        "table",
        "rules/colouring-game.sg",
        "--to",
        "3000",
        "--format",
        "csv",
    ]);
    let octal = ok(&["table", "octal 0.07", "--to", "3000", "--format", "csv"]);
    assert_eq!(general, octal);
    assert_eq!(csv_values(&octal).len(), 3001);
}

#[test]
fn csv_header_and_rows() {
    let out = ok(&["table", "rules/bash.sg", "--to", "5", "--format", "csv"]);
    assert_eq!(out, "n,sg\n0,0\n1,1\n2,2\n3,3\n4,0\n5,1\n");
}

#[test]
fn set_overrides_a_parameter() {
    let out = ok(&[
        "table",
        "rules/bash.sg",
        "--set",
        "k=1",
        "--to",
        "5",
        "--format",
        "csv",
    ]);
    assert_eq!(csv_values(&out), [0, 1, 0, 1, 0, 1]);
}

#[test]
fn json_table_parses() {
    let out = ok(&[
        "table",
        "rules/subtraction-134.sg",
        "--to",
        "13",
        "--format",
        "json",
    ]);
    let table: Value = serde_json::from_str(&out).unwrap();
    let values: Vec<u64> = table["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(values, [0, 1, 0, 1, 2, 3, 2, 0, 1, 0, 1, 2, 3, 2]);
}

#[test]
fn text_table_marks_p_positions() {
    let out = ok(&["table", "rules/bash.sg", "--to", "9", "--color", "never"]);
    assert!(out.contains("P-position"), "{out}");
    let colored = ok(&["table", "rules/bash.sg", "--to", "9", "--color", "always"]);
    assert!(colored.contains("\u{1b}["), "{colored}");
}

#[test]
fn table_writes_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dawson.csv");
    let out = ok(&[
        "table",
        "octal 0.07",
        "--to",
        "1000",
        "--format",
        "csv",
        "-o",
        path.to_str().unwrap(),
    ]);
    assert!(out.is_empty(), "nothing on stdout with -o: {out}");
    let csv = std::fs::read_to_string(&path).unwrap();
    assert_eq!(csv_values(&csv).len(), 1001);
    // Only the target is left behind (the temporary file was renamed over it).
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn plots_png_and_svg() {
    let dir = tempfile::tempdir().unwrap();
    for ext in ["png", "svg"] {
        let path = dir.path().join(format!("kayles.{ext}"));
        ok(&[
            "plot",
            "rules/kayles.sg",
            "--to",
            "200",
            "-o",
            path.to_str().unwrap(),
        ]);
        let bytes = std::fs::read(&path).unwrap();
        assert!(bytes.len() > 1000, "{ext} has content");
        if ext == "png" {
            assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        } else {
            let text = String::from_utf8(bytes).unwrap();
            assert!(text.contains("<svg") && text.contains("Kayles"));
        }
    }
}

#[test]
fn plot_rejects_unknown_extensions() {
    let err = fails(&["plot", "rules/kayles.sg", "-o", "out/kayles.bmp"], 1);
    assert!(err.contains(".png") && err.contains(".svg"), "{err}");
}

#[test]
fn huge_requests_are_refused_with_an_estimate() {
    let err = fails(
        &[
            "table",
            "octal 0.07",
            "--to",
            "1000000000000000",
            "--format",
            "csv",
        ],
        1,
    );
    assert!(err.contains("needs about"), "{err}");
    assert!(err.contains("TiB") || err.contains("PiB"), "{err}");
}

#[test]
fn help_shows_examples_for_every_subcommand() {
    for sub in ["table", "period", "plot", "code", "check"] {
        let out = ok(&[sub, "--help"]);
        assert!(out.contains("Examples:"), "{sub} --help:\n{out}");
        assert!(
            out.contains(&format!("sgscope {sub}")),
            "{sub} --help:\n{out}"
        );
    }
    assert!(ok(&["--help"]).contains("Examples:"));
}

#[test]
fn check_reports_ok_and_the_code_in_use() {
    let out = ok(&["check", "rules/colouring-game.sg"]);
    assert!(out.contains("0.07"), "the lowered code is shown: {out}");
}

#[test]
fn missing_rules_file_is_a_clear_error() {
    let err = fails(&["table", "rules/no-such-game.sg"], 1);
    assert!(
        err.contains("rules/no-such-game.sg") && err.contains("no such file"),
        "{err}"
    );
}

#[test]
fn usage_errors_exit_2() {
    let out = sgscope(&["table"]);
    assert_eq!(out.status.code(), Some(2));
    let out = sgscope(&["table", "rules/bash.sg", "--set", "k"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("NAME=VALUE"));
    assert!(root().join("rules").is_dir());
}
