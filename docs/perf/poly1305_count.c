/* N Poly1305 tags of LEN-byte messages through EVP_MAC "POLY1305", a one-time key per tag
   (EVP_MAC_init with the 32-byte key, as Poly1305 is used). */
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv) {
    size_t len = argc > 1 ? strtoul(argv[1], 0, 10) : 64, n = argc > 2 ? strtoul(argv[2], 0, 10) : 1;
    unsigned char key[32], tag[16], x = 0;
    memset(key, 0x5a, 32);
    unsigned char *m = malloc(len); memset(m, 7, len);
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "POLY1305", NULL);
    EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(mac);
    for (size_t i = 0; i < n; i++) {
        size_t tl = 16;
        key[0] = (unsigned char)i;
        if (!EVP_MAC_init(ctx, key, 32, NULL) || !EVP_MAC_update(ctx, m, len) || !EVP_MAC_final(ctx, tag, &tl, 16)) return 1;
        x ^= tag[0];
    }
    printf("%u\n", x);
    return 0;
}
