//! sgscope: discover patterns in Sprague–Grundy values of impartial games.
//!
//! The crate is organised like a small compiler pipeline:
//!
//! * [`rules`] reads a rules file (lexer, parser, AST, checking, lowering) into a [`rules::Game`];
//! * [`engine`] computes the Sprague–Grundy table `G(0..=N)` of that game;
//! * [`analysis`] finds preperiod, period and saltus, and proves periodicity where a theorem allows;
//! * [`export`] writes tables as text, CSV, JSON, charts, and lookup code for contest solutions;
//! * [`cli`] is the command line, a thin layer over the above.
#![warn(missing_docs)]

pub mod analysis;
pub mod cli;
pub mod engine;
pub mod export;
pub mod rules;
