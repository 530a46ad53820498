//! The command line's integration tests, in one test binary: one module a
//! subject (`cargo test -p unimac-cli --test suite seal::` runs those of
//! `seal.rs`), compiled and linked once rather than as a binary each.
//!
//! They share one process: temporary directories are named by a count
//! besides the tag and the process ([`common::temp_dir`]), and what a test
//! measures of its children it takes from the child it waited for, not
//! from the process's total.

#[path = "../common/mod.rs"]
mod common;

mod big_files;
mod cli;
mod crash;
mod doors;
mod fifo_race;
mod habits;
mod help_and_sizes;
mod known_answers;
mod many_files;
mod misuse;
mod modp_cli;
mod new_user;
mod operator;
mod printed_names;
mod seal;
mod split_files;
mod stream;
mod torn;
mod umac_vmac;
mod walk_links;
mod walk_swap;
