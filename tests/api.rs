//! The facade (`sgscope::api`) as a library caller uses it: every question of the command line
//! is one call, and each refusal is a typed error (the CLI's wording is tested in `errors.rs`).

use std::cell::{Cell, RefCell};
use std::ops::ControlFlow;

use sgscope::api::{
    self, ApiError, CodeNote, CodeRequest, PeriodRequest, Periodic, SolveRequest, Solved,
};
use sgscope::engine::{EngineError, SgTable, Table};
use sgscope::export::Lang;
use sgscope::rules::{Game, Play};
use sgscope::solve::SolveError;
use sgscope::value::{Outcome, Registry, Request, Valued};

fn game(text: &str) -> Game {
    api::load_text("<test>", text, &[]).unwrap()
}

fn file(name: &str) -> Game {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("rules")
        .join(name);
    api::load_path(&path, &[]).unwrap()
}

fn solve(game: &Game, position: &str) -> Result<Solved, SolveError> {
    api::solve(game, position, &SolveRequest::new(Play::Normal))
}

#[test]
fn period_is_a_heap_games_in_either_convention() {
    // Kayles (octal 0.77): period 12 from n = 71, proved (Guy and Smith 1956).
    let kayles = game("octal 0.77");
    match api::period(&kayles, PeriodRequest::new(Play::Normal)).unwrap() {
        Periodic::Normal { report, table } => {
            assert_eq!((report.period, report.preperiod), (Some(12), Some(71)));
            assert!(report.proved);
            assert_eq!(table.len(), report.values_computed);
        }
        Periodic::Misere { .. } => panic!("normal play"),
    }
    let misere = PeriodRequest {
        max: Some(200),
        ..PeriodRequest::new(Play::Misere)
    };
    match api::period(&kayles, misere).unwrap() {
        // Kayles is wild in misère play: the search over sums stops before heap 200, and the
        // table says where and why instead of going on or claiming more.
        Periodic::Misere { table, stopped, .. } => {
            assert!(table.cells.len() > 40, "{}", table.cells.len());
            assert_eq!(table.cells.len() < 201, stopped.is_some());
        }
        Periodic::Normal { .. } => panic!("misère play"),
    }
    // A position game has no period: a typed refusal, before any work.
    match api::period(&file("wythoff.sg"), PeriodRequest::new(Play::Normal)) {
        Err(ApiError::NotAHeapGame { game }) => assert!(game.contains("Wythoff"), "{game}"),
        other => panic!("{:?}", other.err()),
    }
}

#[test]
fn a_sequence_resumes_from_its_start_and_stops_between_chunks() {
    let dawson = game("octal 0.07");
    let registry = Registry::standard();
    let whole = match api::value(&registry, &dawson, "normal", &Request::new(&[5000])).unwrap() {
        Valued::Normal(Table::Sequence { values, .. }) => values,
        other => panic!("{:?}", other.kind()),
    };
    // Resumed from the first 1000 values: the same table, and the start is taken.
    let mut prefix = SgTable::new();
    for n in 0..1000 {
        prefix.push(whole.get(n));
    }
    let start = RefCell::new(prefix);
    let resumed = Request {
        start: Some(&start),
        ..Request::new(&[5000])
    };
    match api::value(&registry, &dawson, "normal", &resumed).unwrap() {
        Valued::Normal(Table::Sequence { values, .. }) => assert_eq!(values, whole),
        other => panic!("{:?}", other.kind()),
    }
    assert!(start.borrow().is_empty());
    // A hook that asks to stop: the run ends with `Interrupted`, having been called.
    let calls = Cell::new(0);
    let stop = |_: &SgTable| {
        calls.set(calls.get() + 1);
        ControlFlow::Break(())
    };
    let stopped = Request {
        between_chunks: Some(&stop),
        ..Request::new(&[5_000_000])
    };
    match api::value(&registry, &dawson, "normal", &stopped) {
        Err(ApiError::Engine(EngineError::Interrupted { .. })) => {}
        other => panic!("{:?}", other.map(|v| v.kind())),
    }
    assert!(calls.get() >= 1);
}

#[test]
fn solve_answers_every_kind_of_game() {
    // Nim 3 + 5 + 7 (Bouton): 3 ⊕ 5 ⊕ 7 = 1, so the first player wins.
    let nim = file("nim.sg");
    match solve(&nim, "3 5 7").unwrap() {
        Solved::Sum(report) => {
            assert_eq!(report.value, Some(1));
            assert_eq!(report.outcome, Outcome::N);
        }
        other => panic!("{other:?}"),
    }
    // Misère Nim with a heap above 1 (Bouton): P iff the nim-sum is 0; 1 + 2 + 3 is P.
    let misere = SolveRequest::new(Play::Misere);
    match api::solve(&nim, "1 2 3", &misere).unwrap() {
        Solved::Sum(report) => assert_eq!(report.outcome, Outcome::P),
        other => panic!("{other:?}"),
    }
    // A token on a graph: `e` moves to `a` (a draw on the cycle a ⇄ b) or to `c` (→ d, then
    // stuck: c is N), so e keeps the draw and is D.
    let graph = file("graph-cycle.sg");
    match solve(&graph, "").unwrap() {
        Solved::Loopy(report) => {
            assert_eq!(report.components, ["e"]);
            assert_eq!(report.outcome, Outcome::D);
        }
        other => panic!("{other:?}"),
    }
    // A stalk of two edges on the ground is *2; cutting the lowest edge wins.
    let stalk = game("hackenbush\nground g\nedge g a\nedge a b\n");
    match solve(&stalk, "").unwrap() {
        Solved::Hackenbush(report) => {
            assert_eq!(report.value, 2);
            assert_eq!(report.winning, [0]);
            assert!(report.complete());
        }
        other => panic!("{other:?}"),
    }
    // A position game whose moves cycle is solved as a loopy game.
    let cycle =
        game("position (x)\nmove up: if x < 2 => (x + 1)\nmove down: if x == 1 => (x - 1)\n");
    assert!(matches!(solve(&cycle, "(0)").unwrap(), Solved::Loopy(_)));
}

#[test]
fn solve_refuses_positions_it_cannot_read_with_typed_errors() {
    let graph = file("graph-cycle.sg");
    match solve(&graph, "a + zz") {
        Err(SolveError::UnknownNode { name, nodes, .. }) => {
            assert_eq!((name.as_str(), nodes), ("zz", 6));
        }
        other => panic!("{other:?}"),
    }
    let misere = SolveRequest::new(Play::Misere);
    assert!(matches!(
        api::solve(&graph, "a", &misere),
        Err(SolveError::MisereLoopy)
    ));
    let stalk = game("hackenbush\nground g\nedge g a\n");
    assert!(matches!(
        solve(&stalk, "a"),
        Err(SolveError::HackenbushPosition { .. })
    ));
    assert!(matches!(
        solve(&file("nim.sg"), " "),
        Err(SolveError::NoPosition)
    ));
    assert!(matches!(
        solve(&file("nim.sg"), "3 x"),
        Err(SolveError::Position(_))
    ));
}

#[test]
fn code_says_what_it_does_not_prove() {
    // Dawson's Kayles: period 34 proved, so the snippet extends it and nothing is noted.
    let dawson = game("octal 0.07");
    let (snippet, notes) = api::code(&dawson, &CodeRequest::new(Lang::Python)).unwrap();
    assert!(notes.is_empty(), "{notes:?}");
    assert!(snippet.contains("34"), "{snippet}");
    // Searched only to 100 values, no period is proved: the snippet is the table G(0..=300),
    // and says so; no claim past it.
    let short = CodeRequest {
        max: Some(100),
        to: Some(vec![300]),
        ..CodeRequest::new(Lang::Python)
    };
    let told = RefCell::new(Vec::new());
    let listen = |note: &CodeNote| told.borrow_mut().push(note.clone());
    let (_, notes) = api::code(
        &dawson,
        &CodeRequest {
            notes: Some(&listen),
            ..short
        },
    )
    .unwrap();
    assert_eq!(
        told.into_inner(),
        notes,
        "each note is told as it is decided"
    );
    assert!(
        matches!(notes.last(), Some(CodeNote::Table { what, .. }) if what == "G(0..=300)"),
        "{notes:?}"
    );
    assert!(!notes
        .iter()
        .any(|n| matches!(n, CodeNote::ObservedPeriodExtended { .. })));
}

#[test]
fn patterns_and_values_refuse_what_has_no_values() {
    // Wythoff's P-positions lie on the Beatty lines of the golden ratio.
    let wythoff = file("wythoff.sg");
    let findings = api::patterns(&wythoff, Play::Normal, &Request::new(&[30, 30])).unwrap();
    let json: serde_json::Value = serde_json::from_str(&findings.json().unwrap()).unwrap();
    assert!(json.is_object());
    assert!(
        findings.text().contains("φ ≈ 1.618034 lies in it"),
        "{}",
        findings.text()
    );
    match api::grundy_values(&file("graph-cycle.sg"), Play::Normal, &Request::new(&[])) {
        Err(ApiError::NoValues { kind }) => assert_eq!(kind, api::TableKind::Graph),
        other => panic!("{:?}", other.map(|_| ())),
    }
}
