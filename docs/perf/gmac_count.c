/* N GMAC tags (AES-128, 12-byte IV) of LEN-byte messages through EVP_MAC "GMAC".
   With a third argument "keyed", the key is set once and each tag takes a new IV
   (EVP_MAC_init with no key), as a MAC keyed once is used. */
#include <openssl/evp.h>
#include <openssl/core_names.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv) {
    size_t len = argc > 1 ? strtoul(argv[1], 0, 10) : 64, n = argc > 2 ? strtoul(argv[2], 0, 10) : 1;
    int keyed = argc > 3 && strcmp(argv[3], "keyed") == 0;
    unsigned char key[16], iv[12], tag[16], x = 0;
    memset(key, 0x5a, 16); memset(iv, 0x11, 12);
    unsigned char *m = malloc(len); memset(m, 7, len);
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "GMAC", NULL);
    EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(mac);
    OSSL_PARAM p[] = { OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, "AES-128-GCM", 0),
                       OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_IV, iv, 12), OSSL_PARAM_construct_end() };
    /* The IV alone: naming the cipher again would drop the key. */
    OSSL_PARAM piv[] = { OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_IV, iv, 12), OSSL_PARAM_construct_end() };
    for (size_t i = 0; i < n; i++) {
        size_t tl = 16;
        if (keyed) memcpy(iv, &i, sizeof i);
        int again = keyed && i > 0;
        if (!EVP_MAC_init(ctx, again ? NULL : key, again ? 0 : 16, again ? piv : p) || !EVP_MAC_update(ctx, m, len) || !EVP_MAC_final(ctx, tag, &tl, 16)) return 1;
        x ^= tag[0];
    }
    printf("%u\n", x);
    return 0;
}
