//! Misère play (issue 10): the genus recursion and the search over sums against a brute
//! force over whole game trees, misère Nim against Bouton's rule, and the command line.

use proptest::prelude::*;
use sgscope::engine::{self, EngineOptions};
use sgscope::oracle::misere::{bouton_misere_p, misere_grundy};
use sgscope::rules::{self, Game, SourceFile};
use sgscope::value::misere::{self, Sums};

use crate::support::{fails, heap_rules, octal_code, ok, root};

fn game(text: &str) -> Game {
    rules::load(SourceFile::new("<test>", text), &[]).unwrap()
}

const NIM: &str = "move take: x in 1..=n => n - x";

#[test]
fn misere_nim_sums_of_up_to_four_heaps_follow_bouton() {
    let nim = game(NIM);
    let mut sums = Sums::new(&nim);
    let mut checked = 0;
    for a in 0..=7u64 {
        for b in a..=7 {
            for c in b..=7 {
                for d in c..=7 {
                    let heaps = [a, b, c, d];
                    let sum = sums.canonical(&heaps).unwrap();
                    let p = sums.value(&sum).unwrap().genus.misere() == 0;
                    assert_eq!(p, bouton_misere_p(&heaps), "{heaps:?}");
                    checked += 1;
                }
            }
        }
    }
    // Multisets of four heaps of 0..=7 (zeros standing for fewer heaps): C(11, 4).
    assert_eq!(checked, 330);
}

#[test]
fn nim_heaps_are_tame_with_the_genera_of_nim() {
    // ONAG ch. 12: *0 = 0^{120}, *1 = 1^{031}, *n = n^{n(n⊕2)} for n ≥ 2.
    let table = misere::table(&game(NIM), &[9], None).unwrap();
    assert_eq!(table.cells[0].genus.to_string(), "0^{120}");
    assert_eq!(table.cells[1].genus.to_string(), "1^{031}");
    for n in 2..=9u32 {
        let genus = &table.cells[n as usize].genus;
        assert_eq!(genus.superscripts(), [n, n ^ 2], "heap {n}");
        assert!(table.cells[n as usize].is_tame());
    }
    assert_eq!(table.first_wild(), None);
}

#[test]
fn kayles_turns_wild_at_five() {
    // Kayles (octal 0.77): the heap of 5 has genus 4^{146} (Winning Ways ch. 13, the example
    // of a wild genus in the issue), and every smaller heap is tame.
    let table = misere::table(&game("octal 0.77"), &[12], None).unwrap();
    assert_eq!(table.cells[5].genus.to_string(), "4^{146}");
    assert_eq!(table.first_wild(), Some(5));
    // The genus of every heap agrees with the brute force on heap + k·*2.
    let g = game("octal 0.77");
    for n in 0..=12u64 {
        for k in 0..3 {
            assert_eq!(
                table.cells[n as usize].genus.gamma(k),
                misere_grundy(&g, &[n], k, 0),
                "heap {n}, {k} copies of *2"
            );
        }
    }
}

/// `(source, code, heap, γ0..γ7)` rows of `tests/data/misere/published-genera.txt`.
fn published_genera() -> Vec<(String, String, usize, Vec<u32>)> {
    let text =
        std::fs::read_to_string(root().join("tests/data/misere/published-genera.txt")).unwrap();
    text.lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(fields.len(), 4, "{line}");
            let gammas = fields[3].chars().map(|c| c.to_digit(10).unwrap()).collect();
            (
                fields[0].to_string(),
                fields[1].to_string(),
                fields[2].parse().unwrap(),
                gammas,
            )
        })
        .collect()
}

#[test]
fn genera_agree_with_cgsuite_and_plambeck() {
    // Kayles and Dawson's Chess from CGSuite, 0.312 from Plambeck's page (sources in the
    // data file); Dawson's Kayles (0.07) heap n + 1 is Dawson's Chess heap n.
    let rows = published_genera();
    let mut checked = 0;
    for (code, shift) in [("0.77", 0), ("0.137", 0), ("0.312", 0), ("0.07", 1)] {
        let source = if code == "0.07" { "0.137" } else { code };
        let expected: Vec<_> = rows.iter().filter(|row| row.1 == source).collect();
        assert!(!expected.is_empty(), "{source}");
        let top = expected.iter().map(|row| row.2).max().unwrap() + shift;
        let table = misere::table(&game(&format!("octal {code}")), &[top as u64], None).unwrap();
        for (_, _, heap, gammas) in &expected {
            let genus = &table.cells[heap + shift].genus;
            let ours: Vec<u32> = (0..gammas.len()).map(|k| genus.gamma(k)).collect();
            assert_eq!(&ours, gammas, "octal {code}, heap {}", heap + shift);
            checked += 1;
        }
    }
    // 26 Kayles, 26 Dawson's Chess, 6 of 0.312 and 26 Dawson's Kayles heaps.
    assert_eq!(checked, 84);
}

#[test]
fn a_position_with_no_move_is_p_in_normal_play_and_n_in_misere() {
    // subtraction {2, 3}: heaps 0 and 1 have no move.
    let table = misere::table(&game("subtraction {2, 3}"), &[30], None).unwrap();
    let g = game("subtraction {2, 3}");
    let normal = engine::compute(&g, 30, &EngineOptions::default())
        .unwrap()
        .to_vec();
    for n in [0usize, 1] {
        assert_eq!(table.cells[n].normal(), 0);
        assert_eq!(table.cells[n].misere(), 1);
    }
    for (n, cell) in table.cells.iter().enumerate() {
        assert_eq!(cell.normal(), normal[n], "heap {n}");
    }
}

#[test]
fn position_games_are_valued_by_the_same_search() {
    let g = rules::load(
        SourceFile::new(
            "wythoff.sg",
            std::fs::read_to_string(root().join("rules/wythoff.sg")).unwrap(),
        ),
        &[],
    )
    .unwrap();
    let table = misere::table(&g, &[4, 4], None).unwrap();
    for (index, cell) in table.cells.iter().enumerate() {
        let position = table.position_of(index);
        assert_eq!(
            cell.misere(),
            misere_grundy(&g, &position, 0, 0),
            "{position:?}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// The genus recursion and the search over sums (with tame addition wherever every
    /// component is tame) give the brute force's G⁻ of heaps plus copies of *2, and of sums.
    #[test]
    fn genus_and_sums_agree_with_brute_force(
        rules in prop_oneof![octal_code(3), heap_rules()],
        sum in proptest::collection::vec(1u64..=7, 2..=3),
    ) {
        let g = game(&rules);
        let table = misere::table(&g, &[9], None).unwrap();
        let normal = engine::compute(&g, 9, &EngineOptions::default()).unwrap().to_vec();
        for n in 0..=9u64 {
            let cell = &table.cells[n as usize];
            prop_assert_eq!(cell.normal(), normal[n as usize], "{} heap {}", rules, n);
            for k in 0..3 {
                prop_assert_eq!(cell.genus.gamma(k), misere_grundy(&g, &[n], k, 0), "{} heap {} + {}·*2", rules, n, k);
            }
        }
        let mut sums = Sums::new(&g);
        let canonical = sums.canonical(&sum).unwrap();
        let valued = sums.value(&canonical).unwrap().clone();
        for k in 0..2 {
            prop_assert_eq!(valued.genus.gamma(k), misere_grundy(&g, &sum, k, 0), "{} sum {:?} + {}·*2", rules, sum, k);
        }
    }
}

#[test]
fn table_misere_csv_has_the_documented_columns() {
    let csv = ok(&[
        "table",
        "octal 0.77",
        "--misere",
        "--to",
        "20",
        "--format",
        "csv",
    ]);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "n,sg,misere_sg,genus");
    assert_eq!(lines.len(), 22);
    let table = misere::table(&game("octal 0.77"), &[20], None).unwrap();
    for (n, line) in lines[1..].iter().enumerate() {
        let cell = &table.cells[n];
        assert_eq!(
            *line,
            format!("{n},{},{},{}", cell.normal(), cell.misere(), cell.genus),
        );
    }
}

#[test]
fn the_play_line_and_the_flags() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("anti.sg");
    std::fs::write(
        &file,
        "# misère Nim\nplay misere\nmove take: x in 1..=n => n - x\n",
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let by_file = ok(&["table", path, "--to", "3", "--format", "csv"]);
    assert!(by_file.starts_with("n,sg,misere_sg,genus\n"), "{by_file}");
    assert_eq!(
        by_file,
        ok(&["table", path, "--to", "3", "--format", "csv", "--misere"])
    );
    // --normal wins over the file's line, and says so on stderr.
    let output =
        crate::support::sgscope(&["table", path, "--to", "3", "--format", "csv", "--normal"]);
    assert!(output.status.success());
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "n,sg\n0,0\n1,1\n2,2\n3,3\n"
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("--normal overrides `play misere` at"),
        "{stderr}"
    );
    assert!(stderr.contains("anti.sg:2:1"), "{stderr}");
    // Both flags at once are refused by the argument parser.
    fails(&["table", path, "--misere", "--normal"], 2);
}

#[test]
fn a_bad_play_line_is_located() {
    let error = fails(&["table", "play sideways\nsubtraction {1}", "--to", "3"], 1);
    assert!(
        error.contains("<rules>:1:6") || error.contains(":1:6"),
        "{error}"
    );
    assert!(error.contains("`misere` or `normal`"), "{error}");
    let error = fails(
        &[
            "table",
            "play misere\nplay normal\nsubtraction {1}",
            "--to",
            "3",
        ],
        1,
    );
    assert!(error.contains("a second `play` line"), "{error}");
}

/// Whether a sum of heaps is tame by the definition, through the brute force: its genus (the
/// first four superscripts, each `G⁻(sum + k·*2)` over the whole game tree) is that of a Nim
/// position, and so is every position reachable from it.
fn tame_by_definition(
    game: &Game,
    normal: &[u32],
    sum: &[u64],
    memo: &mut std::collections::HashMap<Vec<u64>, bool>,
) -> bool {
    let mut key = sum.to_vec();
    key.sort_unstable();
    if let Some(&known) = memo.get(&key) {
        return known;
    }
    let g = sum.iter().fold(0, |a, &h| a ^ normal[h as usize]);
    let gammas: Vec<u32> = (0..4).map(|k| misere_grundy(game, sum, k, 0)).collect();
    let fickle = g <= 1 && gammas[0] == g ^ 1;
    let tame_genus = (fickle || gammas[0] == g)
        && (0..4).all(|k| misere::Genus::tame(g, gammas[0]).gamma(k) == gammas[k]);
    let generator = engine::generator::MoveGenerator::of(game);
    let mut options: Vec<Vec<u64>> = Vec::new();
    for (i, &heap) in sum.iter().enumerate() {
        generator
            .for_each_option(&[heap], &mut |parts| {
                let mut after: Vec<u64> = sum.to_vec();
                after.remove(i);
                after.extend_from_slice(parts);
                options.push(after);
            })
            .unwrap();
    }
    let tame = tame_genus
        && options
            .iter()
            .all(|o| tame_by_definition(game, normal, o, memo));
    memo.insert(key, tame);
    tame
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Every heap's species (Winning Ways ch. 13: tame; restive and restless, not tame with
    /// every option tame and normal value ≤ 1, or normal ≥ 2 and misère value ≤ 1; wild)
    /// agrees with tameness decided by the brute force on the heap and on its options.
    #[test]
    fn species_follow_from_tameness_by_the_definition(code in octal_code(3)) {
        let g = game(&code);
        let to = 9;
        let table = misere::table(&g, &[to], None).unwrap();
        let normal: Vec<u32> = table.cells.iter().map(|c| c.normal()).collect();
        let mut memo = std::collections::HashMap::new();
        let generator = engine::generator::MoveGenerator::of(&g);
        for n in 0..=to {
            let cell = &table.cells[n as usize];
            let tame = tame_by_definition(&g, &normal, &[n], &mut memo);
            prop_assert_eq!(cell.is_tame(), tame, "{} heap {}", code, n);
            let mut options_tame = true;
            generator
                .for_each_option(&[n], &mut |parts| {
                    options_tame &= tame_by_definition(&g, &normal, parts, &mut memo);
                })
                .unwrap();
            let expected = if tame {
                misere::Species::Tame
            } else if !options_tame {
                misere::Species::Wild
            } else if cell.normal() <= 1 {
                misere::Species::Restive
            } else if cell.misere() <= 1 {
                misere::Species::Restless
            } else {
                misere::Species::Wild
            };
            prop_assert_eq!(cell.species, expected, "{} heap {}", code, n);
        }
    }
}

#[test]
fn kayles_five_is_restless_and_daisies_five_restive() {
    // Kayles (0.77): heaps 0..=4 are tame, so heap 5 (genus 4^{146}: normal value 4, misère
    // value 1) has tame options only. Daisies (4.7, Plambeck 1992): heap 5 has genus 1^{431}.
    let kayles = misere::table(&game("octal 0.77"), &[6], None).unwrap();
    assert_eq!(kayles.cells[5].species, misere::Species::Restless);
    assert_eq!(kayles.cells[6].species, misere::Species::Wild);
    let daisies = misere::table(&game("octal 4.7"), &[5], None).unwrap();
    assert_eq!(daisies.cells[5].genus.to_string(), "1^{431}");
    assert_eq!(daisies.cells[5].species, misere::Species::Restive);
    let out = ok(&["table", "octal 0.77", "--to", "6", "--misere"]);
    assert!(out.contains("4^{146}  restless"), "{out}");
    let json = ok(&[
        "table",
        "octal 4.7",
        "--to",
        "5",
        "--misere",
        "--format",
        "json",
    ]);
    assert!(json.contains(r#""species":"restive""#), "{json}");
}

#[test]
fn the_lazy_outcome_search_gives_cgsuites_kayles_genera_through_sums_with_heaps_of_two() {
    // A Kayles heap of 2 is *2 as a game tree (its options are a heap of 1, which is *1, and
    // the empty game), so γk(n) = G⁻(n + k·*2) is G⁻ of heap n plus k heaps of 2: the sum is a
    // misère P-position iff γk(n) = 0. The genera are CGSuite's (tests/data/misere/
    // published-genera.txt names the source), independent of sgscope; the sums are valued by
    // the outcome search alone (no genus of the sum), which stops at a first winning option.
    let kayles = game("octal 0.77");
    let mut sums = Sums::new(&kayles);
    let mut checked = 0;
    for (_, code, heap, gammas) in published_genera() {
        if code != "0.77" {
            continue;
        }
        for (k, &gamma) in gammas.iter().enumerate() {
            let mut heaps = vec![heap as u64];
            heaps.extend(std::iter::repeat_n(2u64, k));
            let sum = sums.canonical(&heaps).unwrap();
            assert_eq!(
                sums.is_p(&sum).unwrap(),
                gamma == 0,
                "Kayles heap {heap} + {k} heaps of 2: γ{k} = {gamma}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 26 * 8, "{checked}");
}

#[test]
fn the_lazy_outcome_search_stops_at_its_limit_with_an_error() {
    let kayles = game("octal 0.77");
    let mut sums = Sums::new(&kayles).with_max_sums(2_000);
    let sum = sums.canonical(&[20, 20, 20]).unwrap();
    assert!(matches!(
        sums.is_p(&sum),
        Err(engine::EngineError::TooManySums { limit: 2_000, .. })
    ));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// The lazy outcome search (memoised, stopping at a first winning option, tame sums by
    /// tame addition) gives the brute force's misère outcome of random sums of random games.
    #[test]
    fn lazy_outcomes_agree_with_brute_force(
        rules in prop_oneof![octal_code(3), heap_rules()],
        sums_asked in proptest::collection::vec(proptest::collection::vec(0u64..=6, 1..=4), 1..=6),
    ) {
        let g = game(&rules);
        let mut sums = Sums::new(&g);
        for heaps in &sums_asked {
            let canonical = sums.canonical(heaps).unwrap();
            let p = sums.is_p(&canonical).unwrap();
            prop_assert_eq!(p, misere_grundy(&g, heaps, 0, 0) == 0, "{} sum {:?}", rules, heaps);
        }
    }
}
