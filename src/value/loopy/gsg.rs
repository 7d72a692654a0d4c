//! Generalized Sprague–Grundy values γ by rounds of backward induction.

use super::induction::{propagate, small_counters, Counter, Predecessors, Status};
use super::LoopyValue;
use crate::engine::budget;
use std::sync::Arc;

use rayon::prelude::*;

use crate::engine::progress::{Progress, ProgressSink};
use crate::engine::EngineError;
use crate::graph::Graph;

/// Not yet labelled (only while [`gamma`] runs).
const UNLABELLED: u32 = u32::MAX - 1;
/// Labelled ∞.
const INFINITE: u32 = u32::MAX;

/// The γ values of a graph in compact form: a finite value or ∞ per node (the set `K` of an ∞
/// is read off the successors when asked for), and the counter function that certifies the
/// finite values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gamma {
    labels: Vec<u32>,
    counter: Vec<u32>,
}

impl Gamma {
    /// The number of nodes.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// Whether the graph has no node.
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// `Some(m)` when `γ(v) = m` is finite, `None` when it is ∞.
    pub fn finite(&self, v: u32) -> Option<u32> {
        let label = *self.labels.get(v as usize)?;
        (label < UNLABELLED).then_some(label)
    }

    /// The counter `c(v)` of a node of finite value: the order in which the finite values were
    /// found, a counter function in the sense of Fraenkel's condition B (see the module docs);
    /// `None` for ∞.
    pub fn counter(&self, v: u32) -> Option<u32> {
        self.finite(v).map(|_| self.counter[v as usize])
    }

    /// `γ(v)` in full: `Finite(m)`, or `Infinite(K)` with `K` the sorted finite values of `v`'s
    /// successors in `graph` (the graph these values were computed for).
    pub fn value(&self, graph: &Graph, v: u32) -> LoopyValue {
        match self.finite(v) {
            Some(m) => LoopyValue::Finite(m),
            None => {
                let mut k: Vec<u32> = graph
                    .successors(v)
                    .iter()
                    .filter_map(|&w| self.finite(w))
                    .collect();
                k.sort_unstable();
                k.dedup();
                LoopyValue::Infinite(k)
            }
        }
    }

    /// Appends `γ(v)` as [`LoopyValue`]'s [`fmt::Display`](std::fmt::Display) writes it (`3`,
    /// `inf{0,2}`) to `out`, with `k` as working memory for the set `K`: no allocation once
    /// `k` has room, for writers of millions of rows.
    pub fn push_value(&self, graph: &Graph, v: u32, out: &mut Vec<u8>, k: &mut Vec<u32>) {
        match self.finite(v) {
            Some(m) => push_decimal(out, m),
            None => {
                self.infinite_set(graph, v, k);
                out.extend_from_slice(b"inf{");
                for (i, &m) in k.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    push_decimal(out, m);
                }
                out.push(b'}');
            }
        }
    }

    /// The set `K` of `γ(v) = ∞(K)` into `k`: the finite values of `v`'s successors, in
    /// increasing order, each once.
    pub fn infinite_set(&self, graph: &Graph, v: u32, k: &mut Vec<u32>) {
        k.clear();
        k.extend(graph.successors(v).iter().filter_map(|&w| self.finite(w)));
        k.sort_unstable();
        k.dedup();
    }

    /// The set `K` of `γ(v) = ∞(K)` as a bit mask (bit `m` for `m` in `K`), when every finite
    /// value of `v`'s successors is below 64: a writer's quick test for the same `K` again.
    pub fn infinite_mask(&self, graph: &Graph, v: u32) -> Option<u64> {
        let mut mask = 0u64;
        for &w in graph.successors(v) {
            if let Some(m) = self.finite(w) {
                mask |= 1u64.checked_shl(m)?;
            }
        }
        Some(mask)
    }

    /// `γ` of every node, as [`Gamma::value`] gives it.
    pub fn values(&self, graph: &Graph) -> Vec<LoopyValue> {
        (0..self.len() as u32)
            .map(|v| self.value(graph, v))
            .collect()
    }
}

/// Appends the decimal digits of `m`.
fn push_decimal(out: &mut Vec<u8>, m: u32) {
    out.extend_from_slice(itoa::Buffer::new().format(m).as_bytes());
}

/// The generalized Sprague–Grundy values of every node of `graph`, in compact form; see the
/// module docs for the definition and [`generalized_sg`] for the full values.
///
/// **Algorithm** (the labelling procedure of Fraenkel and Yesha, 1986, organised as rounds of
/// retrograde analysis). Round `m = 0, 1, 2, …` looks at the *alive* nodes (not yet labelled),
/// each of which has successors of every value `0..m` (else it would be ∞ already):
///
/// 1. An alive node is labelled `m` once it has no successor labelled `m` and every successor
///    that is alive or ∞ has a successor labelled `m` earlier in the round (the reversibility
///    condition; successors of value below `m` need nothing). This is backward induction with
///    the finitely labelled nodes ignored, labelled-`m` nodes as "lost" and ∞ nodes unable to
///    lose: `propagate` with one counter per alive node. The labelling order is the counter
///    function.
/// 2. An alive node with no successor labelled `m` when the round ends is ∞: it cannot be `m`
///    and, lacking an option of value `m`, cannot be larger.
///
/// A round labels nothing only when every alive node became ∞, so the rounds stop after at most
/// `γ_max + 2`. Each round costs `O(V_m + E_m)`, the alive nodes and their edges plus the
/// resolved nodes' predecessors, at most `O(V + E)`. Since a node of value `k` needs successors
/// of every value below `k`, each again with at least that many edges, `Σ_{j<k} j ≤ E`: so
/// `γ_max < √(2E) + 1` and the total is `O((V + E)·min(Δ, √E))` with `Δ` the largest
/// out-degree — the same bound as the `O(M√M)` loopy-nim routine of competitive-programming
/// libraries (after Winning Ways, ch. 12).
///
/// An acyclic graph skips the rounds: its γ are its Sprague–Grundy values, the mex of the
/// successors' in reverse topological order (`O(V + E)`), and that order is a counter function
/// (no node is ∞, so condition B asks only that a successor of value `m` come first). On a graph
/// with cycles every round's edge visits are metered against [`budget::steps_limit`]: past it
/// the run stops with [`EngineError::GraphRoundsOverBudget`]; `gamma_within` reports each
/// round to a progress sink as it ends.
pub fn gamma(graph: &Graph) -> Result<Gamma, EngineError> {
    gamma_within(graph, budget::steps_limit(), None)
}

/// [`gamma`] with a budget of `limit` edge visits, reporting the rounds to `progress`.
pub fn gamma_within(
    graph: &Graph,
    limit: u64,
    progress: Option<Arc<dyn ProgressSink>>,
) -> Result<Gamma, EngineError> {
    if let Some(order) = graph.topological_order() {
        return Ok(acyclic_gamma_in(graph, order));
    }
    match small_counters(graph) {
        true => gamma_rounds::<u32>(graph, &Predecessors::of(graph), limit, progress),
        false => gamma_rounds::<u64>(graph, &Predecessors::of(graph), limit, progress),
    }
}

/// [`gamma_within`] with the predecessors of `graph` built by the caller, who shares them with
/// [`super::retrograde::retrograde_with`].
pub(super) fn gamma_with<C: Counter>(
    graph: &Graph,
    preds: &Predecessors<C>,
    limit: u64,
    progress: Option<Arc<dyn ProgressSink>>,
) -> Result<Gamma, EngineError> {
    match graph.topological_order() {
        Some(order) => Ok(acyclic_gamma_in(graph, order)),
        None => gamma_rounds(graph, preds, limit, progress),
    }
}

/// γ of an acyclic graph in the topological `order`, reversed (successors first).
fn acyclic_gamma_in(graph: &Graph, mut order: Vec<u32>) -> Gamma {
    order.reverse();
    acyclic_gamma(graph, &order)
}

/// The rounds of [`gamma`] on a graph with cycles.
fn gamma_rounds<C: Counter>(
    graph: &Graph,
    preds: &Predecessors<C>,
    limit: u64,
    progress: Option<Arc<dyn ProgressSink>>,
) -> Result<Gamma, EngineError> {
    let n = graph.node_count();
    // At most √(2E) + 2 rounds (see above).
    let most_rounds = ((2.0 * graph.edge_count() as f64).sqrt() as u64).saturating_add(2);
    let mut progress = Progress::counting("rounds", most_rounds, progress);
    let mut spent = 0u64;
    let mut labels = vec![UNLABELLED; n];
    let mut counter = vec![0u32; n];
    let mut status = vec![Status::Open; n];
    let mut remaining = vec![C::of(0); n];
    // The nodes not yet labelled; `None` in round 0, where every node is.
    let mut alive: Option<Vec<u32>> = None;
    // Room for every node at once: grown by doubling, the queue of a big graph was copied
    // again and again, and touched twice its size.
    let mut queue: Vec<u32> = Vec::with_capacity(n);
    let mut next_counter = 0u32;
    let mut m = 0u32;
    while alive.as_ref().is_none_or(|alive| !alive.is_empty()) && n > 0 {
        // This round visits the alive nodes' edges, and the resolved nodes' predecessors.
        let visits = match &alive {
            None => (n + graph.edge_count()) as u64,
            Some(alive) => alive
                .iter()
                .map(|&u| graph.successors(u).len() as u64 + 1)
                .sum::<u64>(),
        };
        spent = spent.saturating_add(visits);
        if spent > limit {
            return Err(EngineError::GraphRoundsOverBudget {
                limit,
                rounds: m,
                unvalued: alive.as_ref().map_or(n, Vec::len),
                nodes: n,
            });
        }
        queue.clear();
        match &alive {
            None => first_round_seeds(graph, &mut remaining, &mut status, &mut queue),
            Some(alive) => {
                for &u in alive {
                    // Moves to values below m are irrelevant; the others must reverse through m.
                    let counted = graph
                        .successors(u)
                        .iter()
                        .filter(|&&w| labels[w as usize] >= UNLABELLED)
                        .count();
                    remaining[u as usize] = C::of(counted);
                    if counted == 0 {
                        status[u as usize] = Status::Lost;
                        queue.push(u);
                    }
                }
            }
        }
        propagate(preds, &mut status, &mut remaining, &mut queue, |_, _| {});
        alive = Some(match alive {
            None => first_round_survivors(&mut status, &mut labels),
            Some(mut alive) => {
                alive.retain(|&u| survives(&mut status[u as usize], &mut labels[u as usize]));
                alive
            }
        });
        for &v in &queue {
            let vi = v as usize;
            status[vi] = match status[vi] {
                Status::Lost => {
                    labels[vi] = m;
                    counter[vi] = next_counter;
                    next_counter += 1;
                    Status::Ignored
                }
                _ if labels[vi] == INFINITE => Status::Sidelined,
                _ => Status::Open,
            };
        }
        m += 1;
        progress.set(u64::from(m));
    }
    progress.finish();
    Ok(Gamma { labels, counter })
}

/// The nodes round 0 looks at in a block a task (it looks at every node; later rounds, at
/// fewer, one by one).
const ROUND_BLOCK: usize = 1 << 16;

/// Round 0's counters and seeds: no node is labelled yet, so every move of a node is counted,
/// and the nodes without a move lose at once (appended to `queue` in order).
fn first_round_seeds<C: Counter>(
    graph: &Graph,
    remaining: &mut [C],
    status: &mut [Status],
    queue: &mut Vec<u32>,
) {
    queue.extend(nodes_where(remaining, status, |u, remaining, status| {
        let moves = graph.out_degree(u);
        *remaining = C::of(moves);
        let lost = moves == 0;
        if lost {
            *status = Status::Lost;
        }
        lost
    }));
}

/// The nodes still alive after round 0 (every node was), in order: see [`survives`].
fn first_round_survivors(status: &mut [Status], labels: &mut [u32]) -> Vec<u32> {
    nodes_where(status, labels, |_, status, label| survives(status, label))
}

/// The nodes `u` (in order) for which `keep(u, &mut a[u], &mut b[u])` holds, every node's
/// call made once, in blocks of [`ROUND_BLOCK`] nodes on every thread.
fn nodes_where<A: Send, B: Send>(
    a: &mut [A],
    b: &mut [B],
    keep: impl Fn(u32, &mut A, &mut B) -> bool + Sync,
) -> Vec<u32> {
    let kept: Vec<Vec<u32>> = a
        .par_chunks_mut(ROUND_BLOCK)
        .zip(b.par_chunks_mut(ROUND_BLOCK))
        .enumerate()
        .map(|(block, (a, b))| {
            let first = block * ROUND_BLOCK;
            let mut kept = Vec::new();
            for (i, (a, b)) in a.iter_mut().zip(b).enumerate() {
                let u = (first + i) as u32;
                if keep(u, a, b) {
                    kept.push(u);
                }
            }
            kept
        })
        .collect();
    kept.concat()
}

/// Whether an alive node stays alive after a round: a won node does (it has an option labelled
/// `m`, so its value is more); a lost one is labelled `m` (by the caller); any other is ∞,
/// labelled so here, and sidelined from now on.
fn survives(status: &mut Status, label: &mut u32) -> bool {
    match status {
        Status::Won => true,
        Status::Lost => false,
        _ => {
            *label = INFINITE;
            *status = Status::Sidelined;
            false
        }
    }
}

/// γ of an acyclic graph: each node's mex, in `order` (successors first), which is also the
/// counter.
fn acyclic_gamma(graph: &Graph, order: &[u32]) -> Gamma {
    let n = graph.node_count();
    let mut labels = vec![0u32; n];
    let mut counter = vec![0u32; n];
    // seen[k] == stamp: value k is among the current node's options (a mex needs at most
    // out-degree + 1 slots).
    let mut seen: Vec<u32> = Vec::new();
    for (stamp, &u) in order.iter().enumerate() {
        let successors = graph.successors(u);
        if seen.len() <= successors.len() {
            seen.resize(successors.len() + 1, u32::MAX);
        }
        let stamp = stamp as u32;
        for &w in successors {
            if let Some(slot) = seen.get_mut(labels[w as usize] as usize) {
                *slot = stamp;
            }
        }
        let mex = seen.iter().position(|&s| s != stamp).unwrap_or(seen.len());
        labels[u as usize] = mex as u32;
        counter[u as usize] = stamp;
    }
    Gamma { labels, counter }
}

/// `γ` of every node of `graph`: [`gamma`], with each ∞ spelled out with its set `K`.
pub fn generalized_sg(graph: &Graph) -> Result<Vec<LoopyValue>, EngineError> {
    Ok(gamma(graph)?.values(graph))
}

#[cfg(test)]
mod tests {
    use super::*;
    use LoopyValue::{Finite, Infinite};

    #[test]
    fn a_lone_self_loop_is_infinite_with_no_finite_option() {
        assert_eq!(
            generalized_sg(&Graph::from_edges(1, &[(0, 0)])).unwrap(),
            [Infinite(vec![])]
        );
    }

    #[test]
    fn an_infinite_option_that_reverses_keeps_a_finite_value() {
        // z = 0 is terminal, w → z has γ 1; v → {u, w, v} cannot be finite (the self-loop
        // never reverses) and is ∞{1}; u → {z, v} is 1: v reverses to w of value 1, found
        // before u in round 1.
        let (z, w, v, u) = (0, 1, 2, 3);
        let g = Graph::from_edges(4, &[(w, z), (v, u), (v, w), (v, v), (u, z), (u, v)]);
        let gamma = gamma(&g).unwrap();
        assert_eq!(
            gamma.values(&g),
            [Finite(0), Finite(1), Infinite(vec![1]), Finite(1)]
        );
        assert!(gamma.counter(w) < gamma.counter(u));
        for node in 0..4 {
            let (mut text, mut k) = (Vec::new(), Vec::new());
            gamma.push_value(&g, node, &mut text, &mut k);
            assert_eq!(
                String::from_utf8(text).unwrap(),
                gamma.value(&g, node).to_string()
            );
        }
        assert_eq!(gamma.counter(v), None);
    }

    #[test]
    fn acyclic_graphs_get_their_grundy_values() {
        // Nim heaps 0..=3 as a graph: heap h moves to every smaller heap.
        let edges: Vec<(u32, u32)> = (0..4u32)
            .flat_map(|h| (0..h).map(move |s| (h, s)))
            .collect();
        let g = Graph::from_edges(4, &edges);
        assert_eq!(
            generalized_sg(&g).unwrap(),
            [Finite(0), Finite(1), Finite(2), Finite(3)]
        );
        assert!(generalized_sg(&Graph::default()).unwrap().is_empty());
    }
}
