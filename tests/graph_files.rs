//! Graph files (`edge U V` lines): loading, located errors, node order, the acyclic kernel
//! against a mex recursion, cycles named by nodes, and the subcommands that refuse graphs.

use proptest::prelude::*;

use sgscope::engine::{self, EngineError, EngineOptions};
use sgscope::rules::{load, GameKind, SourceFile};

use crate::support::{assert_has, assert_render, error_for, fails, ok, render_mismatch};

#[test]
fn every_bad_graph_line_is_a_located_error() {
    // (file, its whole error render as `check` prints it)
    let cases: &[(&str, &str)] = &[
        (
            "edge a\n",
            r#"
error: `edge` needs two nodes
 --> bad.sg:1:1
  |
1 | edge a
  | ^^^^^^ expected `edge U V`
  |
  = help: write the move's two nodes, e.g. `edge a b` (a move from a to b)
"#,
        ),
        (
            "edge a b c\n",
            r#"
error: an edge joins two nodes, found a third: `c`
 --> bad.sg:1:10
  |
1 | edge a b c
  |          ^ one node too many
  |
  = help: write one edge per line: `edge U V`
"#,
        ),
        (
            "edge 1.5 x\n",
            r#"
error: `1.5` is not a node name
 --> bad.sg:1:6
  |
1 | edge 1.5 x
  |      ^^^ not an integer or a name
  |
  = help: a node is a non-negative integer (`3`) or a name (`a`, `left_2`)
"#,
        ),
        (
            "edge -3 a\n",
            r#"
error: `-3` cannot name a node: it is negative
 --> bad.sg:1:6
  |
1 | edge -3 a
  |      ^^ a negative number
  |
  = help: a node is a non-negative integer (`3`) or a name (`a`, `left_2`)
"#,
        ),
        (
            "edge a b\nstart a\nstart b\n",
            r#"
error: a second `start` line
 --> bad.sg:3:1
  |
3 | start b
  | ^^^^^^^ already given above
  |
  = help: keep one `start` line
"#,
        ),
        (
            "hackenbush\nground a\nground b\nedge a b\n",
            r#"
error: a second `ground` line
 --> bad.sg:3:1
  |
3 | ground b
  | ^^^^^^^^ already given above
  |
  = help: keep one `ground` line
"#,
        ),
        (
            "hackenbush\nhackenbush\nground a\nedge a b\n",
            r#"
error: a second `hackenbush` line
 --> bad.sg:2:1
  |
2 | hackenbush
  | ^^^^^^^^^^ already given above
  |
  = help: keep one `hackenbush` line
"#,
        ),
        (
            "edge a b\nground a\n",
            r#"
error: `ground` without `hackenbush`
 --> bad.sg:2:1
  |
2 | ground a
  | ^^^^^^^^ only a hackenbush graph has a ground
  |
  = help: add a `hackenbush` line to make the file a green Hackenbush position, or remove the `ground` line
"#,
        ),
        (
            "hackenbush\nedge a b\n",
            r#"
error: a graph with no ground for hackenbush
 --> bad.sg:1:1
  |
1 | hackenbush
  | ^^^^^^^^^^ `hackenbush` needs a `ground` line
  |
  = help: name the ground node on a line of its own: `ground G`
"#,
        ),
        (
            "hackenbush\nground a\nedge a b\nstart b\n",
            r#"
error: a hackenbush file has no `start` line
 --> bad.sg:4:1
  |
4 | start b
  | ^^^^^^^ `start` in a hackenbush file
  |
  = help: a hackenbush position is the whole graph: remove the `start` line
"#,
        ),
        (
            "edge a b\nmove x in 1..=n => n - x\n",
            r#"
error: a graph file cannot have a `move` line
 --> bad.sg:2:1
  |
2 | move x in 1..=n => n - x
  | ^^^^ not a graph line
  |
  = help: a graph file is only `edge`/`start`/`ground`/`hackenbush` lines plus `name`/`description`; write move rules and family lines in a file of their own
"#,
        ),
        (
            "edge a b\nheap m\n",
            r#"
error: a graph file cannot have a `heap` line
 --> bad.sg:2:1
  |
2 | heap m
  | ^^^^ not a graph line
  |
  = help: a graph file is only `edge`/`start`/`ground`/`hackenbush` lines plus `name`/`description`; write move rules and family lines in a file of their own
"#,
        ),
        (
            "position (x, y)\nedge a b\n",
            r#"
error: a graph file cannot have a `position` line
 --> bad.sg:1:1
  |
1 | position (x, y)
  | ^^^^^^^^ not a graph line
  |
  = help: a graph file is only `edge`/`start`/`ground`/`hackenbush` lines plus `name`/`description`; write move rules and family lines in a file of their own
"#,
        ),
        (
            // "an `octal` line": the article follows the keyword (it read "a `octal` line").
            "edge a b\noctal 0.07\n",
            r#"
error: a graph file cannot have an `octal` line
 --> bad.sg:2:1
  |
2 | octal 0.07
  | ^^^^^ not a graph line
  |
  = help: a graph file is only `edge`/`start`/`ground`/`hackenbush` lines plus `name`/`description`; write move rules and family lines in a file of their own
"#,
        ),
        (
            "edge a b\nparam k = 3\n",
            r#"
error: a graph file has no parameters
 --> bad.sg:2:1
  |
2 | param k = 3
  | ^^^^^ `param` in a graph file
  |
  = help: remove the line: a graph file lists its edges, there is nothing to set
"#,
        ),
        (
            "edge a b\nplay misere\n",
            r#"
error: misère play of a graph file is not supported yet
 --> bad.sg:2:1
  |
2 | play misere
  | ^^^^^^^^^^^ graph files are valued in normal play
  |
  = help: remove the `play misere` line
"#,
        ),
        (
            "edge a b\nstart z\n",
            r#"
error: the start node `z` is on no edge
 --> bad.sg:2:7
  |
2 | start z
  |       ^ not a node of the graph
  |
  = help: name a node of some `edge` line as the start
"#,
        ),
        (
            "name \"empty\"\nstart a\n",
            r#"
error: the start node `a` is on no edge
 --> bad.sg:2:7
  |
2 | start a
  |       ^ not a node of the graph
  |
  = help: name a node of some `edge` line as the start

error: this graph file has no edge
 --> bad.sg:2:8
  |
2 | start a
  |        ^ no `edge` line
  |
  = help: add the moves as `edge U V` lines (a move from U to V)
"#,
        ),
        (
            "edge a b\nedg b c\n",
            r#"
error: unknown statement `edg`
 --> bad.sg:2:1
  |
2 | edg b c
  | ^^^ expected `edge` or another graph line
  |
  = help: did you mean `edge`?
"#,
        ),
        (
            "edge a b\nhex 0.07\n",
            r#"
error: a graph file cannot have a `hex` line
 --> bad.sg:2:1
  |
2 | hex 0.07
  | ^^^ not a graph line
  |
  = help: a graph file is only `edge`/`start`/`ground`/`hackenbush` lines plus `name`/`description`; write move rules and family lines in a file of their own
"#,
        ),
        (
            "edge 99999999999999999999 1\n",
            r#"
error: node number `99999999999999999999` is too large
 --> bad.sg:1:6
  |
1 | edge 99999999999999999999 1
  |      ^^^^^^^^^^^^^^^^^^^^ does not fit in 64 bits
  |
  = help: node numbers are at most 18446744073709551615; or name the node by a word
"#,
        ),
    ];
    for (text, render) in cases {
        if let Some(report) = render_mismatch(&error_for(text), render) {
            panic!("{text:?}: {report}");
        }
    }
}

#[test]
fn graph_words_are_reserved_in_other_files() {
    assert_render(
        &error_for("move start in 1..=n => n - start\n"),
        r#"
error: `start` cannot name a binder: it is already a keyword
 --> bad.sg:1:6
  |
1 | move start in 1..=n => n - start
  |      ^^^^^ choose another name
  |
  = help: every name (coordinate, parameters, binders) must be distinct and not a keyword
"#,
    );
    // `edg` in a rules file is a misspelt statement.
    assert_render(
        &error_for("edg a b\n"),
        r#"
error: unknown statement `edg`
 --> bad.sg:1:1
  |
1 | edg a b
  | ^^^ expected a family name or `move`
  |
  = help: did you mean `edge`?
"#,
    );
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
    assert_render(
        &fails(&["table", "rules/graph-cycle.sg", "--misere"], 2),
        r"
error: misère play of a graph or of a game whose moves can cycle is not supported: the loopy values (outcome, remoteness, generalized Sprague–Grundy value) are those of normal play
  help: drop --misere
",
    );
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
