//! A contestant's solution of AtCoder ABC278 G "Generalized Subtraction Game", to run under
//! `sgscope judge rules/abc278g.sg N --set L=.. --set R=.. --protocol cards --header '{n} {L} {R}'`.
//!
//! The usual solution: when `L < R`, or `L = R` with `N − L` even, go first and take the middle
//! block so that two equal rows remain, then answer every move by its mirror image. Otherwise
//! (`L = R`) compute the Grundy values of rows, `G(m) = mex{G(a) ⊕ G(m − L − a)}`, in
//! O(N²), and play to XOR 0. With `--wrong` the program plays the first legal move it finds
//! instead, to check that the judge beats it.

use std::io::{self, BufRead, Write};

fn main() {
    let wrong = std::env::args().any(|a| a == "--wrong");
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    let mut next = || -> Vec<i64> {
        let line = lines.next().expect("a line").expect("readable");
        line.split_whitespace()
            .map(|w| w.parse().expect("a number"))
            .collect()
    };
    let header = next();
    let (n, l, r) = (header[0] as usize, header[1] as usize, header[2] as usize);
    let mut on = vec![true; n + 2];
    on[0] = false;
    on[n + 1] = false;
    let out = io::stdout();
    let mut out = out.lock();
    let mirror = !wrong && (l < r || (n - l) % 2 == 0) && l <= n;
    let grundy = if mirror || wrong {
        Vec::new()
    } else {
        values(n, l)
    };
    let take =
        |on: &mut Vec<bool>, x: usize, y: usize| on[x..x + y].iter_mut().for_each(|c| *c = false);
    let xor_of = |on: &[bool]| rows(on).iter().fold(0, |acc, &(_, len)| acc ^ grundy[len]);
    let first = mirror || wrong || xor_of(&on) != 0;
    writeln!(out, "{}", if first { "First" } else { "Second" }).unwrap();
    out.flush().unwrap();
    let mut my_turn = first;
    loop {
        if my_turn {
            let (x, y) = if mirror && on[1..=n].iter().all(|&c| c) {
                // The middle block: y ≡ n (mod 2), L ≤ y ≤ R.
                let y = if (n - l) % 2 == 0 { l } else { l + 1 };
                ((n - y) / 2 + 1, y)
            } else if mirror {
                unreachable!("the mirror reply is made right after the judge's move")
            } else if wrong {
                first_move(&on, l).unwrap_or((0, 0))
            } else {
                winning_move(&on, l, &grundy)
                    .or_else(|| first_move(&on, l))
                    .unwrap_or((0, 0))
            };
            writeln!(out, "{x} {y}").unwrap();
            out.flush().unwrap();
            if (x, y) == (0, 0) {
                return;
            }
            take(&mut on, x, y);
        }
        let reply = next();
        let (a, b) = (reply[0], reply[1]);
        if a <= 0 {
            return; // 0 0: we won; -1 -1: we lost
        }
        let (a, b) = (a as usize, b as usize);
        take(&mut on, a, b);
        if mirror {
            let x = n + 2 - a - b;
            writeln!(out, "{x} {b}").unwrap();
            out.flush().unwrap();
            take(&mut on, x, b);
            my_turn = false;
        } else {
            my_turn = true;
        }
    }
}

/// The rows of cards on the table: (first card, length).
fn rows(on: &[bool]) -> Vec<(usize, usize)> {
    let mut rows = Vec::new();
    let mut i = 1;
    while i < on.len() {
        if on[i] {
            let start = i;
            while on[i] {
                i += 1;
            }
            rows.push((start, i - start));
        }
        i += 1;
    }
    rows
}

/// G(0..=n) for removing exactly `l` consecutive cards.
fn values(n: usize, l: usize) -> Vec<usize> {
    let mut g = vec![0; n + 1];
    for m in l..=n {
        let mut seen = vec![false; m + 2];
        for a in 0..=m - l {
            let v = g[a] ^ g[m - l - a];
            if v < seen.len() {
                seen[v] = true;
            }
        }
        g[m] = seen.iter().position(|&s| !s).unwrap_or(0);
    }
    g
}

fn winning_move(on: &[bool], l: usize, g: &[usize]) -> Option<(usize, usize)> {
    let rows = rows(on);
    let total = rows.iter().fold(0, |acc, &(_, len)| acc ^ g[len]);
    for &(start, len) in &rows {
        for a in 0..=len.saturating_sub(l) {
            if len >= l && total ^ g[len] ^ g[a] ^ g[len - l - a] == 0 {
                return Some((start + a, l));
            }
        }
    }
    None
}

fn first_move(on: &[bool], l: usize) -> Option<(usize, usize)> {
    rows(on)
        .into_iter()
        .find(|&(_, len)| len >= l)
        .map(|(start, _)| (start, l))
}
