//! A layered layout of a graph, for drawing it (`export::graph_plot`): deterministic and
//! linear-ish in the size of the graph:
//!
//! * **directed**: a node's row is its height, the length of the longest path from it to a
//!   terminal node (no moves) once the back edges of a depth-first search (started at the nodes
//!   in index order) are set aside. Terminal nodes are the bottom row, every other node lies
//!   above all of its options except those reached by a set-aside edge, which only close
//!   cycles; a node whose every move closes a cycle sits one row above the terminal nodes;
//! * **undirected**: a node's row is its breadth-first distance from the ground (from the
//!   lowest-numbered node of each component without one), so the ground is alone at the bottom
//!   and the picture grows upwards like a Hackenbush drawing;
//! * within the rows, the nodes start in index order and are then sorted by the mean position
//!   of their neighbours in the row below and the row above, alternately, a few times (the
//!   barycentre heuristic of Sugiyama et al.), which removes most crossings on trees and small
//!   game graphs.

use super::Graph;

/// Rounds of barycentre sorting (each one sweep down and one up).
const ORDER_ROUNDS: usize = 4;

/// Where the nodes of a graph go: rows, bottom to top, and places within them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layers {
    /// Each node's row, 0 at the bottom.
    pub row: Vec<usize>,
    /// The nodes of each row, left to right.
    pub rows: Vec<Vec<u32>>,
}

/// The layers of `graph`: by height for a directed graph, by distance from `ground` for an
/// `undirected` one (see the module docs); a `ground` that is no node is ignored.
pub fn layers(graph: &Graph, undirected: bool, ground: Option<u32>) -> Layers {
    let neighbours = neighbours(graph);
    let row = if undirected {
        rows_from_ground(graph.node_count(), &neighbours, ground)
    } else {
        rows_by_height(graph, ground)
    };
    let rows = order_rows(&row, &neighbours);
    Layers { row, rows }
}

/// Each node's neighbours either way, self-loops left out, sorted and without repeats.
fn neighbours(graph: &Graph) -> Vec<Vec<u32>> {
    let mut neighbours = vec![Vec::new(); graph.node_count()];
    for (v, w) in graph.edges() {
        if v != w {
            neighbours[v as usize].push(w);
            neighbours[w as usize].push(v);
        }
    }
    for list in &mut neighbours {
        list.sort_unstable();
        list.dedup();
    }
    neighbours
}

/// Directed rows: 0 for a terminal node, else one more than the highest option reached by an
/// edge that is not a back edge of a depth-first search (iterative, so long paths are fine).
/// At the moment a node is finished, its options already finished are exactly those reached
/// by tree, forward and cross edges; the ones still open are its ancestors (back edges) or
/// itself (a self-loop). The ground, if any, is put in the bottom row.
fn rows_by_height(graph: &Graph, ground: Option<u32>) -> Vec<usize> {
    const NEW: u8 = 0;
    const OPEN: u8 = 1;
    const DONE: u8 = 2;
    let n = graph.node_count();
    let mut state = vec![NEW; n];
    let mut height = vec![0usize; n];
    let mut stack: Vec<(u32, usize)> = Vec::new();
    for root in 0..n as u32 {
        if state[root as usize] != NEW {
            continue;
        }
        state[root as usize] = OPEN;
        stack.push((root, 0));
        while let Some(top) = stack.last_mut() {
            let (v, next) = *top;
            let successors = graph.successors(v);
            if let Some(&w) = successors.get(next) {
                top.1 += 1;
                if state[w as usize] == NEW {
                    state[w as usize] = OPEN;
                    stack.push((w, 0));
                }
                continue;
            }
            stack.pop();
            height[v as usize] = if successors.is_empty() {
                0
            } else {
                1 + successors
                    .iter()
                    .filter(|&&w| state[w as usize] == DONE)
                    .map(|&w| height[w as usize])
                    .max()
                    .unwrap_or(0)
            };
            state[v as usize] = DONE;
        }
    }
    if let Some(g) = ground.filter(|&g| (g as usize) < n) {
        height[g as usize] = 0;
    }
    height
}

/// Undirected rows: the breadth-first distance from the ground, which is alone in row 0; a
/// component without the ground starts at its lowest-numbered node, in row 1 when there is a
/// ground (to leave the ground its row) and 0 otherwise.
fn rows_from_ground(n: usize, neighbours: &[Vec<u32>], ground: Option<u32>) -> Vec<usize> {
    let ground = ground.filter(|&g| (g as usize) < n);
    let mut row = vec![usize::MAX; n];
    let mut queue = std::collections::VecDeque::new();
    let roots = ground.into_iter().chain(0..n as u32);
    for root in roots {
        if row[root as usize] != usize::MAX {
            continue;
        }
        row[root as usize] = match ground {
            Some(g) if g != root => 1,
            _ => 0,
        };
        queue.push_back(root);
        while let Some(v) = queue.pop_front() {
            for &w in &neighbours[v as usize] {
                if row[w as usize] == usize::MAX {
                    row[w as usize] = row[v as usize] + 1;
                    queue.push_back(w);
                }
            }
        }
    }
    row
}

/// The nodes of each row, left to right: in index order at first, then sorted by the mean
/// position of their neighbours in the row below (sweeping up) and above (sweeping down).
/// Stable sorts with the current position as the key of a node without such neighbours keep
/// it deterministic.
fn order_rows(row: &[usize], neighbours: &[Vec<u32>]) -> Vec<Vec<u32>> {
    let count = row.iter().max().map_or(0, |&r| r + 1);
    let mut rows: Vec<Vec<u32>> = vec![Vec::new(); count];
    for (v, &r) in row.iter().enumerate() {
        rows[r].push(v as u32);
    }
    let mut position = vec![0.0f64; row.len()];
    let place = |rows: &[Vec<u32>], position: &mut [f64], r: usize| {
        // Centred, so that rows of different lengths compare.
        let middle = (rows[r].len() as f64 - 1.0) / 2.0;
        for (i, &v) in rows[r].iter().enumerate() {
            position[v as usize] = i as f64 - middle;
        }
    };
    for r in 0..count {
        place(&rows, &mut position, r);
    }
    let sort = |rows: &mut [Vec<u32>], position: &mut [f64], r: usize, reference: usize| {
        let key = |v: u32| {
            let (sum, k) = neighbours[v as usize]
                .iter()
                .filter(|&&w| row[w as usize] == reference)
                .fold((0.0, 0usize), |(s, k), &w| {
                    (s + position[w as usize], k + 1)
                });
            if k == 0 {
                position[v as usize]
            } else {
                sum / k as f64
            }
        };
        let mut keyed: Vec<(f64, u32)> = rows[r].iter().map(|&v| (key(v), v)).collect();
        keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
        rows[r] = keyed.into_iter().map(|(_, v)| v).collect();
        place(rows, position, r);
    };
    for _ in 0..ORDER_ROUNDS {
        for r in 1..count {
            sort(&mut rows, &mut position, r, r - 1);
        }
        for r in (0..count.saturating_sub(1)).rev() {
            sort(&mut rows, &mut position, r, r + 1);
        }
    }
    rows
}
