//! sgscope: discover patterns in Sprague–Grundy values of impartial games.
//!
//! The crate is organised like a small compiler pipeline:
//!
//! * [`rules`] reads a rules file (lexer, parser, AST, checking, lowering) into a [`rules::Game`];
//! * [`engine`] computes the Sprague–Grundy table `G(0..=N)` of that game;
//! * [`analysis`] finds preperiod, period and saltus, and proves periodicity where a theorem allows;
//! * [`census`] surveys whole families of codes (sharded, resumable, classified);
//! * [`solve`] decides a sum of positions (value, winner, winning moves) as a typed report;
//! * [`export`] writes tables as text, CSV, JSON, charts, and lookup code for contest solutions;
//! * [`api`] is the one entry point that values any game under any play rule (the command
//!   line's and the Python package's);
//! * [`cli`] is the command line, a thin layer over the above.
//!
//! ```
//! use sgscope::{analysis, engine, rules};
//!
//! // Dawson's Kayles: remove two adjacent pins from a row (OEIS A002187).
//! let game = rules::load(rules::SourceFile::new("<example>", "octal 0.07"), &[]).unwrap();
//! let table = engine::compute(&game, 200, &engine::EngineOptions::default()).unwrap();
//! assert_eq!(table.get(86), 9);
//! let report = analysis::report_for_table(&game.name, game.code(), &table);
//! assert_eq!(report.preperiod, Some(53));
//! assert_eq!(report.period, Some(34));
//! assert!(report.proved);
//! ```
#![warn(missing_docs)]

pub mod analysis;
pub mod api;
pub mod census;
pub mod cli;
pub mod engine;
pub mod export;
pub mod fs;
pub mod graph;
pub mod hash;
pub mod oracle;
pub mod play;
pub mod rules;
pub mod solve;
pub mod sweep;
pub mod theory;
pub mod value;
