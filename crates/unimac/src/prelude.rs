//! The names of std's prelude that come from `alloc`, for a `#![no_std]`
//! crate: each module that uses them has `use crate::prelude::*;`.

pub(crate) use alloc::boxed::Box;
pub(crate) use alloc::string::{String, ToString};
pub(crate) use alloc::vec::Vec;
