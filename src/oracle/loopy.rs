//! Slow references for [`crate::value::loopy`], written from the definitions and sharing no code
//! with the fast algorithms:
//!
//! * [`outcomes_by_horizon`]: outcomes and remoteness by the bounded-horizon recursion (who
//!   wins within `k` moves, for `k = 0, 1, 2, …` until nothing changes), `O(V·(V + E))`;
//! * [`check_generalized_sg`] and [`check_counter`]: every condition of Fraenkel's definition
//!   of the generalized Sprague–Grundy function (A, B with a counter function, C, and the set
//!   `K` of each ∞), which determine `γ` uniquely;
//! * [`sum_graph`]: the graph of a sum of tokens (a move moves one token), to check Smith's sum
//!   rule by retrograde analysis.

use std::collections::BTreeSet;

use crate::graph::Graph;
use crate::value::loopy::{LoopyValue, Retrograde};
use crate::value::Outcome;

/// Outcomes and remoteness by the definition's horizon recursion: `P₀` is the terminal
/// nodes; `N_{k+1}` the nodes with a successor in `P_k`; `P_{k+1}` the non-terminal nodes all
/// of whose successors are in `N_k` (plus `P_k`). A node's remoteness is the first `k` at
/// which it appears (so `1 + min` over `P` successors for `N`, `1 + max` over successors for
/// `P`); nodes in no set are drawn. Each pass reads only the previous pass's sets, and the
/// passes stop at the first that adds nothing (the next would read the same sets).
pub fn outcomes_by_horizon(graph: &Graph) -> Retrograde {
    let n = graph.node_count();
    let mut known: Vec<Option<(Outcome, u32)>> = vec![None; n];
    let mut k = 0u32;
    loop {
        let previous = known.clone();
        let mut changed = false;
        for v in 0..n as u32 {
            if previous[v as usize].is_some() {
                continue;
            }
            let succ = graph.successors(v);
            let outcome_of = |w: &u32| previous[*w as usize].map(|(o, _)| o);
            let found = if succ.is_empty() {
                Some(Outcome::P)
            } else if succ.iter().any(|w| outcome_of(w) == Some(Outcome::P)) {
                Some(Outcome::N)
            } else if succ.iter().all(|w| outcome_of(w) == Some(Outcome::N)) {
                Some(Outcome::P)
            } else {
                None
            };
            if let Some(o) = found {
                known[v as usize] = Some((o, k));
                changed = true;
            }
        }
        if !changed {
            break;
        }
        k += 1;
    }
    Retrograde {
        outcome: known
            .iter()
            .map(|x| x.map_or(Outcome::D, |(o, _)| o))
            .collect(),
        remoteness: known.iter().map(|x| x.map(|(_, r)| r)).collect(),
    }
}

fn finite(value: &LoopyValue) -> Option<u32> {
    match value {
        LoopyValue::Finite(m) => Some(*m),
        LoopyValue::Infinite(_) => None,
    }
}

/// `γ(v) > m`, ∞ counting as larger than every number.
fn above(value: &LoopyValue, m: u32) -> bool {
    finite(value).is_none_or(|x| x > m)
}

fn mex(set: &BTreeSet<u32>) -> u32 {
    (0..).find(|x| !set.contains(x)).unwrap_or(u32::MAX)
}

/// Checks that `values` is the generalized Sprague–Grundy function of `graph` (Fraenkel's
/// conditions, see [`crate::value::loopy`]): A (a finite value is the mex of the options'
/// finite values), C (an ∞ node has an ∞ option `∞(K)` with the node's mex not in `K`), each
/// `∞(K)` lists exactly the finite values of the node's options, and B: a counter function
/// exists. For B the nodes of each finite value `m` are ordered greedily, a node being placed
/// once each of its options of larger value has an option of value `m` already placed; B holds
/// for some counter iff every node gets placed (placing more never hurts). The error names the
/// first node and condition that fail.
pub fn check_generalized_sg(graph: &Graph, values: &[LoopyValue]) -> Result<(), String> {
    let n = graph.node_count();
    if values.len() != n {
        return Err(format!("{} values for {n} nodes", values.len()));
    }
    for u in 0..n as u32 {
        let options: BTreeSet<u32> = graph
            .successors(u)
            .iter()
            .filter_map(|&w| finite(&values[w as usize]))
            .collect();
        match &values[u as usize] {
            LoopyValue::Finite(m) => {
                if mex(&options) != *m {
                    return Err(format!("A fails at {u}: value {m}, mex {}", mex(&options)));
                }
            }
            LoopyValue::Infinite(k) => {
                if !k.iter().eq(options.iter()) {
                    return Err(format!(
                        "K of {u} is {k:?}, its options' values {options:?}"
                    ));
                }
                let m = mex(&options);
                let escapes = graph.successors(u).iter().any(
                    |&v| matches!(&values[v as usize], LoopyValue::Infinite(l) if !l.contains(&m)),
                );
                if !escapes {
                    return Err(format!("C fails at {u}: every ∞ option has {m} in its K"));
                }
            }
        }
    }
    let classes: BTreeSet<u32> = values.iter().filter_map(finite).collect();
    for m in classes {
        let mut placed = vec![false; n];
        let mut pending: Vec<u32> = (0..n as u32)
            .filter(|&u| finite(&values[u as usize]) == Some(m))
            .collect();
        loop {
            let before = pending.len();
            pending.retain(|&u| {
                let ready = graph.successors(u).iter().all(|&v| {
                    !above(&values[v as usize], m)
                        || graph.successors(v).iter().any(|&w| placed[w as usize])
                });
                if ready {
                    placed[u as usize] = true;
                }
                !ready
            });
            if pending.is_empty() {
                break;
            }
            if pending.len() == before {
                return Err(format!(
                    "B fails: no counter function orders the nodes of value {m} {pending:?}"
                ));
            }
        }
    }
    Ok(())
}

/// Checks condition B with a given counter function: for every node `u` of finite value `m`
/// and option `v` of larger value (or ∞), some option `w` of `v` has value `m` and
/// `counter[w] < counter[u]`. `counter[u]` must be `Some` for the finite nodes.
pub fn check_counter(
    graph: &Graph,
    values: &[LoopyValue],
    counter: &[Option<u32>],
) -> Result<(), String> {
    for u in 0..graph.node_count() as u32 {
        let Some(m) = finite(&values[u as usize]) else {
            continue;
        };
        let Some(cu) = counter[u as usize] else {
            return Err(format!("node {u} of value {m} has no counter"));
        };
        for &v in graph.successors(u) {
            if above(&values[v as usize], m)
                && !graph.successors(v).iter().any(|&w| {
                    finite(&values[w as usize]) == Some(m)
                        && counter[w as usize].is_some_and(|cw| cw < cu)
                })
            {
                return Err(format!("B fails at {u} (value {m}, counter {cu}) via {v}"));
            }
        }
    }
    Ok(())
}

/// The node of [`sum_graph`]`(graphs)` where the tokens stand on `nodes` (one per graph):
/// mixed radix, the first graph most significant.
pub fn sum_node(graphs: &[&Graph], nodes: &[u32]) -> u32 {
    graphs
        .iter()
        .zip(nodes)
        .fold(0, |acc, (g, &v)| acc * g.node_count() as u32 + v)
}

/// The graph of the sum of one token on each of `graphs`: its nodes are the tuples of nodes
/// (numbered by [`sum_node`]), and a move moves one token along an edge of its graph. The
/// product of the node counts must fit in a `u32` (small graphs only).
pub fn sum_graph(graphs: &[&Graph]) -> Graph {
    let sizes: Vec<usize> = graphs.iter().map(|g| g.node_count()).collect();
    let total: usize = sizes.iter().product();
    let mut edges = Vec::new();
    let mut tuple = vec![0u32; graphs.len()];
    for _ in 0..total {
        let from = sum_node(graphs, &tuple);
        for (i, g) in graphs.iter().enumerate() {
            for &w in g.successors(tuple[i]) {
                let mut next = tuple.clone();
                next[i] = w;
                edges.push((from, sum_node(graphs, &next)));
            }
        }
        // Advance the tuple like an odometer, last graph fastest.
        for i in (0..tuple.len()).rev() {
            tuple[i] += 1;
            if (tuple[i] as usize) < sizes[i] {
                break;
            }
            tuple[i] = 0;
        }
    }
    Graph::from_edges(total, &edges)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checker_rejects_wrong_values() {
        use LoopyValue::{Finite, Infinite};
        // 0 ↔ 1 with no exit: both ∞{}. Calling them 0 and 1 satisfies A but breaks B: 0's
        // option 1 would need an option of value 0 counted before 0, and 0 is its only one.
        let g = Graph::from_edges(2, &[(0, 1), (1, 0)]);
        assert!(check_generalized_sg(&g, &[Infinite(vec![]), Infinite(vec![])]).is_ok());
        assert!(check_generalized_sg(&g, &[Finite(0), Finite(1)]).is_err());
        assert!(check_generalized_sg(&g, &[Finite(0), Infinite(vec![0])]).is_err());
        assert!(check_generalized_sg(&g, &[Infinite(vec![1]), Infinite(vec![])]).is_err());
        // A lone self-loop valued 0 breaks A: its option (itself) has value 0, mex 1.
        let looped = Graph::from_edges(1, &[(0, 0)]);
        assert!(check_generalized_sg(&looped, &[Finite(0)]).is_err());
        assert!(check_generalized_sg(&looped, &[Infinite(vec![])]).is_ok());
    }

    #[test]
    fn sums_of_two_paths() {
        let path = Graph::from_edges(2, &[(0, 1)]);
        let sum = sum_graph(&[&path, &path]);
        assert_eq!(sum.node_count(), 4);
        assert_eq!(sum.edge_count(), 4);
        let r = outcomes_by_horizon(&sum);
        // *1 + *1 is P (remoteness 2), *1 + 0 is N.
        assert_eq!(
            r.outcome[sum_node(&[&path, &path], &[0, 0]) as usize],
            Outcome::P
        );
        assert_eq!(r.remoteness[0], Some(2));
        assert_eq!(
            r.outcome[sum_node(&[&path, &path], &[0, 1]) as usize],
            Outcome::N
        );
    }
}
