// Cycles per byte of the installable peers of unimac's UMAC and VMAC:
// Nettle's UMAC-32/64/96/128 and Crypto++'s VMAC<AES> with 64- and 128-bit
// tags; and of the peers of hash127-aes and wc-eval128: OpenSSL's Poly1305
// (a one-time key per message, as Poly1305 is used: EVP_MAC_init with the
// key, update, final; the context fetched once) and OpenSSL's GMAC
// (AES-128, a new 12-byte IV per message, the key set once); at 64 B,
// 1 KiB, 16 KiB and 1 MiB. One line per cell:
//   PEER NAME SIZE CPB
// Each cell is the median of 15 runs of a loop that sets the nonce, hashes
// the message and makes the tag (one full MAC per message), timed with the
// time-stamp counter, as unimac's example `umac_speed` is. The nonce is an
// 8-byte big-endian counter, a new one per message as the protocols demand:
// consecutive nonces share one AES block in UMAC-32/64 and VMAC-64, which
// both libraries (and unimac) use by caching the last block.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <vector>
#include <x86intrin.h>

#include <nettle/umac.h>
#include <cryptopp/aes.h>
#include <cryptopp/vmac.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

template <class F>
static double cpb(size_t len, F f) {
    size_t reps = (1u << 22) / std::max<size_t>(len, 64) + 1;
    for (size_t i = 0; i < reps; i++) f();
    std::vector<double> v;
    for (int r = 0; r < 15; r++) {
        uint64_t t = __rdtsc();
        for (size_t i = 0; i < reps; i++) f();
        v.push_back(double(__rdtsc() - t) / double(reps * len));
    }
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

static volatile uint8_t sink;

int main() {
    const uint8_t key[16] = {'a','b','c','d','e','f','g','h','i','j','k','l','m','n','o','p'};
    uint8_t nonce[8] = {0};
    uint64_t ctr = 0;
    auto next = [&] {
        ctr++;
        for (int i = 0; i < 8; i++) nonce[i] = uint8_t(ctr >> (56 - 8 * i));
    };
    for (size_t len : {size_t(64), size_t(1) << 10, size_t(16) << 10, size_t(1) << 20}) {
        // The message where the allocator puts it, or BENCH_MSG_OFFSET bytes
        // past a 64-byte boundary (as unimac's `umac_speed` reads it too).
        std::vector<uint8_t> buf(len + 128);
        size_t start = 0;
        if (const char *o = std::getenv("BENCH_MSG_OFFSET")) {
            start = (64 - reinterpret_cast<uintptr_t>(buf.data()) % 64) % 64 + std::strtoul(o, nullptr, 10) % 64;
        }
        uint8_t *m = buf.data() + start;
        for (size_t i = 0; i < len; i++) m[i] = uint8_t(i * 131 + 7);
        {
            umac64_ctx c;
            umac64_set_key(&c, key);
            double r = cpb(len, [&] {
                uint8_t tag[8];
                next();
                umac64_set_nonce(&c, sizeof nonce, nonce);
                umac64_update(&c, len, m);
                umac64_digest(&c, 8, tag);
                sink = tag[0];
            });
            std::printf("nettle umac64 %zu %.3f\n", len, r);
        }
        {
            umac32_ctx c;
            umac32_set_key(&c, key);
            double r = cpb(len, [&] {
                uint8_t tag[4];
                next();
                umac32_set_nonce(&c, sizeof nonce, nonce);
                umac32_update(&c, len, m);
                umac32_digest(&c, 4, tag);
                sink = tag[0];
            });
            std::printf("nettle umac32 %zu %.3f\n", len, r);
        }
        {
            umac128_ctx c;
            umac128_set_key(&c, key);
            double r = cpb(len, [&] {
                uint8_t tag[16];
                next();
                umac128_set_nonce(&c, sizeof nonce, nonce);
                umac128_update(&c, len, m);
                umac128_digest(&c, 16, tag);
                sink = tag[0];
            });
            std::printf("nettle umac128 %zu %.3f\n", len, r);
        }
        for (int bits : {64, 128}) {
            CryptoPP::VMAC<CryptoPP::AES, 64> v64;
            CryptoPP::VMAC<CryptoPP::AES, 128> v128;
            CryptoPP::VMAC_Base &v = bits == 64 ? static_cast<CryptoPP::VMAC_Base &>(v64) : v128;
            v.SetKeyWithIV(key, 16, nonce, sizeof nonce);
            double r = cpb(len, [&] {
                uint8_t tag[16];
                next();
                v.Resynchronize(nonce, sizeof nonce);
                v.Update(m, len);
                v.TruncatedFinal(tag, bits / 8);
                sink = tag[0];
            });
            std::printf("cryptopp vmac%d %zu %.3f\n", bits, len, r);
        }
        {
            EVP_MAC *mac = EVP_MAC_fetch(nullptr, "POLY1305", nullptr);
            EVP_MAC_CTX *c = EVP_MAC_CTX_new(mac);
            uint8_t k32[32];
            for (int i = 0; i < 32; i++) k32[i] = uint8_t(i * 7 + 1);
            double r = cpb(len, [&] {
                uint8_t tag[16];
                size_t n = 0;
                next();
                std::memcpy(k32, nonce, 8); // a new one-time key per message
                EVP_MAC_init(c, k32, 32, nullptr);
                EVP_MAC_update(c, m, len);
                EVP_MAC_final(c, tag, &n, sizeof tag);
                sink = tag[0];
            });
            std::printf("openssl poly1305 %zu %.3f\n", len, r);
            EVP_MAC_CTX_free(c);
            EVP_MAC_free(mac);
        }
        {
            EVP_MAC *mac = EVP_MAC_fetch(nullptr, "GMAC", nullptr);
            EVP_MAC_CTX *c = EVP_MAC_CTX_new(mac);
            char cipher[] = "AES-128-GCM";
            uint8_t iv[12] = {0};
            OSSL_PARAM set[] = {
                OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, cipher, 0),
                OSSL_PARAM_construct_end(),
            };
            EVP_MAC_init(c, key, 16, set);
            double r = cpb(len, [&] {
                uint8_t tag[16];
                size_t n = 0;
                next();
                std::memcpy(iv, nonce, 8);
                OSSL_PARAM ivp[] = {
                    OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_IV, iv, sizeof iv),
                    OSSL_PARAM_construct_end(),
                };
                EVP_MAC_init(c, nullptr, 0, ivp); // same key, new IV
                EVP_MAC_update(c, m, len);
                EVP_MAC_final(c, tag, &n, sizeof tag);
                sink = tag[0];
            });
            std::printf("openssl gmac %zu %.3f\n", len, r);
            EVP_MAC_CTX_free(c);
            EVP_MAC_free(mac);
        }
    }
    return 0;
}
