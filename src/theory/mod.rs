//! The theorems the engine and the analysis both rest on, each stated once.
//!
//! * [`periodicity`]: the octal periodicity theorem (Guy & Smith 1956) and its forms for moves
//!   leaving at most `h` heaps: which codes it covers and its bound `B`. The sparse kernel's
//!   periodic fill ([`crate::engine::sparse`]) and the period proofs
//!   ([`crate::analysis::proof`]) both use it.
//! * [`sparse_space`]: rare and common positions under a bit mask, and when the heap's parity
//!   may be one of the mask's bits. The sparse kernel and the rare/common statistics
//!   ([`crate::analysis::rare`]) both use it.
//!
//! * [`cousin`]: first cousins, octal games one heap apart by an isomorphism of their game
//!   trees (`G_A(n + 1) = G_B(n)`). The census notes them beside its classes.
//!
//! This module sits below the engine and the analysis: it reads take-and-break codes and
//! nothing else of the crate.

pub mod cousin;
pub mod periodicity;
pub mod sparse_space;
