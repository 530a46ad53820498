//! The one enciphered nonce block UMAC and VMAC keep per key: consecutive
//! nonces that differ only in their last bits (RFC 4418 §5.1's index, VMAC-64's
//! half) share one AES call, so a counter's nonces cost one block cipher call
//! for every two (VMAC-64, UMAC-64) or four (UMAC-32) tags.

use core::sync::atomic::{fence, Ordering};
use zeroize::Zeroize;

use crate::sync::AtomicU64;

/// One enciphered nonce block, `(input, output)`, behind a sequence lock:
/// `seq` is even when the words are stable (0: nothing cached yet) and odd
/// while one thread rewrites them. A reader takes the words only if `seq`
/// was the same even number before and after reading them; a writer takes
/// the odd state with a compare-exchange and skips caching when another
/// thread holds it. Nobody waits: a contended or torn read is a miss, and a
/// miss only costs the AES call. The words are wiped on drop.
#[derive(Default)]
pub(crate) struct PadCache {
    seq: AtomicU64,
    /// `input` high and low, `output` high and low.
    words: [AtomicU64; 4],
}

impl PadCache {
    /// An empty cache.
    pub(crate) fn new() -> PadCache {
        PadCache::default()
    }

    /// The cached output if the cached input is `input`.
    #[inline]
    pub(crate) fn get(&self, input: u128) -> Option<u128> {
        let s = self.seq.load(Ordering::Acquire);
        if s == 0 || s & 1 == 1 {
            return None;
        }
        let w: [u64; 4] = core::array::from_fn(|i| self.words[i].load(Ordering::Relaxed));
        // Orders the word loads before the second `seq` load: a word written
        // after a writer's release fence makes its odd `seq` visible here.
        fence(Ordering::Acquire);
        if self.seq.load(Ordering::Relaxed) != s {
            return None;
        }
        let (i, o) = (
            ((w[0] as u128) << 64) | w[1] as u128,
            ((w[2] as u128) << 64) | w[3] as u128,
        );
        (i == input).then_some(o)
    }

    /// Cache `(input, output)` unless another thread is writing.
    #[inline]
    pub(crate) fn put(&self, input: u128, output: u128) {
        let s = self.seq.load(Ordering::Relaxed);
        // Acquire on success: the previous writer's word stores (before its
        // release of `s`) happen before this writer's, so no reader can see
        // a mix of the two under an even `seq`.
        if s & 1 == 1
            || self
                .seq
                .compare_exchange(s, s + 1, Ordering::Acquire, Ordering::Relaxed)
                .is_err()
        {
            return;
        }
        // The odd `seq` is ordered before the word stores (see `get`).
        fence(Ordering::Release);
        let w = [
            (input >> 64) as u64,
            input as u64,
            (output >> 64) as u64,
            output as u64,
        ];
        for (a, v) in self.words.iter().zip(w) {
            a.store(v, Ordering::Relaxed);
        }
        self.seq.store(s + 2, Ordering::Release);
    }
}

impl Drop for PadCache {
    fn drop(&mut self) {
        for w in &mut self.words {
            w.get_mut().zeroize();
        }
    }
}
