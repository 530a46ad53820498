//! `unimac-bench`: a quick throughput table of unimac's hashes and MACs beside
//! the peers people use today (Poly1305, BLAKE3 keyed, HMAC-SHA256, AES-CMAC,
//! POLYVAL), measured in one run on this machine. The criterion benches
//! (`cargo bench -p unimac-kernel-bench`) are the careful version; this is the one-command
//! overview. `--json`, `--plot` and `--paper` are in [`modes`].
//!
//! Each name is keyed once ([`registry::key`]) and the table measures hashing
//! messages under that key; the `setup` column is the time of the key set-up
//! itself (one `registry::key` call). Peers are measured the same way where
//! their API separates the key (HMAC's padded-key state is prepared once).

use std::hint::black_box;
use std::io::{self, Write};
use std::time::{Duration, Instant};

use hmac::Mac;
use poly1305::universal_hash::KeyInit;
use unimac::unstable::registry::{self, KeySpec, Params};

use crate::fail::Fail;

/// The names measured by default: one per family and construction.
const DEFAULT: &[&str] = &[
    "hash127",
    "tree-mmh32x1",
    "tree-mmh32x2",
    "tree-nmh32",
    "tree-mmh64",
    "tree-sqh96-e",
    "tree-sqh128-e",
    "eval64",
    "division64",
    "gdivision64",
    "eval128",
    "modp",
    "mac-hash127-96",
    "mac-hash127-aes",
    "mac-hash127-aes-nonce",
    "mac-wc-mmh32x2",
    "mac-wc-nmh32",
    "mac-wc-sqh96-e",
    "mac-wc-eval64",
    "mac-wc-division64",
    "mac-wc-eval128",
    "mac-shoup3-eval128",
    "mac-shoup4-eval64",
    "mac-shoup4-division64",
    "mac-umac64",
    "mac-umac128",
    "mac-vmac64",
];

const SIZES: &[usize] = &[16, 64, 256, 1024, 16 << 10, 1 << 20];

/// Deterministic filler (benchmark keys need not be secret).
pub(crate) fn fill(buf: &mut [u8], mut seed: u64) {
    for b in buf.iter_mut() {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        *b = seed as u8;
    }
}

/// Bytes per second of `f` over `len`-byte inputs: repeat until `budget` passes.
fn rate(len: usize, budget: Duration, mut f: impl FnMut()) -> f64 {
    f(); // warm up
    let mut iters = 1u64;
    loop {
        let t = Instant::now();
        for _ in 0..iters {
            f();
        }
        let el = t.elapsed();
        if el >= budget {
            return (len as f64) * iters as f64 / el.as_secs_f64();
        }
        iters = if el.as_nanos() == 0 {
            iters * 16
        } else {
            (iters * 2).max((iters as f64 * budget.as_secs_f64() / el.as_secs_f64() * 1.1) as u64)
        };
    }
}

fn cpu_mhz() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    text.lines()
        .find(|l| l.starts_with("cpu MHz"))
        .and_then(|l| l.split(':').nth(1))
        .and_then(|v| v.trim().parse().ok())
}

/// Runs one message; false if the name does not take a message that long
/// (the one-block functions), and the cell is left empty.
pub(crate) type Runner = Box<dyn FnMut(&[u8]) -> bool>;
pub(crate) type Setup = Box<dyn FnMut()>;

/// Seconds per call of `f`, repeated until `budget` passes.
fn per_call(budget: Duration, mut f: impl FnMut()) -> f64 {
    1.0 / rate(1, budget, &mut f)
}

pub(crate) fn unimac_runner(name: &str) -> Result<(Runner, Setup), Fail> {
    let e = registry::lookup(name)?;
    let key_len = match e.info.key {
        KeySpec::PerElement(_) => {
            return Err(Fail(format!("{name}: bench needs a fixed-size key")))
        }
        k => k.default_len().expect("fixed sizes have a default"),
    };
    if e.info.takes_len {
        return Err(Fail(format!("{name}: not a hash of a message")));
    }
    let mut key = vec![0u8; key_len];
    fill(&mut key, 0x9e3779b97f4a7c15);
    if is_modp(name) {
        // The key must be a prime of [2^120, 2^128).
        key = unimac::unstable::modp::SecretPrime::generate()?.to_bytes().to_vec();
    }
    let nonce = (e.info.nonce > 0).then(|| vec![7u8; e.info.nonce]);
    // A reusable MAC is tagged as an application tags by name: keyed once
    // with `registry::NamedMac`, each tag into a buffer on the stack
    // (`Mac::tag_into`: one `match` and the typed MAC, no allocation).
    // Not `shoup4-*`, whose tag draws a fresh random pair (measured below
    // under a fixed pair, the same computation without the system call).
    let reusable = registry::desc(name).ok().filter(|d| {
        !d.one_time && d.framing != unimac::unstable::macs::Framing::PairThenTag
    });
    let setup_key = key.clone();
    let setup_name = name.to_string();
    let setup = Box::new(move || {
        let k = registry::known_answer_key(
            &setup_name,
            &Params {
                key: &setup_key,
                nonce: None,
                len: None,
            },
        );
        let _ = black_box(k);
    });
    if reusable.is_some() {
        let mac = registry::NamedMac::new(name, &key)?;
        let run = Box::new(move |msg: &[u8]| {
            let mut out = [0u8; 64];
            match mac.tag_into(nonce.as_deref(), msg, &mut out) {
                Ok(n) => {
                    black_box(&out[..n]);
                    true
                }
                Err(_) => false,
            }
        });
        return Ok((run, setup));
    }
    // The known-answer key set-up: the same computation for every name,
    // one-time MACs and shoup4-* (under a fixed pair) included; a benchmark
    // authenticates nothing.
    let keyed = registry::known_answer_key(
        name,
        &Params {
            key: &key,
            nonce: None,
            len: None,
        },
    )?;
    // Into a buffer on the stack (`Keyed::compute_into`: no allocation per
    // message where the family has a one-shot path), as an application
    // hashing packets would. A known-answer key computes without spending a
    // one-time key, so the one-time MACs (and `hash127`, the same function)
    // are measured on their one-shot path too.
    let run = Box::new(move |msg: &[u8]| {
        let mut out = [0u8; 64];
        match keyed.compute_into(nonce.as_deref(), msg, &mut out) {
            Ok(n) => {
                black_box(&out[..n]);
                true
            }
            Err(_) => black_box(keyed.compute(nonce.as_deref(), msg)).is_ok(),
        }
    });
    Ok((run, setup))
}

/// The peers, each under a name that says what it is, keyed once: every
/// message clones the keyed state (as unimac's rows reuse their key set-up).
pub(crate) fn peers() -> Vec<(&'static str, Runner)> {
    use poly1305::universal_hash::UniversalHash;
    let key = [0x42u8; 32];
    let poly = poly1305::Poly1305::new(&key.into());
    let pv = polyval::Polyval::new(&<[u8; 16]>::try_from(&key[..16]).expect("16 bytes").into());
    let hmac = <hmac::Hmac<sha2::Sha256> as hmac::KeyInit>::new_from_slice(&key).expect("any key length");
    let cmac = <cmac::Cmac<aes::Aes128> as hmac::KeyInit>::new_from_slice(&key[..16]).expect("16-byte key");
    vec![
        (
            "poly1305",
            Box::new(move |msg: &[u8]| {
                black_box(poly.clone().compute_unpadded(msg));
                true
            }) as Runner,
        ),
        (
            "blake3-keyed",
            Box::new(move |msg: &[u8]| {
                black_box(blake3::keyed_hash(&key, msg));
                true
            }),
        ),
        (
            "hmac-sha256",
            Box::new(move |msg: &[u8]| {
                let mut m = hmac.clone();
                m.update(msg);
                black_box(m.finalize().into_bytes());
                true
            }),
        ),
        (
            "aes-cmac",
            Box::new(move |msg: &[u8]| {
                let mut m = cmac.clone();
                m.update(msg);
                black_box(m.finalize().into_bytes());
                true
            }),
        ),
        (
            "polyval",
            Box::new(move |msg: &[u8]| {
                let mut m = pv.clone();
                m.update_padded(msg);
                black_box(m.finalize());
                true
            }),
        ),
    ]
}

/// The default names (those this build has).
pub(crate) fn default_names() -> Vec<String> {
    DEFAULT
        .iter()
        .filter(|n| registry::lookup(n).is_ok())
        .map(|n| n.to_string())
        .collect()
}

/// Print the table; `names` empty means the default set, `all` every name.
pub fn run(names: &[String], all: bool, millis: u64) -> Result<(), Fail> {
    let mut rows: Vec<(String, Runner, Option<Setup>)> = Vec::new();
    let chosen: Vec<String> = if all {
        registry::entries()
            .iter()
            .filter(|e| !matches!(e.info.key, KeySpec::PerElement(_)) && e.hashes_message())
            .map(|e| e.info.name.clone())
            .collect()
    } else if names.is_empty() {
        default_names()
    } else {
        names
            .iter()
            .map(|n| unimac_front::names::resolve_spec(n).map_err(|e| Fail(e.to_string())))
            .collect::<Result<_, _>>()?
    };
    for n in &chosen {
        let (run, setup) = unimac_runner(n)?;
        rows.push((n.clone(), run, Some(setup)));
    }
    for (n, r) in peers() {
        rows.push((n.to_string(), r, None));
    }
    let budget = Duration::from_millis(millis);
    let mut msg = vec![0u8; *SIZES.last().unwrap()];
    fill(&mut msg, 1);
    let mhz = cpu_mhz();
    let mut out = io::stdout().lock();
    let platform = unimac::Platform::detect();
    writeln!(
        out,
        "# unimac-bench: throughput in GiB/s (cycles/byte at {}), one thread, key set up once; setup = key set-up in µs; platform {:?}",
        mhz.map_or("unknown clock".into(), |m| format!("{m:.0} MHz")),
        platform
    )?;
    let mut header = format!("{:<24}", "name");
    for s in SIZES {
        header.push_str(&format!(" {:>16}", size_label(*s)));
    }
    header.push_str(&format!(" {:>9}", "setup µs"));
    header.push_str(&format!("  {:>9}", "bound"));
    writeln!(out, "{header}")?;
    for (name, mut f, setup) in rows {
        let mut line = format!("{name:<24}");
        for &s in SIZES {
            let m = &msg[..s];
            if !f(m) {
                line.push_str(&format!(" {:>16}", "-"));
                continue;
            }
            let r = rate(s, budget, || {
                f(m);
            });
            let gib = r / (1u64 << 30) as f64;
            match mhz {
                Some(mhz) => line.push_str(&format!(" {:>7.2} ({:>6.2})", gib, mhz * 1e6 / r)),
                None => line.push_str(&format!(" {gib:>16.2}")),
            }
        }
        match setup {
            Some(mut k) => line.push_str(&format!(" {:>9.3}", per_call(budget, &mut k) * 1e6)),
            None => line.push_str(&format!(" {:>9}", "-")),
        }
        line.push_str(&format!("  {:>9}", bound_cell(&name)));
        writeln!(out, "{line}")?;
        out.flush()?;
    }
    writeln!(
        out,
        "# bound: log2 of the forgery probability after 2^32 tags and 2^32 forgery attempts on messages of at most 1 MiB \
         (unimac bound NAME --max-bytes 1048576 --tags 4294967296 --forgeries 4294967296; AES advantage not included; \
         >= 0: no guarantee at all; * = not a proven bound, see docs/BOUNDS.md)"
    )?;
    Ok(())
}

/// Whether `name` is the `modp` check's (its key is a prime, not a MAC key).
fn is_modp(name: &str) -> bool {
    use unimac::unstable::formats::keyfile::KeyKind;
    matches!(KeyKind::from_name(name), Ok(KeyKind::Modp))
}

/// The forgery bound of a MAC row (see the footnote the table prints).
fn bound_cell(name: &str) -> String {
    let Some(mac) = registry::lookup(name).ok().and_then(|e| e.mac()).map(|d| d.name) else {
        return "-".into();
    };
    let attack = unimac::unstable::bounds::Attack::new(1 << 20, 1 << 32, 1 << 32);
    match unimac::unstable::bounds::bound(mac, &attack) {
        Ok(b) => format!("{:.1}{}", b.log2.0, if b.proven { "" } else { "*" }),
        // The only error for a known MAC name: the bound is 1 or more
        // (e.g. a 32-bit tag against 2^32 forgery attempts).
        Err(_) => ">= 0".into(),
    }
}

pub(crate) fn size_label(s: usize) -> String {
    if s >= 1 << 20 {
        format!("{} MiB", s >> 20)
    } else if s >= 1 << 10 {
        format!("{} KiB", s >> 10)
    } else {
        format!("{s} B")
    }
}
