//! The typed names of the table's hashes ([`crate::macs`]): a tree's block
//! function and Shoup's 64-bit hashes. Data only: this module imports nothing,
//! so the table, the families and the catalogue can all name these types
//! without a circle between them. The block function's family is made in
//! [`crate::tree`], Shoup's hashes in [`crate::shoup`].

/// A block function that has a tree mode (docs/WIRE.md §6), by type: what
/// a `tree-` hash and a `wc-` MAC of the table (`unimac::macs`) run. Its
/// sizes, group and keyed function are its `family` (feature `unstable`); its
/// forgery bound's `ε` is read from it by [`crate::bounds`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Block {
    /// MMH32 with 1 output word (Halevi and Krawczyk, §2.3).
    Mmh32x1,
    /// Toeplitz MMH32 with 2 output words (§2.4).
    Mmh32x2,
    /// Toeplitz MMH32 with 3 output words.
    Mmh32x3,
    /// Toeplitz MMH32 with 4 output words.
    Mmh32x4,
    /// NMH with 32-bit words (§5).
    Nmh32,
    /// MMH with 64-bit words (§3.2).
    Mmh64,
    /// Square Hash `SQH_asm`, 32-bit elements.
    Sqh32Asm,
    /// Square Hash `SQH_E`, 32-bit elements.
    Sqh32E,
    /// `SQH_asm`, 64-bit elements.
    Sqh64Asm,
    /// `SQH_E`, 64-bit elements.
    Sqh64E,
    /// `SQH_asm`, 96-bit elements.
    Sqh96Asm,
    /// `SQH_E`, 96-bit elements.
    Sqh96E,
    /// `SQH_asm`, 128-bit elements.
    Sqh128Asm,
    /// `SQH_E`, 128-bit elements.
    Sqh128E,
}

impl Block {
    /// Every block function with a tree mode, in the order of docs/WIRE.md §6.
    pub const ALL: [Block; 14] = [
        Block::Mmh32x1,
        Block::Mmh32x2,
        Block::Mmh32x3,
        Block::Mmh32x4,
        Block::Nmh32,
        Block::Mmh64,
        Block::Sqh32Asm,
        Block::Sqh32E,
        Block::Sqh64Asm,
        Block::Sqh64E,
        Block::Sqh96Asm,
        Block::Sqh96E,
        Block::Sqh128Asm,
        Block::Sqh128E,
    ];

    /// The block function's wire name (`mmh32x2`, `sqh64-asm`, …).
    pub const fn name(self) -> &'static str {
        self.names().0
    }

    /// The name of its tree mode in the catalogue (`tree-mmh32x2`, …).
    pub(crate) const fn tree_name(self) -> &'static str {
        self.names().1
    }

    const fn names(self) -> (&'static str, &'static str) {
        match self {
            Block::Mmh32x1 => ("mmh32x1", "tree-mmh32x1"),
            Block::Mmh32x2 => ("mmh32x2", "tree-mmh32x2"),
            Block::Mmh32x3 => ("mmh32x3", "tree-mmh32x3"),
            Block::Mmh32x4 => ("mmh32x4", "tree-mmh32x4"),
            Block::Nmh32 => ("nmh32", "tree-nmh32"),
            Block::Mmh64 => ("mmh64", "tree-mmh64"),
            Block::Sqh32Asm => ("sqh32-asm", "tree-sqh32-asm"),
            Block::Sqh32E => ("sqh32-e", "tree-sqh32-e"),
            Block::Sqh64Asm => ("sqh64-asm", "tree-sqh64-asm"),
            Block::Sqh64E => ("sqh64-e", "tree-sqh64-e"),
            Block::Sqh96Asm => ("sqh96-asm", "tree-sqh96-asm"),
            Block::Sqh96E => ("sqh96-e", "tree-sqh96-e"),
            Block::Sqh128Asm => ("sqh128-asm", "tree-sqh128-asm"),
            Block::Sqh128E => ("sqh128-e", "tree-sqh128-e"),
        }
    }

    /// For MMH32: its number of output words `N`.
    pub const fn mmh32_words(self) -> Option<usize> {
        match self {
            Block::Mmh32x1 => Some(1),
            Block::Mmh32x2 => Some(2),
            Block::Mmh32x3 => Some(3),
            Block::Mmh32x4 => Some(4),
            _ => None,
        }
    }
}

/// Which of Shoup's three hashes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The evaluation hash over GF(2^64) (§5).
    Eval64,
    /// The division hash over GF(2) with a degree-64 key polynomial (§6).
    Division64,
    /// The generalized division hash over GF(2^8) (§7).
    GDivision64,
}

impl Kind {
    /// Every kind, in the order of docs/WIRE.md §5.
    pub const ALL: [Kind; 3] = [Kind::Eval64, Kind::Division64, Kind::GDivision64];

    /// The hash's wire name (`eval64`, `division64`, `gdivision64`).
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Eval64 => "eval64",
            Kind::Division64 => "division64",
            Kind::GDivision64 => "gdivision64",
        }
    }
}
