//! Conway's genus of an impartial game (On Numbers and Games, ch. 12; Winning Ways, ch. 13).
//!
//! The genus of `G` is `g^{γ0 γ1 γ2 …}`: `g` its normal-play Grundy value, `γk = G⁻(G + k·*2)`
//! the misère Grundy value of `G` plus `k` nim-heaps of size 2, where `G⁻(0) = 1` and otherwise
//! `G⁻(G) = mex{G⁻(G') : G → G'}`.
//!
//! It is computed from the genera of the options alone. The options of `G + k·*2` (`k ≥ 1`)
//! are the `G' + k·*2`, `G + (k−1)·*2` and `G + (k−1)·*2 + *1`, and for every game `H`,
//! `G⁻(H + *1) = G⁻(H) ⊕ 1` (by induction on `H`: the options of `H + *1` are the `H' + *1` and
//! `H`, and `mex((S ⊕ 1) ∪ {mex S}) = mex(S) ⊕ 1` for every set `S` of values). So
//!
//! ```text
//! γ0 = mex{γ0(G')}                          (1 if G has no option)
//! γk = mex({γk(G')} ∪ {γ(k−1), γ(k−1) ⊕ 1})  for k ≥ 1
//! ```
//!
//! Once the options' superscripts alternate (`γ(k+2) = γk` from some `k` on), so do `G`'s, a
//! few steps later: the step `x ↦ mex(A ∪ {x, x ⊕ 1})` takes at most two values for a fixed
//! `A`, and it cannot swap them with period four (a short case analysis on the pairs
//! `{2i, 2i+1}`). A genus is therefore finite data: the superscripts up to the first two of
//! the alternating tail, as Conway writes them (`0^{120}`, `1^{031}`, `2^{20}`, `4^{146}`).

use std::fmt;

use crate::engine::mex::mex_of;

/// The genus `g^{γ0 γ1 …}` of a game: its normal Grundy value and its superscripts, which
/// alternate from some index on.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Genus {
    /// `g`, the normal-play Grundy value.
    pub normal: u32,
    /// `γ0 ..= γ(s+1)`, where `s` is the first index from which `γ(k+2) = γk` for all `k ≥ s`:
    /// the last two entries repeat forever.
    superscripts: Vec<u32>,
}

impl Genus {
    /// The genus of the game with no move (the empty sum, a heap of 0): `0^{120}`.
    pub fn terminal() -> Genus {
        Genus {
            normal: 0,
            superscripts: vec![1, 2, 0],
        }
    }

    /// The genus of a game whose options have the genera `options` (the game with no option,
    /// [`Genus::terminal`], when it is empty): the recursion of the module documentation.
    pub fn from_options(options: &[&Genus]) -> Genus {
        if options.is_empty() {
            return Genus::terminal();
        }
        let normal = mex_of(options.iter().map(|o| o.normal));
        // From `stable_from` on, every option's superscripts have period 2.
        let stable_from = options
            .iter()
            .map(|o| o.superscripts.len() - 2)
            .max()
            .unwrap_or(0);
        let mut gamma = vec![mex_of(options.iter().map(|o| o.gamma(0)))];
        loop {
            let k = gamma.len();
            let previous = gamma[k - 1];
            let next = mex_of(
                options
                    .iter()
                    .map(|o| o.gamma(k))
                    .chain([previous, previous ^ 1]),
            );
            gamma.push(next);
            if k >= stable_from + 2 && gamma[k] == gamma[k - 2] {
                // γ(j+2) = γj for j = k−2, and the steps from k−1 on repeat with period 2.
                let mut start = k - 2;
                while start > 0 && gamma[start - 1] == gamma[start + 1] {
                    start -= 1;
                }
                gamma.truncate(start + 2);
                return Genus {
                    normal,
                    superscripts: gamma,
                };
            }
            // The tail settles within four steps of `stable_from` (module documentation).
            assert!(
                k <= stable_from + 8,
                "genus superscripts did not settle: {gamma:?}"
            );
        }
    }

    /// The tame genus with normal value `normal` and misère value `misere` (which must be
    /// `normal`, or `normal ⊕ 1` when `normal ≤ 1`): `γk` alternates `g ⊕ 2`, `g` for `k ≥ 1`.
    pub fn tame(normal: u32, misere: u32) -> Genus {
        debug_assert!(misere == normal || (normal <= 1 && misere == normal ^ 1));
        Genus {
            normal,
            superscripts: if misere == normal {
                vec![misere, normal ^ 2]
            } else {
                vec![misere, normal ^ 2, normal]
            },
        }
    }

    /// The genus of the nim-heap `*n` (Conway, ONAG ch. 12; Winning Ways ch. 13, "tame
    /// games"): `*0 = 0^{120}`, `*1 = 1^{031}`, and `*n = n^{n(n⊕2)}` for `n ≥ 2` — that is,
    /// [`Genus::tame`]`(n, n ⊕ 1)` for `n ≤ 1` and `tame(n, n)` above. It follows from
    /// Bouton's misère rule (1902): `*n + k·*2` has misère value `n ⊕ 1` when `k = 0` and
    /// `n ≤ 1`, and its nim-sum `n ⊕ (k mod 2)·2` otherwise (a heap of 2 is then present or
    /// `n ≥ 2`). The tests check it against [`Genus::from_options`] on heaps up to 200.
    pub fn nim_heap(n: u32) -> Genus {
        if n <= 1 {
            Genus::tame(n, n ^ 1)
        } else {
            Genus::tame(n, n)
        }
    }

    /// `γk = G⁻(G + k·*2)`.
    pub fn gamma(&self, k: usize) -> u32 {
        let len = self.superscripts.len();
        if k < len {
            self.superscripts[k]
        } else {
            // The last two entries alternate.
            self.superscripts[len - 2 + (k - (len - 2)) % 2]
        }
    }

    /// `G⁻(G)`, the misère Grundy value (`γ0`): the player to move loses in misère play iff it
    /// is 0.
    pub fn misere(&self) -> u32 {
        self.superscripts[0]
    }

    /// The superscripts as Conway writes them: `γ0` up to the first two of the alternating
    /// tail.
    pub fn superscripts(&self) -> &[u32] {
        &self.superscripts
    }

    /// Whether this is a *tame* genus (Conway, ONAG ch. 12): that of a sum of nim-heaps —
    /// `0^{120}`, `1^{031}` (like `*0`, `*1`), `0^{02}`, `1^{13}` (like `*2 + *2`, `*2 + *3`)
    /// or `g^{g(g⊕2)}` for `g ≥ 2` (like `*g`). A game is tame when all its positions have tame
    /// genera; tame games then add like misère Nim positions ([`Genus::tame_sum`]).
    pub fn is_tame(&self) -> bool {
        let g = self.normal;
        let fickle = g <= 1 && self.misere() == g ^ 1;
        (fickle || self.misere() == g) && *self == Genus::tame(g, self.misere())
    }

    /// Whether a tame genus is *fickle* (`0^{120}`, `1^{031}`: the sum's misère value flips
    /// with it) rather than firm.
    pub fn is_fickle(&self) -> bool {
        self.normal <= 1 && self.misere() == self.normal ^ 1
    }

    /// The genus of the sum of two tame games (Conway, ONAG ch. 12, Theorem 75 in the first
    /// edition's numbering; Winning Ways ch. 13 "tame games"): the normal values add by XOR,
    /// and the misère value is the normal one unless every component is fickle, as in misère
    /// Nim (where the fickle heaps are those of size 0 and 1). Both must be tame.
    pub fn tame_sum(&self, other: &Genus) -> Genus {
        debug_assert!(self.is_tame() && other.is_tame());
        let normal = self.normal ^ other.normal;
        let misere = if self.is_fickle() && other.is_fickle() {
            normal ^ 1
        } else {
            normal
        };
        Genus::tame(normal, misere)
    }
}

/// Where a position stands between misère Nim and the wild (Winning Ways ch. 13, "Restive
/// and restless games"; the classes as CGSuite's misère module (Dan Hoey) draws them). Read off
/// the game tree, without canonical forms, so "tame" is hereditary: a position is tame when
/// its genus and those of all its positions are tame.
///
/// * **tame**: adds like a misère Nim heap ([`Genus::tame_sum`]).
/// * **restive**: not tame, but every option is tame and the normal value is 0 or 1 (it
///   behaves like `*0` or `*1` in normal play but not in misère play).
/// * **restless**: not tame, every option tame, normal value at least 2 and misère value 0
///   or 1.
/// * **wild**: anything else.
///
/// Restive and restless positions are the first steps away from tameness: sums of them with
/// tame games are still decided by a short rule in Winning Ways (with the "restive pairs"),
/// whereas a wild position needs the search over sums.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Species {
    /// Tame: every position has a tame genus.
    Tame,
    /// Not tame; every option tame; normal value 0 or 1.
    Restive,
    /// Not tame; every option tame; normal value ≥ 2 and misère value 0 or 1.
    Restless,
    /// None of the above.
    Wild,
}

impl Species {
    /// The species of a position of genus `genus` whose options are all tame or not.
    pub fn classify(genus: &Genus, options_tame: bool) -> Species {
        if !options_tame {
            Species::Wild
        } else if genus.is_tame() {
            Species::Tame
        } else if genus.normal <= 1 {
            Species::Restive
        } else if genus.misere() <= 1 {
            Species::Restless
        } else {
            Species::Wild
        }
    }

    /// Whether it is tame.
    pub fn is_tame(self) -> bool {
        self == Species::Tame
    }

    /// Its name: `tame`, `restive`, `restless` or `wild`.
    pub fn word(self) -> &'static str {
        match self {
            Species::Tame => "tame",
            Species::Restive => "restive",
            Species::Restless => "restless",
            Species::Wild => "wild",
        }
    }
}

impl fmt::Display for Genus {
    /// `g^{γ0γ1…}`; the superscripts are separated by commas when one has two digits or
    /// more (`12^{1,12,14}`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let separator = if self.superscripts.iter().any(|&s| s >= 10) {
            ","
        } else {
            ""
        };
        let superscripts: Vec<String> = self.superscripts.iter().map(u32::to_string).collect();
        write!(f, "{}^{{{}}}", self.normal, superscripts.join(separator))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Nimber;

    /// Nim positions for the tests (heap sizes).
    const NIM_POSITIONS: &[&[u32]] = &[
        &[],
        &[1],
        &[2],
        &[3],
        &[1, 1],
        &[2, 2],
        &[2, 3],
        &[1, 2, 3],
        &[4],
        &[1, 1, 1],
        &[5, 1],
    ];

    /// The genus of a nim position, from its definition: `γk = G⁻(heaps + k·*2)` by misère
    /// Nim's rule (Bouton 1902): the XOR of the heaps, flipped when no heap exceeds 1.
    fn nim_genus(heaps: &[u32]) -> Genus {
        let misere_nim = |heaps: &[u32]| {
            let xor = heaps.iter().sum::<Nimber>().value();
            if heaps.iter().all(|&h| h <= 1) {
                xor ^ 1
            } else {
                xor
            }
        };
        let normal = heaps.iter().sum::<Nimber>().value();
        let gammas: Vec<u32> = (0..12)
            .map(|k| {
                let mut with_twos = heaps.to_vec();
                with_twos.extend(std::iter::repeat_n(2, k));
                misere_nim(&with_twos)
            })
            .collect();
        let genus = Genus {
            normal,
            superscripts: gammas.clone(),
        };
        (0..12).for_each(|k| assert_eq!(genus.gamma(k), gammas[k]));
        // Trim to the representation: both forms must agree on every γk.
        let mut start = 10;
        while start > 0 && gammas[start - 1] == gammas[start + 1] {
            start -= 1;
        }
        Genus {
            normal,
            superscripts: gammas[..start + 2].to_vec(),
        }
    }

    /// The genus of a nim position by the recursion on options.
    fn nim_by_recursion(heaps: &[u32]) -> Genus {
        let mut options = Vec::new();
        for (i, &h) in heaps.iter().enumerate() {
            for smaller in 0..h {
                let mut next = heaps.to_vec();
                next[i] = smaller;
                next.retain(|&x| x > 0);
                options.push(nim_by_recursion(&next));
            }
        }
        Genus::from_options(&options.iter().collect::<Vec<_>>())
    }

    #[test]
    fn nim_positions_have_the_genera_of_misere_nim() {
        for heaps in NIM_POSITIONS {
            let heaps = heaps.to_vec();
            let by_recursion = nim_by_recursion(&heaps);
            assert_eq!(by_recursion, nim_genus(&heaps), "{heaps:?}");
            assert!(by_recursion.is_tame(), "{heaps:?}: {by_recursion}");
        }
    }

    #[test]
    fn nim_heaps_have_the_genera_of_the_theorem() {
        // Heap n's options are the heaps 0..n: the genera by the recursion on options, from
        // the terminal position up, against the closed form of `Genus::nim_heap`, and against
        // misère Nim's rule (`nim_genus`, from Bouton's rule) on the small heaps.
        let mut heaps: Vec<Genus> = Vec::new();
        for n in 0..=200u32 {
            let genus = Genus::from_options(&heaps.iter().collect::<Vec<_>>());
            assert_eq!(genus, Genus::nim_heap(n), "heap {n}");
            if n <= 12 {
                assert_eq!(genus, nim_genus(&[n]), "heap {n}");
            }
            heaps.push(genus);
        }
        assert_eq!(Genus::nim_heap(0).to_string(), "0^{120}");
        assert_eq!(Genus::nim_heap(1).to_string(), "1^{031}");
        assert_eq!(Genus::nim_heap(5).to_string(), "5^{57}");
    }

    #[test]
    fn notation_is_conways() {
        // ONAG ch. 12: 0 = 0^{120}, *1 = 1^{031}, *2 = 2^{20}, *2+*2 = 0^{02}, *2+*3 = 1^{13}.
        assert_eq!(nim_by_recursion(&[]).to_string(), "0^{120}");
        assert_eq!(nim_by_recursion(&[1]).to_string(), "1^{031}");
        assert_eq!(nim_by_recursion(&[2]).to_string(), "2^{20}");
        assert_eq!(nim_by_recursion(&[2, 2]).to_string(), "0^{02}");
        assert_eq!(nim_by_recursion(&[2, 3]).to_string(), "1^{13}");
        let wide = Genus {
            normal: 12,
            superscripts: vec![1, 12, 14],
        };
        assert_eq!(wide.to_string(), "12^{1,12,14}");
    }

    #[test]
    fn tame_sums_are_misere_nim_sums() {
        let positions: Vec<Vec<u32>> = NIM_POSITIONS.iter().map(|p| p.to_vec()).collect();
        for a in &positions {
            for b in &positions {
                let sum: Vec<u32> = a.iter().chain(b).copied().collect();
                assert_eq!(
                    nim_genus(a).tame_sum(&nim_genus(b)),
                    nim_genus(&sum),
                    "{a:?} + {b:?}"
                );
            }
        }
    }

    #[test]
    fn a_wild_genus_is_not_tame() {
        // 4^{146} (the issue's example of a wild genus): γ0 = 1 is neither g nor g ⊕ 1.
        let wild = Genus {
            normal: 4,
            superscripts: vec![1, 4, 6],
        };
        assert!(!wild.is_tame());
        assert_eq!(wild.gamma(4), 6);
        assert_eq!(wild.gamma(5), 4);
    }
}
