//! Loopy games on directed graphs (Smith's theory): the fast retrograde analysis and the
//! generalized Sprague–Grundy rounds of `value::loopy` against the slow references of
//! `oracle::loopy` on random graphs (self-loops, multi-edges, sparse and dense), ordinary
//! Sprague–Grundy values on random DAGs, and Smith's sum rule against retrograde analysis of
//! the sum graph. Case counts are fixed so that the total is known: 300 + 300 + 200 + 150 + 40
//! random graphs or tuples of graphs.

use proptest::prelude::*;
use sgscope::graph::Graph;
use sgscope::oracle::loopy::{
    check_counter, check_generalized_sg, outcomes_by_horizon, sum_graph, sum_node,
};
use sgscope::value::loopy::{
    gamma, generalized_sg, retrograde, sum_outcome, sum_value, LoopyValue,
};
use sgscope::value::Outcome;

use LoopyValue::{Finite, Infinite};

/// A random graph on 1..=`max_nodes` nodes: sparse (up to 2 edges a node, many terminal
/// nodes) or dense (up to `n²/2` edges), endpoints uniform, so self-loops and repeated edges
/// occur.
fn graph(max_nodes: usize) -> impl Strategy<Value = Graph> {
    (1..=max_nodes, any::<bool>()).prop_flat_map(|(n, dense)| {
        let most = if dense { n * n / 2 + 1 } else { 2 * n };
        prop::collection::vec((0..n as u32, 0..n as u32), 0..=most)
            .prop_map(move |edges| Graph::from_edges(n, &edges))
    })
}

/// A random DAG: every edge from a smaller node to a larger one (repeats kept).
fn dag(max_nodes: usize) -> impl Strategy<Value = Graph> {
    (2..=max_nodes).prop_flat_map(|n| {
        prop::collection::vec((0..n as u32, 0..n as u32), 0..=3 * n).prop_map(move |pairs| {
            let edges: Vec<(u32, u32)> = pairs
                .into_iter()
                .filter(|(a, b)| a != b)
                .map(|(a, b)| (a.min(b), a.max(b)))
                .collect();
            Graph::from_edges(n, &edges)
        })
    })
}

/// Ordinary Sprague–Grundy values by the mex recursion, successors first (reverse
/// topological order).
fn grundy(g: &Graph) -> Vec<u32> {
    let order = g.topological_order().expect("a DAG");
    let mut values = vec![0u32; g.node_count()];
    for &v in order.iter().rev() {
        let options: Vec<u32> = g
            .successors(v)
            .iter()
            .map(|&w| values[w as usize])
            .collect();
        values[v as usize] = (0..).find(|x| !options.contains(x)).unwrap();
    }
    values
}

/// Every node of the sum of `graphs`: Smith's rule on the components' γ gives the sum graph's
/// retrograde outcome, and `sum_value` gives the sum graph's γ.
fn check_sums(graphs: &[&Graph]) -> Result<(), TestCaseError> {
    let values: Vec<Vec<LoopyValue>> = graphs.iter().map(|g| generalized_sg(g).unwrap()).collect();
    let sum = sum_graph(graphs);
    let outcomes = retrograde(&sum).outcome;
    let sum_gamma = generalized_sg(&sum).unwrap();
    let mut tuple = vec![0u32; graphs.len()];
    loop {
        let at = sum_node(graphs, &tuple) as usize;
        let parts: Vec<&LoopyValue> = tuple
            .iter()
            .zip(&values)
            .map(|(&v, vals)| &vals[v as usize])
            .collect();
        prop_assert_eq!(sum_outcome(&parts), outcomes[at], "tokens at {:?}", tuple);
        prop_assert_eq!(&sum_value(&parts), &sum_gamma[at], "tokens at {:?}", tuple);
        // Odometer over the tuples.
        let mut i = tuple.len();
        loop {
            if i == 0 {
                return Ok(());
            }
            i -= 1;
            tuple[i] += 1;
            if (tuple[i] as usize) < graphs[i].node_count() {
                break;
            }
            tuple[i] = 0;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Retrograde analysis gives the horizon recursion's outcomes and remoteness.
    #[test]
    fn retrograde_agrees_with_the_horizon_recursion(g in graph(40)) {
        prop_assert_eq!(retrograde(&g), outcomes_by_horizon(&g));
    }

    /// The rounds' values satisfy every condition of the definition, their counter is a
    /// counter function, and a single token's outcome read off γ is retrograde's.
    #[test]
    fn generalized_sg_satisfies_the_definition(g in graph(40)) {
        let gamma = gamma(&g).unwrap();
        let values = gamma.values(&g);
        prop_assert_eq!(check_generalized_sg(&g, &values), Ok(()));
        let counter: Vec<Option<u32>> = (0..g.node_count() as u32).map(|v| gamma.counter(v)).collect();
        prop_assert_eq!(check_counter(&g, &values, &counter), Ok(()));
        let outcomes: Vec<Outcome> = values.iter().map(LoopyValue::outcome).collect();
        prop_assert_eq!(outcomes, retrograde(&g).outcome);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// On a DAG γ is the ordinary Sprague–Grundy value.
    #[test]
    fn on_dags_gamma_is_the_grundy_value(g in dag(40)) {
        let expected: Vec<LoopyValue> = grundy(&g).into_iter().map(Finite).collect();
        // An acyclic graph skips the rounds: its topological order must be a counter function.
        let gamma = gamma(&g).unwrap();
        let counter: Vec<Option<u32>> = (0..g.node_count() as u32).map(|v| gamma.counter(v)).collect();
        prop_assert_eq!(check_counter(&g, &expected, &counter), Ok(()));
        prop_assert_eq!(generalized_sg(&g).unwrap(), expected);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    /// Smith's rule for two tokens, at every pair of nodes.
    #[test]
    fn smiths_rule_for_pairs_matches_the_sum_graph(a in graph(8), b in graph(8)) {
        check_sums(&[&a, &b])?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Smith's rule for three tokens, at every triple of nodes.
    #[test]
    fn smiths_rule_for_triples_matches_the_sum_graph(a in graph(4), b in graph(4), c in graph(4)) {
        check_sums(&[&a, &b, &c])?;
    }
}

#[test]
fn a_lone_self_loop_is_a_draw_of_value_infinity_with_empty_k() {
    // Smith (1966): a position that can only repeat itself is drawn and has γ = ∞(∅).
    let g = Graph::from_edges(1, &[(0, 0)]);
    assert_eq!(retrograde(&g).outcome, [Outcome::D]);
    assert_eq!(retrograde(&g).remoteness, [None]);
    assert_eq!(generalized_sg(&g).unwrap(), [Infinite(vec![])]);
    assert_eq!(generalized_sg(&g).unwrap()[0].to_string(), "inf{}");
}

#[test]
fn a_two_cycle_with_an_exit() {
    // 0 ↔ 1 and 1 → 2 (terminal), the standard first example of retrograde analysis on a
    // cyclic graph (cp-algorithms, "Games on arbitrary graphs"): 1 wins by exiting, so 0,
    // whose only move is to 1, loses. Worked by hand from the definitions: remoteness 2, 1, 0;
    // γ = 0, 1, 0 (0's only option, of the larger value 1, reverses to the terminal 2, which
    // comes first in the counter order).
    let g = Graph::from_edges(3, &[(0, 1), (1, 0), (1, 2)]);
    let r = retrograde(&g);
    assert_eq!(r.outcome, [Outcome::P, Outcome::N, Outcome::P]);
    assert_eq!(r.remoteness, [Some(2), Some(1), Some(0)]);
    assert_eq!(
        generalized_sg(&g).unwrap(),
        [Finite(0), Finite(1), Finite(0)]
    );
}

#[test]
fn a_draw_that_beats_a_nim_heap() {
    // u → u and u → t, t → z (terminal): γ(t) = 1 and γ(u) = ∞{1}, a draw alone (0 ∉ K), but
    // u + *1 is N: move u to t, leaving *1 + *1 (Smith's rule with a = 1 ∈ K). Two copies of
    // u are drawn. Checked against the sum graph.
    let (z, t, u) = (0, 1, 2);
    let g = Graph::from_edges(3, &[(t, z), (u, u), (u, t)]);
    let values = generalized_sg(&g).unwrap();
    assert_eq!(values, [Finite(0), Finite(1), Infinite(vec![1])]);
    assert_eq!(values[2].pretty(), "∞{1}");
    assert_eq!(values[2].outcome(), Outcome::D);
    let sum = sum_graph(&[&g, &g]);
    let outcomes = retrograde(&sum).outcome;
    assert_eq!(outcomes[sum_node(&[&g, &g], &[u, t]) as usize], Outcome::N);
    assert_eq!(sum_outcome(&[&values[2], &values[1]]), Outcome::N);
    assert_eq!(outcomes[sum_node(&[&g, &g], &[u, u]) as usize], Outcome::D);
    assert_eq!(sum_outcome(&[&values[2], &values[2]]), Outcome::D);
    assert_eq!(outcomes[sum_node(&[&g, &g], &[u, z]) as usize], Outcome::D);
}

#[test]
fn a_finite_value_with_an_infinite_option_that_reverses() {
    // Condition B with ∞: z terminal, w → z (value 1), v → {u, w, v} is ∞{1}, u → {z, v} is 1
    // because its ∞ option v reverses to w of value 1. So u + w is P although u has a move
    // to a drawn position.
    let (z, w, v, u) = (0, 1, 2, 3);
    let g = Graph::from_edges(4, &[(w, z), (v, u), (v, w), (v, v), (u, z), (u, v)]);
    let values = generalized_sg(&g).unwrap();
    assert_eq!(values, [Finite(0), Finite(1), Infinite(vec![1]), Finite(1)]);
    assert_eq!(check_generalized_sg(&g, &values), Ok(()));
    let sum = sum_graph(&[&g, &g]);
    assert_eq!(
        retrograde(&sum).outcome[sum_node(&[&g, &g], &[u, w]) as usize],
        Outcome::P
    );
}

/// The rounds on a graph with cycles are metered: nim heaps 0..=40 as a graph (heap h moves to
/// every smaller heap) plus a self-loop on a node of its own need 42 rounds, each visiting the
/// edges of the nodes not yet valued; a budget of a few hundred edge visits stops them with the
/// rounds done and the nodes left, and the full budget values them.
#[test]
fn rounds_past_the_budget_stop_with_what_is_left() {
    let mut edges: Vec<(u32, u32)> = (0..41u32)
        .flat_map(|h| (0..h).map(move |s| (h, s)))
        .collect();
    edges.push((41, 41));
    let g = Graph::from_edges(42, &edges);
    let stopped = sgscope::engine::budget::with_steps_limit(2_000, || gamma(&g));
    match stopped {
        Err(sgscope::engine::EngineError::GraphRoundsOverBudget {
            limit,
            rounds,
            unvalued,
            nodes,
        }) => {
            assert_eq!((limit, nodes), (2_000, 42));
            assert!(rounds > 0 && rounds < 41, "stopped after {rounds} rounds");
            // Round 0 values heap 0 and finds the self-loop ∞; each later round one heap.
            assert_eq!(unvalued, 41 - rounds as usize);
        }
        other => panic!("expected the rounds to stop, got {other:?}"),
    }
    let values = generalized_sg(&g).unwrap();
    assert_eq!(values[40], Finite(40));
    assert_eq!(values[41], Infinite(vec![]));
}

/// Graphs big enough for the parallel paths: predecessors sorted on every thread (from 2^16
/// edges) and the first γ round over blocks of 2^16 nodes. Random, with cycles and many
/// terminal nodes (xorshift, fixed seeds, half the heads among the first tenth of the nodes):
/// γ satisfies every condition of the definition with its counter function, and the outcomes
/// read off it are retrograde analysis's.
#[test]
fn big_random_graphs_satisfy_the_definition() {
    for (nodes, edges, seed) in [(140_000, 200_000, 11u64), (70_000, 260_000, 13)] {
        let mut state = seed;
        let mut next = move |below: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % below as u64) as u32
        };
        let pairs: Vec<(u32, u32)> = (0..edges)
            .map(|e| {
                let head = if e % 2 == 0 {
                    next(nodes / 10)
                } else {
                    next(nodes)
                };
                (next(nodes), head)
            })
            .collect();
        let g = Graph::from_edges(nodes, &pairs);
        let gamma = gamma(&g).unwrap();
        let values = gamma.values(&g);
        assert_eq!(check_generalized_sg(&g, &values), Ok(()));
        let counter: Vec<Option<u32>> = (0..nodes as u32).map(|v| gamma.counter(v)).collect();
        assert_eq!(check_counter(&g, &values, &counter), Ok(()));
        let outcomes: Vec<Outcome> = values.iter().map(LoopyValue::outcome).collect();
        assert_eq!(outcomes, retrograde(&g).outcome);
        // Not a degenerate case: finite values above 0, and ∞ values.
        assert!(values.iter().any(|v| matches!(v, Finite(m) if *m >= 2)));
        assert!(values.iter().any(|v| matches!(v, Infinite(_))));
    }
}
