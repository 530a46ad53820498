//! The read buffers' sizes, from this CPU's L2 cache as the kernel reports
//! it at run time, so the bytes a `read` copies in are still in the L2
//! when they are hashed, on any CPU: a fixed 1 MiB buffer that fit a
//! 2 MiB L2 spilled out of a 512 KiB one, where each 1 MiB read into the
//! rotating buffers took 0.9-1.9 ms against 0.3 ms for `dd`'s one reused
//! buffer (docs/perf/cli.md).
//!
//! The L2 of a core is shared by the CPUs in its `shared_cpu_list` (SMT
//! siblings, or a cluster of small cores): each reading thread may have
//! only its share. A copy out of the page cache passes the source lines
//! through the same cache as the buffer, and the hash reads its key and
//! state beside it, so a buffer is a quarter of the share
//! ([`Plan::of_l2`]).

use std::sync::OnceLock;

/// The L2 share assumed where the kernel does not say (not Linux, or no
/// sysfs): 512 KiB, the smallest L2 of the x86-64 cores of the last years
/// (AMD Zen 2 and 3); a smaller buffer only costs more system calls, a
/// bigger one cache misses.
const L2_FALLBACK: usize = 512 << 10;

/// No buffer smaller: below it the `read` calls' own cost shows.
const MIN_BUF: usize = 64 << 10;
/// No buffer bigger: past it a bigger buffer saves nothing measurable.
const MAX_BUF: usize = 1 << 20;

/// How the big inputs are read: the buffers' sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The L2 share of one thread these are sized for.
    pub l2: usize,
    /// Each thread's stripe buffer (read with `pread` and hashed by the
    /// same thread): a quarter of the share.
    pub stripe: usize,
    /// Each of the buffers a helper thread reads a file into in turn
    /// while the caller hashes the previous one: an eighth of the share,
    /// so all [`super::BUFFERS`] of them take half of it.
    pub pipelined: usize,
    /// Whether a helper thread reads ahead at all: not with one CPU, where
    /// it would only take turns with the hash; then one buffer of
    /// `stripe` bytes is read and hashed in turn, as `dd` reuses one.
    pub read_ahead: bool,
}

impl Plan {
    /// The plan for an L2 share of `l2` bytes a thread.
    pub fn of_l2(l2: usize, read_ahead: bool) -> Plan {
        let size = |n: usize| (n.clamp(MIN_BUF, MAX_BUF)) & !4095;
        Plan { l2, stripe: size(l2 / 4), pipelined: size(l2 / 8), read_ahead }
    }
}

/// This process's plan: from the L2 share of this CPU (the kernel's, read
/// once) and whether there is more than one CPU to read ahead on.
pub fn plan() -> Plan {
    static PLAN: OnceLock<Plan> = OnceLock::new();
    *PLAN.get_or_init(|| {
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        Plan::of_l2(l2_share(), cpus >= 2)
    })
}

/// The L2 share of one thread in bytes. `UNIMAC_L2_BYTES` (not an option:
/// for measuring the buffers another CPU's L2 would get, on this one)
/// replaces what the kernel says.
fn l2_share() -> usize {
    if let Some(n) = std::env::var("UNIMAC_L2_BYTES").ok().and_then(|v| parse_size(v.trim())) {
        return n.max(1);
    }
    sysfs_l2_share().unwrap_or(L2_FALLBACK)
}

/// The L2 (data or unified) of CPU 0 divided by the CPUs sharing it, from
/// `/sys/devices/system/cpu/cpu0/cache/index*/{level,type,size,shared_cpu_list}`.
#[cfg(target_os = "linux")]
fn sysfs_l2_share() -> Option<usize> {
    let dir = std::path::Path::new("/sys/devices/system/cpu/cpu0/cache");
    for i in 0..16 {
        let d = dir.join(format!("index{i}"));
        let read = |f: &str| std::fs::read_to_string(d.join(f)).ok().map(|s| s.trim().to_string());
        let Some(level) = read("level") else { break };
        let ty = read("type").unwrap_or_default();
        if level != "2" || !(ty == "Data" || ty == "Unified") {
            continue;
        }
        let size = parse_size(&read("size")?)?;
        let sharers = read("shared_cpu_list").map_or(1, |l| cpu_list_len(&l)).max(1);
        return Some(size / sharers).filter(|&n| n > 0);
    }
    None
}

#[cfg(not(target_os = "linux"))]
fn sysfs_l2_share() -> Option<usize> {
    None
}

/// `2048K`, `1M`, `524288`: bytes.
fn parse_size(s: &str) -> Option<usize> {
    let (digits, mult) = match s.as_bytes().last()? {
        b'K' | b'k' => (&s[..s.len() - 1], 1 << 10),
        b'M' | b'm' => (&s[..s.len() - 1], 1 << 20),
        b'G' | b'g' => (&s[..s.len() - 1], 1 << 30),
        _ => (s, 1),
    };
    digits.parse::<usize>().ok()?.checked_mul(mult)
}

/// How many CPUs a list like `0-3,8,10-11` names (0 if it cannot be read).
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn cpu_list_len(l: &str) -> usize {
    l.split(',')
        .map(|r| match r.split_once('-') {
            Some((a, b)) => match (a.trim().parse::<usize>(), b.trim().parse::<usize>()) {
                (Ok(a), Ok(b)) if b >= a => (b - a).saturating_add(1),
                _ => 0,
            },
            None => usize::from(r.trim().parse::<usize>().is_ok()),
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_cpu_lists_parse() {
        assert_eq!(parse_size("2048K"), Some(2 << 20));
        assert_eq!(parse_size("1M"), Some(1 << 20));
        assert_eq!(parse_size("524288"), Some(512 << 10));
        assert_eq!(parse_size("K"), None);
        assert_eq!(parse_size("x1K"), None);
        assert_eq!(cpu_list_len("0"), 1);
        assert_eq!(cpu_list_len("0,64"), 2);
        assert_eq!(cpu_list_len("0-3,8,10-11"), 7);
        assert_eq!(cpu_list_len("junk"), 0);
    }

    /// The buffers for the L2 of Zen 3 (512 KiB), Zen 4 (1 MiB) and
    /// Sapphire Rapids (2 MiB), an SMT sibling's half, and the clamps.
    #[test]
    fn buffers_follow_the_l2() {
        let p = |l2: usize| {
            let p = Plan::of_l2(l2, true);
            (p.stripe, p.pipelined)
        };
        assert_eq!(p(512 << 10), (128 << 10, 64 << 10));
        assert_eq!(p(1 << 20), (256 << 10, 128 << 10));
        assert_eq!(p(2 << 20), (512 << 10, 256 << 10));
        assert_eq!(p(256 << 10), (64 << 10, 64 << 10));
        assert_eq!(p(1), (64 << 10, 64 << 10));
        assert_eq!(p(64 << 20), (1 << 20, 1 << 20));
        assert_eq!(p(1_300_000).0 % 4096, 0);
        let here = plan();
        assert!(here.stripe >= MIN_BUF && here.stripe <= MAX_BUF && here.pipelined <= here.stripe);
    }
}
