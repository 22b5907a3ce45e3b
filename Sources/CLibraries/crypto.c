// libcrypto (libssl3, libcrypto.so.3), opened on first use: see library_table.h.
#include <openssl/evp.h>

#include "library_table.h"

#define CRYPTO_FUNCTIONS(FORWARD, FORWARD_VOID, RESOLVED) \
    FORWARD(EVP_MD_CTX *, EVP_MD_CTX_new, (void), ()) \
    FORWARD_VOID(EVP_MD_CTX_free, (EVP_MD_CTX *a0), (a0)) \
    FORWARD(const EVP_MD *, EVP_sha256, (void), ()) \
    FORWARD(int, EVP_DigestInit_ex, (EVP_MD_CTX *a0, const EVP_MD *a1, ENGINE *a2), (a0, a1, a2)) \
    FORWARD(int, EVP_DigestUpdate, (EVP_MD_CTX *a0, const void *a1, size_t a2), (a0, a1, a2)) \
    FORWARD(int, EVP_DigestFinal_ex, (EVP_MD_CTX *a0, unsigned char *a1, unsigned int *a2), (a0, a1, a2))

#define syncagent_crypto_FORWARD(returns, name, parameters, arguments) SYNCAGENT_FORWARD(syncagent_crypto, returns, name, parameters, arguments)
#define syncagent_crypto_FORWARD_VOID(name, parameters, arguments) SYNCAGENT_FORWARD_VOID(syncagent_crypto, name, parameters, arguments)
SYNCAGENT_LIBRARY(syncagent_crypto, "libcrypto.so.3", "libssl3", CRYPTO_FUNCTIONS)
