//! Reading messages: regular files are memory-mapped and handed over whole
//! (so a hash can split them across cores); stdin and pipes are read in
//! 1 MiB buffers.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use crate::Fail;

/// The name to show for a path (`-`/None is stdin).
pub fn shown(path: Option<&Path>) -> String {
    match path {
        None => "-".to_string(),
        Some(p) => p.display().to_string(),
    }
}

fn is_stdin(path: Option<&Path>) -> bool {
    path.is_none_or(|p| p.as_os_str() == "-")
}

/// Feed the message at `path` (stdin for `-`/None) to `f`, in one or more
/// slices whose concatenation is the message.
pub fn read_message(path: Option<&Path>, mut f: impl FnMut(&[u8])) -> Result<(), Fail> {
    let name = shown(path);
    if is_stdin(path) {
        return read_stream(io::stdin().lock(), &name, f);
    }
    let p = path.expect("not stdin");
    let file = File::open(p).map_err(|e| Fail(format!("cannot open {name}: {e}")))?;
    let meta = file.metadata().map_err(|e| Fail(format!("cannot read {name}: {e}")))?;
    if meta.is_dir() {
        return Err(Fail(format!("cannot read {name}: is a directory")));
    }
    if meta.is_file() && meta.len() >= (1 << 20) {
        // SAFETY: the map is read-only and lives only for this call. If another
        // process truncates the file meanwhile, reads may fault (SIGBUS); that is
        // the documented limit of mapping files and the same as in b3sum.
        if let Ok(map) = unsafe { memmap2::MmapOptions::new().populate().map(&file) } {
            f(&map);
            return Ok(());
        }
    }
    read_stream(file, &name, f)
}

fn read_stream(mut input: impl Read, name: &str, mut f: impl FnMut(&[u8])) -> Result<(), Fail> {
    let mut buf = vec![0u8; 1 << 20];
    loop {
        match input.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(n) => f(&buf[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Fail(format!("cannot read {name}: {e}"))),
        }
    }
}
