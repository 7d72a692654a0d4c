//! Serialisers for tables and reports: pure functions writing to a `Write`, plus one atomic
//! file writer.
