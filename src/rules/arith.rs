//! The number-theory built-ins of the rules language (`gcd`, `lcm`, `isqrt`, `ilog2`,
//! `floor_div`, `v_p`, `is_prime`, `is_prime_power`): pure functions on `i64`, shared by the
//! tree-walking evaluator ([`super::checked::CExpr::eval`]) and the compiled program
//! ([`super::program`]) so that there is one copy of each algorithm.
//!
//! Every function is exact for all `i64` arguments: a result that does not fit is
//! [`FaultKind::Overflow`], an argument outside the function's domain [`FaultKind::Domain`].

use super::ast::BinaryOp;
use super::checked::{apply, FaultKind};

/// A number-theory built-in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Function {
    /// `gcd(a, b)`: the greatest common divisor, ≥ 0 (`gcd(0, 0) = 0`).
    Gcd,
    /// `lcm(a, b)`: the least common multiple, ≥ 0 (0 if either is 0).
    Lcm,
    /// `isqrt(x)`: ⌊√x⌋ for `x ≥ 0`.
    Isqrt,
    /// `ilog2(x)`: ⌊log₂ x⌋ for `x ≥ 1`.
    Ilog2,
    /// `floor_div(a, b)`: `a / b` rounded toward −∞ (the same as `/`).
    FloorDiv,
    /// `v_p(x, p)`: how many times `p` divides `x` (for `x ≥ 1`, `p ≥ 2`).
    Vp,
    /// `is_prime(x)`: the condition that `x` is prime (1 or 0 at run time).
    IsPrime,
    /// `is_prime_power(x)`: the condition `x = p^k` with `p` prime and `k ≥ 1` (so not 1).
    IsPrimePower,
}

impl Function {
    /// Every function, in the order of the documentation.
    pub const ALL: [Function; 8] = [
        Function::Gcd,
        Function::Lcm,
        Function::Isqrt,
        Function::Ilog2,
        Function::FloorDiv,
        Function::Vp,
        Function::IsPrime,
        Function::IsPrimePower,
    ];

    /// The name in rules files.
    pub fn name(self) -> &'static str {
        match self {
            Function::Gcd => "gcd",
            Function::Lcm => "lcm",
            Function::Isqrt => "isqrt",
            Function::Ilog2 => "ilog2",
            Function::FloorDiv => "floor_div",
            Function::Vp => "v_p",
            Function::IsPrime => "is_prime",
            Function::IsPrimePower => "is_prime_power",
        }
    }

    /// The function called `name`, if any.
    pub fn from_name(name: &str) -> Option<Function> {
        Function::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The number of arguments (1 or 2).
    pub fn arity(self) -> usize {
        match self {
            Function::Gcd | Function::Lcm | Function::FloorDiv | Function::Vp => 2,
            Function::Isqrt | Function::Ilog2 | Function::IsPrime | Function::IsPrimePower => 1,
        }
    }

    /// True for `is_prime` and `is_prime_power`, which are conditions (1 or 0 at run time).
    pub fn is_predicate(self) -> bool {
        matches!(self, Function::IsPrime | Function::IsPrimePower)
    }

    /// A call, for help messages.
    pub fn example(self) -> &'static str {
        match self {
            Function::Gcd => "gcd(n, k)",
            Function::Lcm => "lcm(n, k)",
            Function::Isqrt => "isqrt(n)",
            Function::Ilog2 => "ilog2(n)",
            Function::FloorDiv => "floor_div(n, 2)",
            Function::Vp => "v_p(n, 2)",
            Function::IsPrime => "is_prime(x)",
            Function::IsPrimePower => "is_prime_power(x)",
        }
    }

    /// Applies the function to `args` (of length [`Function::arity`]).
    pub fn apply(self, args: &[i64]) -> Result<i64, FaultKind> {
        match (self, args) {
            (Function::Gcd, &[a, b]) => gcd(a, b),
            (Function::Lcm, &[a, b]) => lcm(a, b),
            (Function::Isqrt, &[x]) => isqrt(x),
            (Function::Ilog2, &[x]) => ilog2(x),
            (Function::FloorDiv, &[a, b]) => floor_div(a, b),
            (Function::Vp, &[x, p]) => v_p(x, p),
            (Function::IsPrime, &[x]) => Ok(i64::from(is_prime(x))),
            (Function::IsPrimePower, &[x]) => Ok(i64::from(is_prime_power(x))),
            _ => unreachable!("the checker fixes the arity of `{}`", self.name()),
        }
    }
}

/// `gcd(a, b)` ≥ 0 by Euclid's algorithm on the absolute values; overflow only for
/// `gcd(i64::MIN, 0)` and `gcd(i64::MIN, i64::MIN)` (2^63).
pub fn gcd(a: i64, b: i64) -> Result<i64, FaultKind> {
    i64::try_from(gcd_u64(a.unsigned_abs(), b.unsigned_abs())).map_err(|_| FaultKind::Overflow)
}

/// `gcd(a, b)` of unsigned numbers by Euclid's algorithm (`gcd(0, 0) = 0`).
pub fn gcd_u64(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// `lcm(a, b)` = |a| / gcd · |b| ≥ 0 (0 if either is 0); dividing first keeps the
/// intermediate no larger than the result, so overflow means the result does not fit.
pub fn lcm(a: i64, b: i64) -> Result<i64, FaultKind> {
    if a == 0 || b == 0 {
        return Ok(0);
    }
    let (a, b) = (a.unsigned_abs(), b.unsigned_abs());
    (a / gcd_u64(a, b))
        .checked_mul(b)
        .and_then(|l| i64::try_from(l).ok())
        .ok_or(FaultKind::Overflow)
}

/// ⌊√x⌋ for `x ≥ 0`, by the standard library's integer square root (exact: no floating point).
pub fn isqrt(x: i64) -> Result<i64, FaultKind> {
    if x < 0 {
        return Err(FaultKind::Domain("`isqrt` of a negative number"));
    }
    Ok(x.isqrt())
}

/// ⌊log₂ x⌋ for `x ≥ 1`: the index of the highest one bit.
pub fn ilog2(x: i64) -> Result<i64, FaultKind> {
    if x < 1 {
        return Err(FaultKind::Domain("`ilog2` of a number below 1"));
    }
    Ok(i64::from(x.ilog2()))
}

/// `a / b` rounded toward −∞: the language's `/`, spelt out for readers used to C's truncation.
pub fn floor_div(a: i64, b: i64) -> Result<i64, FaultKind> {
    apply(BinaryOp::Div, a, b)
}

/// The exponent of `p` in `x` (the p-adic valuation for prime `p`): the largest `k` with
/// `p^k | x`, for `x ≥ 1` and `p ≥ 2` (for `x = 0` it would be infinite).
pub fn v_p(x: i64, p: i64) -> Result<i64, FaultKind> {
    if x < 1 {
        return Err(FaultKind::Domain("`v_p(x, p)` needs x >= 1"));
    }
    if p < 2 {
        return Err(FaultKind::Domain("`v_p(x, p)` needs p >= 2"));
    }
    let (mut x, mut k) = (x, 0);
    while x % p == 0 {
        x /= p;
        k += 1;
    }
    Ok(k)
}

/// `a * b mod m` without overflow (through `u128`).
fn mul_mod(a: u64, b: u64, m: u64) -> u64 {
    ((u128::from(a) * u128::from(b)) % u128::from(m)) as u64
}

fn pow_mod(mut base: u64, mut exp: u64, m: u64) -> u64 {
    let mut result = 1 % m;
    base %= m;
    while exp > 0 {
        if exp & 1 == 1 {
            result = mul_mod(result, base, m);
        }
        base = mul_mod(base, base, m);
        exp >>= 1;
    }
    result
}

/// A factor `d` of the composite `n` with `1 < d < n`, by Pollard's rho method with Brent's
/// cycle finding (Brent, "An improved Monte Carlo factorization algorithm", BIT 1980):
/// `x ↦ x² + c mod n` for `c = 1, 2, …` until one splits `n`, about `n^{1/4}` steps for the
/// smallest prime factor. `n` must be composite; even `n` gives 2.
pub fn pollard_rho(n: u64) -> u64 {
    if n.is_multiple_of(2) {
        return 2;
    }
    const BATCH: u64 = 128;
    for c in 1..n {
        let f = |x: u64| (mul_mod(x, x, n) + c) % n;
        let (mut y, mut r, mut q, mut g) = (2u64, 1u64, 1u64, 1u64);
        let (mut x, mut ys) = (y, y);
        while g == 1 {
            x = y;
            for _ in 0..r {
                y = f(y);
            }
            let mut k = 0;
            while k < r && g == 1 {
                ys = y;
                for _ in 0..BATCH.min(r - k) {
                    y = f(y);
                    q = mul_mod(q, x.abs_diff(y), n);
                }
                g = gcd_u64(q, n);
                k += BATCH;
            }
            r *= 2;
        }
        if g == n {
            // The batch overshot: step back one value at a time.
            loop {
                ys = f(ys);
                g = gcd_u64(x.abs_diff(ys), n);
                if g > 1 {
                    break;
                }
            }
        }
        if g != n {
            return g;
        }
    }
    n
}

/// Whether `x` is prime (negative numbers, 0 and 1 are not).
///
/// Trial division by the primes up to 37 (and by odd numbers below 2^16), then the Miller–Rabin test with the bases
/// {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37}, which is deterministic for every
/// n < 3.3·10^24 (Sorenson and Webster, "Strong pseudoprimes to twelve prime bases", 2017),
/// so in particular for every `i64`.
pub fn is_prime(x: i64) -> bool {
    const BASES: [u64; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];
    let Ok(n) = u64::try_from(x) else {
        return false;
    };
    if n < 2 {
        return false;
    }
    for p in BASES {
        if n % p == 0 {
            return n == p;
        }
    }
    // Below 2^16, trial division by odd numbers up to √n (at most 128) is cheaper.
    if n < 1 << 16 {
        return (41..)
            .step_by(2)
            .take_while(|d| d * d <= n)
            .all(|d| n % d != 0);
    }
    // n is odd and > 37: n − 1 = d · 2^s with d odd.
    let s = (n - 1).trailing_zeros();
    let d = (n - 1) >> s;
    'bases: for a in BASES {
        let mut y = pow_mod(a, d, n);
        if y == 1 || y == n - 1 {
            continue;
        }
        for _ in 1..s {
            y = mul_mod(y, y, n);
            if y == n - 1 {
                continue 'bases;
            }
        }
        return false;
    }
    true
}

/// ⌊x^(1/k)⌋ for `x ≥ 0` and `k ≥ 2`: a floating-point estimate corrected by exact
/// integer powers, so rounding in the estimate cannot make it wrong.
fn integer_root(x: u64, k: u32) -> u64 {
    let fits = |r: u64| r.checked_pow(k).is_some_and(|v| v <= x);
    let mut r = (x as f64).powf(1.0 / f64::from(k)) as u64;
    while r > 0 && !fits(r) {
        r -= 1;
    }
    while fits(r + 1) {
        r += 1;
    }
    r
}

/// Whether `x = p^k` for a prime `p` and `k ≥ 1`. 1 = p^0 is *not* a prime power here (write
/// `x == 1 || is_prime_power(x)` to include it).
///
/// `x` is prime, or `x = r^k` for some `2 ≤ k ≤ 62` with `r` an exact `k`-th root that is prime
/// (a prime power's exponent is below 63 since `x < 2^63`).
pub fn is_prime_power(x: i64) -> bool {
    if x < 2 {
        return false;
    }
    if is_prime(x) {
        return true;
    }
    let n = x as u64;
    (2..=n.ilog2()).any(|k| {
        let r = integer_root(n, k);
        r.pow(k) == n && is_prime(r as i64)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const M61: i64 = (1 << 61) - 1;

    #[test]
    fn gcd_and_lcm() {
        assert_eq!(gcd(12, 18), Ok(6));
        assert_eq!(gcd(-12, 18), Ok(6));
        assert_eq!(gcd(0, 0), Ok(0));
        assert_eq!(gcd(0, -5), Ok(5));
        assert_eq!(
            gcd(i64::MAX, M61),
            Ok(gcd_u64(i64::MAX as u64, M61 as u64) as i64)
        );
        assert_eq!(gcd(i64::MIN, 6), Ok(2));
        assert_eq!(gcd(i64::MIN, 0), Err(FaultKind::Overflow));
        assert_eq!(lcm(4, 6), Ok(12));
        assert_eq!(lcm(-4, 6), Ok(12));
        assert_eq!(lcm(0, 7), Ok(0));
        assert_eq!(lcm(i64::MAX, 1), Ok(i64::MAX));
        assert_eq!(lcm(M61, M61), Ok(M61));
        assert_eq!(lcm(M61, M61 - 1), Err(FaultKind::Overflow));
        assert_eq!(lcm(i64::MIN, 1), Err(FaultKind::Overflow));
    }

    #[test]
    fn isqrt_and_ilog2() {
        assert_eq!(isqrt(0), Ok(0));
        assert_eq!(isqrt(1), Ok(1));
        assert_eq!(isqrt(15), Ok(3));
        assert_eq!(isqrt(16), Ok(4));
        assert_eq!(isqrt(i64::MAX), Ok(3_037_000_499));
        // Just below a square, where a float square root rounds up.
        assert_eq!(isqrt(3_037_000_499 * 3_037_000_499 - 1), Ok(3_037_000_498));
        assert!(matches!(isqrt(-1), Err(FaultKind::Domain(_))));
        assert_eq!(ilog2(1), Ok(0));
        assert_eq!(ilog2(7), Ok(2));
        assert_eq!(ilog2(8), Ok(3));
        assert_eq!(ilog2(i64::MAX), Ok(62));
        assert!(matches!(ilog2(0), Err(FaultKind::Domain(_))));
        assert!(matches!(ilog2(-8), Err(FaultKind::Domain(_))));
    }

    #[test]
    fn floor_div_and_valuation() {
        assert_eq!(floor_div(7, 2), Ok(3));
        assert_eq!(floor_div(-7, 2), Ok(-4));
        assert_eq!(floor_div(7, -2), Ok(-4));
        assert_eq!(floor_div(-7, -2), Ok(3));
        assert_eq!(floor_div(1, 0), Err(FaultKind::DivisionByZero));
        assert_eq!(floor_div(i64::MIN, -1), Err(FaultKind::Overflow));
        assert_eq!(v_p(1, 2), Ok(0));
        assert_eq!(v_p(48, 2), Ok(4));
        assert_eq!(v_p(48, 3), Ok(1));
        assert_eq!(v_p(1 << 62, 2), Ok(62));
        assert_eq!(v_p(i64::MAX, 7), Ok(2));
        assert_eq!(v_p(i64::MAX, i64::MAX), Ok(1));
        assert!(matches!(v_p(0, 2), Err(FaultKind::Domain(_))));
        assert!(matches!(v_p(-4, 2), Err(FaultKind::Domain(_))));
        assert!(matches!(v_p(4, 1), Err(FaultKind::Domain(_))));
    }

    #[test]
    fn primes() {
        let small: Vec<i64> = (-5..60).filter(|&x| is_prime(x)).collect();
        assert_eq!(
            small,
            [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59]
        );
        // Against trial division.
        for x in (0..20_000i64)
            .chain(65_000..80_000)
            .chain(1_000_000_000..1_000_003_000)
        {
            let trial = x >= 2 && (2..).take_while(|d| d * d <= x).all(|d| x % d != 0);
            assert_eq!(is_prime(x), trial, "{x}");
        }
        for carmichael in [561, 1105, 1729, 2465, 2821, 6601, 8911, 3_215_031_751] {
            assert!(!is_prime(carmichael), "{carmichael}");
        }
        // 3215031751 is a strong pseudoprime to the bases 2, 3, 5, 7.
        assert!(is_prime(M61));
        assert!(is_prime(9_223_372_036_854_775_783)); // the largest prime below 2^63
        assert!(!is_prime(i64::MAX)); // 7² · 73 · 127 · 337 · 92737 · 649657
        assert!(!is_prime(i64::MIN));
    }

    #[test]
    fn prime_powers() {
        let small: Vec<i64> = (-3..33).filter(|&x| is_prime_power(x)).collect();
        assert_eq!(
            small,
            [2, 3, 4, 5, 7, 8, 9, 11, 13, 16, 17, 19, 23, 25, 27, 29, 31, 32]
        );
        assert!(!is_prime_power(1));
        assert!(!is_prime_power(0));
        assert!(is_prime_power(1 << 62));
        assert!(is_prime_power(M61));
        // The largest prime whose square fits, squared.
        let p = (2..=3_037_000_499).rev().find(|&p| is_prime(p)).unwrap();
        assert!(is_prime_power(p * p));
        assert!(!is_prime(p * p));
        assert!(!is_prime_power(p * (p - 2)));
        assert!(is_prime_power(3_i64.pow(39)));
        assert!(!is_prime_power(6_i64.pow(24)));
        assert!(!is_prime_power(561));
        assert!(!is_prime_power(i64::MAX));
        // Against factoring for small numbers.
        for x in 2..5_000i64 {
            let p = (2..=x).find(|d| x % d == 0).unwrap();
            let mut y = x;
            while y % p == 0 {
                y /= p;
            }
            assert_eq!(is_prime_power(x), y == 1, "{x}");
        }
    }

    #[test]
    fn roots_are_exact() {
        for k in 2..=62 {
            for x in [u64::MAX >> 1, 1 << 62, 3_u64.pow(39), 1000, 1] {
                let r = integer_root(x, k);
                assert!(r.pow(k) <= x && (r + 1).checked_pow(k).is_none_or(|v| v > x));
            }
        }
    }
}
