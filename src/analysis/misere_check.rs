//! The contest shortcuts for misère sums, checked against the exact misère outcome.
//!
//! Misère play has no XOR rule: the outcome of a sum is not a function of its components'
//! values (Conway, ONAG ch. 12; Winning Ways ch. 13). Contest solutions nevertheless decide
//! misère sums from per-component values, and this module checks two such shortcuts on every
//! sum of at most `K` heaps of sizes `1..=N`, against the true misère outcome of the sum
//! (P iff `G⁻ = 0`, from the genus found by the exact search over sums of
//! [`crate::value::misere::Sums`]):
//!
//! * [`Rule::AntiSg`], the anti-SG rule (the *SJ theorem*, Jia Zhihao, 2009): the first player
//!   wins iff (the XOR of the components' normal Sprague–Grundy values is not 0 and some
//!   component has value > 1) or (the XOR is 0 and every component has value ≤ 1). It is the
//!   same formula as Bouton's misère-Nim rule applied to the SG values ("play Nim until only
//!   heaps of value ≤ 1 remain"): "some value > 1" and "some value ≥ 2" are one condition.
//!   The SJ theorem proves it only for games stipulated to end once every component has SG
//!   value 0; for a real game it is exact for every sum when the heaps are tame and every
//!   heap of SG value 0 or 1 is *fickle* (genus `0^{120}` or `1^{031}`, Conway's tame addition),
//!   and it fails on the first wild or firm one that matters.
//! * [`Rule::MisereXor`], the XOR of the components' misère Grundy values `G⁻`: the first
//!   player wins iff it is not 0 — the Sprague–Grundy theorem applied to misère values, which
//!   is what one gets by valuing each component in misère play and adding as in normal play.
//!   It is exact for one component (by the definition of `G⁻`) and wrong already for misère
//!   Nim's `1 + 1` (`G⁻ = 0` each, yet the first player wins).
//!
//! The sums are the multisets of heap sizes, enumerated by number of components, then total
//! size, then lexicographically (each sorted ascending), so the first failure found is the
//! smallest counterexample in that order. One [`Sums`] values them all; its memo carries
//! every sum it valued (and every sum it needed) from one sum to the next.

use thiserror::Error;

use crate::engine::progress::{Progress, ProgressSink};
use crate::engine::Nimber;
use crate::engine::{human_bytes, EngineError};
use crate::rules::Game;
use crate::value::evaluate;
use crate::value::misere::sums::{BYTES_PER_SUM, MAX_SUMS};
use crate::value::misere::{Genus, Sums};
use crate::value::Outcome;

/// The most components a sum may have (`--heaps`): more only adds sums of many small heaps.
pub const MAX_COMPONENTS: usize = 64;

/// The most sums a check may enumerate: every one is stored by the search over sums, which
/// keeps at most [`MAX_SUMS`].
pub const MAX_CHECKED: u128 = MAX_SUMS as u128;

/// A contest shortcut for the misère outcome of a sum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// The anti-SG rule (SJ theorem) on the normal SG values; also Bouton's misère-Nim rule
    /// applied to the SG values (the same formula).
    AntiSg,
    /// The XOR of the misère Grundy values `G⁻`, as in normal play.
    MisereXor,
}

impl Rule {
    /// Every rule checked, in the order they are reported.
    pub const ALL: [Rule; 2] = [Rule::AntiSg, Rule::MisereXor];

    /// The rule's name in reports and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Rule::AntiSg => "anti-sg",
            Rule::MisereXor => "misere-xor",
        }
    }

    /// The rule in one sentence.
    pub fn description(self) -> &'static str {
        match self {
            Rule::AntiSg => {
                "anti-SG rule (SJ theorem; the same formula as Bouton's misère-Nim rule on the SG \
                 values): the first player wins iff (XOR of the SG values ≠ 0 and some SG value > 1) \
                 or (XOR = 0 and every SG value ≤ 1)"
            }
            Rule::MisereXor => {
                "misère-XOR rule (each component's misère Grundy value G⁻, added as in normal \
                 play): the first player wins iff the XOR of the G⁻ values ≠ 0"
            }
        }
    }

    /// What the rule predicts for a sum whose components have the normal Grundy values
    /// `normal` and the misère Grundy values `misere`.
    pub fn predict(self, normal: &[u32], misere: &[u32]) -> Outcome {
        let first_player_wins = match self {
            Rule::AntiSg => {
                let zero = normal.iter().sum::<Nimber>().is_zero();
                let some_big = normal.iter().any(|&g| g > 1);
                (!zero && some_big) || (zero && !some_big)
            }
            Rule::MisereXor => !misere.iter().sum::<Nimber>().is_zero(),
        };
        Outcome::of_p(!first_player_wins)
    }
}

/// A sum on which a rule is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counterexample {
    /// The heap sizes, ascending.
    pub components: Vec<u64>,
    /// Their normal-play Grundy values.
    pub sg_values: Vec<u32>,
    /// Their misère Grundy values `G⁻`.
    pub misere_values: Vec<u32>,
    /// Their genera (Conway), which say why: a firm `0^{02}` or `1^{13}`, or a wild one.
    pub genera: Vec<Genus>,
    /// Whether each is tame.
    pub tame: Vec<bool>,
    /// What the rule predicts.
    pub predicted: Outcome,
    /// The true misère outcome of the sum.
    pub actual: Outcome,
}

/// What the check found for one rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleFinding {
    /// The rule.
    pub rule: Rule,
    /// On how many of the sums checked the rule is wrong.
    pub failures: u64,
    /// The smallest sum on which it is wrong (by number of components, then total size,
    /// then lexicographically), `None` when it holds on every sum checked.
    pub counterexample: Option<Counterexample>,
}

impl RuleFinding {
    /// Whether the rule holds on every sum checked.
    pub fn holds(&self) -> bool {
        self.counterexample.is_none()
    }
}

/// One heap's values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeapValues {
    /// Its normal Grundy value.
    pub normal: u32,
    /// Its misère Grundy value `G⁻`.
    pub misere: u32,
    /// Its genus.
    pub genus: Genus,
    /// Whether it is tame (its genus and all its positions' are tame).
    pub tame: bool,
}

/// The result of a check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MisereCheckReport {
    /// The most components of a sum (`K`).
    pub heaps: usize,
    /// The largest heap (`N`); heaps are `1..=N`.
    pub to: u64,
    /// How many sums were checked (every multiset of 1 to `K` heap sizes from `1..=N`).
    pub sums_checked: u64,
    /// The values of heaps `0..=N` (index = heap size).
    pub heap_values: Vec<HeapValues>,
    /// Each rule's finding, in the order of [`Rule::ALL`].
    pub findings: Vec<RuleFinding>,
    /// How many sums the search over sums stored (the checked ones and those they needed).
    pub sums_stored: usize,
}

impl MisereCheckReport {
    /// The smallest wild heap of `1..=N`, if any.
    pub fn first_wild(&self) -> Option<u64> {
        self.heap_values
            .iter()
            .position(|h| !h.tame)
            .map(|i| i as u64)
    }
}

/// Why a check was not run or did not finish.
#[derive(Debug, Error)]
pub enum MisereCheckError {
    /// The game's positions are tuples, not heaps.
    #[error(
        "misere-check sums heaps, and {game} is a position game (coordinates {coordinates}): its components are tuples, not heaps"
    )]
    PositionGame {
        /// The game's name.
        game: String,
        /// Its coordinates, listed.
        coordinates: String,
    },
    /// Sums of no heaps (`K = 0`, or `N = 0`).
    #[error("there is nothing to check: sums of at least one component of at least one heap size are needed")]
    Empty,
    /// More components than [`MAX_COMPONENTS`].
    #[error("sums of up to {heaps} components: at most {MAX_COMPONENTS} are checked")]
    TooManyComponents {
        /// The number asked for.
        heaps: usize,
    },
    /// More sums than [`MAX_CHECKED`], refused before any work.
    #[error(
        "there are {} sums of at most {heaps} heaps of sizes 1..={to}: more than the {limit} the search over sums can keep (each is stored, about {} for the limit)",
        show_count(*.sums),
        human_bytes(*.limit as u64 * BYTES_PER_SUM)
    )]
    TooManySums {
        /// The number of sums asked for (saturated at `u128::MAX`).
        sums: u128,
        /// The most components.
        heaps: usize,
        /// The largest heap.
        to: u64,
        /// [`MAX_CHECKED`].
        limit: u128,
    },
    /// The search over sums, run lazily from the sums asked, passed the request's budget of
    /// stored sums ([`crate::value::misere::TABLE_SUMS`]) while it ran.
    #[error(
        "at the sum {}, the misère search over sums (run from the sums asked) passed the budget of {} sums of components (about {}): {done}",
        .at.iter().map(u64::to_string).collect::<Vec<_>>().join(" + "),
        crate::engine::estimate::count(*.limit as f64),
        human_bytes(*.bytes)
    )]
    Stopped {
        /// The sum (or heap) being valued.
        at: Vec<u64>,
        /// How far the check got, in words.
        done: String,
        /// The sums allowed.
        limit: usize,
        /// Their memory.
        bytes: u64,
    },
    /// The engine refused or failed (a rule error, the search's own limits).
    #[error(transparent)]
    Engine(#[from] EngineError),
}

/// `123456789` as is below a billion, `1.2e15` above.
fn show_count(count: u128) -> String {
    if count < 1_000_000_000 {
        count.to_string()
    } else {
        format!("{:.1e}", count as f64)
    }
}

/// How many multisets of 1 to `heaps` elements of `1..=to` there are: the sum over
/// `k = 1..=heaps` of `C(to + k − 1, k)`, saturating at `u128::MAX`.
pub fn count_sums(heaps: usize, to: u64) -> u128 {
    let n = u128::from(to);
    let mut total: u128 = 0;
    // C(n + k − 1, k) = C(n + k − 2, k − 1) · (n + k − 1) / k, exact at every step.
    let mut term: u128 = 1;
    for k in 1..=heaps as u128 {
        term = match term.checked_mul(n + k - 1) {
            Some(t) => t / k,
            None => return u128::MAX,
        };
        if term == 0 {
            return total;
        }
        total = total.saturating_add(term);
    }
    total
}

/// Checks every [`Rule`] on every sum of 1 to `heaps` heaps of sizes `1..=to` of `game`.
/// Refused before any work when the game is a position game, when there are too many sums
/// ([`MAX_CHECKED`]) or when the heaps' rules would take too long; `progress` hears how far
/// it got.
pub fn check(
    game: &Game,
    heaps: usize,
    to: u64,
    progress: Option<std::sync::Arc<dyn ProgressSink>>,
) -> Result<MisereCheckReport, MisereCheckError> {
    let sums_to_check = refuse(game, heaps, to)?;
    evaluate::check_request(game, &[to])?;
    // The search over sums is lazy, from the sums asked, and metered while it runs: past the
    // budget of a misère table's stored sums the check stops, naming the sum and how far it
    // got (no up-front bound: the worst case, every multiset of heaps with `heaps · to`
    // tokens, is far past what the sums asked need).
    let cap = crate::value::misere::TABLE_SUMS as usize;
    let mut sums = Sums::new(game).with_max_sums(cap);
    // The bar counts the heaps valued first (a wild heap alone can take long), then the sums.
    let mut bar = Progress::new(0, to + 1 + sums_to_check, progress);
    let mut heap_values = Vec::with_capacity(to as usize + 1);
    let stopped = |at: Vec<u64>, done: String, error: EngineError| match error {
        EngineError::TooManySums { limit, bytes } => MisereCheckError::Stopped {
            at,
            done,
            limit,
            bytes,
        },
        other => other.into(),
    };
    for heap in 0..=to {
        let valued = match sums
            .canonical(&[heap])
            .and_then(|sum| sums.value(&sum).cloned())
        {
            Ok(valued) => valued,
            Err(error) => {
                bar.finish();
                let done = format!("the heaps 0..{heap} were valued alone, of 0..={to}, and none of the {sums_to_check} sums was checked");
                return Err(stopped(vec![heap], done, error));
            }
        };
        heap_values.push(HeapValues {
            normal: valued.genus.normal,
            misere: valued.genus.misere(),
            genus: valued.genus.clone(),
            tame: valued.is_tame(),
        });
        bar.set(heap + 1);
    }
    let mut findings: Vec<RuleFinding> = Rule::ALL
        .iter()
        .map(|&rule| RuleFinding {
            rule,
            failures: 0,
            counterexample: None,
        })
        .collect();
    let mut checked: u64 = 0;
    let mut normal = Vec::with_capacity(heaps);
    let mut misere = Vec::with_capacity(heaps);
    for_each_sum::<MisereCheckError>(heaps, to, &mut |components| {
        // Only the outcome is needed: the search stops at a sum's first winning option.
        let p = match sums.canonical(components).and_then(|sum| sums.is_p(&sum)) {
            Ok(p) => p,
            Err(error) => {
                let done = format!(
                    "{checked} of the {sums_to_check} sums were checked, in order of components then tokens"
                );
                return Err(stopped(components.to_vec(), done, error));
            }
        };
        let actual = Outcome::of_p(p);
        normal.clear();
        misere.clear();
        for &heap in components {
            normal.push(heap_values[heap as usize].normal);
            misere.push(heap_values[heap as usize].misere);
        }
        for finding in &mut findings {
            let predicted = finding.rule.predict(&normal, &misere);
            if predicted != actual {
                finding.failures += 1;
                if finding.counterexample.is_none() {
                    finding.counterexample = Some(Counterexample {
                        components: components.to_vec(),
                        sg_values: normal.clone(),
                        misere_values: misere.clone(),
                        genera: components
                            .iter()
                            .map(|&h| heap_values[h as usize].genus.clone())
                            .collect(),
                        tame: components
                            .iter()
                            .map(|&h| heap_values[h as usize].tame)
                            .collect(),
                        predicted,
                        actual,
                    });
                }
            }
        }
        checked += 1;
        bar.tick(to + 1 + checked);
        Ok(())
    })?;
    bar.finish();
    debug_assert_eq!(checked, sums_to_check);
    Ok(MisereCheckReport {
        heaps,
        to,
        sums_checked: checked,
        heap_values,
        findings,
        sums_stored: sums.len(),
    })
}

/// The number of sums to check, or why the request is refused (before any work).
pub fn refuse(game: &Game, heaps: usize, to: u64) -> Result<u64, MisereCheckError> {
    if game.position_program().is_some() {
        return Err(MisereCheckError::PositionGame {
            game: game.name.clone(),
            coordinates: game.coordinates().join(", "),
        });
    }
    if heaps == 0 || to == 0 {
        return Err(MisereCheckError::Empty);
    }
    if heaps > MAX_COMPONENTS {
        return Err(MisereCheckError::TooManyComponents { heaps });
    }
    let sums = count_sums(heaps, to);
    if sums > MAX_CHECKED {
        return Err(MisereCheckError::TooManySums {
            sums,
            heaps,
            to,
            limit: MAX_CHECKED,
        });
    }
    Ok(sums as u64)
}

/// Calls `visit` with every multiset of 1 to `heaps` elements of `1..=to` (ascending), by
/// number of elements, then total, then lexicographically; stops at the first error.
pub fn for_each_sum<E>(
    heaps: usize,
    to: u64,
    visit: &mut dyn FnMut(&[u64]) -> Result<(), E>,
) -> Result<(), E> {
    let mut parts = Vec::with_capacity(heaps);
    for k in 1..=heaps as u64 {
        for total in k..=k * to {
            fill(&mut parts, k, total, 1, to, visit)?;
        }
    }
    Ok(())
}

/// Extends `parts` by `count` more elements, each at least `least` and at most `most`, adding
/// up to `total`, in lexicographic order.
fn fill<E>(
    parts: &mut Vec<u64>,
    count: u64,
    total: u64,
    least: u64,
    most: u64,
    visit: &mut dyn FnMut(&[u64]) -> Result<(), E>,
) -> Result<(), E> {
    if count == 0 {
        return if total == 0 { visit(parts) } else { Ok(()) };
    }
    // The next part `p` leaves `count − 1` parts in `p..=most` for `total − p`.
    let mut p = least.max(total.saturating_sub((count - 1) * most));
    while p <= most && p * count <= total {
        parts.push(p);
        let result = fill(parts, count - 1, total - p, p, most, visit);
        parts.pop();
        result?;
        p += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{self, SourceFile};

    fn game(text: &str) -> Game {
        rules::load(SourceFile::new("<test>", text), &[]).expect("rules load")
    }

    /// Misère outcome of a sum of Nim heaps by Bouton's rule (1902).
    fn misere_nim(heaps: &[u64]) -> Outcome {
        let xor = heaps.iter().fold(0, |a, &h| a ^ h);
        let first_wins = if heaps.iter().all(|&h| h <= 1) {
            xor == 0
        } else {
            xor != 0
        };
        if first_wins {
            Outcome::N
        } else {
            Outcome::P
        }
    }

    #[test]
    fn sums_come_smallest_first_and_are_counted() {
        let mut seen: Vec<Vec<u64>> = Vec::new();
        for_each_sum::<()>(3, 3, &mut |s| {
            seen.push(s.to_vec());
            Ok(())
        })
        .unwrap();
        assert_eq!(seen.len() as u128, count_sums(3, 3));
        // 3 + 6 + 10 multisets of sizes 1, 2, 3 of {1, 2, 3}.
        assert_eq!(count_sums(3, 3), 19);
        assert_eq!(
            &seen[..7],
            [
                vec![1],
                vec![2],
                vec![3],
                vec![1, 1],
                vec![1, 2],
                vec![1, 3],
                vec![2, 2]
            ]
        );
        let key = |s: &Vec<u64>| (s.len(), s.iter().sum::<u64>(), s.clone());
        assert!(seen.windows(2).all(|w| key(&w[0]) < key(&w[1])));
        assert!(seen.iter().all(|s| s.windows(2).all(|w| w[0] <= w[1])));
        let mut sorted = seen.clone();
        sorted.dedup();
        assert_eq!(sorted.len(), seen.len());
        // The counts by stars and bars, and saturation.
        assert_eq!(count_sums(1, 10), 10);
        assert_eq!(count_sums(2, 10), 10 + 55);
        assert_eq!(count_sums(64, 1), 64);
        assert_eq!(count_sums(64, u64::MAX), u128::MAX);
    }

    #[test]
    fn the_rules_as_formulas() {
        // Misère Nim: the anti-SG rule is Bouton's rule when the values are the heaps.
        for heaps in [
            vec![1],
            vec![1, 1],
            vec![2],
            vec![2, 2],
            vec![1, 2, 3],
            vec![1, 1, 1],
        ] {
            let values: Vec<u32> = heaps.iter().map(|&h| h as u32).collect();
            assert_eq!(
                Rule::AntiSg.predict(&values, &[]),
                misere_nim(&heaps),
                "{heaps:?}"
            );
        }
        // G⁻ of Nim heaps 1 and 1 is 0 and 0: the misère XOR says P, Bouton says N.
        assert_eq!(Rule::MisereXor.predict(&[1, 1], &[0, 0]), Outcome::P);
        assert_eq!(misere_nim(&[1, 1]), Outcome::N);
    }

    #[test]
    fn nim_holds_for_the_anti_sg_rule_and_not_for_the_misere_xor() {
        let nim = game("move take: x in 1..=n => n - x");
        let report = check(&nim, 3, 6, None).unwrap();
        assert_eq!(report.sums_checked as u128, count_sums(3, 6));
        assert_eq!(report.first_wild(), None);
        assert!(report.findings[0].holds());
        let xor = report.findings[1].counterexample.as_ref().expect("fails");
        assert_eq!(xor.components, [1, 1]);
        assert_eq!(xor.actual, misere_nim(&[1, 1]));
        // Every sum's true outcome is Bouton's.
        let mut sums = Sums::new(&nim);
        for_each_sum::<EngineError>(3, 6, &mut |heaps| {
            let sum = sums.canonical(heaps)?;
            let p = sums.value(&sum)?.genus.misere() == 0;
            assert_eq!(p, misere_nim(heaps) == Outcome::P, "{heaps:?}");
            Ok(())
        })
        .unwrap();
    }

    #[test]
    fn on_tame_heaps_the_anti_sg_rule_fails_exactly_on_sums_of_small_values_with_a_firm_heap() {
        // Tame addition (ONAG ch. 12): a tame sum's G⁻ is the XOR of the g, flipped when every
        // component is fickle (g ≤ 1 and G⁻ = g ⊕ 1). So the anti-SG rule is wrong exactly on
        // the sums whose values are all ≤ 1 and which hold a firm heap (g ≤ 1, G⁻ = g), and a
        // single firm heap is the smallest counterexample. Octal 0.31 and 0.73 are tame with
        // firm heaps (heap 3 of 0.31 is 0^{02}); Nim and 0.12 have none.
        for (code, firm_heap) in [
            ("0.31", Some(3)),
            ("0.73", Some(4)),
            ("0.[3]", None),
            ("0.12", None),
        ] {
            let game = game(&format!("octal {code}"));
            let report = check(&game, 3, 10, None).unwrap();
            assert_eq!(report.first_wild(), None, "{code}");
            let firm = |h: u64| {
                let v = &report.heap_values[h as usize];
                v.normal <= 1 && v.misere == v.normal
            };
            let mut expected = 0;
            let mut first = None;
            for_each_sum::<()>(3, 10, &mut |heaps| {
                let small = heaps
                    .iter()
                    .all(|&h| report.heap_values[h as usize].normal <= 1);
                if small && heaps.iter().any(|&h| firm(h)) {
                    expected += 1;
                    first.get_or_insert_with(|| heaps.to_vec());
                }
                Ok(())
            })
            .unwrap();
            let anti_sg = &report.findings[0];
            assert_eq!(anti_sg.failures, expected, "{code}");
            assert_eq!(
                anti_sg
                    .counterexample
                    .as_ref()
                    .map(|c| c.components.clone()),
                first,
                "{code}"
            );
            assert_eq!(first, firm_heap.map(|h| vec![h]), "{code}");
        }
    }

    #[test]
    fn refusals_come_before_any_work() {
        let nim = game("move take: x in 1..=n => n - x");
        assert!(matches!(
            check(&nim, 20, 1000, None),
            Err(MisereCheckError::TooManySums { .. })
        ));
        let message = check(&nim, 64, 1 << 40, None).unwrap_err().to_string();
        assert!(
            message.contains("e") && message.contains(&MAX_CHECKED.to_string()),
            "{message}"
        );
        assert!(matches!(
            check(&nim, 0, 5, None),
            Err(MisereCheckError::Empty)
        ));
        assert!(matches!(
            check(&nim, 2, 0, None),
            Err(MisereCheckError::Empty)
        ));
        assert!(matches!(
            check(&nim, 65, 1, None),
            Err(MisereCheckError::TooManyComponents { heaps: 65 })
        ));
        let wythoff = game("position (x, y)\nmove left: k in 1..=x => (x - k, y)\nmove down: k in 1..=y => (x, y - k)");
        let message = check(&wythoff, 2, 3, None).unwrap_err().to_string();
        assert!(message.contains("position game"), "{message}");
    }
}
