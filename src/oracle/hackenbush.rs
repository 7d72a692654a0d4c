//! Green Hackenbush by brute force: the real game tree, with none of the principles that
//! [`crate::engine::hackenbush`] relies on (no colon principle, no fusion, no bridges).
//!
//! A position is the bitmask of the edges still standing. After each deletion every edge no
//! longer joined to the ground falls (a search from the ground over the standing edges), and
//! the value is the mex of the options' values, memoized. Exponential: for positions of up to
//! [`MAX_EDGES`] edges, in practice about 16.

use std::collections::HashMap;

/// The most edges a brute-force position may have (one bit of a `u32` each).
pub const MAX_EDGES: usize = 32;

/// The game tree of one position, explored on demand.
#[derive(Clone, Debug)]
pub struct BruteForce {
    /// The endpoints of each edge, as indices into the nodes that occur (plus the ground).
    edges: Vec<(usize, usize)>,
    /// The ground's index.
    ground: usize,
    /// How many distinct nodes occur.
    nodes: usize,
    memo: HashMap<u32, u32>,
}

impl BruteForce {
    /// The position `edges` (undirected; loops and parallel edges allowed) rooted at `ground`.
    /// Node numbers are only names here: they need not be below any bound.
    ///
    /// # Panics
    /// With more than [`MAX_EDGES`] edges (an oracle for small positions only).
    pub fn new(edges: &[(u32, u32)], ground: u32) -> BruteForce {
        assert!(
            edges.len() <= MAX_EDGES,
            "the brute force takes at most {MAX_EDGES} edges"
        );
        let mut names: Vec<u32> = vec![ground];
        let mut index = |v: u32| match names.iter().position(|&w| w == v) {
            Some(i) => i,
            None => {
                names.push(v);
                names.len() - 1
            }
        };
        let edges: Vec<(usize, usize)> = edges.iter().map(|&(a, b)| (index(a), index(b))).collect();
        BruteForce {
            edges,
            ground: 0,
            nodes: names.len(),
            memo: HashMap::new(),
        }
    }

    /// Every edge, as a bitmask.
    fn all(&self) -> u32 {
        if self.edges.len() == 32 {
            u32::MAX
        } else {
            (1u32 << self.edges.len()) - 1
        }
    }

    /// The edges of `standing` still joined to the ground: a search from the ground, repeated
    /// over the edges until nothing new is reached.
    pub fn connected(&self, standing: u32) -> u32 {
        let mut reached = vec![false; self.nodes];
        reached[self.ground] = true;
        let mut kept = 0u32;
        loop {
            let before = kept;
            for (i, &(a, b)) in self.edges.iter().enumerate() {
                if standing & (1 << i) != 0 && kept & (1 << i) == 0 && (reached[a] || reached[b]) {
                    reached[a] = true;
                    reached[b] = true;
                    kept |= 1 << i;
                }
            }
            if kept == before {
                return kept;
            }
        }
    }

    /// The value of the position whose standing edges are `standing`.
    pub fn value_of(&mut self, standing: u32) -> u32 {
        let position = self.connected(standing);
        self.grundy(position)
    }

    /// The value of a position already reduced to the edges joined to the ground.
    fn grundy(&mut self, position: u32) -> u32 {
        if let Some(&g) = self.memo.get(&position) {
            return g;
        }
        let mut options = Vec::new();
        let mut rest = position;
        while rest != 0 {
            let i = rest.trailing_zeros();
            rest &= rest - 1;
            let next = self.connected(position & !(1 << i));
            options.push(self.grundy(next));
        }
        // The mex, by the definition.
        let g = (0..).find(|g| !options.contains(g)).unwrap_or(0);
        self.memo.insert(position, g);
        g
    }

    /// The value of the whole position.
    pub fn value(&mut self) -> u32 {
        self.value_of(self.all())
    }

    /// The value after deleting each edge (unchanged for an edge that has already fallen).
    pub fn values_after_cuts(&mut self) -> Vec<u32> {
        let position = self.connected(self.all());
        (0..self.edges.len())
            .map(|i| self.value_of(position & !(1 << i)))
            .collect()
    }

    /// The edges in play (ascending) whose deletion leaves the value `target`.
    pub fn winning_cuts(&mut self, target: u32) -> Vec<usize> {
        let position = self.connected(self.all());
        (0..self.edges.len())
            .filter(|&i| position & (1 << i) != 0)
            .filter(|&i| self.value_of(position & !(1 << i)) == target)
            .collect()
    }

    /// Whether each edge is joined to the ground in the whole position.
    pub fn in_play(&self) -> Vec<bool> {
        let position = self.connected(self.all());
        (0..self.edges.len())
            .map(|i| position & (1 << i) != 0)
            .collect()
    }
}
