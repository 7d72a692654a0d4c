//! Green Hackenbush: the fused-tree kernel against the brute force over the real game tree on
//! random trees and random multigraphs, published values, and large positions.

use proptest::prelude::*;
use sgscope::engine::hackenbush::Hackenbush;
use sgscope::oracle::hackenbush::BruteForce;

/// Compares everything the kernel says about `edges` rooted at `ground` with the brute force;
/// returns the number of values compared.
fn compare(node_count: usize, edges: &[(u32, u32)], ground: u32, extra_targets: &[u32]) -> usize {
    let h = Hackenbush::new(node_count, edges.to_vec(), ground).unwrap();
    let mut brute = BruteForce::new(edges, ground);
    let what = format!("{node_count} nodes, ground {ground}, edges {edges:?}");
    let mut compared = 0;

    let value = brute.value();
    assert_eq!(h.value(), value, "value of {what}");
    compared += 1;

    let after = brute.values_after_cuts();
    for (edge, &expected) in after.iter().enumerate() {
        assert_eq!(h.value_after_cut(edge), expected, "cut {edge} of {what}");
    }
    compared += after.len();

    let in_play = brute.in_play();
    for (edge, &expected) in in_play.iter().enumerate() {
        assert_eq!(h.in_play(edge), expected, "edge {edge} in play, {what}");
    }

    let mut targets = vec![0, value, value ^ 1];
    targets.extend_from_slice(extra_targets);
    for &target in &targets {
        assert_eq!(
            h.winning_cuts(target),
            brute.winning_cuts(target),
            "winning cuts to {target} of {what}"
        );
    }
    compared += targets.len();

    // The part hanging above each node: the ground's is the whole position; whenever cutting
    // an edge separates a set S of nodes from the ground (found by the brute force's own
    // search), the edges inside S, rooted at the cut edge's endpoint in S, are the part
    // hanging above that endpoint.
    let node_values = h.node_values();
    assert_eq!(node_values[ground as usize], Some(value), "{what}");
    let reached = reached_nodes(node_count, edges, ground, None);
    for v in 0..node_count {
        assert_eq!(node_values[v].is_some(), reached[v], "node {v} of {what}");
    }
    for edge in (0..edges.len()).filter(|&e| in_play[e]) {
        let still = reached_nodes(node_count, edges, ground, Some(edge));
        let (a, b) = edges[edge];
        let top = if !still[a as usize] {
            a
        } else if !still[b as usize] {
            b
        } else {
            continue;
        };
        let above: Vec<(u32, u32)> = edges
            .iter()
            .enumerate()
            .filter(|&(e, &(x, _))| e != edge && in_play[e] && !still[x as usize])
            .map(|(_, &xy)| xy)
            .collect();
        let expected = BruteForce::new(&above, top).value();
        assert_eq!(
            node_values[top as usize],
            Some(expected),
            "part above node {top} (cut {edge}) of {what}"
        );
        compared += 1;
    }
    // A tree: every edge in play separates some node from the ground (a loop or an edge on a
    // cycle does not).
    let separates = |e: usize| {
        let still = reached_nodes(node_count, edges, ground, Some(e));
        !still[edges[e].0 as usize] || !still[edges[e].1 as usize]
    };
    assert_eq!(
        h.is_tree(),
        (0..edges.len()).all(|e| !in_play[e] || separates(e)),
        "is_tree of {what}"
    );
    compared
}

/// Which nodes a search from the ground reaches, without edge `skip`.
fn reached_nodes(
    node_count: usize,
    edges: &[(u32, u32)],
    ground: u32,
    skip: Option<usize>,
) -> Vec<bool> {
    let mut reached = vec![false; node_count];
    reached[ground as usize] = true;
    let mut changed = true;
    while changed {
        changed = false;
        for (e, &(a, b)) in edges.iter().enumerate() {
            if Some(e) != skip && reached[a as usize] != reached[b as usize] {
                reached[a as usize] = true;
                reached[b as usize] = true;
                changed = true;
            }
        }
    }
    reached
}

/// A random tree: node `i > 0` hangs from a random earlier node, the names are shuffled, each
/// edge's endpoints come in a random order, and the ground is any node.
fn tree(max_edges: usize) -> impl Strategy<Value = (usize, Vec<(u32, u32)>, u32)> {
    (0..=max_edges)
        .prop_flat_map(|edges| {
            let nodes = edges + 1;
            (
                Just(nodes),
                (0..nodes).map(|i| 0..i.max(1)).collect::<Vec<_>>(),
                Just((0..nodes as u32).collect::<Vec<u32>>()).prop_shuffle(),
                proptest::collection::vec(any::<bool>(), edges),
                0..nodes as u32,
            )
        })
        .prop_map(|(nodes, parents, names, flips, ground)| {
            let mut edges: Vec<(u32, u32)> = (1..nodes)
                .map(|i| {
                    let (a, b) = (names[i], names[parents[i]]);
                    if flips[i - 1] {
                        (b, a)
                    } else {
                        (a, b)
                    }
                })
                .collect();
            // Edge ids in a random order too: reverse by a flip of the first coin.
            if flips.first() == Some(&true) {
                edges.reverse();
            }
            (nodes, edges, ground)
        })
}

/// A random multigraph: up to `max_edges` edges between random nodes of up to 8, so loops,
/// parallel edges, cycles and parts cut off from the ground all occur.
fn multigraph(max_edges: usize) -> impl Strategy<Value = (usize, Vec<(u32, u32)>, u32)> {
    (1usize..=8).prop_flat_map(move |nodes| {
        (
            Just(nodes),
            proptest::collection::vec((0..nodes as u32, 0..nodes as u32), 0..=max_edges),
            0..nodes as u32,
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn trees_match_the_brute_force((nodes, edges, ground) in tree(14), t in 0u32..16) {
        let h = Hackenbush::new(nodes, edges.clone(), ground).unwrap();
        prop_assert!(h.is_tree());
        compare(nodes, &edges, ground, &[t]);
    }

    #[test]
    fn multigraphs_match_the_brute_force((nodes, edges, ground) in multigraph(12), t in 0u32..16) {
        compare(nodes, &edges, ground, &[t]);
    }
}

/// How many values the property tests compare, per case, over a fixed sample of the same
/// strategies (printed with `--nocapture`; the proptest runs above draw fresh cases).
#[test]
fn count_of_compared_values_on_a_sample() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut trees, mut graphs) = (0, 0);
    for _ in 0..50 {
        let (n, e, g) = tree(14).new_tree(&mut runner).unwrap().current();
        trees += compare(n, &e, g, &[]);
        let (n, e, g) = multigraph(12).new_tree(&mut runner).unwrap().current();
        graphs += compare(n, &e, g, &[]);
    }
    println!("per 50 cases: {trees} tree values, {graphs} multigraph values compared");
    assert!(trees > 50 && graphs > 50);
}

#[test]
fn a_stalk_of_n_edges_is_star_n() {
    // Winning Ways ch. 7; Ferguson Part I §6.1: a bamboo stalk of n segments is a nim-heap *n.
    for n in 0..=14u32 {
        let edges: Vec<(u32, u32)> = (0..n).map(|i| (i, i + 1)).collect();
        let h = Hackenbush::new(n as usize + 1, edges.clone(), 0).unwrap();
        assert_eq!(h.value(), n);
        assert_eq!(BruteForce::new(&edges, 0).value(), n);
        // Cutting segment i leaves a stalk of i.
        for i in 0..n as usize {
            assert_eq!(h.value_after_cut(i), i as u32);
        }
    }
}

#[test]
fn cycles_on_the_ground_and_loops() {
    // Ferguson Part I §6.3, the fusion principle: a loop is *1, and a cycle on the ground fuses
    // to as many loops as it has edges: *1 when odd (the triangle), *0 when even.
    let check = |nodes: usize, edges: &[(u32, u32)], expected: u32| {
        let h = Hackenbush::new(nodes, edges.to_vec(), 0).unwrap();
        assert_eq!(h.value(), expected, "{edges:?}");
        assert_eq!(BruteForce::new(edges, 0).value(), expected, "{edges:?}");
    };
    check(1, &[(0, 0)], 1);
    for len in 2..=9u32 {
        let cycle: Vec<(u32, u32)> = (0..len).map(|i| (i, (i + 1) % len)).collect();
        check(len as usize, &cycle, len % 2);
    }
    // The triangle standing on one corner, a stalk of 3 on its top corner: 1 XOR (3) = 2.
    check(6, &[(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 5)], 1 ^ 3);
    // Winning Ways' "flowers": a stalk of n topped by k loops (petals) is *(n + k mod 2)...
    // by the colon principle the petals are worth k mod 2, carried up the stalk as + n.
    for n in 1..=4u32 {
        for k in 0..=4u32 {
            let mut edges: Vec<(u32, u32)> = (0..n).map(|i| (i, i + 1)).collect();
            edges.extend((0..k).map(|_| (n, n)));
            check(n as usize + 1, &edges, n + k % 2);
        }
    }
}

/// AtCoder AGC017 D "Game on Tree": the players alternately delete an edge of a tree and throw
/// away the part not containing vertex 1; Alice, who starts, wins iff the value is nonzero.
/// The four sample inputs of the problem statement and their answers.
#[test]
fn agc017_d_samples() {
    let samples: [(&[(u32, u32)], &str); 4] = [
        (&[(1, 2), (2, 3), (2, 4), (4, 5)], "Alice"),
        (&[(1, 2), (2, 3), (1, 4), (4, 5)], "Bob"),
        (&[(1, 2), (2, 4), (5, 1), (6, 3), (3, 2)], "Alice"),
        (&[(1, 2), (3, 7), (4, 6), (2, 3), (2, 4), (1, 5)], "Bob"),
    ];
    for (edges, winner) in samples {
        // Vertices are numbered from 1: node 0 is an unused extra.
        let nodes = edges.len() + 2;
        let h = Hackenbush::new(nodes, edges.to_vec(), 1).unwrap();
        assert!(h.is_tree());
        let alice = if h.value() != 0 { "Alice" } else { "Bob" };
        assert_eq!(alice, winner, "{edges:?}");
        assert_eq!(BruteForce::new(edges, 1).value(), h.value(), "{edges:?}");
        // Alice's winning first moves are exactly the cuts to 0; the first sample names one.
        assert_eq!(h.winning_cuts(0).is_empty(), winner == "Bob", "{edges:?}");
    }
    let first = Hackenbush::new(6, vec![(1, 2), (2, 3), (2, 4), (4, 5)], 1).unwrap();
    assert!(first.winning_cuts(0).contains(&0), "cutting 1-2 wins");
}

/// A tiny deterministic generator for the large tests (no dependence on proptest's runner).
fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

#[test]
fn a_path_of_100_000_vertices() {
    let n = 100_000u32;
    // Listed from the top down, rooted at the bottom end: *(n - 1).
    let edges: Vec<(u32, u32)> = (0..n - 1).rev().map(|i| (i + 1, i)).collect();
    let h = Hackenbush::new(n as usize, edges.clone(), 0).unwrap();
    assert_eq!(h.value(), n - 1);
    let values = h.node_values();
    assert!((0..n).all(|v| values[v as usize] == Some(n - 1 - v)));
    // Rooted in the middle: two stalks, a XOR b.
    let middle = Hackenbush::new(n as usize, edges, 40_000).unwrap();
    assert_eq!(middle.value(), 40_000 ^ (n - 1 - 40_000));
    // A stalk's winning cuts: the one that leaves the other side's length.
    assert_eq!(middle.winning_cuts(0).len(), 1);
}

#[test]
fn a_random_tree_of_100_000_vertices() {
    let n = 100_000usize;
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    // Node i > 0 hangs from a random earlier node (often a deep tree: every eighth node
    // continues the previous one); names are shuffled.
    let parent: Vec<usize> = (0..n)
        .map(|i| match i {
            0 => 0,
            _ if !xorshift(&mut state).is_multiple_of(8) => i - 1,
            _ => (xorshift(&mut state) % i as u64) as usize,
        })
        .collect();
    let mut names: Vec<u32> = (0..n as u32).collect();
    for i in (1..n).rev() {
        names.swap(i, (xorshift(&mut state) % (i as u64 + 1)) as usize);
    }
    let edges: Vec<(u32, u32)> = (1..n).map(|i| (names[i], names[parent[i]])).collect();
    let h = Hackenbush::new(n, edges, names[0]).unwrap();
    // The tree formula, evaluated on the known parents (children come after parents).
    let mut sg = vec![0u32; n];
    for i in (1..n).rev() {
        sg[parent[i]] ^= sg[i] + 1;
    }
    assert_eq!(h.value(), sg[0]);
    let values = h.node_values();
    assert!((0..n).all(|i| values[names[i] as usize] == Some(sg[i])));
    assert!(h.is_tree());
    // Every winning cut found leaves 0, and so does no edge outside the list (checked on the
    // first thousand edges).
    let cuts = h.winning_cuts(0);
    for &cut in &cuts {
        assert_eq!(h.value_after_cut(cut), 0);
    }
    for edge in 0..1000 {
        assert_eq!(
            cuts.contains(&edge),
            h.value_after_cut(edge) == 0,
            "edge {edge}"
        );
    }
}

#[test]
fn long_chains_of_cycles() {
    // 50 000 triangles joined by bridges, each bridge from the top corner of one to the bottom
    // corner of the next: each fuses to three loops (*1) and carries the rest as a branch, so
    // v(top) = 1 and v(t) = 1 XOR (v(t + 1) + 1).
    let k = 50_000u32;
    let mut edges = Vec::new();
    for t in 0..k {
        let (bottom, left, top) = (3 * t, 3 * t + 1, 3 * t + 2);
        edges.extend([(bottom, left), (left, top), (top, bottom)]);
        if t + 1 < k {
            edges.push((top, 3 * t + 3));
        }
    }
    let h = Hackenbush::new(3 * k as usize, edges, 0).unwrap();
    let mut v = 1u32;
    for _ in 1..k {
        v = 1 ^ (v + 1);
    }
    assert_eq!(h.value(), v);
    assert!(!h.is_tree());

    // The same triangles sharing corners instead have no bridge at all: everything fuses into
    // the ground, 3k loops, *(k mod 2). Checked by brute force for a bowtie of two.
    let shared: Vec<(u32, u32)> = (0..k)
        .flat_map(|t| {
            [
                (2 * t, 2 * t + 1),
                (2 * t + 1, 2 * t + 2),
                (2 * t + 2, 2 * t),
            ]
        })
        .collect();
    let bowtie = &shared[..6];
    assert_eq!(BruteForce::new(bowtie, 0).value(), 0);
    assert_eq!(Hackenbush::new(5, bowtie.to_vec(), 0).unwrap().value(), 0);
    for len in [k - 1, k] {
        let h = Hackenbush::new(2 * len as usize + 1, shared[..3 * len as usize].to_vec(), 0);
        assert_eq!(h.unwrap().value(), len % 2);
    }

    // One cycle through 100 001 vertices: *1.
    let n = 100_001u32;
    let cycle: Vec<(u32, u32)> = (0..n).map(|i| (i, (i + 1) % n)).collect();
    assert_eq!(Hackenbush::new(n as usize, cycle, 0).unwrap().value(), 1);
}

/// Cycles whose edges share one 2-edge-cut class, with stalks, loops and chords hanging from
/// their nodes: the winning cuts found class by class against each cut valued afresh
/// (`value_after_cut`), for several targets; and the search under a work limit, whose cuts are
/// true winning cuts and whose other winning cuts are all reported as not searched.
#[test]
fn cycle_classes_match_each_cut_valued_afresh() {
    let mut state = 0x5eed_u64;
    for round in 0..40 {
        let n = 3 + (xorshift(&mut state) % 60) as u32;
        let mut edges: Vec<(u32, u32)> = (0..n).map(|i| (i, (i + 1) % n)).collect();
        let mut nodes = n;
        for _ in 0..(xorshift(&mut state) % 12) {
            let at = (xorshift(&mut state) % u64::from(n)) as u32;
            match xorshift(&mut state) % 4 {
                0 => edges.push((at, at)),
                1 => {
                    // A stalk of 1 to 3 edges.
                    let mut below = at;
                    for _ in 0..1 + xorshift(&mut state) % 3 {
                        edges.push((below, nodes));
                        below = nodes;
                        nodes += 1;
                    }
                }
                2 => {
                    // A triangle hanging by a bridge.
                    edges.extend([
                        (at, nodes),
                        (nodes, nodes + 1),
                        (nodes + 1, nodes + 2),
                        (nodes + 2, nodes),
                    ]);
                    nodes += 3;
                }
                _ => {
                    // A chord: two classes instead of one.
                    let to = (xorshift(&mut state) % u64::from(n)) as u32;
                    edges.push((at, to));
                }
            }
        }
        let ground = (xorshift(&mut state) % u64::from(n)) as u32;
        let h = Hackenbush::new(nodes as usize, edges.clone(), ground).unwrap();
        let after: Vec<u32> = (0..edges.len()).map(|e| h.value_after_cut(e)).collect();
        let mut targets: Vec<u32> = after.clone();
        targets.extend([0, h.value()]);
        targets.sort_unstable();
        targets.dedup();
        for &target in &targets {
            let expected: Vec<usize> = (0..edges.len()).filter(|&e| after[e] == target).collect();
            assert_eq!(
                h.winning_cuts(target),
                expected,
                "round {round}, target {target}, {edges:?}"
            );
            for work in [0, 5, 40, 200] {
                let cuts = h.winning_cuts_within(target, work);
                for e in &expected {
                    assert!(
                        cuts.winning.contains(e) != cuts.unsearched.contains(e),
                        "round {round}, work {work}, edge {e}"
                    );
                }
                assert!(cuts.winning.iter().all(|e| expected.contains(e)));
            }
        }
    }
}
