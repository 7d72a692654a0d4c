//! Integration tests, one binary with modules by theme.
