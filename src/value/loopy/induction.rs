//! The one backward-induction core shared by [`super::retrograde`] and the rounds of
//! [`super::gsg`]: predecessor lists, a FIFO queue of resolved nodes, and per-node counters of
//! the moves that do not yet go to a won node.

use crate::graph::Graph;

/// The predecessors of every node, in CSR form (built here rather than by
/// [`Graph::reversed`], which would first collect every edge as a pair: two copies fewer of
/// `E` words on big graphs).
pub(super) struct Predecessors {
    offsets: Vec<usize>,
    sources: Vec<u32>,
}

impl Predecessors {
    /// The predecessors of the nodes of `graph`, one entry per edge (a multi-edge counts as
    /// many times as it appears, matching the counters built from out-degrees), each node's
    /// in increasing order of their tails.
    ///
    /// A counting sort: the in-degrees, their running sums (where each node's list ends), then
    /// the edges from the last tail down, each written just before its head's end, which
    /// leaves every end at its list's start: no second array of cursors. The lists' first
    /// touch (page faults, about as long as the counting on a big graph) happens on another
    /// thread while the in-degrees are counted.
    pub(super) fn of(graph: &Graph) -> Predecessors {
        let n = graph.node_count();
        let (mut offsets, mut sources) = rayon::join(
            || {
                let mut offsets = vec![0usize; n + 1];
                for v in 0..n as u32 {
                    for &w in graph.successors(v) {
                        offsets[w as usize] += 1;
                    }
                }
                offsets
            },
            // Written, not zeroed pages the allocator maps untouched (every entry is set
            // below).
            || vec![u32::MAX; graph.edge_count()],
        );
        let mut end = 0;
        for offset in &mut offsets {
            end += *offset;
            *offset = end;
        }
        for v in (0..n as u32).rev() {
            for &w in graph.successors(v).iter().rev() {
                offsets[w as usize] -= 1;
                sources[offsets[w as usize]] = v;
            }
        }
        Predecessors { offsets, sources }
    }

    /// The tails of the edges into `v`.
    fn of_node(&self, v: u32) -> &[u32] {
        &self.sources[self.offsets[v as usize]..self.offsets[v as usize + 1]]
    }
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

/// A counter of the moves of a node not yet known to go to a won node: `u32` when the graph has
/// fewer than 2³² edges (no node can then have more moves), which halves the counters' memory
/// (12 MB on a table of 3·10⁶ positions, and as many page faults: issue 27); `u64` beyond.
pub(super) trait Counter: Copy + Send {
    /// A counter of `count` moves (`count` fits: the caller chose the type by the edges).
    fn of(count: usize) -> Self;
    /// Counts one move off; `true` when none is left.
    fn count_off(&mut self) -> bool;
    /// Whether no move is left.
    fn is_zero(self) -> bool;
}

impl Counter for u32 {
    fn of(count: usize) -> Self {
        debug_assert!(count <= u32::MAX as usize);
        count as u32
    }
    fn count_off(&mut self) -> bool {
        *self = self.saturating_sub(1);
        *self == 0
    }
    fn is_zero(self) -> bool {
        self == 0
    }
}

impl Counter for u64 {
    fn of(count: usize) -> Self {
        count as u64
    }
    fn count_off(&mut self) -> bool {
        *self = self.saturating_sub(1);
        *self == 0
    }
    fn is_zero(self) -> bool {
        self == 0
    }
}

/// Whether the counters of `graph` fit in `u32` ([`Counter`]): fewer than 2³² edges.
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
    preds: &Predecessors,
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
                Status::Open if !lost => {
                    if remaining[ui].count_off() {
                        status[ui] = Status::Lost;
                        queue.push(u);
                        on_resolve(u, v);
                    }
                }
                _ => {}
            }
        }
    }
}
