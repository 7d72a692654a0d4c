//! Misère quotients (Plambeck 2005; Plambeck and Siegel, "Misère quotients for impartial
//! games", JCTA 2008): the monoid of indistinguishability classes of the sums of heaps
//! `≤ N` of a heap game, with its P-portion.
//!
//! Two sums `G`, `H` are *indistinguishable* when `o⁻(G + X) = o⁻(H + X)` for every sum `X`;
//! the classes form a commutative monoid `Q` (the class of `G + H` is the product), and the
//! P-portion is the set of classes of misère P-positions. A finite `Q` solves every sum: the
//! outcome of a sum is whether the product of its heaps' elements lies in the P-portion.
//!
//! The search goes up one heap at a time. The new heap is first tried as each element of the
//! previous quotient (most heaps of a game add nothing new); when none can be proved, a new
//! quotient is guessed from data over the *essential* heaps (those that brought new elements)
//! and the new one, and proved:
//!
//! 1. Outcomes of the sums with at most `2L − 2` copies of each heap are computed exactly
//!    (`Outcomes`: a memoised recursion on options that stops at the first option that is a
//!    P-position, every sum of heaps of the previous bound read off its proved quotient). Each vector of multiplicities `v ∈ R = [0, L)^k` gets the signature
//!    `(o⁻(v + u))` over `u ∈ R`; the distinct signatures are the candidate elements, and
//!    `x · y` is the class of `reduce(v + u)`, where `reduce` uses the congruence
//!    `m ≡ m'` iff `m = m'` or `m, m' ≥ L − 2` with `m ≡ m' (mod 2)`. The product must be
//!    independent of the representatives, and the outcome of every `v + u` must be that of its
//!    class; otherwise `L` grows.
//! 2. The candidate is proved: writing `Φ` for the map from sums to `Q`, every sum `G` must
//!    satisfy `Φ(G) ∈ P ⟺ G ≠ 0 and Φ(G − h)·s ∉ P for every heap h of G and every option s
//!    of h` (misère play: the empty sum is an N-position), which by induction on `G` makes
//!    `Φ(G) ∈ P` exactly when `G` is a misère P-position. What this asks of `G` depends only
//!    on `Φ(G)` and the `Φ(G − h)` (heaps grouped by element), finitely many states, all
//!    visited by a search from the empty sum (`prove`). Then `Φ` respects outcomes, and since
//!    distinct candidate elements are told apart by some product (their signatures differ),
//!    `Q` is the quotient.

use std::collections::HashMap;

use super::Sums;
use crate::engine::EngineError;
use crate::hash::Fast;
use crate::rules::Game;

/// The most outcomes of sums one candidate may need; past it the search stops.
pub const MAX_OUTCOMES: usize = 2_000_000;

/// The most states of sums the proof may visit; past it the search stops.
pub const MAX_PROOF_STATES: usize = 1_000_000;

/// The most sums whose exact outcomes `quotient` keeps behind its guesses: a few seconds of
/// work, so that a game whose quotient grows past what the guesses reach (Kayles, past heap
/// 11) ends with the reason instead of running for minutes.
pub const QUOTIENT_SUMS: usize = 500_000;

/// How far [`quotients_within`] may go before it gives up on a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most outcomes of sums one candidate may need ([`MAX_OUTCOMES`]).
    pub max_outcomes: usize,
    /// The most states of sums one proof may visit ([`MAX_PROOF_STATES`]).
    pub max_proof_states: usize,
    /// The most sums the exact search behind the outcomes may store ([`super::sums::MAX_SUMS`]).
    pub max_sums: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_outcomes: MAX_OUTCOMES,
            max_proof_states: MAX_PROOF_STATES,
            max_sums: super::sums::MAX_SUMS,
        }
    }
}

/// The misère quotient of the heaps `≤ max_heap`, proved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quotient {
    /// The largest heap.
    pub max_heap: u64,
    /// The heaps with a move (heaps with no move are the empty game, the identity).
    pub heaps: Vec<u64>,
    /// Indices into `heaps` of the generators of the presentation: the heaps that brought new
    /// elements. Every other heap is an alias of an element (`aliases`).
    pub essential: Vec<usize>,
    /// Each element's normal form: multiplicities of the essential heaps in its smallest
    /// representative (fewest heaps, then fewest large heaps).
    pub elements: Vec<Vec<u32>>,
    /// Indices of the elements in the P-portion.
    pub p_portion: Vec<usize>,
    /// The relations `word = normal form` among the essential heaps (the minimal words that
    /// are not normal forms).
    pub relations: Vec<(Vec<u32>, Vec<u32>)>,
    /// The multiplication table: `product[x][y]`.
    product: Vec<Vec<usize>>,
    /// The element of each heap of `heaps`.
    images: Vec<usize>,
    /// The identity.
    identity: usize,
}

impl Quotient {
    /// The name of generator `g` (an index into `essential`): `a`, `b`, … `z`, then `g27`, ….
    pub fn generator_name(g: usize) -> String {
        if g < 26 {
            ((b'a' + g as u8) as char).to_string()
        } else {
            format!("g{}", g + 1)
        }
    }

    /// A word in the generators: `1`, `a`, `ab^2`.
    pub fn word(multiplicities: &[u32]) -> String {
        let mut word = String::new();
        for (g, &m) in multiplicities.iter().enumerate() {
            if m == 0 {
                continue;
            }
            word += &Quotient::generator_name(g);
            if m > 1 {
                word += &format!("^{m}");
            }
        }
        if word.is_empty() {
            "1".to_string()
        } else {
            word
        }
    }

    /// The number of elements.
    pub fn order(&self) -> usize {
        self.elements.len()
    }

    /// The normal form of the element of heap `heaps[i]`.
    pub fn image_of_heap(&self, i: usize) -> &[u32] {
        &self.elements[self.images[i]]
    }

    /// The element of a sum of heaps (heaps with no move, or above `max_heap`, are refused
    /// with `None`).
    pub fn element_of_heaps(&self, heaps: &[u64]) -> Option<usize> {
        let mut x = self.identity;
        for &h in heaps {
            if h == 0 {
                continue;
            }
            if h > self.max_heap {
                return None;
            }
            if let Ok(i) = self.heaps.binary_search(&h) {
                x = self.product[x][self.images[i]];
            }
        }
        Some(x)
    }

    /// Whether a sum of heaps `≤ max_heap` is a misère P-position, by the quotient.
    pub fn is_p_position(&self, heaps: &[u64]) -> Option<bool> {
        self.element_of_heaps(heaps)
            .map(|x| self.p_portion.contains(&x))
    }

    /// The element of `multiplicities` of the elements `factors`.
    fn power_product(&self, factors: &[usize], multiplicities: &[u32]) -> usize {
        let mut x = self.identity;
        for (&f, &m) in factors.iter().zip(multiplicities) {
            for _ in 0..m {
                x = self.product[x][f];
            }
        }
        x
    }
}

/// What [`quotients`] found for a bound on the heaps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// The quotient of the heaps `≤ n`, proved.
    Found(Quotient),
    /// No candidate could be proved within the limits: the quotient may be infinite, or
    /// larger than the search reaches.
    NotFound {
        /// The bound on the heaps.
        max_heap: u64,
        /// Why the search stopped.
        reason: String,
    },
}

/// The quotients of the heaps `≤ n` for `n = 1..=max_heap`, stopping at the first bound whose
/// quotient is not found. `max_l` bounds the representatives tried per generator.
pub fn quotients(game: &Game, max_heap: u64, max_l: u32) -> Result<Vec<Step>, EngineError> {
    quotients_reporting(game, max_heap, max_l, &mut |_| {})
}

/// [`quotients`], calling `found` with each step as soon as it is known (for progress).
pub fn quotients_reporting(
    game: &Game,
    max_heap: u64,
    max_l: u32,
    found: &mut dyn FnMut(&Step),
) -> Result<Vec<Step>, EngineError> {
    quotients_within(game, max_heap, max_l, Limits::default(), found)
}

/// [`quotients_reporting`] within `limits` (smaller ones make a quick attempt, as `solve`
/// makes before it falls back to the search over sums).
pub fn quotients_within(
    game: &Game,
    max_heap: u64,
    max_l: u32,
    limits: Limits,
    found: &mut dyn FnMut(&Step),
) -> Result<Vec<Step>, EngineError> {
    // The one budget, before any work: the rules of every heap up to the largest must be
    // listable within the step limit (a rule with 64 binders, or one ranging over 2^32 values
    // per heap, is refused here with its estimate, not listed until memory runs out).
    crate::value::evaluate::check_request(game, &[max_heap])?;
    let mut sums = Sums::new(game).with_max_sums(limits.max_sums);
    let mut outcomes = Outcomes::new(limits.max_sums);
    let mut steps = Vec::new();
    let mut previous: Option<Quotient> = None;
    for n in 1..=max_heap {
        let step = next(
            &mut sums,
            &mut outcomes,
            n,
            previous.as_ref(),
            max_l,
            &limits,
        )?;
        found(&step);
        match &step {
            Step::Found(q) => {
                previous = Some(q.clone());
                outcomes.known = Some(q.clone());
            }
            Step::NotFound { .. } => {
                steps.push(step);
                break;
            }
        }
        steps.push(step);
    }
    Ok(steps)
}

/// The options of heap `h` as heaps with a move (the others are the identity).
fn options_of(sums: &mut Sums<'_>, h: u64) -> Result<Vec<Vec<u64>>, EngineError> {
    let mut list = Vec::new();
    for option in sums.component_options(&[h])?.iter() {
        let mut heaps = Vec::new();
        for &heap in option.iter() {
            if !sums.component_options(&[heap])?.is_empty() {
                heaps.push(heap);
            }
        }
        list.push(heaps);
    }
    Ok(list)
}

/// The quotient of the heaps `≤ n` from that of the heaps `≤ n − 1`.
fn next(
    sums: &mut Sums<'_>,
    outcomes: &mut Outcomes,
    n: u64,
    previous: Option<&Quotient>,
    max_l: u32,
    limits: &Limits,
) -> Result<Step, EngineError> {
    let mut heaps = previous.map_or_else(Vec::new, |q| q.heaps.clone());
    let new_heap = !sums.component_options(&[n])?.is_empty();
    if new_heap {
        heaps.push(n);
    }
    let mut options = Vec::new();
    for &h in &heaps {
        options.push(options_of(sums, h)?);
    }
    if let Some(q) = previous {
        // Heap n as an element of the previous quotient (or the identity, with no move).
        for x in 0..q.order() {
            let mut candidate = q.clone();
            candidate.max_heap = n;
            if new_heap {
                candidate.heaps = heaps.clone();
                candidate.images.push(x);
            } else if x > 0 {
                break;
            }
            if prove(&candidate, &options, limits)?.is_ok() {
                return Ok(Step::Found(candidate));
            }
            if !new_heap {
                break;
            }
        }
    }
    let mut essential: Vec<usize> = previous.map_or_else(Vec::new, |q| q.essential.clone());
    if new_heap {
        essential.push(heaps.len() - 1);
    }
    let mut reason = String::from("no candidate");
    'sizes: for l in 3..=max_l.max(3) {
        loop {
            let k = essential.len();
            let needed = (2 * l as usize - 1).checked_pow(k as u32);
            if needed.is_none_or(|needed| needed > limits.max_outcomes) {
                reason = format!(
                    "{k} generators with {l} representatives each would need more than {} outcomes of sums",
                    limits.max_outcomes
                );
                break 'sizes;
            }
            let tried = match candidate(sums, outcomes, n, &heaps, &essential, &options, l, limits)
            {
                Err(EngineError::TooManySums { limit, .. }) => Candidate::TooLarge(format!(
                    "the exact outcomes it needs went past the search's {limit} sums"
                )),
                other => other?,
            };
            match tried {
                Candidate::Proved(q) => return Ok(Step::Found(q)),
                Candidate::Failed(why) => {
                    reason = why;
                    break;
                }
                Candidate::Essential(i) => essential.push(i),
                Candidate::TooLarge(why) => {
                    reason = why;
                    break 'sizes;
                }
            }
        }
    }
    Ok(Step::NotFound {
        max_heap: n,
        reason,
    })
}

/// Reduces a multiplicity by the congruence of the module documentation (`L − 2` and 2).
fn reduce(m: u32, l: u32) -> u32 {
    let floor = l - 2;
    if m < l {
        m
    } else {
        floor + (m - floor) % 2
    }
}

/// Every vector of `[0, side)^k`, in lexicographic order.
fn vectors(k: usize, side: u32) -> Vec<Vec<u32>> {
    let mut all = vec![vec![]];
    for _ in 0..k {
        all = all
            .into_iter()
            .flat_map(|v: Vec<u32>| {
                (0..side).map(move |m| {
                    let mut w = v.clone();
                    w.push(m);
                    w
                })
            })
            .collect();
    }
    all
}

/// Exact misère outcomes of sums of heaps, for the candidates' signatures: a memoised
/// recursion on options that stops at the first option that is a P-position (the sum is then
/// an N-position), with every sum of heaps `≤ known.max_heap` read off `known`, the quotient
/// proved for the previous bound (so only sums holding a heap past it are searched; the
/// quotient is exact for every sum of its heaps, see the module documentation).
struct Outcomes {
    /// The quotient proved for the previous bound.
    known: Option<Quotient>,
    /// Outcomes found (true for P), by canonical sum (sorted heaps with a move).
    memo: HashMap<Box<[u64]>, bool, Fast>,
    /// The most sums `memo` may hold ([`Limits::max_sums`]).
    max_sums: usize,
}

impl Outcomes {
    fn new(max_sums: usize) -> Self {
        Outcomes {
            known: None,
            memo: HashMap::default(),
            max_sums,
        }
    }

    /// Whether the canonical sum `sum` (sorted heaps, each with a move) is a misère
    /// P-position.
    fn is_p(&mut self, sums: &mut Sums<'_>, sum: &[u64]) -> Result<bool, EngineError> {
        let Some(&largest) = sum.last() else {
            // No move: the player to move wins in misère play.
            return Ok(false);
        };
        if let Some(q) = &self.known {
            if largest <= q.max_heap {
                return Ok(q.is_p_position(sum).expect("heaps within the quotient"));
            }
        }
        if let Some(&p) = self.memo.get(sum) {
            return Ok(p);
        }
        let mut p = true;
        let mut option: Vec<u64> = Vec::with_capacity(sum.len() + 2);
        'components: for i in 0..sum.len() {
            if i > 0 && sum[i - 1] == sum[i] {
                continue;
            }
            let moves = sums.component_options(&[sum[i]])?;
            for left in moves.iter() {
                option.clear();
                option.extend(sum[..i].iter().chain(&sum[i + 1..]).copied());
                for &part in left.iter() {
                    if !sums.component_options(&[part])?.is_empty() {
                        option.push(part);
                    }
                }
                option.sort_unstable();
                if self.is_p(sums, &option)? {
                    p = false;
                    break 'components;
                }
            }
        }
        if self.memo.len() >= self.max_sums {
            return Err(EngineError::TooManySums {
                limit: self.max_sums,
                bytes: self.max_sums as u64 * super::sums::BYTES_PER_SUM,
            });
        }
        self.memo.insert(sum.into(), p);
        Ok(p)
    }
}

/// The exact misère outcome (true for P) of the sum of `heaps` with these multiplicities,
/// plus the `extra` heaps.
fn outcome(
    sums: &mut Sums<'_>,
    outcomes: &mut Outcomes,
    heaps: &[u64],
    multiplicities: &[u32],
    extra: &[u64],
) -> Result<bool, EngineError> {
    let mut all: Vec<u64> = extra.to_vec();
    for (&h, &m) in heaps.iter().zip(multiplicities) {
        all.extend(std::iter::repeat_n(h, m as usize));
    }
    let sum = sums.canonical(&all)?;
    outcomes.is_p(sums, &sum)
}

enum Candidate {
    Proved(Quotient),
    /// The data or the proof rejected it.
    Failed(String),
    /// This heap is not an element of the candidate: make it a generator.
    Essential(usize),
    /// Past a limit.
    TooLarge(String),
}

/// The candidate quotient over the `essential` heaps with `l` representatives each, proved.
#[allow(clippy::too_many_arguments)]
fn candidate(
    sums: &mut Sums<'_>,
    outcomes: &mut Outcomes,
    n: u64,
    heaps: &[u64],
    essential: &[usize],
    options: &[Vec<Vec<u64>>],
    l: u32,
    limits: &Limits,
) -> Result<Candidate, EngineError> {
    let k = essential.len();
    let dims: Vec<u64> = essential.iter().map(|&i| heaps[i]).collect();
    let reps = vectors(k, l);
    let index_of = |v: &[u32]| v.iter().fold(0usize, |i, &m| i * l as usize + m as usize);
    let signature = |sums: &mut Sums<'_>,
                     outcomes: &mut Outcomes,
                     v: &[u32],
                     extra: &[u64]|
     -> Result<Vec<bool>, EngineError> {
        let mut signature = Vec::with_capacity(reps.len());
        for u in &reps {
            let w: Vec<u32> = v.iter().zip(u).map(|(a, b)| a + b).collect();
            signature.push(outcome(sums, outcomes, &dims, &w, extra)?);
        }
        Ok(signature)
    };
    let mut classes: HashMap<Vec<bool>, usize> = HashMap::new();
    let mut class_of = vec![0usize; reps.len()];
    let mut class_rep: Vec<usize> = Vec::new();
    let mut p_of_class: Vec<bool> = Vec::new();
    for (i, v) in reps.iter().enumerate() {
        let sig = signature(sums, outcomes, v, &[])?;
        let next = classes.len();
        let p = sig[0];
        let class = *classes.entry(sig).or_insert(next);
        if class == next {
            class_rep.push(i);
            p_of_class.push(p);
        }
        class_of[i] = class;
    }
    let order = class_rep.len();
    let mut product = vec![vec![usize::MAX; order]; order];
    for (i, v) in reps.iter().enumerate() {
        for (j, u) in reps.iter().enumerate() {
            let w: Vec<u32> = v.iter().zip(u).map(|(a, b)| a + b).collect();
            let reduced: Vec<u32> = w.iter().map(|&m| reduce(m, l)).collect();
            let class = class_of[index_of(&reduced)];
            let cell = &mut product[class_of[i]][class_of[j]];
            if *cell == usize::MAX {
                *cell = class;
            } else if *cell != class {
                return Ok(Candidate::Failed(format!(
                    "with {l} representatives per generator the product depends on them"
                )));
            }
            if outcome(sums, outcomes, &dims, &w, &[])? != p_of_class[class] {
                return Ok(Candidate::Failed(format!(
                    "with {l} representatives per generator a sum has another outcome than its class"
                )));
            }
        }
    }
    // The other heaps: each must have the signature of an element.
    let mut images = vec![usize::MAX; heaps.len()];
    for (g, &i) in essential.iter().enumerate() {
        let mut e = vec![0u32; k];
        e[g] = 1;
        images[i] = class_of[index_of(&e)];
    }
    for i in 0..heaps.len() {
        if images[i] != usize::MAX {
            continue;
        }
        let sig = signature(sums, outcomes, &vec![0; k], &[heaps[i]])?;
        match classes.get(&sig) {
            Some(&class) => images[i] = class,
            None => return Ok(Candidate::Essential(i)),
        }
    }
    let mut quotient = Quotient {
        max_heap: n,
        heaps: heaps.to_vec(),
        essential: essential.to_vec(),
        elements: Vec::new(),
        p_portion: (0..order).filter(|&c| p_of_class[c]).collect(),
        relations: Vec::new(),
        product,
        images,
        identity: class_of[0],
    };
    match prove(&quotient, options, limits)? {
        Ok(()) => {}
        Err(Refusal::Fails(why)) => {
            return Ok(Candidate::Failed(format!(
                "with {l} representatives per generator: {why}"
            )))
        }
        Err(Refusal::TooLarge(why)) => return Ok(Candidate::TooLarge(why)),
    }
    present(&mut quotient, &reps, &class_of, l);
    Ok(Candidate::Proved(quotient))
}

/// Why a candidate was not proved.
enum Refusal {
    /// A sum breaks the recursion.
    Fails(String),
    /// The proof is past [`Limits::max_proof_states`].
    TooLarge(String),
}

/// Checks the recursion of the module documentation for every sum of the heaps of `quotient`
/// (whose options are `options`).
///
/// The heaps are grouped by their element. What the recursion asks of a sum `G` depends only on
/// its *state*: `Φ(G)` and, for each element `x` of which `G` holds a heap, `Φ(G − h)` for such
/// a heap `h`. When `Φ(G) ∈ P`, every heap `h` that may be present (all of each element held)
/// must have `C_h`: no option `s` with `Φ(G − h)·s ∈ P`; otherwise `G` must be nonempty and some
/// element held must have `¬C_h` for all its heaps (a sum may hold just one heap of each
/// element). Adding a heap of element `x` maps a state to the next one (`Φ(G − h)` for the
/// new heap is the old `Φ(G)`), so a search from the empty sum visits every state there is:
/// finitely many, as `Q` is finite.
fn prove(
    quotient: &Quotient,
    options: &[Vec<Vec<u64>>],
    limits: &Limits,
) -> Result<Result<(), Refusal>, EngineError> {
    // The elements of the heaps, each with its heaps' option elements.
    let mut elements: Vec<usize> = Vec::new();
    let mut members: Vec<Vec<Vec<usize>>> = Vec::new();
    for (i, &x) in quotient.images.iter().enumerate() {
        let option_elements: Vec<usize> = options[i]
            .iter()
            .map(|heaps| {
                quotient
                    .element_of_heaps(heaps)
                    .expect("options are smaller heaps")
            })
            .collect();
        match elements.iter().position(|&y| y == x) {
            Some(c) => members[c].push(option_elements),
            None => {
                elements.push(x);
                members.push(vec![option_elements]);
            }
        }
    }
    let k = elements.len();
    let in_p = |x: usize| quotient.p_portion.contains(&x);
    // For each element class and each possible Φ(G − h): whether every heap of the class has
    // C_h, and whether none has.
    let order = quotient.product.len();
    let mut all_hold = vec![vec![true; order]; k];
    let mut none_holds = vec![vec![true; order]; k];
    for c in 0..k {
        for rest in 0..order {
            for option_elements in &members[c] {
                let holds = !option_elements
                    .iter()
                    .any(|&s| in_p(quotient.product[rest][s]));
                all_hold[c][rest] &= holds;
                none_holds[c][rest] &= !holds;
            }
        }
    }
    const ABSENT: usize = usize::MAX;
    // A state: Φ(G), then Φ(G − h) per element class (ABSENT when G holds none).
    let start: Vec<usize> = std::iter::once(quotient.identity)
        .chain(std::iter::repeat_n(ABSENT, k))
        .collect();
    let mut seen: std::collections::HashSet<Vec<usize>> = std::collections::HashSet::new();
    let mut queue = vec![start.clone()];
    seen.insert(start);
    while let Some(state) = queue.pop() {
        let whole = state[0];
        let present: Vec<usize> = (0..k).filter(|&c| state[c + 1] != ABSENT).collect();
        let consistent = if in_p(whole) {
            !present.is_empty() && present.iter().all(|&c| all_hold[c][state[c + 1]])
        } else {
            present.is_empty() || present.iter().any(|&c| none_holds[c][state[c + 1]])
        };
        if !consistent {
            return Ok(Err(Refusal::Fails(format!(
                "a sum with heaps of {} of its elements breaks the outcome rule",
                present.len()
            ))));
        }
        for (d, &x) in elements.iter().enumerate() {
            let mut next = Vec::with_capacity(k + 1);
            next.push(quotient.product[whole][x]);
            for c in 0..k {
                next.push(if c == d {
                    whole
                } else if state[c + 1] == ABSENT {
                    ABSENT
                } else {
                    quotient.product[state[c + 1]][x]
                });
            }
            if seen.insert(next.clone()) {
                if seen.len() > limits.max_proof_states {
                    return Ok(Err(Refusal::TooLarge(format!(
                        "the proof would visit more than {} states of sums",
                        limits.max_proof_states
                    ))));
                }
                queue.push(next);
            }
        }
    }
    Ok(Ok(()))
}

/// Normal forms and the relations of a presentation over the essential heaps: the words of
/// `[0, l]^k` that are not normal forms but all of whose divisors are.
fn present(quotient: &mut Quotient, reps: &[Vec<u32>], class_of: &[usize], l: u32) {
    let order = quotient.product.len();
    let key = |v: &[u32]| {
        let total: u32 = v.iter().sum();
        (total, v.iter().rev().copied().collect::<Vec<u32>>())
    };
    let mut normal: Vec<Option<Vec<u32>>> = vec![None; order];
    for (i, v) in reps.iter().enumerate() {
        let class = class_of[i];
        if normal[class].as_ref().is_none_or(|n| key(v) < key(n)) {
            normal[class] = Some(v.clone());
        }
    }
    let normal: Vec<Vec<u32>> = normal
        .into_iter()
        .map(|n| n.expect("each class has a representative"))
        .collect();
    let factors: Vec<usize> = quotient
        .essential
        .iter()
        .map(|&i| quotient.images[i])
        .collect();
    let k = factors.len();
    let is_normal = |v: &[u32]| normal[quotient.power_product(&factors, v)] == v;
    let mut relations = Vec::new();
    for v in vectors(k, l + 1) {
        if is_normal(&v) {
            continue;
        }
        let minimal = (0..k).all(|g| {
            if v[g] == 0 {
                return true;
            }
            let mut w = v.clone();
            w[g] -= 1;
            is_normal(&w)
        });
        if minimal {
            let x = quotient.power_product(&factors, &v);
            relations.push((v.clone(), normal[x].clone()));
        }
    }
    relations.sort_by_key(|(v, _)| key(v));
    quotient.elements = normal;
    quotient.relations = relations;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::game;

    fn last(text: &str, max_heap: u64) -> Quotient {
        match quotients(&game(text), max_heap, 6).unwrap().pop().unwrap() {
            Step::Found(q) => q,
            Step::NotFound { reason, .. } => panic!("not found: {reason}"),
        }
    }

    fn words(q: &Quotient, elements: &[usize]) -> Vec<String> {
        let mut words: Vec<String> = elements
            .iter()
            .map(|&x| Quotient::word(&q.elements[x]))
            .collect();
        words.sort();
        words
    }

    #[test]
    fn misere_nim_has_the_tame_quotients() {
        // Plambeck–Siegel 2008, §2 (the tame quotients): misère Nim's heaps ≤ 1 give
        // ⟨a | a² = 1⟩, P = {a}; heaps ≤ 3 give T₂ = ⟨a, b | a² = 1, b³ = b⟩ of order 6 with
        // P = {a, b²}. With heaps ≤ 7 a sum's outcome depends on its XOR (8 values) when some
        // heap is ≥ 2 and on its parity otherwise (Bouton): 8 + 2 = 10 classes.
        let nim = "move take: x in 1..=n => n - x";
        let q1 = last(nim, 1);
        assert_eq!(
            (q1.order(), words(&q1, &q1.p_portion)),
            (2, vec!["a".to_string()])
        );
        let q3 = last(nim, 3);
        assert_eq!(q3.order(), 6);
        assert_eq!(words(&q3, &q3.p_portion), ["a", "b^2"]);
        let relations: Vec<String> = q3
            .relations
            .iter()
            .map(|(w, n)| format!("{} = {}", Quotient::word(w), Quotient::word(n)))
            .collect();
        assert_eq!(relations, ["a^2 = 1", "b^3 = b"]);
        assert_eq!(q3.essential.len(), 2, "heap 3 is ab: {:?}", q3.essential);
        assert_eq!(last(nim, 7).order(), 10);
    }

    #[test]
    fn octal_075_has_plambecks_eight_element_quotient() {
        // Plambeck, "Taming the wild in impartial combinatorial games" (INTEGERS 5, 2005):
        // 0.75 has the quotient ⟨a, b, c | a² = 1, b³ = b, bc = ab, c² = b²⟩ of order 8,
        // P = {a, b²}, with a, b, c the heaps 1, 2 and 5.
        let q = last("octal 0.75", 12);
        assert_eq!(q.order(), 8);
        assert_eq!(words(&q, &q.p_portion), ["a", "b^2"]);
        let generators: Vec<u64> = q.essential.iter().map(|&i| q.heaps[i]).collect();
        assert_eq!(generators, [1, 2, 5]);
        let mut relations: Vec<String> = q
            .relations
            .iter()
            .map(|(w, n)| format!("{} = {}", Quotient::word(w), Quotient::word(n)))
            .collect();
        relations.sort();
        assert_eq!(relations, ["a^2 = 1", "b^3 = b", "bc = ab", "c^2 = b^2"]);
    }

    #[test]
    fn the_quotient_decides_sums_as_the_search_does() {
        for text in [
            "octal 0.77",
            "octal 0.75",
            "subtraction {1, 2, 3}",
            "octal 0.07",
        ] {
            let g = game(text);
            let q = last(text, 6);
            let mut sums = Sums::new(&g);
            // Every sum of up to four heaps of 1..=6.
            for a in 0..=6u64 {
                for b in a..=6 {
                    for c in b..=6 {
                        for d in c..=6 {
                            let heaps = [a, b, c, d];
                            let sum = sums.canonical(&heaps).unwrap();
                            let p = sums.value(&sum).unwrap().genus.misere() == 0;
                            assert_eq!(q.is_p_position(&heaps), Some(p), "{text}: {heaps:?}");
                        }
                    }
                }
            }
            assert_eq!(q.is_p_position(&[7]), None);
        }
    }
}
