//! First cousins: two octal games whose sequences are one heap apart, `G_A(n + 1) = G_B(n)`
//! for every `n`, because their game trees are the same (Winning Ways ch. 4 lists octal games
//! beside such cousins; Plambeck's page on `0.177` calls `0.45` its "first cousin").
//!
//! **Theorem.** Let `A = d0.d1d2…` be an octal code in which no move leaves a heap of one
//! token movable: `d0 ∈ {0, 4}` and `d1` even (a heap of 1 cannot be removed). Define `B` by
//! `b0 = 0` and, for `k ≥ 1`,
//!
//! ```text
//! b_k = (1 if d_(k+1) has bit 1) | (3 if d_k has bit 2) | (7 if d_(k−1) has bit 4).
//! ```
//!
//! Then the map "a heap of `h ≥ 1` tokens of `A` ↦ a heap of `h − 1` tokens of `B`" (heaps of
//! one token of `A` becoming empty) carries the options of every position of `A` onto those
//! of its image, so `G_A(h) = G_B(h − 1)` for `h ≥ 1` (and `G_A(0) = G_A(1) = 0`).
//!
//! *Proof.* In `A`, a heap of one token has no move (`d0` has no bit 1 or 2, `d1` no bit 1),
//! so it is worth 0, as an empty heap of `B` is. Take `k` from a heap of `h` in `A`:
//! * leaving nothing (`d_k` bit 1, `h = k`): in `B`, take `k − 1` from `h − 1 = k − 1`, leaving
//!   nothing — `b_(k−1)` bit 1;
//! * leaving one heap `h − k ≥ 1` (`d_k` bit 2): in `B`, take `k` from `h − 1`, leaving
//!   `h − k − 1`, which is nothing when `h − k = 1` and one heap otherwise — `b_k` bits 1, 2;
//! * leaving two heaps `a, c ≥ 1` (`d_k` bit 4): in `B`, take `k + 1` from `h − 1`, leaving
//!   `a − 1` and `c − 1`, each possibly empty — `b_(k+1)` bits 1, 2 and 4.
//!
//! Conversely each bit of `b_k` was set by one of these three cases, and every move it
//! allows in `B` (for each size it applies to) is the image of a move of that case in `A`.
//! So the options correspond, values of sums being XORs, and induction on `h` gives the
//! theorem. ∎
//!
//! Examples: Dawson's Kayles `0.07` has cousin Dawson's Chess `0.137`; `0.4` has `0.07`;
//! `4.4` has Kayles `0.77`; `0.45` has `0.177`.

/// The first cousin of the octal game `code` (`d0.d1d2…`, octal digits, `d0` one digit) when
/// the theorem of the module applies, in shortest form (trailing zero digits dropped); `None`
/// when `code` is not a plain octal code, a heap of one token can move in it, or it has no
/// move at all (its own cousin).
pub fn first_cousin(code: &str) -> Option<String> {
    let (whole, fraction) = code.split_once('.')?;
    if whole.len() != 1 || fraction.is_empty() {
        return None;
    }
    let digits: Vec<u8> = std::iter::once(whole)
        .chain(std::iter::once(fraction))
        .flat_map(str::bytes)
        .map(|b| match b {
            b'0'..=b'7' => Some(b - b'0'),
            _ => None,
        })
        .collect::<Option<_>>()?;
    let d = |k: usize| digits.get(k).copied().unwrap_or(0);
    if d(0) & 3 != 0 || d(1) & 1 != 0 {
        return None;
    }
    // b_k for k = 1 ..= len: the last b comes from the last d's bit 4.
    let cousin: Vec<u8> = (1..=digits.len())
        .map(|k| {
            let mut b = 0;
            if d(k + 1) & 1 != 0 {
                b |= 1;
            }
            if d(k) & 2 != 0 {
                b |= 3;
            }
            if d(k - 1) & 4 != 0 {
                b |= 7;
            }
            b
        })
        .collect();
    // The game with no move is its own cousin, which says nothing.
    let last = cousin.iter().rposition(|&b| b != 0)? + 1;
    let text: String = cousin[..last]
        .iter()
        .map(|b| char::from(b'0' + b))
        .collect();
    Some(format!("0.{text}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_classical_cousins() {
        // Winning Ways ch. 4: Dawson's Kayles and Dawson's Chess; 0.4 and 0.07; 4.4 and
        // Kayles; Plambeck's 0.45 and 0.177.
        assert_eq!(first_cousin("0.07").as_deref(), Some("0.137"));
        assert_eq!(first_cousin("0.4").as_deref(), Some("0.07"));
        assert_eq!(first_cousin("4.4").as_deref(), Some("0.77"));
        assert_eq!(first_cousin("0.45").as_deref(), Some("0.177"));
    }

    #[test]
    fn no_cousin_when_a_heap_of_one_can_move() {
        assert_eq!(first_cousin("0.77"), None);
        assert_eq!(first_cousin("0.0"), None);
        assert_eq!(first_cousin("0.137"), None);
        assert_eq!(first_cousin("2.0"), None);
        assert_eq!(first_cousin("0.8"), None);
        assert_eq!(first_cousin("0x.f"), None);
        assert_eq!(first_cousin("0."), None);
    }
}
