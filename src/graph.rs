//! Explicit directed graphs in compressed sparse row form: the one graph type shared by the
//! rules (an `edge U V` file), the engine (a node's options) and the value rules (retrograde
//! analysis, generalized Sprague–Grundy values, Hackenbush).
//!
//! Nodes are `0..node_count()`; the successors of `v` are a slice, in the order the edges were
//! given (duplicates kept: two `edge U V` lines are two moves). Sits at the bottom of the crate
//! with `fs` and `theory`: it imports nothing from it.

pub mod layout;

/// A directed graph on the nodes `0..n`, its edges stored by tail (CSR).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Graph {
    /// `offsets[v]..offsets[v + 1]` indexes the successors of `v` in `targets`.
    offsets: Vec<usize>,
    targets: Vec<u32>,
}

impl Graph {
    /// The graph on `node_count` nodes with the edges `(tail, head)`, each node's successors in
    /// the order given. Every endpoint must be below `node_count` (a debug assertion; callers
    /// name their nodes first).
    pub fn from_edges(node_count: usize, edges: &[(u32, u32)]) -> Graph {
        let mut offsets = vec![0usize; node_count + 1];
        for &(tail, head) in edges {
            debug_assert!((tail as usize) < node_count && (head as usize) < node_count);
            offsets[tail as usize + 1] += 1;
        }
        for v in 0..node_count {
            offsets[v + 1] += offsets[v];
        }
        let mut next = offsets.clone();
        let mut targets = vec![0u32; edges.len()];
        for &(tail, head) in edges {
            targets[next[tail as usize]] = head;
            next[tail as usize] += 1;
        }
        Graph { offsets, targets }
    }

    /// The graph whose node `v` has the successors `targets[offsets[v]..offsets[v + 1]]`
    /// (compressed sparse row form, as stored), for a caller that lists each node's edges in
    /// node order and so can skip [`Graph::from_edges`]'s list of pairs and its counting sort.
    ///
    /// # Panics
    /// If `offsets` is empty, does not start at 0, decreases, or does not end at
    /// `targets.len()`, or if a target is not a node.
    pub fn from_csr(offsets: Vec<usize>, targets: Vec<u32>) -> Graph {
        // Folds without an early exit, which the compiler turns into vector code: a graph of
        // 10⁷ edges is checked in a few milliseconds.
        assert!(
            offsets.first() == Some(&0)
                && offsets.last() == Some(&targets.len())
                && offsets
                    .windows(2)
                    .fold(true, |sorted, w| sorted & (w[0] <= w[1])),
            "CSR offsets run from 0 to the number of edges"
        );
        let n = offsets.len() - 1;
        assert!(
            targets.is_empty() || (targets.iter().fold(0, |most, &w| most.max(w)) as usize) < n,
            "every edge ends at a node"
        );
        Graph { offsets, targets }
    }

    /// [`Graph::from_csr`] for lists built by code that makes each target from a node's index
    /// (a loopy table's listing), checked only in debug builds: the checks read every offset
    /// and target once more (8 ms for a table of 3·10⁶ positions, issue 27). Lists that broke
    /// the invariants would make the graph's methods panic on an index out of bounds, never
    /// read memory they should not.
    pub(crate) fn from_listed_csr(offsets: Vec<usize>, targets: Vec<u32>) -> Graph {
        debug_assert!(
            offsets.first() == Some(&0)
                && offsets.last() == Some(&targets.len())
                && offsets.windows(2).all(|w| w[0] <= w[1])
                && targets.iter().all(|&w| (w as usize) < offsets.len() - 1),
            "CSR lists of nodes"
        );
        Graph { offsets, targets }
    }

    /// The number of nodes.
    pub fn node_count(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    /// The number of edges.
    pub fn edge_count(&self) -> usize {
        self.targets.len()
    }

    /// The successors of `v` (the heads of its edges), in order.
    pub fn successors(&self, v: u32) -> &[u32] {
        &self.targets[self.offsets[v as usize]..self.offsets[v as usize + 1]]
    }

    /// The first node whose edges come at or after edge `e` in the order of [`Graph::edges`]
    /// (`node_count()` when `e` is past the last edge): where to cut the tails for parts of
    /// about equal numbers of edges.
    pub fn first_node_from_edge(&self, e: usize) -> usize {
        // offsets[v] is the index of v's first edge; the first v with offsets[v] >= e.
        self.offsets[..self.node_count()].partition_point(|&first| first < e)
    }

    /// The number of edges leaving `v`.
    pub fn out_degree(&self, v: u32) -> usize {
        self.offsets[v as usize + 1] - self.offsets[v as usize]
    }

    /// Every edge `(tail, head)`, by tail and then in order.
    pub fn edges(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        (0..self.node_count() as u32)
            .flat_map(move |v| self.successors(v).iter().map(move |&w| (v, w)))
    }

    /// The graph with every edge turned around: its successors are this graph's predecessors
    /// (what retrograde analysis walks).
    pub fn reversed(&self) -> Graph {
        let reversed: Vec<(u32, u32)> = self.edges().map(|(v, w)| (w, v)).collect();
        Graph::from_edges(self.node_count(), &reversed)
    }

    /// A topological order (every edge from an earlier node to a later one), or `None` when
    /// the graph has a cycle: the reverse of the order in which a depth-first search finishes
    /// the nodes (Tarjan 1976), linear time. The search stops at the first edge back to a node
    /// on its path, a cycle: a loopy game's graph, whose cycles are usually among its first
    /// positions, is not walked whole only to learn that it has one.
    pub fn topological_order(&self) -> Option<Vec<u32>> {
        const NEW: u8 = 0;
        const ON_PATH: u8 = 1;
        const FINISHED: u8 = 2;
        let n = self.node_count();
        let mut state = vec![NEW; n];
        let mut finished: Vec<u32> = Vec::with_capacity(n);
        // The path: each node with the number of its successors looked at so far.
        let mut path: Vec<(u32, usize)> = Vec::new();
        for root in 0..n as u32 {
            if state[root as usize] != NEW {
                continue;
            }
            state[root as usize] = ON_PATH;
            path.push((root, 0));
            while let Some((v, seen)) = path.last_mut() {
                let v = *v;
                match self.successors(v).get(*seen) {
                    Some(&w) => {
                        *seen += 1;
                        match state[w as usize] {
                            NEW => {
                                state[w as usize] = ON_PATH;
                                path.push((w, 0));
                            }
                            ON_PATH => return None,
                            _ => {}
                        }
                    }
                    None => {
                        state[v as usize] = FINISHED;
                        finished.push(v);
                        path.pop();
                    }
                }
            }
        }
        finished.reverse();
        Some(finished)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn successors_keep_the_given_order_and_duplicates() {
        let g = Graph::from_edges(4, &[(2, 3), (0, 1), (2, 0), (0, 1)]);
        assert_eq!(g.node_count(), 4);
        assert_eq!(g.edge_count(), 4);
        assert_eq!(g.successors(0), &[1, 1]);
        assert_eq!(g.successors(1), &[] as &[u32]);
        assert_eq!(g.successors(2), &[3, 0]);
        assert_eq!(g.out_degree(2), 2);
        let (offsets, targets) = (vec![0, 2, 2, 4, 4], vec![1, 1, 3, 0]);
        assert_eq!(Graph::from_csr(offsets, targets), g);
        let r = g.reversed();
        assert_eq!(r.successors(1), &[0, 0]);
        assert_eq!(r.successors(0), &[2]);
        assert_eq!(g.edges().count(), 4);
    }

    #[test]
    fn topological_orders_exist_only_without_cycles() {
        let dag = Graph::from_edges(3, &[(0, 1), (1, 2), (0, 2)]);
        let order = dag.topological_order().unwrap();
        let place = |v: u32| order.iter().position(|&u| u == v).unwrap();
        for (v, w) in dag.edges() {
            assert!(place(v) < place(w));
        }
        assert!(Graph::from_edges(2, &[(0, 1), (1, 0)])
            .topological_order()
            .is_none());
        assert!(Graph::from_edges(1, &[(0, 0)])
            .topological_order()
            .is_none());
        assert_eq!(Graph::default().node_count(), 0);
    }

    /// On many small random graphs: an order exists exactly when peeling off the nodes whose
    /// successors are all peeled (a sink first) peels every node, and it puts every edge
    /// forward.
    #[test]
    fn topological_orders_agree_with_peeling_sinks() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut random = |below: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % below
        };
        for _ in 0..2000 {
            let n = 1 + random(9) as usize;
            let edges: Vec<(u32, u32)> = (0..random(2 * n as u64 + 1))
                .map(|_| (random(n as u64) as u32, random(n as u64) as u32))
                .collect();
            let graph = Graph::from_edges(n, &edges);
            let mut peeled = vec![false; n];
            while let Some(v) = (0..n).find(|&v| {
                !peeled[v]
                    && graph
                        .successors(v as u32)
                        .iter()
                        .all(|&w| peeled[w as usize])
            }) {
                peeled[v] = true;
            }
            let acyclic = peeled.iter().all(|&p| p);
            let order = graph.topological_order();
            assert_eq!(order.is_some(), acyclic, "{edges:?}");
            if let Some(order) = order {
                let mut place = vec![usize::MAX; n];
                for (i, &v) in order.iter().enumerate() {
                    place[v as usize] = i;
                }
                assert!(place.iter().all(|&p| p < n), "{order:?}");
                assert!(edges
                    .iter()
                    .all(|&(v, w)| place[v as usize] < place[w as usize]));
            }
        }
    }
}
