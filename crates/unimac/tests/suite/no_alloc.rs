//! Tag and verify of one message allocate nothing: every MAC by name
//! (`registry::NamedMac::tag_into`/`verify`, the path of the CLI and the Python
//! package) whose key is set up once, and UMAC's typed `tag`/`verify` on
//! every tag length, on lengths from empty to several chunks. A counting
//! allocator wraps the system one and counts this thread's calls.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use unimac::unstable::registry::{self, is_one_time, NamedMac};
use unimac::umac::{Umac128, Umac32, Umac64, Umac96};

struct Counting;

thread_local! {
    static ALLOCS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every call is passed to `System` unchanged; the thread-local
// counter (const-initialized, no allocation of its own) only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
        // SAFETY: the caller's contract for `alloc`, passed on.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
        // SAFETY: the caller's contract for `realloc`, passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations(f: impl FnOnce()) -> usize {
    let before = ALLOCS.with(|c| c.get());
    f();
    ALLOCS.with(|c| c.get()) - before
}

/// Lengths around the block and chunk sizes of every family, up to several
/// of UMAC's and VMAC's chunks (below the threads' `PARALLEL_MIN`).
const LENGTHS: [usize; 12] = [0, 1, 8, 15, 16, 17, 64, 127, 1023, 1024, 1025, 20_000];

#[test]
fn every_mac_by_name_tags_and_verifies_without_allocating() {
    let msg: Vec<u8> = (0..20_000u32).map(|i| (i * 131 + 7) as u8).collect();
    assert_eq!(allocations(|| drop(std::hint::black_box(Box::new(1u64)))), 1);
    let mut checked = 0;
    for name in registry::names() {
        if is_one_time(&name) {
            // One message per key: its key is set up per message by design.
            continue;
        }
        let info = &registry::lookup(&format!("mac-{name}")).unwrap().info;
        let klen = (1..=64).find(|&n| info.key.accepts(n)).unwrap_or_else(|| panic!("{name}: no key length"));
        let key: Vec<u8> = (0..klen as u8).map(|b| b.wrapping_mul(29).wrapping_add(3)).collect();
        let Ok(mac) = NamedMac::new(&name, &key) else { panic!("{name}: key of {klen} bytes refused") };
        let nonce_bytes = [0x35u8; 16];
        let nonce = (*mac.nonce_sizes().end() > 0).then(|| &nonce_bytes[..*mac.nonce_sizes().end()]);
        let mut out = [0u8; 32];
        // Set-up a key does once, lazily (hash127 builds its short-message
        // powers on the second short message and its table of powers once
        // 16 KiB or more have been hashed), is done before counting: the
        // claim is about every message after that.
        let big = vec![0x5au8; 1 << 20];
        for _ in 0..2 {
            mac.tag_into(nonce, &big, &mut out).unwrap();
            for len in LENGTHS {
                mac.tag_into(nonce, &msg[..len], &mut out).unwrap();
            }
        }
        for len in LENGTHS {
            let m = &msg[..len];
            let mut n = 0;
            assert_eq!(allocations(|| n = mac.tag_into(nonce, m, &mut out).unwrap()), 0, "{name}: tag_into, {len} bytes");
            assert_eq!(n, mac.tag_len(), "{name}");
            let tag = out;
            assert_eq!(allocations(|| mac.verify(nonce, m, &tag[..n]).unwrap()), 0, "{name}: verify, {len} bytes");
            let mut bad = tag;
            bad[0] ^= 1;
            let refused = allocations(|| assert!(mac.verify(nonce, m, &bad[..n]).is_err()));
            assert_eq!(refused, 0, "{name}: verify of a wrong tag, {len} bytes");
        }
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} MACs checked");
}

#[test]
fn umac_typed_tag_and_verify_allocate_nothing() {
    let key = [0x6bu8; 16];
    let msg = vec![0xa5u8; 20_000];
    // The counter sees this thread's allocations.
    assert_eq!(allocations(|| drop(std::hint::black_box(Box::new(1u64)))), 1);
    macro_rules! check {
        ($t:ty) => {{
            let mac = <$t>::new(&key);
            let _ = mac.tag(&[0; 8], b"warm up").unwrap();
            for len in [0usize, 1, 8, 64, 1023, 1024, 1025, 4096, 20_000] {
                for nonce in [&[7u8; 8][..], &[6u8; 8], &[1; 16], &[9]] {
                    let m = &msg[..len];
                    let mut tag = None;
                    assert_eq!(allocations(|| tag = Some(mac.tag(nonce, m).unwrap())), 0, "tag, {len} bytes");
                    let tag = tag.unwrap();
                    assert_eq!(allocations(|| assert!(mac.verify(nonce, m, tag).is_ok())), 0, "verify, {len} bytes");
                }
            }
        }};
    }
    check!(Umac32);
    check!(Umac64);
    check!(Umac96);
    check!(Umac128);
}
