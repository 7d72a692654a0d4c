//! Games on directed graphs that can cycle: C. A. B. Smith's theory of loopy impartial games.
//!
//! A token sits on a node of a finite directed graph; a move slides it along an edge; a player
//! who cannot move loses (normal play) and endless play is a draw. Two algorithms, sharing one
//! backward-induction core (a FIFO queue and per-node counters of unresolved moves):
//!
//! * [`retrograde`]: the outcome `P`/`N`/`D` and Smith's remoteness of every node, in
//!   `O(V + E)`;
//! * [`generalized_sg`] (or the compact [`gamma`]): the generalized Sprague–Grundy value `γ` of
//!   every node, in `O((V + E)·(γ_max + 2))` with `γ_max < min(Δ + 1, √(2E) + 1)` (`Δ` the
//!   largest out-degree), by rounds `m = 0, 1, …` of the same core.
//!
//! # The generalized Sprague–Grundy function
//!
//! Smith ("Graphs and composite games", J. Combin. Theory 1 (1966) 51–81) extended the
//! Sprague–Grundy function to graphs with cycles; the form used here is Fraenkel's (A. S.
//! Fraenkel and Y. Yesha, "Theory of annihilation games — I", J. Combin. Theory B 33 (1982)
//! 60–86, and "The generalized Sprague–Grundy function and its invariance under certain
//! mappings", J. Combin. Theory A 43 (1986) 165–177; also Winning Ways, ch. 12). With `F(u)`
//! the successors of `u`, `γ : V → ℕ ∪ {∞}` is the generalized Sprague–Grundy function, with
//! a counter function `c` from the finitely valued nodes into a well-ordered set, when
//!
//! * **A.** if `γ(u) < ∞` then `γ(u) = mex γ(F(u))` (the mex of the finite values);
//! * **B.** if `γ(u) < ∞` and `v ∈ F(u)` has `γ(v) > γ(u)` (∞ included) then some
//!   `w ∈ F(v)` has `γ(w) = γ(u)` and `c(w) < c(u)` (every larger option reverses, and the
//!   counter forbids circular justifications);
//! * **C.** if `γ(u) = ∞` then some `v ∈ F(u)` has `γ(v) = ∞(K)` with `mex γ(F(u)) ∉ K`.
//!
//! An ∞ is written `∞(K)` with `K` the finite values among `F(u)`. Such a function exists and is
//! unique on a finite graph; on an acyclic graph it is the ordinary Sprague–Grundy function.
//! [`crate::oracle::loopy::check_generalized_sg`] checks A, B (by the existence of a counter
//! function) and C on any graph.
//!
//! # Sums
//!
//! In a sum of tokens a move moves one of them. Smith's theorem (1966; Fraenkel's survey
//! "Complexity, appeal and challenges of combinatorial games", Theor. Comput. Sci. 313 (2004),
//! ): `γ(u₁ + u₂) = γ(u₁) ⊕ γ(u₂)` with `a ⊕ ∞(K) = ∞(K ⊕ a)` and `∞(K) ⊕ ∞(L) = ∞(∅)`.
//! So a sum with finite values only is `P` iff their XOR is 0; with exactly one `∞(K)` and the
//! others XORing to `a`, it is `N` iff `a ∈ K`, else `D`; with two or more ∞ it is `D`
//! ([`sum_outcome`], [`sum_value`]).
//!
//! ```
//! use sgscope::graph::Graph;
//! use sgscope::value::loopy::{generalized_sg, retrograde, sum_outcome, LoopyValue};
//! use sgscope::value::Outcome;
//!
//! // 0 loops on itself and can exit to the terminal node 1.
//! let g = Graph::from_edges(2, &[(0, 0), (0, 1)]);
//! let gamma = generalized_sg(&g)?;
//! assert_eq!(gamma, [LoopyValue::Infinite(vec![0]), LoopyValue::Finite(0)]);
//! assert_eq!(gamma[0].to_string(), "inf{0}");
//! assert_eq!(retrograde(&g).outcome, [Outcome::N, Outcome::P]);
//! // Two copies of node 0: whoever exits first loses, so nobody does.
//! assert_eq!(sum_outcome(&[&gamma[0], &gamma[0]]), Outcome::D);
//! # Ok::<(), sgscope::engine::EngineError>(())
//! ```

mod gsg;
mod induction;
mod retrograde;
pub mod table;

use std::fmt;
use std::str::FromStr;

pub use gsg::{gamma, generalized_sg, Gamma};
pub use retrograde::{retrograde, Retrograde};
pub use table::{Loopy, LoopyTable};

use crate::engine::Nimber;
use crate::value::Outcome;

/// A generalized Sprague–Grundy value: finite, or `∞(K)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LoopyValue {
    /// A finite value `m`: the token behaves like a nim-heap of size `m`, in any sum.
    Finite(u32),
    /// `∞(K)`: `K` the sorted finite values of the node's options. `N` iff `0 ∈ K`, else `D`.
    Infinite(Vec<u32>),
}

impl LoopyValue {
    /// The outcome of one token of this value: `Finite(0)` is `P`, other finite values `N`,
    /// `∞(K)` is `N` iff `0 ∈ K` (a move to a `P` node) and `D` otherwise. Agrees with
    /// [`retrograde`] node by node.
    pub fn outcome(&self) -> Outcome {
        sum_outcome(&[self])
    }

    /// Whether the value is finite.
    pub fn is_finite(&self) -> bool {
        matches!(self, LoopyValue::Finite(_))
    }

    /// The form for people: `3`, `∞{0,2}`, `∞{}` (the [`fmt::Display`] form, `inf{0,2}`, is
    /// the one for files).
    pub fn pretty(&self) -> String {
        match self {
            LoopyValue::Finite(m) => m.to_string(),
            LoopyValue::Infinite(k) => format!("∞{{{}}}", join(k)),
        }
    }
}

fn join(k: &[u32]) -> String {
    k.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
}

/// `3`, `inf{0,2}`, `inf{}`: the exact text of values in JSON and CSV output.
impl fmt::Display for LoopyValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoopyValue::Finite(m) => write!(f, "{m}"),
            LoopyValue::Infinite(k) => write!(f, "inf{{{}}}", join(k)),
        }
    }
}

/// A text that is not a [`LoopyValue`] in its [`fmt::Display`] form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseLoopyValueError(String);

impl fmt::Display for ParseLoopyValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is not a loopy value (expected a number or inf{{a,b,…}})",
            self.0
        )
    }
}

impl std::error::Error for ParseLoopyValueError {}

/// Reads the [`fmt::Display`] form back (`K` sorted and deduplicated).
impl FromStr for LoopyValue {
    type Err = ParseLoopyValueError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let error = || ParseLoopyValueError(text.to_string());
        if let Some(inner) = text
            .strip_prefix("inf{")
            .and_then(|rest| rest.strip_suffix('}'))
        {
            let mut k = Vec::new();
            if !inner.is_empty() {
                for part in inner.split(',') {
                    k.push(part.parse::<u32>().map_err(|_| error())?);
                }
            }
            k.sort_unstable();
            k.dedup();
            Ok(LoopyValue::Infinite(k))
        } else {
            text.parse().map(LoopyValue::Finite).map_err(|_| error())
        }
    }
}

/// The outcome of a sum of tokens with these values, by Smith's rule (see the module docs):
/// all finite: `P` iff their XOR is 0, else `N`; exactly one `∞(K)`, the others XORing to
/// `a`: `N` iff `a ∈ K`, else `D`; two or more ∞: `D`. The empty sum is `P`.
pub fn sum_outcome(values: &[&LoopyValue]) -> Outcome {
    let mut xor = Nimber::ZERO;
    let mut infinite: Option<&[u32]> = None;
    for value in values {
        match value {
            LoopyValue::Finite(m) => xor += *m,
            LoopyValue::Infinite(_) if infinite.is_some() => return Outcome::D,
            LoopyValue::Infinite(k) => infinite = Some(k),
        }
    }
    let xor = xor.value();
    match infinite {
        None => Outcome::of_value(xor),
        Some(k) if k.contains(&xor) => Outcome::N,
        Some(_) => Outcome::D,
    }
}

/// `γ` of a sum of tokens with these values (Smith 1966): the XOR when all are finite;
/// `∞(K ⊕ a)` for one `∞(K)` and others XORing to `a`; `∞(∅)` for two or more ∞.
pub fn sum_value(values: &[&LoopyValue]) -> LoopyValue {
    let mut xor = Nimber::ZERO;
    let mut infinite: Option<&[u32]> = None;
    for value in values {
        match value {
            LoopyValue::Finite(m) => xor += *m,
            LoopyValue::Infinite(_) if infinite.is_some() => return LoopyValue::Infinite(vec![]),
            LoopyValue::Infinite(k) => infinite = Some(k),
        }
    }
    let xor = xor.value();
    match infinite {
        None => LoopyValue::Finite(xor),
        Some(k) => {
            let mut shifted: Vec<u32> = k.iter().map(|x| x ^ xor).collect();
            shifted.sort_unstable();
            shifted.dedup();
            LoopyValue::Infinite(shifted)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use LoopyValue::{Finite, Infinite};

    #[test]
    fn display_pretty_and_parse() {
        assert_eq!(Finite(3).to_string(), "3");
        assert_eq!(Infinite(vec![0, 2]).to_string(), "inf{0,2}");
        assert_eq!(Infinite(vec![]).to_string(), "inf{}");
        assert_eq!(Infinite(vec![0, 2]).pretty(), "∞{0,2}");
        assert_eq!(Infinite(vec![]).pretty(), "∞{}");
        for text in ["0", "17", "inf{}", "inf{0,2}", "inf{5}"] {
            assert_eq!(text.parse::<LoopyValue>().unwrap().to_string(), text);
        }
        for bad in [
            "", "inf", "inf{", "inf{1,}", "-1", "∞{}", "inf{a}", "inf{1}x",
        ] {
            assert!(bad.parse::<LoopyValue>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn smiths_rule_on_small_sums() {
        let (zero, one, two) = (Finite(0), Finite(1), Finite(2));
        let loopy0 = Infinite(vec![0, 3]);
        let loopy = Infinite(vec![1]);
        assert_eq!(sum_outcome(&[]), Outcome::P);
        assert_eq!(sum_outcome(&[&one, &one]), Outcome::P);
        assert_eq!(sum_outcome(&[&one, &two]), Outcome::N);
        assert_eq!(sum_outcome(&[&loopy0]), Outcome::N);
        assert_eq!(sum_outcome(&[&loopy]), Outcome::D);
        assert_eq!(sum_outcome(&[&loopy, &one]), Outcome::N);
        assert_eq!(sum_outcome(&[&loopy0, &one, &two]), Outcome::N);
        assert_eq!(sum_outcome(&[&loopy0, &two]), Outcome::D);
        assert_eq!(sum_outcome(&[&loopy0, &loopy0]), Outcome::D);
        assert_eq!(sum_value(&[&loopy0, &two, &zero]), Infinite(vec![1, 2]));
        assert_eq!(sum_value(&[&loopy, &loopy0]), Infinite(vec![]));
        assert_eq!(sum_value(&[&one, &two]), Finite(3));
        for v in [&zero, &one, &loopy0, &loopy] {
            assert_eq!(v.outcome(), sum_outcome(&[v]));
        }
    }
}
