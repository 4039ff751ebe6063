#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/param_build.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>

// Glue for making public keys from their numbers (OpenSSL 3's EVP_PKEY_fromdata): a parameter
// builder keeps its parameters' names as pointers, so the names must outlive the call, as
// these string literals do (a Swift string passed as `const char *` does not).

/// A public key of `type` ("RSA", "EC") from the parameters in `builder`; NULL if they are not one.
static inline EVP_PKEY *ccrypto_public_key_from(const char *type, OSSL_PARAM_BLD *builder) {
    OSSL_PARAM *params = OSSL_PARAM_BLD_to_param(builder);
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_name(NULL, type, NULL);
    EVP_PKEY *key = NULL;
    if (params == NULL || context == NULL || EVP_PKEY_fromdata_init(context) != 1
        || EVP_PKEY_fromdata(context, &key, EVP_PKEY_PUBLIC_KEY, params) != 1) {
        key = NULL;
    }
    EVP_PKEY_CTX_free(context);
    OSSL_PARAM_free(params);
    return key;
}

/// An RSA public key from its modulus and public exponent (big-endian bytes); NULL if they are not one.
static inline EVP_PKEY *ccrypto_rsa_public_key(const unsigned char *n, size_t n_length, const unsigned char *e, size_t e_length) {
    OSSL_PARAM_BLD *builder = OSSL_PARAM_BLD_new();
    BIGNUM *modulus = BN_bin2bn(n, (int)n_length, NULL);
    BIGNUM *exponent = BN_bin2bn(e, (int)e_length, NULL);
    EVP_PKEY *key = NULL;
    if (builder != NULL && modulus != NULL && exponent != NULL
        && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_N, modulus) == 1
        && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_E, exponent) == 1) {
        key = ccrypto_public_key_from("RSA", builder);
    }
    BN_free(modulus);
    BN_free(exponent);
    OSSL_PARAM_BLD_free(builder);
    return key;
}

/// A P-256 public key from its uncompressed point (0x04, x, y: 65 bytes); NULL if it is not
/// a point on the curve.
static inline EVP_PKEY *ccrypto_p256_public_key(const unsigned char *point, size_t length) {
    OSSL_PARAM_BLD *builder = OSSL_PARAM_BLD_new();
    EVP_PKEY *key = NULL;
    if (builder != NULL && OSSL_PARAM_BLD_push_utf8_string(builder, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0) == 1
        && OSSL_PARAM_BLD_push_octet_string(builder, OSSL_PKEY_PARAM_PUB_KEY, point, length) == 1) {
        key = ccrypto_public_key_from("EC", builder);
    }
    OSSL_PARAM_BLD_free(builder);
    return key;
}
