//! The normal-play kernel of graph files: the Sprague–Grundy value of every node of an
//! acyclic directed graph, in reverse topological order (each node after its successors).
//!
//! `G(v) = mex { G(w) : v → w }`, the definition itself (Sprague 1935, Grundy 1939): with the
//! nodes in reverse topological order every successor is valued first, so one pass over the
//! edges values the whole graph, in linear time. A graph with a cycle has positions from which
//! play need not end (their values are loopy, Smith's generalized SG function): this kernel
//! refuses it with [`EngineError::GraphCycle`], naming the nodes of one cycle.
//!
//! The mex is taken with a stamped array rather than the engine's [`super::mex::MexSet`]: a
//! node of out-degree `d` has a value at most `d`, so only option values `≤ d` matter, and a
//! stamp per value makes each node cost `O(d)` however large the graph's largest degree (a
//! bitset cleared per node would cost the largest degree at every node).

use super::EngineError;
use crate::graph::Graph;
use crate::rules::GraphGame;

/// The value of every node of a directed graph file, by node index.
///
/// Errors: [`EngineError::Hackenbush`] for a hackenbush file (its positions are subgraphs,
/// valued by the hackenbush kernel) and [`EngineError::GraphCycle`] for a graph with a cycle.
pub fn values(game: &GraphGame) -> Result<Vec<u32>, EngineError> {
    if game.hackenbush.is_some() {
        return Err(EngineError::Hackenbush);
    }
    let graph = &game.graph;
    let Some(order) = graph.topological_order() else {
        let cycle = find_cycle(graph);
        return Err(EngineError::GraphCycle {
            nodes: cycle.iter().map(|&v| game.name(v).to_string()).collect(),
        });
    };
    Ok(values_in_order(graph, &order))
}

/// The values of the nodes of `graph` taken in the reverse of `order`, a topological order.
fn values_in_order(graph: &Graph, order: &[u32]) -> Vec<u32> {
    let n = graph.node_count();
    let mut value = vec![0u32; n];
    let widest = (0..n as u32)
        .map(|v| graph.out_degree(v))
        .max()
        .unwrap_or(0);
    // `stamp[x] == v + 1`: value `x` is an option of node `v`.
    let mut stamp = vec![0u32; widest + 1];
    for &v in order.iter().rev() {
        let successors = graph.successors(v);
        for &w in successors {
            let x = value[w as usize] as usize;
            if x <= successors.len() {
                stamp[x] = v + 1;
            }
        }
        value[v as usize] = (0..=successors.len())
            .find(|&x| stamp[x] != v + 1)
            .unwrap_or(successors.len()) as u32;
    }
    value
}

/// The nodes of one cycle of `graph`, the first repeated at the end (`[a, b, a]`); empty when
/// the graph has none. An iterative depth-first search: a graph of any depth is safe.
pub fn find_cycle(graph: &Graph) -> Vec<u32> {
    const NEW: u8 = 0;
    const ON_PATH: u8 = 1;
    const DONE: u8 = 2;
    let n = graph.node_count();
    let mut state = vec![NEW; n];
    for root in 0..n as u32 {
        if state[root as usize] != NEW {
            continue;
        }
        // The path from the root: each node and the index of its next successor to try.
        let mut path: Vec<(u32, usize)> = vec![(root, 0)];
        state[root as usize] = ON_PATH;
        while let Some(&mut (v, ref mut next)) = path.last_mut() {
            let successors = graph.successors(v);
            if *next == successors.len() {
                state[v as usize] = DONE;
                path.pop();
                continue;
            }
            let w = successors[*next];
            *next += 1;
            match state[w as usize] {
                NEW => {
                    state[w as usize] = ON_PATH;
                    path.push((w, 0));
                }
                ON_PATH => {
                    let from = path.iter().position(|&(u, _)| u == w).unwrap_or(0);
                    let mut cycle: Vec<u32> = path[from..].iter().map(|&(u, _)| u).collect();
                    cycle.push(w);
                    return cycle;
                }
                _ => {}
            }
        }
    }
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::game;

    fn graph_of(text: &str) -> GraphGame {
        game(text).graph().expect("a graph file").clone()
    }

    #[test]
    fn a_path_alternates_and_a_fork_takes_the_mex() {
        // 0 → 1 → 2: G = 0, 1, 0 from the end; 3 → {0, 1, 2} has options 0, 1, 0: G = 2.
        let g = graph_of("edge 0 1\nedge 1 2\nedge 3 0\nedge 3 1\nedge 3 2\n");
        assert_eq!(values(&g).unwrap(), vec![0, 1, 0, 2]);
    }

    #[test]
    fn duplicate_edges_and_wide_nodes() {
        let mut text = String::new();
        for leaf in 1..=100 {
            text += &format!("edge hub l{leaf}\nedge hub l{leaf}\n");
        }
        let g = graph_of(&text);
        let v = values(&g).unwrap();
        assert_eq!(v[0], 1);
        assert!(v[1..].iter().all(|&x| x == 0));
    }

    #[test]
    fn cycles_are_named_by_node_names() {
        let g = graph_of("edge a b\nedge b c\nedge c b\nedge a d\n");
        let Err(EngineError::GraphCycle { nodes }) = values(&g) else {
            panic!("a cycle")
        };
        assert_eq!(nodes, ["b", "c", "b"]);
        assert_eq!(
            find_cycle(&Graph::from_edges(2, &[(0, 1)])),
            Vec::<u32>::new()
        );
        assert_eq!(find_cycle(&Graph::from_edges(1, &[(0, 0)])), vec![0, 0]);
    }

    #[test]
    fn hackenbush_files_are_not_valued_here() {
        let g = graph_of("hackenbush\nground g\nedge g a\n");
        assert!(matches!(values(&g), Err(EngineError::Hackenbush)));
    }
}
