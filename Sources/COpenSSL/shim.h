#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <openssl/err.h>
#include <openssl/rand.h>

// SHA-256 through the digest's own functions rather than EVP: the chain and the tree hash a short
// input or two per event, and EVP's dispatch (and, in OpenSSL 3.0, an allocation) per call is a
// large share of that. Deprecated since OpenSSL 3.0, not removed; the warnings are silenced for
// these functions.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
// SHA-256 of up to three buffers one after the other (a NULL buffer is skipped): a chain link
// (its fixed prefix, then its body) and a Merkle leaf or node (the prefix byte, then one or two
// hashes). On a context on the stack: OpenSSL 3.0's EVP_DigestInit_ex2 allocates and frees the
// digest's state on every call, even on a reused EVP_MD_CTX.
static inline int journal_sha256_parts(
    const void *first, size_t firstCount, const void *second, size_t secondCount, const void *third,
    size_t thirdCount, void *out) {
    SHA256_CTX context;
    if (SHA256_Init(&context) != 1) return 0;
    if (first != NULL && SHA256_Update(&context, first, firstCount) != 1) return 0;
    if (second != NULL && SHA256_Update(&context, second, secondCount) != 1) return 0;
    if (third != NULL && SHA256_Update(&context, third, thirdCount) != 1) return 0;
    return SHA256_Final((unsigned char *)out, &context);
}

// SHA-256 of one buffer.
static inline int journal_sha256(const void *bytes, size_t count, void *out) {
    return journal_sha256_parts(bytes, count, NULL, 0, NULL, 0, out);
}

// SHA-256 fed piece by piece, on a context the caller keeps (on its stack).
static inline int journal_sha256_begin(SHA256_CTX *context) { return SHA256_Init(context); }

static inline int journal_sha256_update(SHA256_CTX *context, const void *bytes, size_t count) {
    return SHA256_Update(context, bytes, count);
}

static inline int journal_sha256_end(SHA256_CTX *context, void *out) {
    return SHA256_Final((unsigned char *)out, context);
}
#pragma GCC diagnostic pop
#endif
