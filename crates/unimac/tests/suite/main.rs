//! The library's integration tests, in one test binary: one module a
//! subject (`cargo test -p unimac --test suite vectors::` runs those of
//! `vectors.rs`), each built once for every target the suite runs on rather
//! than linked as a binary of its own.
//!
//! They share one process: a test that changes the thread setting holds
//! `common::thread_setting()` for its whole run; a test that needs a
//! process of its own (the default thread setting,
//! `hash127::no_threads_unless_asked`) runs itself again as a child with an
//! exact filter. The counting allocator of `no_alloc`
//! is the binary's global allocator; it counts each thread's calls apart,
//! which the other modules do not see.

#[path = "../common/mod.rs"]
mod common;

mod eval128;
mod fuzz_corpus;
mod hash127;
mod hash127_96;
mod hash127_96_bound;
mod hash127_int26;
mod keyed;
mod misuse;
mod mmh_backends;
mod mmh_proofs;
mod mmh_tree;
mod modp;
mod no_alloc;
mod partial;
mod shoup;
mod shoup7_bounds;
mod shoup_bounds;
mod shoup_macs;
mod square;
mod square_proofs;
mod square_tree;
mod stripes;
mod threads;
mod umac_rfc;
mod umac_vmac_platforms;
mod vectors;
mod vmac_draft;
mod wycheproof_vmac;
