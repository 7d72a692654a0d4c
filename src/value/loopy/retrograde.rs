//! Outcomes and remoteness of one token on a graph that may cycle, by retrograde analysis.

use super::induction::{propagate, small_counters, Counter, Predecessors, Status};
use crate::graph::Graph;
use crate::value::Outcome;

/// The outcome and remoteness of every node, as [`retrograde`] computes them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Retrograde {
    /// The outcome of the token on each node with the player to move: `P`, `N` or `D`.
    pub outcome: Vec<Outcome>,
    /// Smith's remoteness: how many moves the game lasts when the winner hurries and the loser
    /// delays; `None` exactly for the drawn nodes. Even for `P` nodes, odd for `N` nodes.
    pub remoteness: Vec<Option<u32>>,
}

/// The outcome and remoteness of every node of `graph` under normal play (a player who cannot
/// move loses; endless play is a draw).
///
/// The definitions (Smith, "Graphs and composite games", J. Combin. Theory 1 (1966) 51–81;
/// remoteness as in Winning Ways, ch. 12 "Games Eternal – Games Entailed", where Adders and
/// Ladders is analysed):
///
/// * a terminal node is `P` with remoteness 0;
/// * a node with a `P` successor is `N`, remoteness `1 + min` over its `P` successors (the
///   winner hurries);
/// * a non-terminal node whose successors are all `N` is `P`, remoteness `1 + max` over its
///   successors (the loser delays);
/// * every other node is `D` (neither player can be forced off a cycle).
///
/// Linear time `O(V + E)`: counters of unresolved successors and a FIFO queue seeded with the
/// terminal nodes. **Why FIFO order gives the right remoteness:** every node is enqueued with
/// remoteness one more than the node being dequeued, so the queue always holds remoteness `r`
/// followed by `r + 1` and nodes leave it in non-decreasing remoteness. An `N` node is
/// resolved by the first `P` successor to leave the queue, which therefore has the least
/// remoteness among its `P` successors; a `P` node is resolved when its last `N` successor
/// leaves, which has the greatest remoteness among them. Both equations hold exactly.
pub fn retrograde(graph: &Graph) -> Retrograde {
    let found = match small_counters(graph) {
        true => retrograde_with::<u32>(graph, &Predecessors::of(graph)),
        false => retrograde_with::<u64>(graph, &Predecessors::of(graph)),
    };
    Retrograde {
        outcome: found.outcome,
        remoteness: found
            .remoteness
            .iter()
            .map(|&r| (r != DRAWN).then_some(r))
            .collect(),
    }
}

/// The remoteness of a drawn node in [`Outcomes`]: no remoteness is that large, since it is at
/// most the number of nodes less one, and nodes are numbered by `u32`.
pub(super) const DRAWN: u32 = u32::MAX;

/// [`Retrograde`] in compact form: the remoteness of a draw is [`DRAWN`] (4 bytes a node where
/// an `Option<u32>` takes 8: 12 MB on a table of 3·10⁶ positions, issue 27).
pub(super) struct Outcomes {
    pub(super) outcome: Vec<Outcome>,
    pub(super) remoteness: Vec<u32>,
}

/// [`retrograde`] in compact form, with the predecessors of `graph` built by the caller, who
/// shares them with [`super::gsg::gamma_with`].
pub(super) fn retrograde_with<C: Counter>(graph: &Graph, preds: &Predecessors<C>) -> Outcomes {
    let n = graph.node_count();
    let mut status = vec![Status::Open; n];
    let mut remaining: Vec<C> = (0..n as u32).map(|v| C::of(graph.out_degree(v))).collect();
    let mut depth = vec![0u32; n];
    let mut queue: Vec<u32> = Vec::with_capacity(n);
    for v in 0..n as u32 {
        if remaining[v as usize].is_zero() {
            status[v as usize] = Status::Lost;
            queue.push(v);
        }
    }
    propagate(preds, &mut status, &mut remaining, &mut queue, |u, v| {
        depth[u as usize] = depth[v as usize] + 1;
    });
    drop((remaining, queue));
    let outcome = status
        .iter()
        .map(|s| match s {
            Status::Lost => Outcome::P,
            Status::Won => Outcome::N,
            _ => Outcome::D,
        })
        .collect();
    for (d, s) in depth.iter_mut().zip(&status) {
        if !matches!(s, Status::Lost | Status::Won) {
            *d = DRAWN;
        }
    }
    Outcomes {
        outcome,
        remoteness: depth,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Outcome::{D, N, P};

    #[test]
    fn a_two_cycle_with_an_exit() {
        // 0 ↔ 1, 1 → 2: from 1 the mover exits to the terminal 2 and wins; from 0 the only
        // move is to 1, a loss in two moves. Nothing is drawn although 0 and 1 form a cycle.
        let r = retrograde(&Graph::from_edges(3, &[(0, 1), (1, 0), (1, 2)]));
        assert_eq!(r.outcome, [P, N, P]);
        assert_eq!(r.remoteness, [Some(2), Some(1), Some(0)]);
    }

    #[test]
    fn cycles_without_exits_are_draws_and_the_loser_delays() {
        // 0 → 0 alone is a draw; 1 → 2 → 3 → 1 is a draw; 4 → {5, 6}, 5 → 7, 6 → 8 → 9:
        // 7 and 9 are terminal, 5 and 8 are N(1), 6 is P(2), 4 is N(3) by moving to 6.
        // 10 → 5 and 10 → 8 only: P with remoteness 2. 11 → {0, 4} (D and N) is D.
        let g = Graph::from_edges(
            12,
            &[
                (0, 0),
                (1, 2),
                (2, 3),
                (3, 1),
                (4, 5),
                (4, 6),
                (5, 7),
                (6, 8),
                (8, 9),
                (10, 5),
                (10, 8),
                (11, 0),
                (11, 4),
            ],
        );
        let r = retrograde(&g);
        assert_eq!(r.outcome, [D, D, D, D, N, N, P, P, N, P, P, D]);
        assert_eq!(r.remoteness[4], Some(3));
        assert_eq!(r.remoteness[6], Some(2));
        assert_eq!(r.remoteness[10], Some(2));
        assert_eq!(r.remoteness[0], None);
    }

    #[test]
    fn multi_edges_count_once_each() {
        // 0 ⇉ 1 (twice), 1 → 2: 0 is P only once both copies of its move are known to lose.
        let r = retrograde(&Graph::from_edges(3, &[(0, 1), (0, 1), (1, 2)]));
        assert_eq!(r.outcome, [P, N, P]);
        assert_eq!(retrograde(&Graph::default()).outcome, []);
    }
}
