//! Games that can cycle and games on given graphs (issue 11), as a user runs them: `table` and
//! `solve` on graph files, Hackenbush files and position games whose moves cycle, checked
//! against independent references (the oracles' fixpoint recursion, the product graph of a sum,
//! the brute force over Hackenbush's game tree, the colon principle written out).

use std::io::Write;

use proptest::prelude::*;
use serde_json::Value;
use sgscope::graph::Graph;
use sgscope::oracle::hackenbush::BruteForce;
use sgscope::oracle::loopy::{outcomes_by_horizon, sum_graph, sum_node};
use sgscope::rules::{self, SourceFile};
use sgscope::value::loopy::LoopyTable;
use sgscope::value::Outcome;

use crate::support::{assert_has, assert_render, fails, ok};

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&ok(args)).expect("JSON")
}

#[test]
fn the_graph_with_a_cycle_has_its_draws() {
    // rules/graph-cycle.sg: d has no move (P); c and g move to d (N, remoteness 1); a and b
    // can keep the token on the cycle a ⇄ b, and e only reaches a or the win c (D).
    let csv = ok(&["table", "rules/graph-cycle.sg", "--format", "csv"]);
    assert_eq!(
        csv,
        "node,outcome,remoteness,value\na,D,,inf{}\nb,D,,inf{1}\nc,N,1,1\nd,P,0,0\ne,D,,inf{1}\ng,N,1,1\n"
    );
    let text = ok(&["table", "rules/graph-cycle.sg"]);
    assert_has(&text, &["1 P", "2 N", "3 D"]);
    // `solve` with no position starts at the file's `start e`, a draw kept by e → a.
    let report = json(&["solve", "rules/graph-cycle.sg", "--json"]);
    assert_eq!(report["outcome"], "D");
    assert_eq!(report["value"], "inf{1}");
    assert_eq!(report["remoteness"], Value::Null);
    assert_eq!(report["drawing_moves"][0]["to"], "a");
    // b + c: ∞{1} + *1 = ∞{0}, won by b → c (c + c = 0).
    let report = json(&["solve", "rules/graph-cycle.sg", "b + c", "--json"]);
    assert_eq!(report["outcome"], "N");
    assert_eq!(report["value"], "inf{0}");
    assert_eq!(report["winning_moves"].as_array().unwrap().len(), 1);
    assert_eq!(report["winning_moves"][0]["from"], "b");
    assert_eq!(report["winning_moves"][0]["to"], "c");
    let single = json(&["solve", "rules/graph-cycle.sg", "c", "--json"]);
    assert_eq!(single["remoteness"], 1);
    assert_render(
        &fails(&["solve", "rules/graph-cycle.sg", "zz"], 2),
        r"
error: `zz` is not a node of graph with a cycle
  help: the nodes are named in its `edge` lines (6 nodes; `sgscope table FILE` lists them)
",
    );
}

/// A random graph file: its text and the graph.
fn random_graph(nodes: u32, edges: &[(u32, u32)]) -> (String, Graph) {
    let mut text = String::from("# random\n");
    for &(u, v) in edges {
        text.push_str(&format!("edge {} {}\n", u % nodes, v % nodes));
    }
    let graph = rules::load(SourceFile::new("g.sg", &text), &[]).unwrap();
    let graph = graph.graph().unwrap().graph.clone();
    (text, graph)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    /// Sums of two tokens on one graph file: `solve`'s answer (Smith's rule on generalized SG
    /// values) is the outcome of the pair of nodes in the product graph, by the fixpoint
    /// recursion; a single token's remoteness is the recursion's.
    #[test]
    fn two_tokens_agree_with_the_product_graph(
        nodes in 2u32..8,
        edges in proptest::collection::vec((0u32..8, 0u32..8), 1..16),
    ) {
        let (text, _) = random_graph(nodes, &edges);
        let game = rules::load(SourceFile::new("g.sg", &text), &[]).unwrap();
        let graph_game = game.graph().unwrap();
        let table = LoopyTable::of_graph(graph_game).unwrap();
        let graph = &graph_game.graph;
        let product = sum_graph(&[graph, graph]);
        let reference = outcomes_by_horizon(&product);
        let alone = outcomes_by_horizon(graph);
        for u in 0..graph.node_count() as u32 {
            let one = sgscope::solve::loopy::solve_loopy(&game, &table, &[u]).unwrap();
            prop_assert_eq!(one.outcome, alone.outcome[u as usize]);
            prop_assert_eq!(one.remoteness, alone.remoteness[u as usize]);
            for v in 0..graph.node_count() as u32 {
                let report = sgscope::solve::loopy::solve_loopy(&game, &table, &[u, v]).unwrap();
                let expected = reference.outcome[sum_node(&[graph, graph], &[u, v]) as usize];
                prop_assert_eq!(report.outcome, expected, "{} + {}", u, v);
                // Every winning move leads to a P pair, every drawing one to a D pair.
                for m in &report.winning_moves {
                    let to = graph_game.node(&m.to).unwrap();
                    let after = if m.component == 0 { [to, v] } else { [u, to] };
                    prop_assert_eq!(reference.outcome[sum_node(&[graph, graph], &after) as usize], Outcome::P);
                }
                for m in &report.drawing_moves {
                    let to = graph_game.node(&m.to).unwrap();
                    let after = if m.component == 0 { [to, v] } else { [u, to] };
                    prop_assert_eq!(reference.outcome[sum_node(&[graph, graph], &after) as usize], Outcome::D);
                }
            }
        }
    }

    /// Hackenbush files with cycles, loops and parallel edges: `solve --json` gives the brute
    /// force's value and exactly the cuts to value 0.
    #[test]
    fn hackenbush_files_agree_with_the_game_tree(
        edges in proptest::collection::vec((0u32..6, 0u32..6), 1..10),
    ) {
        let mut text = String::from("# random\nhackenbush\nground 0\n");
        for &(u, v) in &edges {
            text.push_str(&format!("edge {u} {v}\n"));
        }
        let game = rules::load(SourceFile::new("h.sg", &text), &[]);
        // The ground must be on an edge.
        prop_assume!(game.is_ok());
        let game = game.unwrap();
        let graph = game.graph().unwrap();
        let ground = graph.hackenbush.unwrap();
        let position = sgscope::engine::hackenbush::Hackenbush::new(
            graph.node_count(),
            graph.undirected.clone(),
            ground,
        )
        .unwrap();
        let mut brute = BruteForce::new(&graph.undirected, ground);
        prop_assert_eq!(position.value(), brute.value());
        let all = (1u32 << graph.undirected.len()) - 1;
        let standing = brute.connected(all);
        let cuts: Vec<usize> = (0..graph.undirected.len())
            .filter(|&e| standing & (1 << e) != 0)
            .filter(|&e| brute.value_of(all & !(1 << e)) == 0)
            .collect();
        prop_assert_eq!(position.winning_cuts(0), cuts);
    }
}

#[test]
fn the_tutorials_tree_and_a_large_random_tree() {
    // AGC017 D's rule (the colon principle): G = XOR over the root's children of (G + 1); the
    // example file's value is 0 (its comment works it out), so the second player wins.
    let out = ok(&["solve", "rules/tree-edge-deletion.sg"]);
    assert_has(&out, &["G = 0: the first player loses"]);
    let csv = ok(&["table", "rules/tree-edge-deletion.sg", "--format", "csv"]);
    assert!(csv.starts_with("node,value\n1,0\n2,0\n3,1\n4,2\n"), "{csv}");

    // A random tree of 10^5 vertices (parent of v uniform below v), valued by the colon
    // principle written out here, children after parents.
    let n = 100_000usize;
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut parent = vec![0usize; n];
    let mut text = String::from("# random tree\nhackenbush\nground 0\n");
    for (v, p) in parent.iter_mut().enumerate().skip(1) {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        *p = (seed % v as u64) as usize;
        text.push_str(&format!("edge {} {v}\n", *p));
    }
    let mut value = vec![0u32; n];
    for v in (1..n).rev() {
        value[parent[v]] ^= value[v] + 1;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tree.sg");
    std::fs::File::create(&path)
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let report = json(&["solve", path.to_str().unwrap(), "--json"]);
    assert_eq!(report["value"], value[0]);
    // Every winning cut leaves 0: the colon principle again, without the cut-off subtree.
    let cuts = report["winning_moves"].as_array().unwrap();
    assert_eq!(cuts.is_empty(), value[0] == 0);
    for m in cuts.iter().take(5) {
        let child = m["cut"][1].as_str().unwrap().parse::<usize>().unwrap();
        let mut hanging = vec![false; n];
        for v in 1..n {
            hanging[v] = v == child || hanging[parent[v]];
        }
        let mut left = vec![0u32; n];
        for v in (1..n).rev() {
            if !hanging[v] {
                left[parent[v]] ^= left[v] + 1;
            }
        }
        assert_eq!(left[0], 0, "cut {m}");
    }
}

#[test]
fn the_heap_that_can_grow() {
    // rules/loopy-heap.sg: take 1..=3, or put 2 back from n ≡ 1 (mod 5), up to 20. The graph
    // of its positions, written out here, valued by the oracle's fixpoint recursion.
    let csv = ok(&[
        "table",
        "rules/loopy-heap.sg",
        "--to",
        "20",
        "--format",
        "csv",
    ]);
    let mut edges = Vec::new();
    for n in 0..=20u32 {
        for x in 1..=3 {
            if x <= n {
                edges.push((n, n - x));
            }
        }
        if n % 5 == 1 && n + 2 <= 20 {
            edges.push((n, n + 2));
        }
    }
    let reference = outcomes_by_horizon(&Graph::from_edges(21, &edges));
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), 21);
    for (n, row) in rows.iter().enumerate() {
        let fields: Vec<&str> = row.split(',').collect();
        assert_eq!(fields[0], n.to_string());
        assert_eq!(fields[1], reference.outcome[n].to_string(), "n = {n}");
        let remoteness = reference.remoteness[n].map_or_else(String::new, |r| r.to_string());
        assert_eq!(fields[2], remoteness, "n = {n}");
    }
    // The P-positions are Bash's game's below 16; from 16 on, play can go on forever.
    assert!(rows[16].contains(",D,"), "{csv}");
}

#[test]
fn bad_requests_are_explained() {
    // A move out of the table.
    assert_render(
        &fails(&["table", "rules/loopy-heap.sg", "--to", "7"], 1),
        r"
note: the moves can cycle (1 → 3 → 2 → 1), so every position is valued as a loopy game: outcome (P, N or D for a draw), remoteness and generalized Sprague–Grundy value
error: a move from 6 leads to 8, outside the table 0..=7
  --> rules/loopy-heap.sg:11:1
   |
11 | move add: if n % 5 == 1 && n + 2 <= 20 => (n + 2)
   | ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ this move leaves the table
   |
   = help: the moves can cycle, so every position a move reaches must be in the table: ask for a larger --to (or bound the moves in the rules)
",
    );
    // Misère play of a loopy game.
    assert_render(
        &fails(&["table", "rules/graph-cycle.sg", "--misere"], 2),
        r"
error: misère play of a graph or of a game whose moves can cycle is not supported: the loopy values (outcome, remoteness, generalized Sprague–Grundy value) are those of normal play
  help: drop --misere
",
    );
    // A move to a sum of several positions in a game that can cycle.
    let err = fails(
        &[
            "table",
            "position (n)\nmove up: if n < 3 => n + 1\nmove split: if n >= 2 => 1, n - 2",
            "--to",
            "3",
        ],
        1,
    );
    assert_render(
        &err,
        r"
note: the moves can cycle (1 → 2 → 3 → 1), so every position is valued as a loopy game: outcome (P, N or D for a draw), remoteness and generalized Sprague–Grundy value
error: a move from 2 leaves a sum of several positions, and the moves of this game can cycle
  help: a game that can cycle is valued as one token on a graph of positions (C. A. B. Smith): write moves that lead to one position, or make every move decrease something so that the game ends
",
    );
    // `check` says a cyclic rules file is a loopy game.
    let out = ok(&["check", "rules/loopy-heap.sg"]);
    assert_has(&out, &["its moves can cycle"]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// On games that always end, the `loopy` value rule gives the Sprague–Grundy values of
    /// `normal` and their outcomes (no draws): random subtraction games (whose moves leave one
    /// heap: the loopy rule values tokens, not sums).
    #[test]
    fn the_loopy_rule_is_normal_play_on_games_that_end(
        set in proptest::collection::btree_set(1u64..9, 1..4),
    ) {
        let text = format!(
            "subtraction {{{}}}",
            set.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
        );
        let registry = sgscope::value::Registry::standard();
        let game = rules::load(SourceFile::new("t.sg", &text), &[]).unwrap();
        let normal = registry.get("normal").unwrap().evaluate(&game, &[40]).unwrap();
        let loopy = registry.get("loopy").unwrap().evaluate(&game, &[40]).unwrap();
        prop_assert_eq!(normal.cells(), loopy.cells(), "{}", text);
    }
}

#[test]
fn the_loopy_rule_values_wythoff_like_normal_play() {
    let text = std::fs::read_to_string(crate::support::root().join("rules/wythoff.sg")).unwrap();
    let game = rules::load(SourceFile::new("wythoff.sg", &text), &[]).unwrap();
    let registry = sgscope::value::Registry::standard();
    let normal = registry
        .get("normal")
        .unwrap()
        .evaluate(&game, &[12, 12])
        .unwrap();
    let loopy = registry
        .get("loopy")
        .unwrap()
        .evaluate(&game, &[12, 12])
        .unwrap();
    assert_eq!(normal.cells(), loopy.cells());
}

#[test]
fn graphs_are_drawn_with_their_outcomes() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("g.svg");
    ok(&["plot", "rules/graph-cycle.sg", "-o", svg.to_str().unwrap()]);
    let text = std::fs::read_to_string(&svg).unwrap();
    // Each node's name is a text element of its own (plotters writes the text on its own line).
    let texts: Vec<&str> = text.lines().map(str::trim).collect();
    for label in ["a", "e", "∞{1}", "D: draw"] {
        assert!(texts.contains(&label), "{label} in the SVG");
    }
    let png = dir.path().join("tree.png");
    ok(&[
        "plot",
        "rules/tree-edge-deletion.sg",
        "-o",
        png.to_str().unwrap(),
    ]);
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let err = fails(
        &[
            "plot",
            "rules/graph-cycle.sg",
            "-o",
            svg.to_str().unwrap(),
            "--rare",
        ],
        2,
    );
    assert_render(
        &err,
        "error: --rare marks rare values of a heap game; a graph has none (drop --rare)\n",
    );
}

/// A box of more than 2^16 positions whose moves cycle is listed in chunks, one per thread,
/// by machine code, and the chunks joined: outcomes and remoteness must be those of a plain
/// retrograde analysis (written out here) of the same moves, `take 1-3, or put 2 back` on
/// heaps `0..=70000` (benches/general-loops/loopy-heap.sg).
#[test]
fn a_large_loopy_box_has_the_outcomes_of_a_retrograde_analysis() {
    const TOP: usize = 70_000;
    let csv = ok(&[
        "table",
        "benches/general-loops/loopy-heap.sg",
        "--to",
        &TOP.to_string(),
        "--set",
        &format!("top={TOP}"),
        "--format",
        "csv",
    ]);
    let moves = |n: usize| -> Vec<usize> {
        let mut options: Vec<usize> = (1..=3.min(n)).map(|x| n - x).collect();
        if n % 5 == 1 && n + 2 <= TOP {
            options.push(n + 2);
        }
        options
    };
    let mut predecessors = vec![Vec::new(); TOP + 1];
    let mut unresolved: Vec<usize> = (0..=TOP).map(|n| moves(n).len()).collect();
    for n in 0..=TOP {
        for w in moves(n) {
            predecessors[w].push(n);
        }
    }
    // (won, remoteness) once known: a position with no move is lost at once; a predecessor
    // of a lost position is won one move later; a position whose moves all reach won ones is
    // lost one move after the last of them found (breadth first: the longest way).
    let mut known: Vec<Option<(bool, u32)>> = vec![None; TOP + 1];
    let mut queue: Vec<usize> = (0..=TOP).filter(|&n| unresolved[n] == 0).collect();
    for &n in &queue {
        known[n] = Some((false, 0));
    }
    let mut head = 0;
    while let Some(&v) = queue.get(head) {
        head += 1;
        let (won, depth) = known[v].expect("queued positions are known");
        for &u in &predecessors[v] {
            if known[u].is_some() {
                continue;
            }
            if !won {
                known[u] = Some((true, depth + 1));
                queue.push(u);
            } else {
                unresolved[u] -= 1;
                if unresolved[u] == 0 {
                    known[u] = Some((false, depth + 1));
                    queue.push(u);
                }
            }
        }
    }
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("n,outcome,remoteness,value"));
    let mut draws = 0;
    for (n, line) in lines.enumerate() {
        let fields: Vec<&str> = line.splitn(4, ',').collect();
        let want = match known[n] {
            Some((true, r)) => format!("N,{r}"),
            Some((false, r)) => format!("P,{r}"),
            None => {
                draws += 1;
                "D,".to_string()
            }
        };
        assert_eq!(fields[0], n.to_string());
        assert_eq!(format!("{},{}", fields[1], fields[2]), want, "heap {n}");
    }
    assert!(draws > 0, "the game has draws (it cycles)");
    assert_eq!(csv.lines().count(), TOP + 2);
}
