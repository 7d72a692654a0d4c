//! STUB (being written)
