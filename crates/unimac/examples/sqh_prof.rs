use std::hint::black_box;
fn main() {
    let key = vec![0x5au8; 264];
    let msg = vec![0xa5u8; 264];
    let mut out = [0u8; 12];
    let v = std::env::args().nth(1).unwrap_or("e".into());
    let var = if v == "e" { unimac::square::Variant::E } else { unimac::square::Variant::Asm2 };
    let n = if var == unimac::square::Variant::E { 12 } else { 13 };
    let mut o2 = [0u8; 13];
    for _ in 0..20_000_000 {
        if n == 12 {
            unimac::square::hash_into(96, var, black_box(&key), black_box(&msg), &mut out).unwrap();
        } else {
            unimac::square::hash_into(96, var, black_box(&key), black_box(&msg), &mut o2).unwrap();
        }
    }
    black_box(out);
}
