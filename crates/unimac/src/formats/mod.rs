//! File formats and file I/O rules shared by every front end.
pub mod race;
