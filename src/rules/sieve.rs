//! The sets a binder may range over besides `lo..=hi`: `divisors(x)`, `primes(lo, hi)`,
//! `prime_powers(lo, hi)` and `bits(m)` ([`SetFn`]), listed by one implementation
//! ([`NumberCache::values`]) that both evaluators call — the compiled
//! [`super::Program`] (one cache per program, shared by its clones and threads) and the
//! tree-walking interpreter of the tests.
//!
//! **The cache.** A smallest-prime-factor sieve of `0..=L` with the sorted lists of the primes
//! and prime powers up to `L`, built lazily: when a set needs numbers past `L`, the sieve is
//! rebuilt to at least twice `L` (linear sieve, `O(L)`), up to [`SIEVE_LIMIT`]. The tables are
//! held behind an `Arc` that a listing clones, so that no lock is held while the values are
//! visited (a nested binder may grow the sieve meanwhile).
//!
//! **Cost per use**, `k` the number of values listed:
//! * `divisors(x)`, `x ≤ SIEVE_LIMIT`: factoring by the sieve (`O(log x)`), then the divisors
//!   from the factorisation, sorted: `O(k log k)`, with `k ≤ 1344` for `x < 2^32`.
//!   Past the limit, factoring is by trial division by the primes up to `min(√x, 2^16)`,
//!   stopping as soon as the cofactor is 1 or prime (Miller–Rabin,
//!   [`super::arith::is_prime`]); a cofactor that is not prime is split by Pollard's rho
//!   method ([`super::arith::pollard_rho`], about `x^{1/4}` steps: at most some 10^5 near
//!   2^63, milliseconds), and nothing is allocated but the divisors.
//! * `primes(lo, hi)`, `prime_powers(lo, hi)`: a binary search for `lo` in the sorted list,
//!   then `O(k)`. Past the limit each number is tested on its own ([`super::arith::is_prime`],
//!   [`super::arith::is_prime_power`]); at most [`MAX_SCAN`] such numbers per use, else an error.
//! * `bits(m)`: `O(k)`, `k = popcount(m) ≤ 63`.

use std::sync::{Arc, RwLock};

use super::arith::{is_prime, is_prime_power};
use super::checked::FaultKind;

/// The largest number the sieve covers (2^24: at most 64 MiB of smallest prime factors, plus
/// the lists of the primes and prime powers, about 8 MiB).
pub const SIEVE_LIMIT: u32 = 1 << 24;
/// The most numbers past [`SIEVE_LIMIT`] one `primes` or `prime_powers` use may test.
pub const MAX_SCAN: i64 = 1 << 24;
/// The first size the sieve is built to.
const FIRST_LIMIT: u32 = 1 << 10;

/// A set function of binders: `d in divisors(n)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetFn {
    /// `divisors(x)`: the positive divisors of `x`, ascending; none for `x ≤ 0`.
    Divisors,
    /// `primes(lo, hi)`: the primes `p` with `lo ≤ p ≤ hi` (both ends included), ascending.
    Primes,
    /// `prime_powers(lo, hi)`: the `p^k` (`p` prime, `k ≥ 1`, so not 1) with
    /// `lo ≤ p^k ≤ hi`, ascending.
    PrimePowers,
    /// `bits(m)`: the indices `i` of the one bits of `m ≥ 0`, ascending (`m < 0` is an error).
    Bits,
}

impl SetFn {
    /// Every set function, in the order of the documentation.
    pub const ALL: [SetFn; 4] = [
        SetFn::Divisors,
        SetFn::Primes,
        SetFn::PrimePowers,
        SetFn::Bits,
    ];

    /// The name in rules files.
    pub fn name(self) -> &'static str {
        match self {
            SetFn::Divisors => "divisors",
            SetFn::Primes => "primes",
            SetFn::PrimePowers => "prime_powers",
            SetFn::Bits => "bits",
        }
    }

    /// The set function called `name`, if any.
    pub fn from_name(name: &str) -> Option<SetFn> {
        SetFn::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The number of arguments.
    pub fn arity(self) -> usize {
        match self {
            SetFn::Divisors | SetFn::Bits => 1,
            SetFn::Primes | SetFn::PrimePowers => 2,
        }
    }

    /// A binder over the set, for help messages.
    pub fn example(self) -> &'static str {
        match self {
            SetFn::Divisors => "d in divisors(n)",
            SetFn::Primes => "p in primes(2, n)",
            SetFn::PrimePowers => "q in prime_powers(2, n)",
            SetFn::Bits => "i in bits(n)",
        }
    }

    /// A rough number of values for `args` without listing them, for the up-front estimate
    /// of a table's work, and a value inside the set's span for the binders after it:
    /// `ln x` divisors (taking `x` itself), `(hi − lo + 1) / ln hi` primes or prime powers,
    /// `popcount(m)` bits (exact). `None` for an empty set or an error.
    pub fn estimate(self, args: &[i64], pick: u64) -> Option<(f64, i64)> {
        match (self, args) {
            (SetFn::Divisors, &[x]) if x >= 1 => Some(((x as f64).ln().max(1.0), x)),
            (SetFn::Primes | SetFn::PrimePowers, &[lo, hi]) => {
                let lo = lo.max(2);
                if lo > hi {
                    return None;
                }
                let span = (i128::from(hi) - i128::from(lo) + 1) as f64;
                let len = (span / (hi as f64).ln().max(1.0)).max(1.0);
                let value = lo + (u128::from(pick) % (span as u128).max(1)) as i64;
                Some((len, value))
            }
            (SetFn::Bits, &[m]) if m > 0 => {
                let ones = m.count_ones();
                let mut rest = m as u64;
                for _ in 0..pick % u64::from(ones) {
                    rest &= rest - 1;
                }
                Some((f64::from(ones), i64::from(rest.trailing_zeros())))
            }
            _ => None,
        }
    }
}

/// The sieve and the sorted lists of primes and prime powers up to `limit`.
#[derive(Debug, Default)]
struct Tables {
    /// Every number in `0..=limit` is covered.
    limit: u32,
    /// `spf[x]`: the smallest prime factor of `x ≥ 2`.
    spf: Vec<u32>,
    primes: Vec<u32>,
    prime_powers: Vec<u32>,
}

impl Tables {
    /// The linear sieve of `0..=limit` (each composite crossed out once, by its smallest
    /// prime factor).
    fn build(limit: u32) -> Tables {
        let len = limit as usize + 1;
        let mut spf = vec![0u32; len];
        let mut primes = Vec::new();
        for x in 2..len {
            if spf[x] == 0 {
                spf[x] = x as u32;
                primes.push(x as u32);
            }
            let s = spf[x];
            for &p in &primes {
                let multiple = x * p as usize;
                if p > s || multiple >= len {
                    break;
                }
                spf[multiple] = p;
            }
        }
        let mut prime_powers = Vec::with_capacity(primes.len() + primes.len() / 8);
        for &p in &primes {
            let mut q = u64::from(p);
            while q <= u64::from(limit) {
                prime_powers.push(q as u32);
                q *= u64::from(p);
            }
        }
        prime_powers.sort_unstable();
        Tables {
            limit,
            spf,
            primes,
            prime_powers,
        }
    }
}

/// The lazily grown sieve of one program (see the module documentation).
#[derive(Debug, Default)]
pub struct NumberCache {
    tables: RwLock<Arc<Tables>>,
}

impl NumberCache {
    /// An empty cache (nothing is sieved until a set needs it).
    pub fn new() -> Self {
        Self::default()
    }

    /// The largest number sieved so far (0 before any use).
    pub fn limit(&self) -> u32 {
        self.read().limit
    }

    fn read(&self) -> Arc<Tables> {
        Arc::clone(&self.tables.read().unwrap_or_else(|e| e.into_inner()))
    }

    /// Tables covering `0..=min(x, SIEVE_LIMIT)`, grown (to at least twice the old limit) if
    /// needed.
    fn covering(&self, x: i64) -> Arc<Tables> {
        let want = x.clamp(0, i64::from(SIEVE_LIMIT)) as u32;
        let tables = self.read();
        if tables.limit >= want {
            return tables;
        }
        let mut guard = self.tables.write().unwrap_or_else(|e| e.into_inner());
        if guard.limit < want {
            let doubled = guard.limit.saturating_mul(2).max(FIRST_LIMIT);
            let limit = want.max(doubled).min(SIEVE_LIMIT);
            *guard = Arc::new(Tables::build(limit));
        }
        Arc::clone(&guard)
    }

    /// The values of `set` at `args` (as many as [`SetFn::arity`]), ascending. Errors:
    /// `bits` of a negative number, and a `primes` or `prime_powers` range with more than
    /// [`MAX_SCAN`] numbers past [`SIEVE_LIMIT`].
    pub fn values(&self, set: SetFn, args: &[i64]) -> Result<SetValues, FaultKind> {
        let inner = match (set, args) {
            (SetFn::Divisors, &[x]) => Inner::List(self.divisors(x).into_iter()),
            (SetFn::Bits, &[m]) => {
                let m = u64::try_from(m)
                    .map_err(|_| FaultKind::Domain("`bits` of a negative number"))?;
                Inner::Bits(m)
            }
            (SetFn::Primes | SetFn::PrimePowers, &[lo, hi]) => {
                let lo = lo.max(2);
                let powers = set == SetFn::PrimePowers;
                if lo > hi {
                    return Ok(SetValues(Inner::List(Vec::new().into_iter())));
                }
                let limit = i64::from(SIEVE_LIMIT);
                let scan_from = lo.max(limit + 1);
                if hi >= scan_from && hi - scan_from >= MAX_SCAN {
                    return Err(FaultKind::Domain(if powers {
                        "`prime_powers(lo, hi)` may test at most 2^24 numbers past 2^24: narrow the range"
                    } else {
                        "`primes(lo, hi)` may test at most 2^24 numbers past 2^24: narrow the range"
                    }));
                }
                let (tables, next, end) = if lo <= limit {
                    let tables = self.covering(hi);
                    let list = if powers {
                        &tables.prime_powers
                    } else {
                        &tables.primes
                    };
                    let next = list.partition_point(|&p| i64::from(p) < lo);
                    let end = list.partition_point(|&p| i64::from(p) <= hi);
                    (Some(tables), next, end)
                } else {
                    (None, 0, 0)
                };
                Inner::Sorted {
                    tables,
                    powers,
                    next,
                    end,
                    scan: scan_from..=hi,
                }
            }
            _ => unreachable!("the checker fixes the arity of `{}`", set.name()),
        };
        Ok(SetValues(inner))
    }

    /// The positive divisors of `x`, ascending (none for `x ≤ 0`).
    fn divisors(&self, x: i64) -> Vec<i64> {
        if x <= 0 {
            return Vec::new();
        }
        let factors = self.factor(x as u64);
        let count: usize = factors.iter().map(|&(_, e)| e as usize + 1).product();
        let mut out = Vec::with_capacity(count);
        out.push(1i64);
        for (p, e) in factors {
            let len = out.len();
            let mut power = 1i64;
            for _ in 0..e {
                // Every p^j · d divides x, so it fits.
                power *= p as i64;
                for i in 0..len {
                    out.push(out[i] * power);
                }
            }
        }
        out.sort_unstable();
        out
    }

    /// The prime factorisation of `x ≥ 1`: `(p, e)` with `p` ascending.
    fn factor(&self, x: u64) -> Vec<(u64, u32)> {
        let mut factors = Vec::new();
        let mut push = |p: u64, r: &mut u64| {
            let mut e = 0;
            while r.is_multiple_of(p) {
                *r /= p;
                e += 1;
            }
            factors.push((p, e));
        };
        let mut r = x;
        if x <= u64::from(SIEVE_LIMIT) {
            let tables = self.covering(x as i64);
            while r > 1 {
                let p = u64::from(tables.spf[r as usize]);
                push(p, &mut r);
            }
            return factors;
        }
        if is_prime(x as i64) {
            return vec![(x, 1)];
        }
        // Trial division by the small primes only; larger factors by Pollard's rho below.
        let tables = self.covering(x.isqrt().min(TRIAL_LIMIT) as i64);
        for &p in &tables.primes {
            let p = u64::from(p);
            if p * p > r || p > TRIAL_LIMIT {
                break;
            }
            if r.is_multiple_of(p) {
                push(p, &mut r);
                if r > 1 && is_prime(r as i64) {
                    break;
                }
            }
        }
        // Past the sieved primes: a cofactor that is not prime has two factors above them,
        // split by Pollard's rho method (about r^{1/4} steps, not the r^{1/2} of trial
        // division: 10^9 + 7 times 10^9 + 9 in milliseconds).
        let mut pending = vec![r];
        while let Some(m) = pending.pop() {
            if m == 1 {
                continue;
            }
            if is_prime(m as i64) {
                match factors.iter_mut().find(|(p, _)| *p == m) {
                    Some((_, e)) => *e += 1,
                    None => factors.push((m, 1)),
                }
                continue;
            }
            let d = crate::rules::arith::pollard_rho(m);
            pending.push(d);
            pending.push(m / d);
        }
        factors.sort_unstable();
        factors
    }
}

/// The primes `divisors` tries by trial division past the sieve's range before Pollard's rho.
const TRIAL_LIMIT: u64 = 1 << 16;

/// The values of a set binder at one position, ascending ([`NumberCache::values`]).
#[derive(Debug)]
pub struct SetValues(Inner);

#[derive(Debug)]
enum Inner {
    List(std::vec::IntoIter<i64>),
    Bits(u64),
    /// `list[next..end]` of the sieved primes or prime powers, then the numbers of `scan`
    /// (past the sieve) that are primes or prime powers.
    Sorted {
        tables: Option<Arc<Tables>>,
        powers: bool,
        next: usize,
        end: usize,
        scan: std::ops::RangeInclusive<i64>,
    },
}

impl Iterator for SetValues {
    type Item = i64;

    fn next(&mut self) -> Option<i64> {
        match &mut self.0 {
            Inner::List(values) => values.next(),
            Inner::Bits(m) => {
                if *m == 0 {
                    return None;
                }
                let i = m.trailing_zeros();
                *m &= *m - 1;
                Some(i64::from(i))
            }
            Inner::Sorted {
                tables,
                powers,
                next,
                end,
                scan,
            } => {
                if *next < *end {
                    let tables = tables.as_ref().expect("a sieved part has its tables");
                    let list = if *powers {
                        &tables.prime_powers
                    } else {
                        &tables.primes
                    };
                    *next += 1;
                    return Some(i64::from(list[*next - 1]));
                }
                let test = if *powers { is_prime_power } else { is_prime };
                scan.find(|&c| test(c))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn list(cache: &NumberCache, set: SetFn, args: &[i64]) -> Vec<i64> {
        cache.values(set, args).unwrap().collect()
    }

    fn naive_divisors(x: i64) -> Vec<i64> {
        (1..=x.max(0)).filter(|d| x % d == 0).collect()
    }

    fn trial_prime(x: i64) -> bool {
        x >= 2 && (2..).take_while(|d| d * d <= x).all(|d| x % d != 0)
    }

    fn naive_prime_power(x: i64) -> bool {
        if x < 2 {
            return false;
        }
        let p = (2..=x).find(|d| x % d == 0).unwrap();
        let mut y = x;
        while y % p == 0 {
            y /= p;
        }
        y == 1
    }

    #[test]
    fn small_sets() {
        let cache = NumberCache::new();
        assert_eq!(list(&cache, SetFn::Divisors, &[12]), [1, 2, 3, 4, 6, 12]);
        assert_eq!(list(&cache, SetFn::Divisors, &[1]), [1]);
        assert!(list(&cache, SetFn::Divisors, &[0]).is_empty());
        assert!(list(&cache, SetFn::Divisors, &[-6]).is_empty());
        assert_eq!(
            list(&cache, SetFn::Primes, &[1, 20]),
            [2, 3, 5, 7, 11, 13, 17, 19]
        );
        assert_eq!(list(&cache, SetFn::Primes, &[7, 7]), [7]);
        assert!(list(&cache, SetFn::Primes, &[8, 10]).is_empty());
        assert!(list(&cache, SetFn::Primes, &[-5, 1]).is_empty());
        assert_eq!(
            list(&cache, SetFn::PrimePowers, &[1, 16]),
            [2, 3, 4, 5, 7, 8, 9, 11, 13, 16]
        );
        assert_eq!(list(&cache, SetFn::Bits, &[0b1011_0000]), [4, 5, 7]);
        assert!(list(&cache, SetFn::Bits, &[0]).is_empty());
        assert_eq!(
            list(&cache, SetFn::Bits, &[i64::MAX]),
            (0..63).collect::<Vec<_>>()
        );
        assert!(matches!(
            cache.values(SetFn::Bits, &[-1]),
            Err(FaultKind::Domain(_))
        ));
        // Only as much is sieved as asked, doubling.
        assert!(cache.limit() <= 2 * FIRST_LIMIT);
    }

    #[test]
    fn products_of_two_primes_near_ten_to_the_nine_split_by_pollards_rho() {
        let cache = NumberCache::new();
        let (p, q) = (1_000_000_007i64, 1_000_000_009i64);
        for n in 1..=9i64 {
            let d = list(&cache, SetFn::Divisors, &[n * p * q]);
            // The divisors of n, each times 1, p, q and pq: checked against trial division of
            // n alone.
            let mut want: Vec<i64> = naive_divisors(n)
                .into_iter()
                .flat_map(|a| [a, a * p, a * q, a * p * q])
                .collect();
            want.sort_unstable();
            assert_eq!(d, want, "n = {n}");
        }
        // Three factors past 2^16: 65537 · 65539 · 65543 (each prime).
        let (a, b, c) = (65_537i64, 65_539i64, 65_543i64);
        assert!(trial_prime(a) && trial_prime(b) && trial_prime(c));
        assert_eq!(
            list(&cache, SetFn::Divisors, &[a * b * c]),
            [1, a, b, c, a * b, a * c, b * c, a * b * c]
        );
    }

    #[test]
    fn large_arguments_do_not_grow_the_sieve_past_its_limit() {
        let cache = NumberCache::new();
        // 10^15 = 2^15 · 5^15: 256 divisors, by trial division by the primes up to 2^24.
        let d = list(&cache, SetFn::Divisors, &[1_000_000_000_000_000]);
        assert_eq!(d.len(), 256);
        assert_eq!((d[0], d[255]), (1, 1_000_000_000_000_000));
        assert!(cache.limit() <= SIEVE_LIMIT);
        // A prime near 2^63 and a semiprime with both factors past the sieve.
        let p = 9_223_372_036_854_775_783;
        assert_eq!(list(&cache, SetFn::Divisors, &[p]), [1, p]);
        let (a, b) = (16_777_259i64, 16_777_289i64); // primes just past 2^24
        assert!(trial_prime(a) && trial_prime(b));
        assert_eq!(list(&cache, SetFn::Divisors, &[a * b]), [1, a, b, a * b]);
        assert_eq!(
            list(&cache, SetFn::Divisors, &[i64::MAX]).len(),
            // 7² · 73 · 127 · 337 · 92737 · 649657
            3 * 2 * 2 * 2 * 2 * 2
        );
        // Primes around the sieve's limit: the sieved part, then tested one by one.
        let lo = i64::from(SIEVE_LIMIT) - 100;
        let hi = i64::from(SIEVE_LIMIT) + 100;
        let want: Vec<i64> = (lo..=hi).filter(|&x| trial_prime(x)).collect();
        assert_eq!(list(&cache, SetFn::Primes, &[lo, hi]), want);
        let want: Vec<i64> = (lo..=hi).filter(|&x| naive_prime_power(x)).collect();
        assert_eq!(list(&cache, SetFn::PrimePowers, &[lo, hi]), want);
        // Far ranges are refused before any work.
        assert!(matches!(
            cache.values(SetFn::Primes, &[1, i64::MAX]),
            Err(FaultKind::Domain(_))
        ));
        let top = list(&cache, SetFn::Primes, &[i64::MAX - 1000, i64::MAX]);
        assert_eq!(top.last(), Some(&p));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn divisors_match_a_trial_loop(x in -20i64..20_000) {
            let cache = NumberCache::new();
            prop_assert_eq!(list(&cache, SetFn::Divisors, &[x]), naive_divisors(x));
        }

        #[test]
        fn divisors_past_the_sieve_divide(x in (1i64 << 24)..(1i64 << 40)) {
            let cache = NumberCache::new();
            let d = list(&cache, SetFn::Divisors, &[x]);
            prop_assert!(d.windows(2).all(|w| w[0] < w[1]));
            prop_assert!(d.iter().all(|v| x % v == 0));
            // Every divisor pairs with its cofactor.
            prop_assert!(d.iter().zip(d.iter().rev()).all(|(a, b)| a * b == x));
            let small: Vec<i64> = (1..=x.isqrt()).filter(|v| x % v == 0).collect();
            prop_assert_eq!(&d[..small.len()], &small[..]);
        }

        #[test]
        fn primes_match_trial_division(lo in -10i64..5000, len in 0i64..3000) {
            let cache = NumberCache::new();
            let hi = lo + len;
            let want: Vec<i64> = (lo..=hi).filter(|&x| trial_prime(x)).collect();
            prop_assert_eq!(list(&cache, SetFn::Primes, &[lo, hi]), want);
            let want: Vec<i64> = (lo..=hi).filter(|&x| naive_prime_power(x)).collect();
            prop_assert_eq!(list(&cache, SetFn::PrimePowers, &[lo, hi]), want);
        }

        #[test]
        fn bits_match_shifting(m in 0i64..=i64::MAX) {
            let cache = NumberCache::new();
            let want: Vec<i64> = (0..63).filter(|i| (m >> i) & 1 == 1).collect();
            prop_assert_eq!(list(&cache, SetFn::Bits, &[m]), want);
        }
    }
}
