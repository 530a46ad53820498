//! UMAC's one-shot `tag` and `verify` allocate nothing, on every tag length
//! and on lengths of one chunk, several chunks and the empty message: a
//! counting allocator wraps the system one and counts this thread's calls.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

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

#[test]
fn tag_and_verify_allocate_nothing() {
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
