//! Hostile input: see the module's cases below.
