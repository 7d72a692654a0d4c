//! Graph files (`edge U V` lines): loading, located errors, node order, the acyclic kernel
//! against a mex recursion, cycles named by nodes, and the subcommands that refuse graphs.

use proptest::prelude::*;

use sgscope::engine::{self, EngineError, EngineOptions};
use sgscope::rules::{load, GameKind, SourceFile};

use crate::support::{assert_has, error_for, fails, ok};

#[test]
fn every_bad_graph_line_is_a_located_error() {
    // (file, the rendered location, the line, the caret, words of the message and help)
    let cases: &[(&str, &[&str])] = &[
        (
            "edge a\n",
            &[
                "bad.sg:1:1",
                "1 | edge a",
                "^^^^^^",
                "`edge` needs two nodes",
                "help:",
            ],
        ),
        (
            "edge a b c\n",
            &[
                "bad.sg:1:10",
                "1 | edge a b c",
                "^ one node too many",
                "found a third",
                "help:",
            ],
        ),
        (
            "edge 1.5 x\n",
            &[
                "bad.sg:1:6",
                "^^^ not an integer or a name",
                "`1.5` is not a node name",
                "help:",
            ],
        ),
        (
            "edge -3 a\n",
            &["bad.sg:1:6", "^^ a negative number", "help:"],
        ),
        (
            "edge a b\nstart a\nstart b\n",
            &[
                "bad.sg:3:1",
                "3 | start b",
                "^^^^^^^",
                "a second `start` line",
                "help: keep one `start` line",
            ],
        ),
        (
            "hackenbush\nground a\nground b\nedge a b\n",
            &["bad.sg:3:1", "^^^^^^^^", "a second `ground` line"],
        ),
        (
            "hackenbush\nhackenbush\nground a\nedge a b\n",
            &["bad.sg:2:1", "^^^^^^^^^^", "a second `hackenbush` line"],
        ),
        (
            "edge a b\nground a\n",
            &[
                "bad.sg:2:1",
                "^^^^^^^^",
                "`ground` without `hackenbush`",
                "help:",
            ],
        ),
        (
            "hackenbush\nedge a b\n",
            &[
                "bad.sg:1:1",
                "^^^^^^^^^^",
                "a graph with no ground for hackenbush",
                "help: name the ground node",
            ],
        ),
        (
            "hackenbush\nground a\nedge a b\nstart b\n",
            &[
                "bad.sg:4:1",
                "a hackenbush file has no `start` line",
                "help:",
            ],
        ),
        (
            "edge a b\nmove x in 1..=n => n - x\n",
            &[
                "bad.sg:2:1",
                "^^^^ not a graph line",
                "a graph file cannot have a `move` line",
                "`edge`/`start`/`ground`/`hackenbush`",
                "`name`/`description`",
            ],
        ),
        (
            "edge a b\nheap m\n",
            &["bad.sg:2:1", "cannot have a `heap` line"],
        ),
        (
            "position (x, y)\nedge a b\n",
            &["bad.sg:1:1", "cannot have a `position` line"],
        ),
        (
            "edge a b\noctal 0.07\n",
            &["bad.sg:2:1", "cannot have a `octal` line"],
        ),
        (
            "edge a b\nparam k = 3\n",
            &[
                "bad.sg:2:1",
                "^^^^^",
                "a graph file has no parameters",
                "help:",
            ],
        ),
        (
            "edge a b\nplay misere\n",
            &[
                "bad.sg:2:1",
                "^^^^^^^^^^^",
                "misère play of a graph file is not supported yet",
                "help:",
            ],
        ),
        (
            "edge a b\nstart z\n",
            &[
                "bad.sg:2:7",
                "^ not a node of the graph",
                "the start node `z` is on no edge",
            ],
        ),
        (
            "name \"empty\"\nstart a\n",
            &["this graph file has no edge", "help: add the moves"],
        ),
        (
            "edge a b\nedg b c\n",
            &["bad.sg:2:1", "^^^", "did you mean `edge`?"],
        ),
        (
            "edge 99999999999999999999 1\n",
            &["bad.sg:1:6", "is too large"],
        ),
    ];
    for (text, parts) in cases {
        let err = error_for(text);
        assert!(err.starts_with("error: "), "{text:?}: {err}");
        assert_has(&err, parts);
    }
}

#[test]
fn graph_words_are_reserved_in_other_files() {
    let err = error_for("move start in 1..=n => n - start\n");
    assert_has(&err, &["bad.sg:1:6", "`start` cannot name", "a keyword"]);
    // `edg` in a rules file is a misspelt statement.
    let err = error_for("edg a b\n");
    assert_has(&err, &["did you mean `edge`?"]);
}

#[test]
fn check_prints_the_graphs_summary() {
    let out = ok(&[
        "check",
        "rules/graph-cycle.sg",
        "rules/tree-edge-deletion.sg",
    ]);
    assert_has(
        &out,
        &[
            "ok: rules/graph-cycle.sg: graph with a cycle — a graph of 6 nodes and 7 edges, 1 terminal, with cycles, start e",
            "ok: rules/tree-edge-deletion.sg: tree edge deletion — a hackenbush graph of 13 nodes and 12 edges, ground 1, a tree",
        ],
    );
    let out = ok(&["check", "edge 1 2\nedge 2 3\nedge 1 3\n"]);
    assert_has(
        &out,
        &["a graph of 3 nodes and 3 edges, 1 terminal, acyclic"],
    );
}

fn graph(text: &str) -> sgscope::rules::GraphGame {
    let game = load(SourceFile::new("t.sg", text), &[]).unwrap_or_else(|e| panic!("{e}"));
    match game.kind {
        GameKind::Graph { graph } => graph,
        _ => panic!("a graph file"),
    }
}

#[test]
fn nodes_are_numbered_numerically_or_by_first_appearance() {
    let g = graph("edge 10 2\nedge 007 10\nstart 2\n");
    assert_eq!(g.names, ["2", "7", "10"]);
    assert_eq!(g.graph.successors(2), &[0]);
    assert_eq!(g.graph.successors(1), &[2]);
    assert_eq!(g.start, Some(0));
    let g = graph("edge x 3\nedge 1 x\nedge x 3\n");
    assert_eq!(g.names, ["x", "3", "1"]);
    // Duplicate edges are two moves.
    assert_eq!(g.graph.successors(0), &[1, 1]);
    let g = graph("hackenbush\nground r\nedge r a\nedge a a\n# a loop\n");
    assert_eq!(g.undirected, [(0, 1), (1, 1)]);
    assert_eq!(g.hackenbush, Some(0));
    assert_eq!(g.graph.successors(1), &[0, 1]);
}

#[test]
fn a_cyclic_graph_gives_the_cycle_error_through_node_names() {
    // The normal-play kernel (for games that end) names the cycle by the nodes' names; the
    // command line then values the graph as a loopy game (tests/loopy_cli.rs).
    let text =
        std::fs::read_to_string(crate::support::root().join("rules/graph-cycle.sg")).unwrap();
    let game = sgscope::rules::load(sgscope::rules::SourceFile::new("g.sg", &text), &[]).unwrap();
    let error =
        sgscope::engine::compute(&game, 5, &sgscope::engine::EngineOptions::default()).unwrap_err();
    // What to do is a typed hint; the command line words it.
    assert_eq!(error.hint(), Some(sgscope::engine::Hint::AcyclicGraphsOnly));
    let err = error.to_string();
    assert_has(
        &err,
        &[
            "the moves can cycle, so the game need not end",
            "  a\n  → b\n  → a\n",
        ],
    );
    let out = ok(&["table", "rules/graph-cycle.sg"]);
    assert_has(&out, &["3 D (draw"]);
    let err = fails(&["table", "rules/graph-cycle.sg", "--misere"], 2);
    assert_has(&err, &["misère play of a graph"]);
}

#[test]
fn subcommands_for_sequences_refuse_graph_files() {
    for command in ["period", "code", "patterns", "quotient", "misere-check"] {
        let mut args = vec![command, "rules/graph-cycle.sg"];
        if command == "code" {
            args.extend(["--lang", "cpp"]);
        }
        let err = fails(&args, 2);
        assert_has(
            &err,
            &[
                &format!("`sgscope {command}` does not apply to graph files"),
                "help:",
            ],
        );
    }
    let out = ok(&["table", "rules/tree-edge-deletion.sg"]);
    assert_has(&out, &["the whole position (ground 1) is 0"]);
}

#[test]
fn a_table_of_an_acyclic_graph_lists_its_nodes() {
    let out = ok(&[
        "table",
        "edge 0 1\nedge 1 2\nedge 3 0\nedge 3 1\nedge 3 2",
        "--to",
        "3",
        "--format",
        "csv",
    ]);
    let values: Vec<&str> = out
        .lines()
        .skip(1)
        .map(|line| line.rsplit(',').next().unwrap())
        .collect();
    assert_eq!(values, ["0", "1", "0", "2"], "{out}");
}

#[test]
fn a_generated_file_of_ten_thousand_edges_loads() {
    let mut text = String::from("# a generated DAG\n");
    for i in 1..=10_000u32 {
        text += &format!("edge {i} {}\n", (i * 7919) % i);
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.sg");
    std::fs::write(&path, &text).unwrap();
    let out = ok(&["check", path.to_str().unwrap()]);
    assert_has(
        &out,
        &["a graph of 10001 nodes and 10000 edges, 1 terminal, acyclic"],
    );
}

/// The SG value of node `v` by the definition: the mex of its successors' values, memoised.
fn by_recursion(edges: &[(u32, u32)], v: u32, memo: &mut [Option<u32>]) -> u32 {
    if let Some(value) = memo[v as usize] {
        return value;
    }
    let options: Vec<u32> = edges
        .iter()
        .filter(|&&(t, _)| t == v)
        .map(|&(_, w)| by_recursion(edges, w, memo))
        .collect();
    let value = (0..).find(|x| !options.contains(x)).unwrap();
    memo[v as usize] = Some(value);
    value
}

proptest! {
    #[test]
    fn the_kernel_gives_the_mex_recursion_on_random_acyclic_graphs(
        n in 1usize..40,
        raw in prop::collection::vec((0u32..1000, 0u32..1000), 1..120),
    ) {
        // Edges from a larger number to a smaller one: acyclic. Node names are the numbers,
        // so node i is the i-th smallest name; every name 0..n appears through a chain edge.
        let mut edges: Vec<(u32, u32)> = (1..n as u32).map(|v| (v, v - 1)).collect();
        for (a, b) in raw {
            let (a, b) = (a % n as u32, b % n as u32);
            if a != b {
                edges.push((a.max(b), a.min(b)));
            }
        }
        if edges.is_empty() {
            edges.push((1, 0));
        }
        let nodes = edges.iter().map(|&(a, _)| a + 1).max().unwrap() as usize;
        let text: String = edges.iter().map(|(a, b)| format!("edge {a} {b}\n")).collect();
        let game = load(SourceFile::new("t.sg", text), &[]).unwrap();
        let table = engine::compute(&game, nodes as u64 - 1, &EngineOptions::default()).unwrap();
        let mut memo = vec![None; nodes];
        for v in 0..nodes as u32 {
            prop_assert_eq!(table.get(v as usize), by_recursion(&edges, v, &mut memo));
        }
        // The generic evaluator with normal play agrees.
        let generic = sgscope::value::evaluate::evaluate(&sgscope::value::Normal, &game, &[nodes as u64 - 1]).unwrap();
        prop_assert_eq!(generic, table.to_vec());
        prop_assert!(matches!(
            engine::compute(&game, nodes as u64, &EngineOptions::default()),
            Err(EngineError::Request(_))
        ));
    }
}
