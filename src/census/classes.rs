//! Equivalence classes of a census: codes whose sequences agree up to a heap offset,
//! `G_a(n + k) = G_b(n)`, over the whole range both are known on.
//!
//! A solved code's sequence is known for every `n` (its values before the period and one
//! period, with the saltus); an unsolved one's up to the `len` it was computed to, through its
//! [fingerprints](super::fingerprint) at a few window lengths. Two codes are compared on the
//! longest window length both have (for codes that reached the census's bounds, the shorter
//! one's whole range); two solved codes exactly, for every `n` (equal smallest periods and
//! saltus, and agreement through the later preperiod plus one period, which then holds
//! forever). A class is a connected set of such pairs, offsets composed along them, the
//! smallest offset `k ≤ MAX_OFFSET` of each pair used. In a class, the *base* is the member
//! every other one is an offset of: `G_code(n + offset) = G_base(n)`, offset 0 for the base
//! (the first such code in census order).

use std::collections::{BTreeSet, HashMap};

use super::fingerprint::{fingerprint, Fingerprint, MAX_OFFSET};
use crate::analysis::Periodicity;

/// What is known of one code's sequence.
#[derive(Clone, Copy, Debug)]
pub enum Known<'a> {
    /// Solved: `G(n)` for every `n`, from `values = G(0..preperiod + period)`.
    Periodic {
        /// `G(0..preperiod + period)`.
        values: &'a [u32],
        /// Preperiod, period and saltus.
        periodicity: Periodicity,
    },
    /// Computed to `G(0..len)`, with fingerprints at some window lengths `≤ len`.
    Prefix {
        /// Values computed.
        len: usize,
        /// The fingerprints kept.
        prints: &'a [Fingerprint],
    },
}

impl Known<'_> {
    fn value(&self, n: usize) -> u32 {
        match self {
            Known::Periodic {
                values,
                periodicity,
            } => periodicity.extrapolate(|i| values[i], n as u64) as u32,
            Known::Prefix { .. } => unreachable!("only solved codes are evaluated"),
        }
    }

    fn lengths(&self) -> Option<BTreeSet<usize>> {
        match self {
            Known::Periodic { .. } => None,
            Known::Prefix { prints, .. } => Some(prints.iter().map(|p| p.len).collect()),
        }
    }
}

/// The class id (0, 1, … in census order of the classes' first members) and offset of each
/// code (see the module docs).
pub fn classify(codes: &[Known<'_>]) -> Vec<(usize, usize)> {
    let lengths: Vec<Option<BTreeSet<usize>>> = codes.iter().map(Known::lengths).collect();
    // The window on which two solved codes are compared: long enough that agreement on it
    // implies agreement forever (the later preperiod, one period and the offset).
    let solved_len = codes
        .iter()
        .filter_map(|known| match known {
            Known::Periodic { periodicity, .. } => {
                Some(periodicity.preperiod + periodicity.period + MAX_OFFSET + 1)
            }
            Known::Prefix { .. } => None,
        })
        .max();
    // Every window length some pair is compared on, with each code's fingerprint there.
    let mut windows: BTreeSet<usize> = lengths.iter().flatten().flatten().copied().collect();
    windows.extend(solved_len);
    let mut edges: Vec<(usize, usize, usize)> = Vec::new();
    for &window in &windows {
        let prints: Vec<Option<Fingerprint>> = codes
            .iter()
            .map(|known| match known {
                Known::Periodic { .. } => fingerprint(window, |n| known.value(n)),
                Known::Prefix { prints, .. } => prints.iter().find(|p| p.len == window).cloned(),
            })
            .collect();
        for k in 0..=MAX_OFFSET {
            let mut heads: HashMap<&str, Vec<usize>> = HashMap::new();
            for (b, print) in prints.iter().enumerate() {
                if let Some(print) = print {
                    heads.entry(print.heads[k].as_str()).or_default().push(b);
                }
            }
            for (a, print) in prints.iter().enumerate() {
                let Some(print) = print else { continue };
                for &b in heads.get(print.tails[k].as_str()).into_iter().flatten() {
                    if a == b || (k == 0 && b < a) {
                        continue;
                    }
                    let pair_window = match (&lengths[a], &lengths[b]) {
                        (None, None) => solved_len,
                        (Some(l), None) | (None, Some(l)) => l.last().copied(),
                        (Some(la), Some(lb)) => la.intersection(lb).last().copied(),
                    };
                    if pair_window != Some(window) {
                        continue;
                    }
                    if lengths[a].is_none()
                        && lengths[b].is_none()
                        && !agree_forever(&codes[a], &codes[b], k)
                    {
                        continue;
                    }
                    edges.push((k, a, b));
                }
            }
        }
    }
    edges.sort_unstable();
    let mut forest = Forest::new(codes.len());
    for (k, a, b) in edges {
        forest.join(a, b, k as i64);
    }
    forest.classes()
}

/// `G_a(n + k) = G_b(n)` for every `n`, for two solved codes.
fn agree_forever(a: &Known<'_>, b: &Known<'_>, k: usize) -> bool {
    let (
        Known::Periodic {
            periodicity: pa, ..
        },
        Known::Periodic {
            periodicity: pb, ..
        },
    ) = (a, b)
    else {
        return false;
    };
    if pa.period != pb.period || pa.saltus != pb.saltus {
        return false;
    }
    let through = pa.preperiod.saturating_sub(k).max(pb.preperiod) + pb.period;
    (0..through).all(|n| a.value(n + k) == b.value(n))
}

/// Union–find with offsets: `shift[x]` relates `x` to its parent, `G_x(n + shift) =
/// G_parent(n)`, so a code's shift to its root is the sum along the path.
struct Forest {
    parent: Vec<usize>,
    shift: Vec<i64>,
}

impl Forest {
    fn new(len: usize) -> Self {
        Forest {
            parent: (0..len).collect(),
            shift: vec![0; len],
        }
    }

    /// The root of `x` and `x`'s shift relative to it.
    fn find(&mut self, x: usize) -> (usize, i64) {
        let parent = self.parent[x];
        if parent == x {
            return (x, 0);
        }
        let (root, to_root) = self.find(parent);
        self.parent[x] = root;
        self.shift[x] += to_root;
        (root, self.shift[x])
    }

    /// Records `G_a(n + k) = G_b(n)`, unless `a` and `b` are already in one class.
    fn join(&mut self, a: usize, b: usize, k: i64) {
        let (root_a, shift_a) = self.find(a);
        let (root_b, shift_b) = self.find(b);
        if root_a == root_b {
            return;
        }
        // G_a(n + shift_a) = G_ra(n) and G_b(n + shift_b) = G_rb(n), so
        // G_ra(n + k + shift_b − shift_a) = G_rb(n).
        self.parent[root_a] = root_b;
        self.shift[root_a] = k + shift_b - shift_a;
    }

    fn classes(mut self) -> Vec<(usize, usize)> {
        let len = self.parent.len();
        let found: Vec<(usize, i64)> = (0..len).map(|x| self.find(x)).collect();
        let mut least: HashMap<usize, i64> = HashMap::new();
        for &(root, shift) in &found {
            let entry = least.entry(root).or_insert(shift);
            *entry = (*entry).min(shift);
        }
        let mut ids: HashMap<usize, usize> = HashMap::new();
        found
            .iter()
            .map(|&(root, shift)| {
                let next = ids.len();
                let id = *ids.entry(root).or_insert(next);
                (id, (shift - least[&root]) as usize)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn periodic(values: &[u32], preperiod: usize, period: usize) -> (Vec<u32>, Periodicity) {
        (
            values.to_vec(),
            Periodicity {
                preperiod,
                period,
                saltus: 0,
            },
        )
    }

    #[test]
    fn solved_codes_group_with_their_offsets() {
        // 0 1 0 1 … ; 0 0 1 0 1 … (the first shifted by one heap); 0 0 0 … ; 0 1 2 0 1 2 ….
        let a = periodic(&[0, 1], 0, 2);
        let b = periodic(&[0, 0, 1], 1, 2);
        let c = periodic(&[0], 0, 1);
        let d = periodic(&[0, 1, 2], 0, 3);
        let codes: Vec<Known<'_>> = [&a, &b, &c, &d]
            .iter()
            .map(|(values, periodicity)| Known::Periodic {
                values,
                periodicity: *periodicity,
            })
            .collect();
        // G_b(n + 1) = G_a(n): a is the base, b has offset 1.
        assert_eq!(classify(&codes), vec![(0, 0), (0, 1), (1, 0), (2, 0)]);
    }

    #[test]
    fn unsolved_codes_group_over_their_common_range() {
        let base: Vec<u32> = (0..3000u32).map(|i| (i * i / 7 + i) % 13).collect();
        let shifted: Vec<u32> = [9, 9, 9].into_iter().chain(base.iter().copied()).collect();
        let other: Vec<u32> = base.iter().map(|v| v ^ 1).collect();
        let prints = |values: &[u32], len: usize| vec![fingerprint(len, |i| values[i]).unwrap()];
        let (pa, pb, pc) = (
            prints(&base, 2048),
            prints(&shifted, 2048),
            prints(&other, 2048),
        );
        let codes = [
            Known::Prefix {
                len: 2048,
                prints: &pa,
            },
            Known::Prefix {
                len: 2048,
                prints: &pb,
            },
            Known::Prefix {
                len: 2048,
                prints: &pc,
            },
        ];
        assert_eq!(classify(&codes), vec![(0, 0), (0, 3), (1, 0)]);
    }

    #[test]
    fn a_solved_code_matches_an_unsolved_one_it_agrees_with() {
        let solved = periodic(&[0, 1, 1, 2], 1, 3);
        let known = Known::Periodic {
            values: &solved.0,
            periodicity: solved.1,
        };
        let values: Vec<u32> = (0..1024).map(|n| known.value(n)).collect();
        let mut wrong = values.clone();
        wrong[1000] = 7;
        let right = vec![fingerprint(1024, |i| values[i]).unwrap()];
        let wrong = vec![fingerprint(1024, |i| wrong[i]).unwrap()];
        let codes = [
            known,
            Known::Prefix {
                len: 1024,
                prints: &right,
            },
            Known::Prefix {
                len: 1024,
                prints: &wrong,
            },
        ];
        assert_eq!(classify(&codes), vec![(0, 0), (0, 0), (1, 0)]);
    }
}
