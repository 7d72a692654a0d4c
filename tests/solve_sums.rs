//! `solve` on sums at any size (normal play): many heaps, and heaps far past any table, valued
//! from a proof (Nim's closed form, a proved period), checked here against the published rules
//! and the definition, through the binary.

use serde_json::Value;

use crate::support::{fails, ok};

/// splitmix64: random numbers from fixed seeds.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn solve_json(game: &str, heaps: &[u64]) -> Value {
    let heaps: Vec<String> = heaps.iter().map(u64::to_string).collect();
    let mut args = vec!["solve", game, "--json"];
    args.extend(heaps.iter().map(String::as_str));
    serde_json::from_str(&ok(&args)).expect("one JSON object")
}

/// The winning moves of a report as (1-based component, tokens taken, heaps left).
fn moves(json: &Value) -> Vec<(u64, u64, Vec<u64>)> {
    json["winning_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let left = m["result"].as_array().unwrap();
            (
                m["component"].as_u64().unwrap(),
                m["binders"]["take"].as_u64().unwrap(),
                left.iter().map(|h| h.as_u64().unwrap()).collect(),
            )
        })
        .collect()
}

/// Luogu P2197 (Nim): sums of 10^4 heaps up to 10^9. Bouton 1901: the sum's value is the XOR
/// of the heaps, and the winning moves are the heaps `h` with `h ⊕ X < h`, moved to `h ⊕ X`.
#[test]
fn p2197_ten_thousand_nim_heaps() {
    let mut rng = Rng(2197);
    for round in 0..3 {
        let mut heaps: Vec<u64> = (0..10_000).map(|_| rng.below(1_000_000_001)).collect();
        if round == 2 {
            // A P-position: the XOR of the others as the last heap.
            let x = heaps[..9_999].iter().fold(0, |a, h| a ^ h);
            heaps[9_999] = x;
        }
        let x = heaps.iter().fold(0, |a, h| a ^ h);
        let json = solve_json("rules/nim.sg", &heaps);
        assert_eq!(json["value"].as_u64(), Some(x));
        assert_eq!(json["outcome"], if x == 0 { "P" } else { "N" });
        assert_eq!(json["complete"], true);
        let position: Vec<u64> = json["position"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h.as_u64().unwrap())
            .collect();
        assert_eq!(position, heaps, "the JSON keeps every component");
        let mut expected: Vec<(u64, u64, Vec<u64>)> = heaps
            .iter()
            .enumerate()
            .filter(|(_, &h)| h ^ x < h)
            .map(|(i, &h)| {
                let left = h ^ x;
                let result = if left == 0 { vec![] } else { vec![left] };
                (i as u64 + 1, h - left, result)
            })
            .collect();
        let mut got = moves(&json);
        expected.sort();
        got.sort();
        assert_eq!(got, expected);
        if round == 0 {
            // The text abbreviates the position.
            let args: Vec<String> = heaps.iter().map(u64::to_string).collect();
            let mut argv = vec!["solve", "rules/nim.sg"];
            argv.extend(args.iter().map(String::as_str));
            let text = ok(&argv);
            let first = text.lines().next().unwrap();
            assert!(
                first.starts_with(&format!("position: {} + ", heaps[0])),
                "{first}"
            );
            assert!(first.ends_with(" (10000 components)"), "{first}");
            assert!(first.len() < 200, "{first}");
            assert!(text.contains(&format!("G = {x}: the first player wins")));
        }
    }
}

/// Subtraction {1, 2, 3}: `G(n) = n mod 4` (Winning Ways ch. 4: subtraction {1..k} has
/// `G(n) = n mod (k + 1)`), heaps up to 10^18, and the winning moves taking `k ≤ 3` to a heap
/// of value `G(n) ⊕ X`.
#[test]
fn subtraction_one_to_three_at_any_size() {
    let text = ok(&["solve", "subtraction 1..=3", "99999999"]);
    assert!(
        text.contains("99999999 → 99999996   by the code 0.333, take = 3"),
        "{text}"
    );
    assert!(text.contains("proved period"), "{text}");
    let mut rng = Rng(4);
    for _ in 0..30 {
        let count = 1 + rng.below(40) as usize;
        let heaps: Vec<u64> = (0..count)
            .map(|_| match rng.below(3) {
                0 => rng.below(100),
                1 => 20_001 + rng.below(1 << 40),
                _ => 1_000_000_000_000_000_000 - rng.below(1_000_000),
            })
            .collect();
        let x = heaps.iter().fold(0, |a, h| a ^ (h % 4));
        let json = solve_json("subtraction 1..=3", &heaps);
        assert_eq!(json["value"].as_u64(), Some(x), "{heaps:?}");
        assert_eq!(json["outcome"], if x == 0 { "P" } else { "N" });
        let mut expected = Vec::new();
        if x != 0 {
            for (i, &h) in heaps.iter().enumerate() {
                for k in 1..=3.min(h) {
                    if (h - k) % 4 == (h % 4) ^ x {
                        let left = if h == k { vec![] } else { vec![h - k] };
                        expected.push((i as u64 + 1, k, left));
                    }
                }
            }
        }
        let mut got = moves(&json);
        expected.sort();
        got.sort();
        assert_eq!(got, expected, "{heaps:?}");
    }
}

/// Dawson's Kayles (0.07): take two tokens, leaving 0, 1 or 2 heaps. Its values have period 34
/// (OEIS A002187; Guy & Smith 1956). The reference: the definition's values up to 1200, then the
/// published period from where it holds on them.
#[test]
fn dawsons_kayles_past_its_table() {
    const LEN: usize = 1200;
    let mut g: Vec<u64> = Vec::new();
    for n in 0..LEN {
        let mut options = Vec::new();
        if n >= 2 {
            let left = n - 2;
            options.push(if left == 0 { 0 } else { g[left] });
            for a in 1..=left / 2 {
                options.push(g[a] ^ g[left - a]);
            }
        }
        g.push((0..).find(|v| !options.contains(v)).unwrap());
    }
    let from = (0..LEN - 34)
        .find(|&n0| (n0..LEN - 34).all(|n| g[n] == g[n + 34]))
        .unwrap();
    assert!(from < 100, "{from}");
    let value = |n: u64| {
        if n < LEN as u64 {
            g[n as usize]
        } else {
            g[from + ((n - from as u64) % 34) as usize]
        }
    };
    let mut rng = Rng(7);
    for _ in 0..20 {
        let count = 2 + rng.below(6) as usize;
        let mut heaps: Vec<u64> = (0..count)
            .map(|_| match rng.below(3) {
                0 => rng.below(LEN as u64),
                1 => rng.below(1 << 50),
                _ => 1_000_000_000_000_000_000 - rng.below(1000),
            })
            .collect();
        // At least one heap past every table of moves.
        heaps[0] = 1 << 40 | rng.below(1 << 20);
        let x = heaps.iter().fold(0, |a, &h| a ^ value(h));
        let json = solve_json("octal 0.07", &heaps);
        assert_eq!(json["value"].as_u64(), Some(x), "{heaps:?}");
        assert_eq!(json["outcome"], if x == 0 { "P" } else { "N" });
        let got = moves(&json);
        let capped: Vec<(u64, u64)> = json["capped"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    c["component"].as_u64().unwrap(),
                    c["total"].as_u64().unwrap(),
                )
            })
            .collect();
        assert_eq!(json["complete"], capped.is_empty());
        for (i, &h) in heaps.iter().enumerate() {
            let component = i as u64 + 1;
            let wanted = x ^ value(h);
            let listed: Vec<&(u64, u64, Vec<u64>)> =
                got.iter().filter(|m| m.0 == component).collect();
            // Each listed move is a move of 0.07 to a heap of the value wanted.
            for (_, take, left) in &listed {
                assert_eq!(*take, 2);
                assert_eq!(left.iter().sum::<u64>() + 2, h);
                assert!(left.len() <= 2 && left.iter().all(|&l| l > 0));
                assert_eq!(left.iter().fold(0, |a, &l| a ^ value(l)), wanted);
            }
            if x == 0 {
                assert!(listed.is_empty());
            }
            // Every winning move, for the heaps whose moves are listed here.
            if x != 0 && h < LEN as u64 {
                let mut all = Vec::new();
                if h >= 2 {
                    let left = h - 2;
                    if value(left) == wanted {
                        all.push(if left == 0 { vec![] } else { vec![left] });
                    }
                    for a in 1..=left / 2 {
                        if value(a) ^ value(left - a) == wanted {
                            all.push(vec![a, left - a]);
                        }
                    }
                }
                let shown: Vec<Vec<u64>> = listed.iter().map(|m| m.2.clone()).collect();
                match capped.iter().find(|c| c.0 == component) {
                    Some(&(_, total)) => {
                        assert_eq!(total, all.len() as u64);
                        assert_eq!(shown[..], all[..shown.len()]);
                    }
                    None => assert_eq!(shown, all),
                }
            }
        }
    }
}

/// A heap past the table of a code whose period is not proved there is refused, with why
/// (exit 2, as for the heap too large to list the moves of).
#[test]
fn unproved_heaps_are_refused_with_the_reason() {
    let err = fails(&["solve", "takebreak 0.[7]", "100000000"], 2);
    assert!(err.contains("no proof values this sum"), "{err}");
    assert!(err.contains("infinite codes"), "{err}");
}
