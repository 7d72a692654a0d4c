//! `census compare` against the published tables shipped in `tests/data/census/` (each file
//! cites its source): every entry is run here at small bounds and compared through the
//! library, the known errata are found with their first differing heap.

use sgscope::census::compare::{self, Comparison, Outcome, Values, Verdict};
use sgscope::census::{Config, Family};
use sgscope::rules::SourceFile;

use crate::support::root;

/// The table `name` of `tests/data/census/` compared with a census of its codes run to
/// `G(0..=max)` (sparse codes too), recomputing at most `G(0..=limit)` to check a period.
fn compare_file(name: &str, max: u64, limit: usize) -> Comparison {
    let path = root().join("tests/data/census").join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let entries = compare::parse(&SourceFile::new(name, text)).unwrap_or_else(|e| panic!("{e}"));
    let config = Config {
        family: Family::Octal { digits: 3 },
        max,
        sparse_max: max,
    };
    let rows = compare::run_codes(&config, &compare::codes(&entries)).unwrap();
    compare::compare(&entries, &rows, &mut Values::with_limit(limit)).unwrap()
}

fn outcome<'a>(comparison: &'a Comparison, claim: &str) -> &'a Outcome {
    comparison
        .outcomes
        .iter()
        .find(|o| o.entry.claim.to_string() == claim)
        .unwrap_or_else(|| panic!("no entry `{claim}`"))
}

fn report(comparison: &Comparison) -> String {
    let mut out = Vec::new();
    sgscope::export::census_compare::write_text(&mut out, comparison).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn winning_ways_periods_and_shifts_agree() {
    let comparison = compare_file("winning-ways.txt", 4096, 0);
    let text = report(&comparison);
    assert_eq!(comparison.outcomes.len(), 13, "{text}");
    assert_eq!(comparison.count(Verdict::Agree), 13, "{text}");
    assert!(text.contains("0.4 = 0.07 +1: one class"), "{text}");
}

#[test]
fn czajka_lookup_tables_agree() {
    // Unsolved codes (.6, .04, …) are classified by their first 2049 values here.
    let comparison = compare_file("czajka-lookup.txt", 2048, 0);
    let text = report(&comparison);
    let disagreeing: Vec<&Outcome> = comparison
        .outcomes
        .iter()
        .filter(|o| o.verdict != Verdict::Agree)
        .collect();
    assert!(disagreeing.is_empty(), "{text}");
    assert_eq!(comparison.outcomes.len(), 59);
    // The corrected locator entry: .27 is .26.
    assert_eq!(outcome(&comparison, "0.27 = 0.26").verdict, Verdict::Agree);
}

#[test]
fn winning_ways_locator_erratum_is_found() {
    // The README of tczajka/octal-games: .27 should map to .26, not .06.
    let comparison = compare_file("ww-locator-errata.txt", 1024, 0);
    let o = outcome(&comparison, "0.27 = 0.06");
    assert_eq!(o.verdict, Verdict::Disagree, "{}", report(&comparison));
    let d = o.difference.expect("a first differing heap");
    // Every offset of 0..=8 both ways fails by heap 3; −1 (G_.27(n) = G_.06(n + 1)) lasts
    // longest.
    assert_eq!((d.heap, d.offset), (3, Some(-1)));
}

#[test]
fn flammenkamps_161_36_differ_first_at_heap_519() {
    // tczajka/octal-games README: "The first difference is at heap size 519" — heaps counted
    // from 0 as here, G_.161(519) ≠ G_.36(519) and the two agree on 0..519.
    let comparison = compare_file("flammenkamp-claims.txt", 2048, 0);
    let o = outcome(&comparison, "0.161 = 0.36");
    assert_eq!(o.verdict, Verdict::Disagree, "{}", report(&comparison));
    let d = o.difference.expect("a first differing heap");
    assert_eq!((d.heap, d.offset), (519, Some(0)));
    assert_ne!(d.values.0, d.values.1);
}

#[test]
fn czajka_solved_games_agree_where_the_bounds_reach() {
    // Bounds 16384 prove the five shorter games; .127's claim (n0 + 2p = 46586) is checked on
    // recomputed values; .16, .56, .376 and .354 need 4·10^5 to 2·10^7 heaps and stay open.
    let comparison = compare_file("czajka-solved.md", 16384, 50_000);
    let text = report(&comparison);
    for claim in [
        "0.45 498 20",
        "0.156 3479 349",
        "0.356 7315 142",
        "0.644 3256 442",
        "0.165 5181 1550",
    ] {
        assert_eq!(
            outcome(&comparison, claim).verdict,
            Verdict::Agree,
            "{text}"
        );
    }
    let o = outcome(&comparison, "0.127 46578 4");
    assert_eq!(o.verdict, Verdict::Open, "{text}");
    assert!(
        o.note.as_deref().unwrap().contains("bear the period out"),
        "{text}"
    );
    for claim in [
        "0.16 105351 149459",
        "0.56 326640 144",
        "0.376 2268248 4",
        "0.354 10061916 1180",
    ] {
        let o = outcome(&comparison, claim);
        assert_eq!(o.verdict, Verdict::Open, "{text}");
        assert!(o.note.as_deref().unwrap().contains("not reached"), "{text}");
    }
}

#[test]
fn a_wrong_period_gets_its_first_differing_heap() {
    // Dawson's Kayles is periodic from 53, not from 50: G(n + 34) ≠ G(n) first at n = 52
    // (heap 52 is .07's last exception, OEIS A002187's n = 51 shifted by one).
    let text =
        "0.07 40 34\n0.07 53 17\n0.07 53 68\n0.07 ? ?\n0.1 = 0.07\n0.0177 = 0.07\n0.07 52 34\n";
    let entries = compare::parse(&SourceFile::new("t", text)).unwrap();
    let config = Config {
        family: Family::Octal { digits: 3 },
        max: 4096,
        sparse_max: 4096,
    };
    let rows = compare::run_codes(&config, &compare::codes(&entries)[..2]).unwrap();
    let comparison = compare::compare(&entries, &rows, &mut Values::default()).unwrap();
    let o = &comparison.outcomes;
    assert_eq!(o[0].verdict, Verdict::Disagree);
    assert_eq!(o[0].difference.map(|d| d.heap), Some(52));
    assert_eq!(o[1].verdict, Verdict::Disagree);
    assert!(o[1].difference.is_some());
    assert_eq!(o[2].verdict, Verdict::Disagree, "a multiple of the period");
    assert_eq!(o[2].difference, None);
    assert!(o[2].note.as_deref().unwrap().contains("2 times the least"));
    assert_eq!(
        o[3].verdict,
        Verdict::Disagree,
        "published unsolved, proved here"
    );
    assert_eq!(o[4].verdict, Verdict::Disagree);
    assert_eq!(o[5].verdict, Verdict::NotInCensus);
    assert!(o[5].census.contains("0.0177 not in the census"));
    // One heap short of the census's preperiod, same period: a convention, shown with the
    // heap that breaks it.
    assert_eq!(o[6].verdict, Verdict::Convention);
    assert_eq!(o[6].difference.map(|d| d.heap), Some(52));
    assert!(o[6].note.as_deref().unwrap().contains("census's − 1"));
}

#[test]
fn census_rows_are_read_from_json_lines() {
    let line = r#"{"code":"0.07","status":"solved","preperiod":53,"period":34,"saltus":0,"proved":true,"values_computed":200,"max_value":9,"max_value_at":85,"rare_mask":null,"rare_count":null,"last_rare":null,"class":0,"offset":0,"seconds":0.01}"#;
    let rows = compare::read_rows("c.jsonl", &format!("{line}\n\n")).unwrap();
    assert_eq!(rows.len(), 1);
    let entries = compare::parse(&SourceFile::new("t", "0.07 53 34\n")).unwrap();
    let comparison = compare::compare(&entries, &rows, &mut Values::default()).unwrap();
    assert_eq!(comparison.outcomes[0].verdict, Verdict::Agree);
    let error = compare::read_rows("c.jsonl", "{\"code\": 1}\n").unwrap_err();
    assert!(
        error.to_string().starts_with("c.jsonl:1: not a census row"),
        "{error}"
    );
}
