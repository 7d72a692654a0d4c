//! The games of a census: which codes a family holds, in the census's fixed order, and how each
//! is written.
//!
//! * **Octal, `digits` = d**: every code `0.d1…dd` and `4.d1…dd` with each digit `0`–`7`, each
//!   written in its shortest form — trailing zero digits dropped, since `0.070` is the game
//!   `0.07` — so the `2·8^d` digit strings name `2·8^d` different games and none is listed
//!   twice (`0.000` is `0.0`, the game with no move, kept as the census's trivial member).
//!   Order: `0.` codes before `4.` codes, then by the digit string read as a number.
//! * **Subtraction, `max_element` = M**: every non-empty finite set `S ⊆ {1, …, M}`
//!   (`subtraction {…}`, `2^M − 1` sets) and every all-but set with excluded elements in
//!   `{1, …, M}` (`subtraction all-but {…}`, `2^M` sets, the empty one being Nim), ordered by
//!   the bit mask of the set, finite sets first.

use serde::{Deserialize, Serialize};

/// The largest octal census: `2·8^4` = 8192 codes (a 5-digit census would be 65536 games).
pub const MAX_OCTAL_DIGITS: u32 = 4;

/// The largest subtraction census: sets of elements up to 16 (`2^17` games).
pub const MAX_SUBTRACTION_ELEMENT: u32 = 16;

/// Which games a census surveys.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "family", rename_all = "kebab-case")]
pub enum Family {
    /// Octal codes `0.d1…dk` and `4.d1…dk`, `k ≤ digits`.
    Octal {
        /// The most code digits after the point.
        digits: u32,
    },
    /// Finite and all-but subtraction sets of elements at most `max_element`.
    Subtraction {
        /// The largest element (of the set, or of the excluded set).
        max_element: u32,
    },
}

impl Family {
    /// The family form's keyword: `octal CODE` or `subtraction CODE` is the game.
    pub fn keyword(&self) -> &'static str {
        match self {
            Family::Octal { .. } => "octal",
            Family::Subtraction { .. } => "subtraction",
        }
    }

    /// A short name for file names and titles: `octal-3`, `subtraction-8`.
    pub fn slug(&self) -> String {
        match self {
            Family::Octal { digits } => format!("octal-{digits}"),
            Family::Subtraction { max_element } => format!("subtraction-{max_element}"),
        }
    }

    /// How many games the census holds.
    pub fn len(&self) -> usize {
        match *self {
            Family::Octal { digits } => 2 << (3 * digits),
            Family::Subtraction { max_element } => (2usize << max_element) - 1,
        }
    }

    /// Why the family is outside what a census runs (a digit count or largest element past
    /// [`MAX_OCTAL_DIGITS`] or [`MAX_SUBTRACTION_ELEMENT`], or 0), as read from a forged file;
    /// `None` when it is one a census can run.
    pub fn out_of_range(&self) -> Option<String> {
        match *self {
            Family::Octal { digits } if !(1..=MAX_OCTAL_DIGITS).contains(&digits) => Some(format!(
                "an octal census of {digits} digits (a census has 1 to {MAX_OCTAL_DIGITS})"
            )),
            Family::Subtraction { max_element }
                if !(1..=MAX_SUBTRACTION_ELEMENT).contains(&max_element) =>
            {
                Some(format!(
                    "a subtraction census to element {max_element} (a census has 1 to {MAX_SUBTRACTION_ELEMENT})"
                ))
            }
            _ => None,
        }
    }

    /// Always false: every family holds at least one game.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Every code, in the census's order, as written after the keyword.
    pub fn codes(&self) -> Vec<String> {
        match *self {
            Family::Octal { digits } => {
                let strings = 1u32 << (3 * digits);
                ["0", "4"]
                    .iter()
                    .flat_map(|whole| (0..strings).map(move |i| octal_code(whole, i, digits)))
                    .collect()
            }
            Family::Subtraction { max_element } => {
                let finite = (1u64..1 << max_element).map(set_text);
                let all_but =
                    (0u64..1 << max_element).map(|mask| format!("all-but {}", set_text(mask)));
                finite.chain(all_but).collect()
            }
        }
    }

    /// The rules text of one code: `octal 0.07`.
    pub fn game_text(&self, code: &str) -> String {
        format!("{} {code}", self.keyword())
    }
}

/// The code `whole.d1…dk` of digit string number `index` (`digits` octal digits, most
/// significant first), trailing zeros dropped (at least one digit kept).
fn octal_code(whole: &str, index: u32, digits: u32) -> String {
    let mut text: String = (0..digits)
        .rev()
        .map(|place| char::from(b'0' + ((index >> (3 * place)) & 7) as u8))
        .collect();
    while text.len() > 1 && text.ends_with('0') {
        text.pop();
    }
    format!("{whole}.{text}")
}

/// `{1, 3, 4}` for the set whose bit `e − 1` is set for each element `e`.
fn set_text(mask: u64) -> String {
    let elements: Vec<String> = (0..64)
        .filter(|bit| mask >> bit & 1 == 1)
        .map(|bit| (bit + 1).to_string())
        .collect();
    format!("{{{}}}", elements.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn octal_codes_are_distinct_shortest_forms() {
        let family = Family::Octal { digits: 2 };
        let codes = family.codes();
        assert_eq!(codes.len(), family.len());
        assert_eq!(codes.len(), 128);
        assert_eq!(codes.iter().collect::<HashSet<_>>().len(), 128);
        assert_eq!(&codes[..3], ["0.0", "0.01", "0.02"]);
        assert!(codes.contains(&"0.7".to_string()) && !codes.contains(&"0.70".to_string()));
        assert_eq!(codes[64], "4.0");
        assert_eq!(codes.last().unwrap(), "4.77");
    }

    #[test]
    fn subtraction_codes_cover_finite_and_all_but_sets() {
        let family = Family::Subtraction { max_element: 3 };
        let codes = family.codes();
        assert_eq!(codes.len(), family.len());
        assert_eq!(codes.len(), 7 + 8);
        assert_eq!(codes[0], "{1}");
        assert_eq!(codes[6], "{1, 2, 3}");
        assert_eq!(codes[7], "all-but {}");
        assert_eq!(codes[14], "all-but {1, 2, 3}");
        // Every code is a game the rules language reads.
        for code in codes {
            let text = family.game_text(&code);
            crate::rules::load(crate::rules::SourceFile::new("t", text.clone()), &[])
                .unwrap_or_else(|e| panic!("{text}: {e}"));
        }
    }
}
