//! The command-line contract, run as a user would.

use serde_json::Value;

use crate::support::{
    assert_has, assert_render, csv_values, fails, ok, render_mismatch, root, sgscope,
};

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
    assert_has(&out, &["Kayles", "period:     12", "proved:     yes"]);
}

#[test]
fn period_of_lowered_rules_says_the_proof_rests_on_lowering() {
    // The colouring game is Dawson's Kayles 0.07 (period 34 from n = 53, Winning Ways ch. 4)
    // written as a rule: remove 2 and split the rest every way, decided at every n by the
    // rule's thresholds.
    let text = ok(&["period", "rules/colouring-game.sg"]);
    assert!(text.contains("proved:     yes"), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    let reason = lines.iter().position(|l| l.starts_with("reason:")).unwrap();
    assert!(
        lines[reason + 1].starts_with(
            "lowering:   the values and the proof are those of code 0.07: the rules are this code \
             at every n, proved when loading from their thresholds"
        ),
        "{text}"
    );
    let report: Value =
        serde_json::from_str(&ok(&["period", "rules/colouring-game.sg", "--json"])).unwrap();
    assert_eq!(report["lowered_to_code"], "0.07");
    assert_eq!(report["lowering_proof"], "thresholds");
    assert!(report.get("lowering_checked_to").is_none(), "{report}");
    // A family form is its code: no lowering in the report.
    let report: Value = serde_json::from_str(&ok(&["period", "octal 0.07", "--json"])).unwrap();
    assert!(report.get("lowered_to_code").is_none(), "{report}");
    assert!(!ok(&["period", "octal 0.07"]).contains("lowering:"));
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

/// An image format `plot` does not write is a usage error of `-o` (exit 2; it was 1), refused
/// before the game is read: for a heap game, a graph file, and a rules file that is not there.
#[test]
fn plot_rejects_unknown_extensions() {
    for game in [
        "rules/kayles.sg",
        "rules/graph-cycle.sg",
        "rules/no-such-file.sg",
    ] {
        let render = fails(&["plot", game, "-o", "out/kayles.bmp"], 2);
        if let Some(report) = render_mismatch(
            &render,
            r"
error: cannot tell the chart format of out/kayles.bmp
  help: use a file name ending in .png or .svg
",
        ) {
            panic!("{game}: {report}");
        }
    }
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
        // Refused up front by the budget's estimate: exit 2.
        2,
    );
    // The memory available is the machine's: written `MEM`.
    let (head, available) = err
        .split_once(" but only ")
        .unwrap_or_else(|| panic!("{err}"));
    let (_, tail) = available
        .split_once(" is available")
        .unwrap_or_else(|| panic!("{err}"));
    assert_render(
        &format!("{head} but only MEM is available{tail}"),
        r"
error: a table up to n = 1000000000000000 needs about 3.6 PiB but only MEM is available
  help: ask for a smaller --to/--max
",
    );
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
    assert_render(
        &fails(&["table", "rules/no-such-game.sg"], 1),
        r"
error: cannot read `rules/no-such-game.sg`: no such file (to give the rules inline, write them in quotes, e.g. 'octal 0.07')
",
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

/// Positions `x ≥ 1` of `values` that are rare under `mask` (and the heap parity when
/// `parity`): an even number of 1 bits in `G(x) & mask`, plus one when `x` is odd.
fn rare_positions(values: &[u32], mask: u32, parity: bool) -> Vec<usize> {
    (1..values.len())
        .filter(|&x| {
            let ones = (values[x] & mask).count_ones() as usize + usize::from(parity) * (x % 2);
            ones.is_multiple_of(2)
        })
        .collect()
}

#[test]
fn period_json_reports_the_researchers_statistics() {
    for (game, known_rare) in [
        ("rules/kayles.sg", Some(9)),
        ("rules/grundys-game.sg", None),
    ] {
        let out = ok(&["period", game, "--max", "5000", "--json"]);
        let report: Value = serde_json::from_str(&out).unwrap();
        let len = report["values_computed"].as_u64().unwrap();
        let to = (len - 1).to_string();
        let values = csv_values(&ok(&["table", game, "--to", &to, "--format", "csv"]));
        // The largest value and where it first occurs, from the table itself.
        let largest = *values.iter().max().unwrap();
        assert_eq!(report["max_value"], largest, "{game}");
        let first = values.iter().position(|&v| v == largest).unwrap();
        assert_eq!(report["max_value_at"], first, "{game}");
        // The rare positions under the reported mask, counted here.
        let mask = report["rare_mask"].as_u64().unwrap() as u32;
        let parity = report["rare_parity_bit"].as_bool().unwrap();
        let rare = rare_positions(&values, mask, parity);
        assert_eq!(report["rare_count"], rare.len(), "{game}: {report}");
        assert_eq!(report["last_rare"], *rare.last().unwrap(), "{game}");
        let largest_rare = rare.iter().map(|&x| values[x]).max().unwrap();
        assert_eq!(report["largest_rare_value"], largest_rare, "{game}");
        if let Some(known) = known_rare {
            // Kayles (0.77) has 9 rare positions, the last G(70) (Winning Ways ch. 4's
            // last exceptional value).
            assert_eq!(rare.len(), known, "{game}");
            assert_eq!(report["last_rare"], 70);
        }
        // Timings differ per run: only check that they are there and positive.
        assert!(report["seconds"].as_f64().unwrap() > 0.0, "{report}");
        assert!(
            report["values_per_second"].as_u64().unwrap() > 0,
            "{report}"
        );
    }
}

#[test]
fn period_without_a_code_has_no_rare_statistics() {
    let out = ok(&["period", "rules/divisor-game.sg", "--max", "300", "--json"]);
    let report: Value = serde_json::from_str(&out).unwrap();
    assert!(report.get("rare_mask").is_none(), "{report}");
    assert!(report["max_value_at"].is_u64(), "{report}");
    let text = ok(&["period", "rules/divisor-game.sg", "--max", "300"]);
    assert!(!text.contains("rare:"), "{text}");
    assert!(text.contains("largest value"), "{text}");
}

#[test]
fn period_text_shows_rare_positions_and_time() {
    let out = ok(&["period", "rules/kayles.sg"]);
    assert!(
        out.contains("rare:       mask 15: 9 rare positions in 1..=167, the last at n = 70"),
        "{out}"
    );
    let time = out.lines().last().unwrap();
    let seconds = time
        .strip_prefix("time:       ")
        .and_then(|t| t.split(' ').next())
        .and_then(|s| s.parse::<f64>().ok());
    assert!(seconds.is_some_and(|s| s >= 0.0), "{out}");
}

#[test]
fn plot_rare_marks_the_rare_positions() {
    let dir = tempfile::tempdir().unwrap();
    let plot_rare = |game: &str, to: &str, file: &str| {
        let path = dir.path().join(file);
        let path = path.to_str().unwrap();
        ok(&["plot", game, "--to", to, "--rare", "-o", path]);
        std::fs::read(path).unwrap()
    };
    let svg = String::from_utf8(plot_rare("rules/kayles.sg", "150", "kayles.svg")).unwrap();
    assert!(
        svg.contains("rare positions (mask 15): 9, the last at n = 70"),
        "no rare legend"
    );
    // Binned (more positions than pixel columns), PNG.
    let png = plot_rare("rules/grundys-game.sg", "5000", "grundy.png");
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    // General rules without a code have no rare positions: a usage error, before any work.
    let err = fails(
        &["plot", "rules/divisor-game.sg", "--rare", "-o", "out/x.png"],
        2,
    );
    assert_render(
        &err,
        "error: --rare needs a take-and-break game: Divisor game has general rules without an \
         equivalent code\n",
    );
}

#[test]
fn threads_sets_the_pool_size_and_refuses_zero() {
    // Treblecross is computed by the dense kernel, whose long heaps run on the pool. The
    // option is global: before or after the subcommand.
    let table = ["table", "octal 0.007", "--to", "20000", "--format", "csv"];
    let one = ok(&[&["--threads", "1"][..], &table].concat());
    let all = ok(&[&table[..], &["--threads", "2"]].concat());
    assert_eq!(one, all);
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    assert_render(
        &fails(&["--threads", "0", "check", "rules/bash.sg"], 2),
        &format!(
            "error: invalid value '0' for '--threads <N>': --threads must be from 1 to {} (4 per \
             core; this machine has {cores}); leave it out for one thread per core\n\n\
             For more information, try '--help'.\n",
            4 * cores
        ),
    );
    assert!(ok(&["--help"]).contains("--threads"));
}

/// Issue 9: `sgscope check rules/*.sg | head -1` and the like panicked ("failed printing to
/// stdout: Broken pipe", exit 101). The reader here goes away before the first byte is written.
#[test]
fn a_closed_stdout_pipe_ends_quietly() {
    use std::process::{Command, Stdio};
    let wythoff = ["patterns", "rules/wythoff.sg", "--to", "600", "--json"];
    let cases: [&[&str]; 5] = [
        &["check", "rules/bash.sg", "rules/nim.sg", "rules/kayles.sg"],
        &["solve", "rules/nim.sg", "3", "5", "7"],
        &wythoff,
        &["table", "rules/bash.sg", "--to", "100000"],
        &["period", "rules/kayles.sg"],
    ];
    for args in cases {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sgscope"))
            .args(args)
            .current_dir(root())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.stderr.is_empty(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// The command line runs in-process with its output captured (`cli::run_with`), as the
/// binary does.
#[test]
fn the_command_line_runs_in_process() {
    let run = |args: &[&str]| {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let argv = std::iter::once("sgscope").chain(args.iter().copied());
        let code = sgscope::cli::run_with(argv, &mut out, &mut err);
        (
            code,
            String::from_utf8(out).unwrap(),
            String::from_utf8(err).unwrap(),
        )
    };
    let rules = root().join("rules/bash.sg");
    let rules = rules.to_str().unwrap();
    let (code, out, err) = run(&["table", rules, "--to", "5", "--format", "csv"]);
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (0, "n,sg\n0,0\n1,1\n2,2\n3,3\n4,0\n5,1\n", "")
    );
    assert_eq!(
        out,
        ok(&["table", "rules/bash.sg", "--to", "5", "--format", "csv"])
    );
    let (code, out, err) = run(&["check", rules, "--set", "kk=4"]);
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(err.contains("did you mean `k`"), "{err}");
    let (code, _, err) = run(&["table", rules, "--format", "xml"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown format `xml`"), "{err}");
    let (code, out, _) = run(&["--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("Examples:"), "{out}");
}
