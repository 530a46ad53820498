//! The clock that turns nanoseconds into cycles for `advise`, and the CPU's
//! name: the CPU's base (nominal) frequency from
//! `/sys/devices/system/cpu/cpu0/cpufreq/base_frequency` if the kernel
//! exposes it, else `cpu MHz` of `/proc/cpuinfo`. The benchmark
//! (crates/unimac-bench/src/clock.rs) uses the same rule, so that the two
//! report cycles alike.

/// The frequency that turns nanoseconds into cycles, and where it came from.
pub struct Clock {
    pub hz: f64,
    pub source: &'static str,
}

impl Clock {
    pub fn read() -> Clock {
        let base = std::fs::read_to_string("/sys/devices/system/cpu/cpu0/cpufreq/base_frequency")
            .ok()
            .and_then(|s| s.trim().parse::<f64>().ok())
            .filter(|k| *k > 0.0);
        if let Some(khz) = base {
            return Clock {
                hz: khz * 1e3,
                source: "base frequency (cpufreq base_frequency)",
            };
        }
        let mhz = cpuinfo("cpu MHz")
            .and_then(|v| v.parse::<f64>().ok())
            .filter(|m| *m > 0.0);
        match mhz {
            Some(m) => Clock {
                hz: m * 1e6,
                source: "/proc/cpuinfo cpu MHz (the TSC frequency on tsc_known_freq machines)",
            },
            None => Clock {
                hz: 1e9,
                source: "unknown: 1 GHz assumed (cycles = nanoseconds)",
            },
        }
    }
}

fn cpuinfo(key: &str) -> Option<String> {
    let text = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    text.lines()
        .find(|l| l.split(':').next().is_some_and(|k| k.trim() == key))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.trim().to_string())
}

/// The CPU's model name (`/proc/cpuinfo`), or the architecture.
pub fn cpu_model() -> String {
    cpuinfo("model name").unwrap_or_else(|| std::env::consts::ARCH.to_string())
}
