//! Green Hackenbush on any undirected multigraph with a ground (loops and parallel edges
//! allowed): the value of a position, of each part hanging above a node, after each cut, and the
//! winning cuts.
//!
//! A move deletes one edge; every edge no longer joined to the ground by a path falls at once;
//! whoever cannot move loses (normal play). The values rest on two theorems (Berlekamp, Conway
//! and Guy, *Winning Ways for your Mathematical Plays*, ch. 7 "Hackenbush"; Ferguson, *Game
//! Theory*, Part I §6 "Green Hackenbush"):
//!
//! * the **colon principle**: when a branch hanging at a vertex is replaced by another branch
//!   of the same value, the value of the whole is unchanged. A branch made of one edge topped by
//!   a part of value `g` is therefore a stalk of `g + 1` edges, and a rooted tree is worth
//!   `SG(v) = XOR over the children c of v of (SG(c) + 1)` (Ferguson §6.2);
//! * the **fusion principle**: "the vertices on any cycle may be fused without changing the
//!   value; the edges then become loops" (Ferguson §6.3; Winning Ways ch. 7). A loop is worth
//!   `*1`, like a one-edge stalk, so an odd cycle on the ground is `*1` and an even one `*0`.
//!
//! Fusing every cycle contracts each 2-edge-connected component (the classes left when the
//! bridges are removed) to one vertex carrying its non-bridge edges as loops, and leaves the
//! tree of bridges rooted at the ground's component. A component's value is then the parity of
//! its loops XOR `(value + 1)` of each component hanging from it by a bridge.
//!
//! Bridges come from one iterative depth-first search with lowlinks (Tarjan 1974), which skips
//! only the *edge* it arrived by, so a parallel edge counts as a cycle. Everything is iterative:
//! a path of a million vertices does not touch the call stack.
//!
//! Costs, with `V` nodes and `E` edges: [`Hackenbush::new`] (which does all the work of
//! [`Hackenbush::value`] and [`Hackenbush::node_values`]) is `O(V + E)`; cutting a bridge or a
//! loop is `O(V + E)` for [`Hackenbush::value_after_cut`] and `O(1)` each inside
//! [`Hackenbush::winning_cuts`], by a top-down pass over the bridge tree. Cutting any other
//! edge of a component `C` changes `C` itself. Its cut is `O(1)` when the edge is in no 2-edge
//! cut of `C` (found by cycle-space labels: e.g. each of many parallel edges), and the edges of
//! one 2-edge-cut class (e.g. the edges of one long cycle) are valued together, the pieces
//! between them found once in `O(|C| + |E(C)|)` and each cut in `O(1 + z)`, `z` the pieces
//! of non-zero value. A million parallel edges or a million-edge cycle are searched in linear
//! time; a component with many classes costs `O(|C| + |E(C)|)` per class, which is why
//! [`Hackenbush::winning_cuts_within`] takes a work limit and names the cuts it did not check
//! (`solve` passes the request's step budget, [`budget::steps_limit`](super::budget::steps_limit)).

use thiserror::Error;

/// "No such node, edge or component".
const NONE: u32 = u32::MAX;

/// Why a Hackenbush position was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum HackenbushError {
    /// An edge names a node outside `0..node_count`.
    #[error("edge {edge} ({tail}, {head}) names a node outside 0..{node_count}")]
    EndpointOutOfRange {
        /// The edge's index.
        edge: usize,
        /// Its first endpoint.
        tail: u32,
        /// Its second endpoint.
        head: u32,
        /// The number of nodes.
        node_count: usize,
    },
    /// The ground is not one of the nodes.
    #[error("the ground {ground} is outside the nodes 0..{node_count}")]
    GroundOutOfRange {
        /// The ground node.
        ground: u32,
        /// The number of nodes.
        node_count: usize,
    },
    /// More edges than edge ids fit in 32 bits.
    #[error("{edges} edges are more than the {} a position may have", u32::MAX - 1)]
    TooManyEdges {
        /// The number of edges given.
        edges: usize,
    },
}

/// A green Hackenbush position: an undirected multigraph on the nodes `0..node_count` with one
/// ground node. Edge `i` is `edges[i]`; loops `(v, v)` and parallel edges are allowed, and edges
/// not joined to the ground by a path are not part of the position (they have fallen).
///
/// ```
/// use sgscope::engine::hackenbush::Hackenbush;
///
/// // A triangle standing on the ground 0 with a stalk of two edges on top of node 2.
/// let h = Hackenbush::new(5, vec![(0, 1), (1, 2), (2, 0), (2, 3), (3, 4)], 0).unwrap();
/// // Fused, the triangle is three loops (*1); the stalk is a branch of value 2: 1 XOR 2 = 3.
/// assert_eq!(h.value(), 3);
/// // Cutting a side of the triangle leaves a tree: (0, 1) leaves 0-2 topped by 2-1 and 2-3-4.
/// assert_eq!(h.value_after_cut(0), (1 ^ 2) + 1);
/// // The only cut to 0 shortens the stalk to one edge: 1 XOR 1.
/// assert_eq!(h.winning_cuts(0), vec![4]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hackenbush {
    node_count: usize,
    edges: Vec<(u32, u32)>,
    ground: u32,
    fused: Fused,
}

/// The fused tree of a position: its 2-edge-connected components (numbered so that a
/// component's parent comes before it), the bridges between them and their values.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Fused {
    /// The component of each node, `NONE` when the node is cut off from the ground.
    component: Vec<u32>,
    /// Whether each edge is a bridge (false for edges cut off from the ground).
    bridge: Vec<bool>,
    /// Each component's parent (`NONE` for the ground's, component 0).
    parent: Vec<u32>,
    /// The bridge from each component's parent to it (`NONE` for the ground's).
    parent_edge: Vec<u32>,
    /// The node of each component where its parent bridge arrives (the ground for the root).
    head: Vec<u32>,
    /// The node of the parent component where each component's parent bridge leaves.
    anchor: Vec<u32>,
    /// Each component's value: the part hanging above it, loops and subtrees included.
    value: Vec<u32>,
    /// The depth-first search's order of the nodes reached from the ground.
    preorder: Vec<u32>,
    /// The tree edge each node was reached by (`NONE` for the ground and nodes cut off).
    via: Vec<u32>,
    /// The node each node was reached from (`NONE` for the ground and nodes cut off).
    up: Vec<u32>,
}

impl Fused {
    /// Fuses the position `edges` on `node_count` nodes rooted at `ground`, every endpoint in
    /// range. `weights[v]`, when given, is XORed into the value of `v`'s component (the
    /// subtrees hanging at `v` outside a component being valued on its own).
    fn of(node_count: usize, edges: &[(u32, u32)], ground: u32, weights: Option<&[u32]>) -> Fused {
        let n = node_count;
        // Undirected adjacency in CSR form, (neighbour, edge id); loops are never bridges and
        // play no part in the search.
        let mut offsets = vec![0usize; n + 1];
        for &(a, b) in edges {
            if a != b {
                offsets[a as usize + 1] += 1;
                offsets[b as usize + 1] += 1;
            }
        }
        for v in 0..n {
            offsets[v + 1] += offsets[v];
        }
        let mut next = offsets.clone();
        let mut adjacency = vec![(0u32, 0u32); offsets[n]];
        for (id, &(a, b)) in edges.iter().enumerate() {
            if a != b {
                adjacency[next[a as usize]] = (b, id as u32);
                next[a as usize] += 1;
                adjacency[next[b as usize]] = (a, id as u32);
                next[b as usize] += 1;
            }
        }

        // Iterative DFS from the ground: discovery times, lowlinks, the tree edge each node was
        // reached by. An edge is a bridge iff it is a tree edge (p, v) with low(v) > tin(p).
        // One record per node, so that a visit costs one cache miss on a large random tree.
        #[derive(Clone, Copy)]
        struct Visit {
            tin: u32,
            low: u32,
            via: u32,
            up: u32,
        }
        let mut visit = vec![
            Visit {
                tin: NONE,
                low: 0,
                via: NONE,
                up: NONE,
            };
            n
        ];
        let mut bridge = vec![false; edges.len()];
        let mut preorder = Vec::new();
        let mut stack: Vec<(u32, usize)> = vec![(ground, offsets[ground as usize])];
        visit[ground as usize].tin = 0;
        preorder.push(ground);
        while let Some(top) = stack.last_mut() {
            let v = top.0 as usize;
            if top.1 < offsets[v + 1] {
                let (w, id) = adjacency[top.1];
                top.1 += 1;
                if id == visit[v].via {
                    continue;
                }
                let w = w as usize;
                let tin_w = visit[w].tin;
                if tin_w == NONE {
                    let tin = preorder.len() as u32;
                    visit[w] = Visit {
                        tin,
                        low: tin,
                        via: id,
                        up: v as u32,
                    };
                    preorder.push(w as u32);
                    stack.push((w as u32, offsets[w]));
                } else {
                    visit[v].low = visit[v].low.min(tin_w);
                }
            } else {
                stack.pop();
                // The node below on the stack is v's DFS parent.
                if let Some(&(p, _)) = stack.last() {
                    let (low_v, via_v) = (visit[v].low, visit[v].via);
                    let p = &mut visit[p as usize];
                    p.low = p.low.min(low_v);
                    if low_v > p.tin {
                        bridge[via_v as usize] = true;
                    }
                }
            }
        }

        // Components in preorder: a node joins its DFS parent's component unless it was reached
        // by a bridge (a back edge covers every tree edge under it, so the tree edges alone
        // connect each component). Parents therefore get smaller numbers than their children.
        let mut component = vec![NONE; n];
        let mut parent = vec![NONE];
        let mut parent_edge = vec![NONE];
        let mut head = vec![ground];
        let mut anchor = vec![NONE];
        component[ground as usize] = 0;
        for &v in &preorder[1..] {
            let v = v as usize;
            let Visit { via, up, .. } = visit[v];
            let p = up as usize;
            if bridge[via as usize] {
                component[v] = parent.len() as u32;
                parent.push(component[p]);
                parent_edge.push(via);
                head.push(v as u32);
                anchor.push(p as u32);
            } else {
                component[v] = component[p];
            }
        }

        // Each component's loops (its non-bridge edges, fused) count *1 each.
        let mut value = vec![0u32; parent.len()];
        for (&(a, _), &is_bridge) in edges.iter().zip(&bridge) {
            let c = component[a as usize];
            if c != NONE && !is_bridge {
                value[c as usize] ^= 1;
            }
        }
        if let Some(weights) = weights {
            for (&c, &w) in component.iter().zip(weights) {
                if c != NONE {
                    value[c as usize] ^= w;
                }
            }
        }
        // The colon principle, children before parents.
        for c in (1..parent.len()).rev() {
            value[parent[c] as usize] ^= value[c] + 1;
        }
        let (via, up) = visit.iter().map(|v| (v.via, v.up)).unzip();
        Fused {
            component,
            bridge,
            parent,
            parent_edge,
            head,
            anchor,
            value,
            preorder,
            via,
            up,
        }
    }
}

impl Hackenbush {
    /// The position with `edges` (undirected, edge `i` is `edges[i]`) on the nodes
    /// `0..node_count`, rooted at `ground`, fused and valued in `O(V + E)`.
    ///
    /// Refused when an endpoint or the ground is not below `node_count`, or when there are
    /// `u32::MAX` edges or more.
    pub fn new(
        node_count: usize,
        edges: Vec<(u32, u32)>,
        ground: u32,
    ) -> Result<Hackenbush, HackenbushError> {
        if edges.len() >= u32::MAX as usize {
            return Err(HackenbushError::TooManyEdges { edges: edges.len() });
        }
        if ground as usize >= node_count {
            return Err(HackenbushError::GroundOutOfRange { ground, node_count });
        }
        if let Some((edge, &(tail, head))) = edges
            .iter()
            .enumerate()
            .find(|(_, &(a, b))| a as usize >= node_count || b as usize >= node_count)
        {
            return Err(HackenbushError::EndpointOutOfRange {
                edge,
                tail,
                head,
                node_count,
            });
        }
        let fused = Fused::of(node_count, &edges, ground, None);
        Ok(Hackenbush {
            node_count,
            edges,
            ground,
            fused,
        })
    }

    /// The number of nodes.
    pub fn node_count(&self) -> usize {
        self.node_count
    }

    /// The edges, edge `i` at index `i`.
    pub fn edges(&self) -> &[(u32, u32)] {
        &self.edges
    }

    /// The ground node.
    pub fn ground(&self) -> u32 {
        self.ground
    }

    /// The Sprague–Grundy value of the whole position: the value of the ground's fused
    /// component. `O(1)` (computed by [`Hackenbush::new`]).
    pub fn value(&self) -> u32 {
        self.fused.value[0]
    }

    /// For each node, the value of the part hanging above it in the fused tree: the value of
    /// the 2-edge-connected component containing it, counting its loops and the subtrees
    /// hanging from it away from the ground (the same for every node of one component, and
    /// [`Hackenbush::value`] for the ground's). `None` for nodes cut off from the ground.
    /// `O(V)`.
    pub fn node_values(&self) -> Vec<Option<u32>> {
        self.fused
            .component
            .iter()
            .map(|&c| (c != NONE).then(|| self.fused.value[c as usize]))
            .collect()
    }

    /// Whether edge `edge` is part of the position (it exists and is joined to the ground).
    pub fn in_play(&self, edge: usize) -> bool {
        self.edges
            .get(edge)
            .is_some_and(|&(a, _)| self.fused.component[a as usize] != NONE)
    }

    /// Whether edge `edge` is a bridge of the position (in play and on no cycle).
    pub fn is_bridge(&self, edge: usize) -> bool {
        self.fused.bridge.get(edge).copied().unwrap_or(false)
    }

    /// Whether the part joined to the ground is a tree: no cycle and no loop, i.e. every edge
    /// in play is a bridge.
    pub fn is_tree(&self) -> bool {
        (0..self.edges.len()).all(|e| !self.in_play(e) || self.fused.bridge[e])
    }

    /// The value of the position after deleting edge `edge` (and everything that falls with
    /// it). An edge that is not in play (cut off from the ground, or an index past the last
    /// edge) is no move: the value is unchanged.
    ///
    /// A bridge or a loop changes one component's value, which is carried down to the ground
    /// by the colon principle: `O(depth)`. Any other edge of a component `C` is valued by
    /// fusing `C` without it afresh, its subtrees kept as weights: `O(V + E)`.
    pub fn value_after_cut(&self, edge: usize) -> u32 {
        if !self.in_play(edge) {
            return self.value();
        }
        let f = &self.fused;
        let (c, new) = if f.bridge[edge] {
            let child = self.child_of_bridge(edge);
            let p = f.parent[child] as usize;
            (p, f.value[p] ^ (f.value[child] + 1))
        } else {
            let c = f.component[self.edges[edge].0 as usize] as usize;
            let new = if self.edges[edge].0 == self.edges[edge].1 {
                f.value[c] ^ 1
            } else {
                let members = Members::of(f, &self.edges);
                let weights = self.weights();
                self.component_without(c, edge, &members, &weights)
            };
            (c, new)
        };
        // Down to the ground: each ancestor swaps its term (old + 1) for (new + 1).
        let (mut c, mut new) = (c, new);
        while f.parent[c] != NONE {
            let p = f.parent[c] as usize;
            new = f.value[p] ^ (f.value[c] + 1) ^ (new + 1);
            c = p;
        }
        new
    }

    /// The edges (ascending) whose deletion leaves the value `target`: the winning moves of
    /// this position in a sum whose other components XOR to `target` (`0` for the position
    /// alone). Every edge is searched, however long it takes; [`Hackenbush::winning_cuts_within`]
    /// stops at a work limit.
    pub fn winning_cuts(&self, target: u32) -> Vec<usize> {
        self.winning_cuts_within(target, u64::MAX).winning
    }

    /// The winning cuts of [`Hackenbush::winning_cuts`], searched within about `work` steps
    /// (a step: a node or an edge visited); the cuts left unchecked past it are listed.
    ///
    /// A top-down pass over the fused tree says what value each component must take for the
    /// whole to be `target`: `need(root) = target`, and for a child `c` of `v`,
    /// `need(c) = (need(v) XOR val(v) XOR (val(c) + 1)) − 1`, none when that XOR is `0` (the
    /// term of `c` would have to vanish, and `val + 1 ≥ 1`). Cutting the bridge from `v` to `c`
    /// then wins iff `val(v) XOR (val(c) + 1) = need(v)`, cutting a loop of `c` iff
    /// `val(c) XOR 1 = need(c)`, both `O(1)`.
    ///
    /// Any other edge `e` of a component `C` lies on a cycle, and what its cut does depends on
    /// the edges `f` such that `{e, f}` is a 2-edge cut of `C`: those become bridges. They are
    /// found by cycle-space labels (each edge off the search tree gets a pseudo-random 64-bit
    /// label, each tree edge the XOR of the labels of the edges whose cycles cover it: the
    /// edges of a 2-edge cut always share a label, so an edge with a label of its own is in
    /// none). Such an edge leaves `C` 2-edge-connected with one loop fewer: `val(C) XOR 1`,
    /// `O(1)` — e.g. each of a million parallel edges. The edges of one label (a cycle of
    /// `k` pieces joined by them, e.g. a long cycle of single nodes) are valued together: the
    /// pieces are found once, `O(|C| + |E(C)|)`, and cutting the `t`-th leaves two arms of
    /// pieces hanging from the root's piece, each valued by the colon principle in
    /// `O(1 + z)` steps (`z`: the pieces whose own value is not 0; runs of zeros add their
    /// length). Should the labels of two cuts collide by chance, the pieces do not form one
    /// cycle and each edge of the label is valued afresh, `O(|C| + |E(C)|)` each.
    pub fn winning_cuts_within(&self, target: u32, work: u64) -> Cuts {
        let f = &self.fused;
        let mut need: Vec<Option<u32>> = vec![Some(target); f.value.len()];
        for c in 1..f.value.len() {
            let p = f.parent[c] as usize;
            need[c] = need[p].and_then(|n| (n ^ f.value[p] ^ (f.value[c] + 1)).checked_sub(1));
        }
        let mut winning = Vec::new();
        let mut hard = Vec::new();
        for (edge, &(a, b)) in self.edges.iter().enumerate() {
            if !self.in_play(edge) {
                continue;
            }
            let wins = if f.bridge[edge] {
                let child = self.child_of_bridge(edge);
                let p = f.parent[child] as usize;
                need[p] == Some(f.value[p] ^ (f.value[child] + 1))
            } else {
                let c = f.component[a as usize] as usize;
                match need[c] {
                    None => false,
                    Some(n) if a == b => f.value[c] ^ 1 == n,
                    Some(_) => {
                        hard.push(edge);
                        false
                    }
                }
            };
            if wins {
                winning.push(edge);
            }
        }
        let mut unsearched = Vec::new();
        if !hard.is_empty() {
            let mut search = CycleSearch::new(self, &need, work);
            search.run(hard, &mut winning, &mut unsearched);
        }
        winning.sort_unstable();
        unsearched.sort_unstable();
        Cuts {
            winning,
            unsearched,
        }
    }

    /// Cycle-space labels of the edges (see [`Hackenbush::winning_cuts_within`]): a
    /// pseudo-random label for each edge in play off the search tree (loops and bridges
    /// aside), the XOR of the labels of the edges covering it for each tree edge; `0` for
    /// bridges, loops and edges out of play.
    fn cycle_labels(&self) -> Vec<u64> {
        let f = &self.fused;
        let mut label = vec![0u64; self.edges.len()];
        let mut tree = vec![false; self.edges.len()];
        for &v in f.preorder.iter().skip(1) {
            tree[f.via[v as usize] as usize] = true;
        }
        let mut covering = vec![0u64; self.node_count];
        for (e, &(a, b)) in self.edges.iter().enumerate() {
            if a != b && !tree[e] && f.component[a as usize] != NONE {
                let r = splitmix64(e as u64);
                label[e] = r;
                covering[a as usize] ^= r;
                covering[b as usize] ^= r;
            }
        }
        // A subtree's XOR keeps the labels of the edges with one end inside it: those whose
        // cycle runs through the tree edge above it.
        for &v in f.preorder.iter().skip(1).rev() {
            let v = v as usize;
            label[f.via[v] as usize] = covering[v];
            covering[f.up[v] as usize] ^= covering[v];
        }
        label
    }

    /// The component a bridge leads to (away from the ground).
    fn child_of_bridge(&self, edge: usize) -> usize {
        let (a, b) = self.edges[edge];
        let ca = self.fused.component[a as usize] as usize;
        if self.fused.parent_edge[ca] == edge as u32 {
            ca
        } else {
            self.fused.component[b as usize] as usize
        }
    }

    /// For each node, the XOR of `(value + 1)` over the components hanging from it by a
    /// bridge: what its subtrees add to its component.
    fn weights(&self) -> Vec<u32> {
        let f = &self.fused;
        let mut weights = vec![0u32; self.node_count];
        for c in 1..f.value.len() {
            weights[f.anchor[c] as usize] ^= f.value[c] + 1;
        }
        weights
    }

    /// The value of component `c` (with everything hanging from it) once edge `edge`, one of
    /// its non-bridge edges, is deleted: `c` alone is fused afresh, rooted where its parent
    /// bridge arrives, each node carrying its subtrees as a weight. `O(|C| + |E(C)|)`.
    fn component_without(&self, c: usize, edge: usize, members: &Members, weights: &[u32]) -> u32 {
        let f = &self.fused;
        let nodes = members.nodes(c);
        let local = |v: u32| members.local[v as usize];
        let edges: Vec<(u32, u32)> = members
            .edges(c)
            .iter()
            .filter(|&&e| e as usize != edge)
            .map(|&e| {
                let (a, b) = self.edges[e as usize];
                (local(a), local(b))
            })
            .collect();
        let local_weights: Vec<u32> = nodes.iter().map(|&v| weights[v as usize]).collect();
        Fused::of(nodes.len(), &edges, local(f.head[c]), Some(&local_weights)).value[0]
    }
}

/// What [`Hackenbush::winning_cuts_within`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cuts {
    /// The winning cuts found (edge indices, ascending).
    pub winning: Vec<usize>,
    /// The edges in play whose cut was not checked within the work allowed (ascending; empty
    /// when the search was complete).
    pub unsearched: Vec<usize>,
}

impl Cuts {
    /// Whether every edge was checked.
    pub fn complete(&self) -> bool {
        self.unsearched.is_empty()
    }
}

/// splitmix64 (Steele, Lea and Flood 2014): the cycle labels, fixed for each edge index so
/// that runs are reproducible.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A component's own graph: (the component, CSR offsets by local node, (local neighbour,
/// edge) pairs), loops left out.
type LocalGraph = (usize, Vec<usize>, Vec<(u32, u32)>);

/// The cuts of edges on cycles, grouped by cycle label (see
/// [`Hackenbush::winning_cuts_within`]), within a work limit.
struct CycleSearch<'h> {
    position: &'h Hackenbush,
    need: &'h [Option<u32>],
    labels: Vec<u64>,
    members: Option<(Members, Vec<u32>)>,
    /// The local adjacency of the component last built.
    local: Option<LocalGraph>,
    /// Per edge, the number of the class it was last marked in (0: none).
    mark: Vec<u32>,
    work_left: u64,
}

impl<'h> CycleSearch<'h> {
    fn new(position: &'h Hackenbush, need: &'h [Option<u32>], work: u64) -> Self {
        CycleSearch {
            position,
            need,
            labels: position.cycle_labels(),
            members: None,
            local: None,
            mark: Vec::new(),
            work_left: work,
        }
    }

    /// Spends `steps` of the work left, or says there are not enough.
    fn spend(&mut self, steps: u64) -> bool {
        match self.work_left.checked_sub(steps) {
            Some(left) => {
                self.work_left = left;
                true
            }
            None => false,
        }
    }

    /// Checks the cuts of `hard` (edges on cycles, in components with a need), adding the
    /// winning ones to `winning` and those past the work limit to `unsearched`.
    fn run(&mut self, mut hard: Vec<usize>, winning: &mut Vec<usize>, unsearched: &mut Vec<usize>) {
        let f = &self.position.fused;
        let edges = &self.position.edges;
        let component = |e: usize| f.component[edges[e].0 as usize];
        let labels = std::mem::take(&mut self.labels);
        hard.sort_unstable_by_key(|&e| (component(e), labels[e], e));
        let mut start = 0;
        let mut class_number = 0u32;
        while start < hard.len() {
            let e0 = hard[start];
            let key = (component(e0), labels[e0]);
            let end = start
                + hard[start..]
                    .iter()
                    .take_while(|&&e| (component(e), labels[e]) == key)
                    .count();
            let class = &hard[start..end];
            start = end;
            let c = key.0 as usize;
            let n = self.need[c].expect("only components with a need are searched");
            if let [edge] = class {
                // On no 2-edge cut: the component stays whole, one loop fewer.
                if !self.spend(1) {
                    unsearched.push(*edge);
                } else if f.value[c] ^ 1 == n {
                    winning.push(*edge);
                }
                continue;
            }
            class_number += 1;
            match self.class_values(c, class, class_number) {
                Some(Some(values)) => {
                    for (&edge, value) in class.iter().zip(values) {
                        if value == u64::from(n) {
                            winning.push(edge);
                        }
                    }
                }
                Some(None) => {
                    // Labels that collided by chance: each cut valued afresh.
                    for &edge in class {
                        let (nodes, edges) = self.sizes(c);
                        if !self.spend(nodes + edges) {
                            unsearched.push(edge);
                            continue;
                        }
                        let position = self.position;
                        let (members, weights) = self.members();
                        if position.component_without(c, edge, members, weights) == n {
                            winning.push(edge);
                        }
                    }
                }
                None => unsearched.extend_from_slice(class),
            }
        }
    }

    fn members(&mut self) -> (&Members, &Vec<u32>) {
        let position = self.position;
        let (members, weights) = self.members.get_or_insert_with(|| {
            (
                Members::of(&position.fused, &position.edges),
                position.weights(),
            )
        });
        (members, weights)
    }

    /// The nodes and non-bridge edges of component `c`.
    fn sizes(&mut self, c: usize) -> (u64, u64) {
        let (members, _) = self.members();
        (members.nodes(c).len() as u64, members.edges(c).len() as u64)
    }

    /// The value component `c` takes after each cut of `class` (edges sharing one cycle
    /// label): `None` past the work limit, `Some(None)` when the class does not split `c`
    /// into one cycle of pieces (labels that collided by chance).
    fn class_values(&mut self, c: usize, class: &[usize], number: u32) -> Option<Option<Vec<u64>>> {
        let (nodes, edges) = self.sizes(c);
        if !self.spend(2 * (nodes + edges) + class.len() as u64) {
            return None;
        }
        let position = self.position;
        let f = &position.fused;
        if self.mark.is_empty() {
            self.mark = vec![0; position.edges.len()];
        }
        for &e in class {
            self.mark[e] = number;
        }
        if self.local.as_ref().is_none_or(|(built, _, _)| *built != c) {
            let (members, _) = self.members();
            let local = |v: u32| members.local[v as usize] as usize;
            let count = members.nodes(c).len();
            let mut offsets = vec![0usize; count + 1];
            for &e in members.edges(c) {
                let (a, b) = position.edges[e as usize];
                if a != b {
                    offsets[local(a) + 1] += 1;
                    offsets[local(b) + 1] += 1;
                }
            }
            for v in 0..count {
                offsets[v + 1] += offsets[v];
            }
            let mut next = offsets.clone();
            let mut adjacency = vec![(0u32, 0u32); offsets[count]];
            for &e in members.edges(c) {
                let (a, b) = position.edges[e as usize];
                if a != b {
                    let (a, b) = (local(a), local(b));
                    adjacency[next[a]] = (b as u32, e);
                    next[a] += 1;
                    adjacency[next[b]] = (a as u32, e);
                    next[b] += 1;
                }
            }
            self.local = Some((c, offsets, adjacency));
        }
        let (members, weights) = self.members.as_ref().expect("built above");
        let (_, offsets, adjacency) = self.local.as_ref().expect("built above");
        let local = |v: u32| members.local[v as usize] as usize;
        let mark = &self.mark;

        // The pieces: what is left connected once every edge of the class is cut.
        let count = members.nodes(c).len();
        let mut piece = vec![NONE; count];
        let mut pieces = 0u32;
        let mut stack = Vec::new();
        for root in 0..count {
            if piece[root] != NONE {
                continue;
            }
            piece[root] = pieces;
            stack.push(root);
            while let Some(v) = stack.pop() {
                for &(w, e) in &adjacency[offsets[v]..offsets[v + 1]] {
                    if mark[e as usize] != number && piece[w as usize] == NONE {
                        piece[w as usize] = pieces;
                        stack.push(w as usize);
                    }
                }
            }
            pieces += 1;
        }
        let k = class.len();
        if pieces as usize != k {
            return Some(None);
        }
        // Each piece meets exactly two edges of the class, and they chain into one cycle.
        let mut ends: Vec<[(u32, u32); 2]> = vec![[(NONE, NONE); 2]; k];
        let mut degree = vec![0u8; k];
        for (i, &e) in class.iter().enumerate() {
            let (a, b) = position.edges[e];
            let (pa, pb) = (piece[local(a)], piece[local(b)]);
            if pa == pb {
                return Some(None);
            }
            for (p, other) in [(pa, pb), (pb, pa)] {
                let d = &mut degree[p as usize];
                if *d == 2 {
                    return Some(None);
                }
                ends[p as usize][*d as usize] = (other, i as u32);
                *d += 1;
            }
        }
        // Walk the cycle from the piece holding the component's root: positions 0..k, the
        // t-th edge of the class joining positions t and t + 1 (mod k).
        let root = piece[local(f.head[c])];
        let mut place = vec![NONE; k];
        let mut edge_place = vec![NONE; k];
        let (mut at, mut came_by) = (root, NONE);
        for t in 0..k as u32 {
            if place[at as usize] != NONE {
                return Some(None);
            }
            place[at as usize] = t;
            let [first, second] = ends[at as usize];
            let (next, by) = if first.1 != came_by { first } else { second };
            edge_place[by as usize] = t;
            (at, came_by) = (next, by);
        }
        if at != root || place.contains(&NONE) {
            return Some(None);
        }
        // Each piece's own value: its edges (now loops, once fused) and its subtrees.
        let mut q = vec![0u32; k];
        for &e in members.edges(c) {
            if mark[e as usize] != number {
                let a = position.edges[e as usize].0;
                q[place[piece[local(a)] as usize] as usize] ^= 1;
            }
        }
        for &v in members.nodes(c) {
            q[place[piece[local(v)] as usize] as usize] ^= weights[v as usize];
        }
        let nonzero: Vec<usize> = (1..k).filter(|&p| q[p] != 0).collect();
        if !self.spend(k as u64 * (nonzero.len() as u64 + 1)) {
            return None;
        }
        // Cutting the t-th edge leaves the arm of positions 1..=t on one side of the root's
        // piece and k−1 down to t+1 on the other; an arm of pieces p_1 (next to the root) ..
        // p_m is worth h(p_1, h(p_2, … h(p_m, 0))), h(p, x) = (q_p XOR x) + 1.
        let values = edge_place
            .iter()
            .map(|&t| {
                let t = t as usize;
                let split = nonzero.partition_point(|&p| p <= t);
                let mut clockwise = 0u64;
                let mut previous = t + 1;
                for &p in nonzero[..split].iter().rev() {
                    clockwise += (previous - p - 1) as u64;
                    clockwise = (u64::from(q[p]) ^ clockwise) + 1;
                    previous = p;
                }
                clockwise += (previous - 1) as u64;
                let mut counter = 0u64;
                let mut previous = t;
                for &p in &nonzero[split..] {
                    counter += (p - previous - 1) as u64;
                    counter = (u64::from(q[p]) ^ counter) + 1;
                    previous = p;
                }
                counter += (k - 1 - previous) as u64;
                u64::from(q[0]) ^ clockwise ^ counter
            })
            .collect();
        Some(Some(values))
    }
}

/// The nodes and the non-bridge edges of each component, grouped (CSR), with each node's index
/// inside its component.
struct Members {
    node_offsets: Vec<usize>,
    nodes: Vec<u32>,
    local: Vec<u32>,
    edge_offsets: Vec<usize>,
    edges: Vec<u32>,
}

impl Members {
    fn of(f: &Fused, edges: &[(u32, u32)]) -> Members {
        let k = f.value.len();
        let group = |keys: &mut dyn Iterator<Item = (u32, u32)>| {
            let keys: Vec<(u32, u32)> = keys.collect();
            let mut offsets = vec![0usize; k + 1];
            for &(c, _) in &keys {
                offsets[c as usize + 1] += 1;
            }
            for c in 0..k {
                offsets[c + 1] += offsets[c];
            }
            let mut next = offsets.clone();
            let mut items = vec![0u32; keys.len()];
            for &(c, item) in &keys {
                items[next[c as usize]] = item;
                next[c as usize] += 1;
            }
            (offsets, items)
        };
        let (node_offsets, nodes) = group(
            &mut (0..f.component.len() as u32)
                .map(|v| (f.component[v as usize], v))
                .filter(|&(c, _)| c != NONE),
        );
        let mut local = vec![NONE; f.component.len()];
        for c in 0..k {
            for (i, &v) in nodes[node_offsets[c]..node_offsets[c + 1]]
                .iter()
                .enumerate()
            {
                local[v as usize] = i as u32;
            }
        }
        // Only a bridge can join two components: the other edges in play (loops included)
        // each lie inside the component of their first endpoint.
        let (edge_offsets, edges) = group(
            &mut edges
                .iter()
                .zip(&f.bridge)
                .enumerate()
                .map(|(e, (&(a, _), &bridge))| (f.component[a as usize], bridge, e as u32))
                .filter(|&(c, bridge, _)| c != NONE && !bridge)
                .map(|(c, _, e)| (c, e)),
        );
        Members {
            node_offsets,
            nodes,
            local,
            edge_offsets,
            edges,
        }
    }

    fn nodes(&self, c: usize) -> &[u32] {
        &self.nodes[self.node_offsets[c]..self.node_offsets[c + 1]]
    }

    fn edges(&self, c: usize) -> &[u32] {
        &self.edges[self.edge_offsets[c]..self.edge_offsets[c + 1]]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(node_count: usize, edges: &[(u32, u32)], ground: u32) -> Hackenbush {
        Hackenbush::new(node_count, edges.to_vec(), ground).unwrap()
    }

    #[test]
    fn bad_positions_are_refused_with_what_is_wrong() {
        assert_eq!(
            Hackenbush::new(3, vec![(0, 1), (1, 3)], 0),
            Err(HackenbushError::EndpointOutOfRange {
                edge: 1,
                tail: 1,
                head: 3,
                node_count: 3
            })
        );
        assert_eq!(
            Hackenbush::new(0, vec![], 0),
            Err(HackenbushError::GroundOutOfRange {
                ground: 0,
                node_count: 0
            })
        );
        let message = Hackenbush::new(2, vec![(5, 0)], 0).unwrap_err().to_string();
        assert!(message.contains("edge 0 (5, 0)"), "{message}");
    }

    #[test]
    fn the_empty_position_and_a_bare_ground_are_zero() {
        let h = position(1, &[], 0);
        assert_eq!(h.value(), 0);
        assert_eq!(h.node_values(), vec![Some(0)]);
        assert!(h.winning_cuts(0).is_empty());
        assert!(h.is_tree());
    }

    #[test]
    fn loops_and_parallel_edges_are_fused() {
        // One loop is *1, two loops *0; two parallel edges are a 2-cycle, fused to two loops.
        assert_eq!(position(1, &[(0, 0)], 0).value(), 1);
        assert_eq!(position(1, &[(0, 0), (0, 0)], 0).value(), 0);
        let double = position(2, &[(0, 1), (1, 0)], 0);
        assert_eq!(double.value(), 0);
        assert!(!double.is_bridge(0) && !double.is_bridge(1));
        assert!(!double.is_tree());
        // A loop atop an edge: the edge topped by *1 is *2.
        let h = position(2, &[(0, 1), (1, 1)], 0);
        assert_eq!(h.value(), 2);
        assert_eq!(h.node_values(), vec![Some(2), Some(1)]);
        assert_eq!(h.value_after_cut(1), 1);
        assert_eq!(h.value_after_cut(0), 0);
        assert_eq!(h.winning_cuts(0), vec![0]);
        assert_eq!(h.winning_cuts(1), vec![1]);
    }

    #[test]
    fn edges_cut_off_from_the_ground_are_not_in_play() {
        // A stalk 0-1 and a separate triangle 2-3-4 with a loop.
        let h = position(5, &[(0, 1), (2, 3), (3, 4), (4, 2), (3, 3)], 0);
        assert_eq!(h.value(), 1);
        assert_eq!(h.node_values(), vec![Some(1), Some(0), None, None, None]);
        assert!(h.in_play(0) && !h.in_play(2) && !h.in_play(4) && !h.in_play(99));
        assert!(h.is_tree());
        assert_eq!(h.value_after_cut(3), 1);
        assert_eq!(h.value_after_cut(99), 1);
        assert_eq!(h.winning_cuts(0), vec![0]);
    }

    #[test]
    fn a_cycle_cut_open_becomes_a_tree() {
        // A square standing on the ground: *0 (an even cycle); opening it leaves a stalk of
        // three edges or a fork of stalks 1 and 2 (1 XOR 2 = 3).
        let h = position(4, &[(0, 1), (1, 2), (2, 3), (3, 0)], 0);
        assert_eq!(h.value(), 0);
        assert_eq!(
            (0..4).map(|e| h.value_after_cut(e)).collect::<Vec<_>>(),
            [3, 3, 3, 3]
        );
        assert_eq!(h.winning_cuts(3), vec![0, 1, 2, 3]);
        assert!(h.winning_cuts(0).is_empty());
    }

    #[test]
    fn a_path_of_a_million_edges_needs_no_stack() {
        let n = 1_000_000u32;
        let edges: Vec<(u32, u32)> = (0..n).map(|i| (i + 1, i)).collect();
        let h = position(n as usize + 1, &edges, 0);
        assert_eq!(h.value(), n);
        assert_eq!(h.winning_cuts(0), vec![0]);
        assert_eq!(h.value_after_cut(n as usize - 1), n - 1);
    }
}
