//! Test oracles: slow reference engines that are obviously right, which the property tests
//! (and the benchmarks' "naive" rows) compare the fast kernels against. Nothing in the command
//! line uses them; the generic evaluator of [`crate::value::evaluate`] is the production path
//! for values no kernel computes.
//!
//! * [`naive`]: a take-and-break code's values from its explicitly listed partitions;
//! * [`interp`]: general move rules by walking the checked syntax tree;
//! * [`misere`]: misère Grundy values of sums by the definition, over the whole game tree.

pub mod hackenbush;
pub mod interp;
pub mod loopy;
pub mod misere;
pub mod naive;
