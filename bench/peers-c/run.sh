#!/bin/sh
# Cycles per byte of unimac's UMAC and VMAC beside the installable peers:
# Nettle's UMAC (Debian nettle-dev) and Crypto++'s VMAC (Debian
# libcrypto++-dev); and of hash127-aes and wc-eval128 beside OpenSSL's
# Poly1305 and GMAC (Debian libssl-dev, EVP_MAC); at 64 B, 1 KiB, 16 KiB and 1 MiB, all timed with the
# time-stamp counter in one session; then cycles per message at 64 B and
# 1 KiB of Nettle's umac64 and umac128 beside unimac's fastest 64-bit MACs
# (umac64, wc-eval64) and 128-bit ones (umac128, hash127-aes). Each row
# names the kernel (backend) unimac's dispatch chose for that MAC and size
# on this CPU, and the first lines the CPU and the features the dispatch
# saw (so one run says what an Intel or AMD machine ran; UNIMAC_DISABLE=avx512
# in the environment shows the AVX2-only kernels). Not part of
# `cargo test`.
#
#   bench/peers-c/run.sh [ROUNDS]     (default 5 rounds; the best of each cell)
#
# Both programs place each message where the allocator puts it (a large
# one usually 16 bytes past a 64-byte boundary), or, with BENCH_MSG_OFFSET=n
# in the environment, n bytes past a 64-byte boundary.
#
# Installs the three packages with apt-get when their headers are missing
# (needs root), builds peers.cc against the installed libraries, builds
# unimac's `umac_speed` example, then alternates the two ROUNDS times (other
# processes on a shared machine only ever slow a run down, so the minimum is
# the least disturbed figure) and prints one table.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
rounds=${1:-5}
out=${TMPDIR:-/tmp}/unimac-peers.$$
mkdir -p "$out"
trap 'rm -rf "$out"' EXIT

if [ ! -f /usr/include/nettle/umac.h ] || [ ! -f /usr/include/cryptopp/vmac.h ] || [ ! -f /usr/include/openssl/evp.h ]; then
    apt-get install -y nettle-dev libcrypto++-dev libssl-dev
fi
${CXX:-g++} -O2 -march=native -o "$out/peers" "$here/peers.cc" -lnettle -lcryptopp -lcrypto
(cd "$root" && cargo build --release -q -p unimac --example umac_speed)
speed="$root/target/release/examples/umac_speed"

i=0
while [ "$i" -lt "$rounds" ]; do
    "$out/peers" >> "$out/all"
    "$speed" umac32 umac64 umac128 vmac64 vmac128 wc-eval64 hash127-aes wc-eval128 >> "$out/all"
    i=$((i + 1))
done

echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
echo "unimac dispatch saw: $(awk '$1 == "platform" { p = $2 } END { print p }' "$out/all")"
echo "cycles per byte (time-stamp counter), best of $rounds rounds; kernel = unimac's backend for the row"
awk '
$1 == "platform" { next }
$1 == "kernel" { kern[$2 " " $3] = $4; next }
{ k = $1 " " $2 " " $3; if (!(k in best) || $4 < best[k]) best[k] = $4; names[$2] = 1; sizes[$3] = 1 }
END {
    n = split("umac32:nettle:umac32 umac64:nettle:umac64 umac128:nettle:umac128 vmac64:cryptopp:vmac64 vmac128:cryptopp:vmac128 hash127-aes:openssl:poly1305 wc-eval128:openssl:gmac", order, " ")
    printf "%-11s %8s %10s %10s %7s  %-20s %s\n", "name", "bytes", "unimac", "peer", "ratio", "(peer)", "kernel"
    for (i = 1; i <= n; i++) {
        split(order[i], o, ":"); m = o[1]; peer = o[2]
        split("64 1024 16384 1048576", sz, " ")
        for (j = 1; j <= 4; j++) {
            u = best["unimac " m " " sz[j]]; p = best[peer " " o[3] " " sz[j]]
            if (u == "" || p == "") continue
            printf "%-11s %8d %10.3f %10.3f %6.2fx  %-20s %s\n", m, sz[j], u, p, p / u, "(" peer " " o[3] ")", kern[m " " sz[j]]
        }
    }
}' "$out/all"

echo
echo "cycles per message (time-stamp counter), best of $rounds rounds"
awk '
$1 == "platform" { next }
$1 == "kernel" { kern[$2 " " $3] = $4; next }
{ k = $1 " " $2 " " $3; if (!(k in best) || $4 < best[k]) best[k] = $4 }
END {
    printf "%-8s %-20s %10s %10s %12s  %s\n", "tag", "MAC", "64 B", "1 KiB", "x nettle 1K", "kernel (64 B, 1 KiB)"
    n = split("64:nettle:umac64 64:unimac:umac64 64:unimac:wc-eval64 128:nettle:umac128 128:unimac:umac128 128:unimac:hash127-aes", rows, " ")
    for (i = 1; i <= n; i++) {
        split(rows[i], r, ":")
        a = best[r[2] " " r[3] " 64"]; b = best[r[2] " " r[3] " 1024"]
        ref = best["nettle umac" r[1] " 1024"]
        if (a == "" || b == "") continue
        k = (r[2] == "unimac") ? kern[r[3] " 64"] ", " kern[r[3] " 1024"] : "-"
        printf "%-8s %-20s %10.0f %10.0f %11.2fx  %s\n", r[1] "-bit", r[2] " " r[3], a * 64, b * 1024, ref / b, k
    }
}' "$out/all"
