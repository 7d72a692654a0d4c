//! The one backward-induction core shared by [`super::retrograde`] and the rounds of
//! [`super::gsg`]: predecessor lists, a FIFO queue of resolved nodes, and per-node counters of
//! the moves that do not yet go to a won node.

use rayon::prelude::*;

use crate::graph::Graph;

/// The predecessors of every node, in CSR form (built here rather than by
/// [`Graph::reversed`], which would first collect every edge as a pair: two copies fewer of
/// `E` words on big graphs), its offsets of the type `C` that counts the graph's edges.
pub(super) struct Predecessors<C> {
    offsets: Vec<C>,
    sources: Vec<u32>,
}

/// The graphs whose predecessors are sorted on every thread: below, one thread is faster than
/// handing out the work.
const PARALLEL_FROM_EDGES: usize = 1 << 16;
/// The most parts the tails are cut into (each but the first needs `V` counters of its own).
const MOST_PARTS: usize = 4;

impl<C: Counter> Predecessors<C> {
    /// The predecessors of the nodes of `graph`, one entry per edge (a multi-edge counts as
    /// many times as it appears, matching the counters built from out-degrees), each node's
    /// in increasing order of their tails.
    ///
    /// A counting sort. The tails are cut into parts of about equal numbers of edges (one part
    /// on a small graph, else one a thread), and each part counts the edges from its tails
    /// into each head; the running sums over the heads, and within a head over the parts, say
    /// where each part's run of each head's list ends; each part then writes its edges from
    /// its last tail down, each just before its run's end, which leaves the first part's ends
    /// at the lists' starts: the offsets. Every entry is written once, by the part of its
    /// tail.
    pub(super) fn of(graph: &Graph) -> Predecessors<C> {
        let parts = match graph.edge_count() >= PARALLEL_FROM_EDGES {
            true => rayon::current_num_threads().clamp(1, MOST_PARTS),
            false => 1,
        };
        Predecessors::in_parts(graph, parts)
    }

    /// [`Predecessors::of`] with the tails cut into `parts` parts (at least one).
    fn in_parts(graph: &Graph, parts: usize) -> Predecessors<C> {
        let (n, edges, parts) = (graph.node_count(), graph.edge_count(), parts.max(1));
        // Part `p` has the tails `cuts[p]..cuts[p + 1]`, with about `edges / parts` edges.
        let mut cuts: Vec<usize> = (0..parts)
            .map(|p| graph.first_node_from_edge(edges / parts * p))
            .collect();
        cuts.push(n);
        let tails = |p: usize| cuts[p] as u32..cuts[p + 1] as u32;
        // counts[p][w]: the edges from part p's tails into w (the first part's, the offsets).
        // Each made by the thread that counts in it (its pages' first touch is as long as the
        // counting).
        let mut counts: Vec<Vec<C>> = (0..parts)
            .into_par_iter()
            .map(|p| {
                let mut count: Vec<C> = written_zeros(if p == 0 { n + 1 } else { n });
                for v in tails(p) {
                    for &w in graph.successors(v) {
                        count[w as usize].add_one();
                    }
                }
                count
            })
            .collect();
        running_ends(&mut counts, n);
        let mut sources = vec![0u32; edges];
        let writer = SharedSlice(sources.as_mut_ptr());
        counts.par_iter_mut().enumerate().for_each(|(p, ends)| {
            let writer = &writer;
            for v in tails(p).rev() {
                for &w in graph.successors(v).iter().rev() {
                    let end = &mut ends[w as usize];
                    *end = C::of(end.get() - 1);
                    // SAFETY: `end` is below `edges`, the length of `sources`, which outlives
                    // this loop; the runs of the parts are disjoint and each index of a run is
                    // written once (its end moves down past it), so no two writes, on any
                    // threads, touch the same entry, and nothing reads `sources` meanwhile.
                    unsafe { *writer.0.add(end.get()) = v };
                }
            }
        });
        let mut offsets = counts.swap_remove(0);
        offsets[n] = C::of(edges);
        Predecessors { offsets, sources }
    }

    /// The tails of the edges into `v`.
    fn of_node(&self, v: u32) -> &[u32] {
        &self.sources[self.offsets[v as usize].get()..self.offsets[v as usize + 1].get()]
    }
}

/// `len` zeros, written: counters counted up at once. The zeroed memory of a big `vec![0; len]`
/// is mapped page by page as it is first touched; a page first read is mapped to the kernel's
/// shared zero page, and the write that follows faults again, copying it and flushing the
/// other threads' TLBs (an interrupt to every core): twice the faults, and a tenth of the
/// loopy table's time to 3·10⁶ (issue 27).
fn written_zeros<C: Counter>(len: usize) -> Vec<C> {
    let mut zeros = Vec::with_capacity(len);
    zeros.resize(len, C::of(0));
    zeros
}

/// The entries of `sources` while the parts write them ([`Predecessors::of`]).
struct SharedSlice(*mut u32);
// SAFETY: the parts write disjoint entries (see `Predecessors::of`).
unsafe impl Sync for SharedSlice {}

/// Turns the counts `counts[p][w]` (of the first `n` nodes) into the ends of their runs: the
/// running sum in the order of the heads `w` and, within a head, of the parts `p`. A block of
/// heads a task: the blocks' totals first, then each block's sums from the total before it.
fn running_ends<C: Counter>(counts: &mut [Vec<C>], n: usize) {
    const BLOCK: usize = 1 << 16;
    let mut blocks: Vec<Vec<&mut [C]>> = (0..n.div_ceil(BLOCK)).map(|_| Vec::new()).collect();
    for count in counts.iter_mut() {
        for (block, run) in blocks.iter_mut().zip(count[..n].chunks_mut(BLOCK)) {
            block.push(run);
        }
    }
    let totals: Vec<usize> = blocks
        .par_iter()
        .map(|block| {
            block
                .iter()
                .flat_map(|run| run.iter())
                .map(|c| c.get())
                .sum()
        })
        .collect();
    let starts = totals.iter().scan(0, |start, &total| {
        let this = *start;
        *start += total;
        Some(this)
    });
    let starts: Vec<usize> = starts.collect();
    blocks
        .into_par_iter()
        .zip(starts)
        .for_each(|(mut block, mut end)| {
            for w in 0..block.first().map_or(0, |run| run.len()) {
                for run in block.iter_mut() {
                    end += run[w].get();
                    run[w] = C::of(end);
                }
            }
        });
}

/// Where a node stands in one backward-induction pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Status {
    /// Unresolved; it loses once every counted move goes to a won node.
    Open,
    /// Unresolved and never lost in this pass, but won once it has a move to a lost node (a
    /// node of value ∞ in a γ round).
    Sidelined,
    /// Not part of this pass: moves to it are not counted and it is never resolved (a node
    /// whose γ value is already known and below the round's).
    Ignored,
    /// Resolved: the player to move loses (every counted move goes to a won node).
    Lost,
    /// Resolved: the player to move has a move to a lost node.
    Won,
}

/// An unsigned integer that holds any count of a graph's edges: `u32` when the graph has
/// fewer than 2³² edges ([`small_counters`]), which halves the memory of the counters and
/// offsets (12 MB each on a table of 3·10⁶ positions, and as many page faults: issue 27);
/// `u64` beyond.
pub(super) trait Counter: Copy + Send + Sync {
    /// `count` (which fits: the caller chose the type by the number of edges).
    fn of(count: usize) -> Self;
    /// The count.
    fn get(self) -> usize;
    /// One more.
    fn add_one(&mut self);
    /// Counts one move off; `true` when none is left.
    fn count_off(&mut self) -> bool;
    /// Whether no move is left.
    fn is_zero(self) -> bool;
}

macro_rules! counter {
    ($t:ty) => {
        impl Counter for $t {
            fn of(count: usize) -> Self {
                debug_assert!(<$t>::try_from(count).is_ok());
                count as $t
            }
            fn get(self) -> usize {
                self as usize
            }
            fn add_one(&mut self) {
                *self += 1;
            }
            fn count_off(&mut self) -> bool {
                *self = self.saturating_sub(1);
                *self == 0
            }
            fn is_zero(self) -> bool {
                self == 0
            }
        }
    };
}
counter!(u32);
counter!(u64);

/// Whether the edges of `graph` are counted in `u32` ([`Counter`]): fewer than 2³² of them.
pub(super) fn small_counters(graph: &Graph) -> bool {
    graph.edge_count() <= u32::MAX as usize
}

/// Backward induction from the nodes already in `queue` (each with status [`Status::Lost`]),
/// until the queue is exhausted: a predecessor of a lost node is won; an open predecessor of a
/// won node loses when its counter `remaining` (the counted moves not yet known to go to won
/// nodes) reaches 0. Every node resolved is appended to `queue`, so on return `queue` holds the
/// resolved nodes in the order they were resolved; `on_resolve(u, v)` is called when `u` is
/// resolved through its move to `v`.
///
/// Each node is resolved at most once and each resolved node scans its predecessors once:
/// `O(V + E)`. No recursion, no allocation beyond `queue`'s growth (at most `V` entries).
pub(super) fn propagate<C: Counter>(
    preds: &Predecessors<C>,
    status: &mut [Status],
    remaining: &mut [C],
    queue: &mut Vec<u32>,
    mut on_resolve: impl FnMut(u32, u32),
) {
    let mut head = 0;
    while let Some(&v) = queue.get(head) {
        head += 1;
        let lost = status[v as usize] == Status::Lost;
        for &u in preds.of_node(v) {
            let ui = u as usize;
            match status[ui] {
                Status::Open | Status::Sidelined if lost => {
                    status[ui] = Status::Won;
                    queue.push(u);
                    on_resolve(u, v);
                }
                Status::Open if !lost && remaining[ui].count_off() => {
                    status[ui] = Status::Lost;
                    queue.push(u);
                    on_resolve(u, v);
                }
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A random graph of `nodes` nodes and `edges` edges (xorshift from `seed`), half of the
    /// heads among the first tenth of the nodes (in-degrees of all sizes), with repeats.
    fn random_graph(nodes: usize, edges: usize, seed: u64) -> Graph {
        let mut state = seed | 1;
        let mut next = move |below: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % below.max(1) as u64) as u32
        };
        let pairs: Vec<(u32, u32)> = (0..edges)
            .map(|e| {
                let head = if e % 2 == 0 {
                    next(nodes / 10 + 1)
                } else {
                    next(nodes)
                };
                (next(nodes), head)
            })
            .collect();
        Graph::from_edges(nodes, &pairs)
    }

    /// Every cut of the tails into parts gives the predecessors of the reversed graph (built
    /// from its list of pairs, by other code), in both counter types, from the empty graph to
    /// one past [`PARALLEL_FROM_EDGES`] edges, with more parts than nodes.
    #[test]
    fn predecessors_in_parts_are_the_reversed_graphs_successors() {
        let graphs = [
            Graph::default(),
            Graph::from_edges(1, &[]),
            Graph::from_edges(3, &[(2, 0), (2, 0), (0, 2), (1, 1)]),
            random_graph(50, 20, 3),
            random_graph(1000, 5000, 5),
            random_graph(70_000, PARALLEL_FROM_EDGES + 1, 7),
        ];
        for graph in &graphs {
            let reversed = graph.reversed();
            for parts in 1..=5 {
                let small = Predecessors::<u32>::in_parts(graph, parts);
                let large = Predecessors::<u64>::in_parts(graph, parts);
                for v in 0..graph.node_count() as u32 {
                    assert_eq!(
                        small.of_node(v),
                        reversed.successors(v),
                        "{parts} parts, {v}"
                    );
                    assert_eq!(
                        large.of_node(v),
                        reversed.successors(v),
                        "{parts} parts, {v}"
                    );
                }
                assert_eq!(small.sources.len(), graph.edge_count());
            }
        }
    }
}
