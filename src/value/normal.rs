//! Normal play: the player who cannot move loses, and a position is worth its Sprague–Grundy
//! value.

use super::{Outcome, ValueRule};
use crate::engine::mex::mex_of;
use crate::engine::Nimber;

/// Normal play valued by Sprague–Grundy values: `G(p) = mex{G(q) : p → q}`, a sum is worth the
/// XOR of its components (Sprague 1935, Grundy 1939), and `p` is a P-position iff `G(p) = 0`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Normal;

impl ValueRule for Normal {
    type Value = u32;

    fn name(&self) -> &'static str {
        "normal"
    }

    fn of_options(&self, options: &mut dyn Iterator<Item = u32>) -> u32 {
        mex_of(options)
    }

    fn of_sum(&self, components: &[u32]) -> Option<u32> {
        Some(components.iter().sum::<Nimber>().value())
    }

    fn outcome(&self, value: u32) -> Outcome {
        Outcome::of_value(value)
    }
}
