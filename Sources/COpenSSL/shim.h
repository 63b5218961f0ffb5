#ifndef CADDIE_COPENSSL_SHIM_H
#define CADDIE_COPENSSL_SHIM_H
// Debian's libcrypto (OpenSSL 3), for the one thing Caddie needs of it: the home's certificate authority and the
// node's server certificates (Sources/CaddieTLS). TLS itself is NIOSSL's. The EC_KEY calls that read and write a
// P-256 key as its 32-byte scalar are deprecated in OpenSSL 3 but kept; they are the shortest way to that format.
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <string.h>
#include <time.h>

/// A P-256 key from its 32-byte private scalar, or a new random one when `scalar` is NULL. NULL on failure.
static inline EVP_PKEY *caddie_p256_key(const unsigned char *scalar) {
    EC_KEY *ec = EC_KEY_new_by_curve_name(NID_X9_62_prime256v1);
    if (ec == NULL) return NULL;
    int ok = 0;
    if (scalar == NULL) {
        ok = EC_KEY_generate_key(ec);
    } else {
        BIGNUM *d = BN_bin2bn(scalar, 32, NULL);
        const EC_GROUP *group = EC_KEY_get0_group(ec);
        EC_POINT *point = EC_POINT_new(group);
        ok = d != NULL && point != NULL && !BN_is_zero(d) && BN_cmp(d, EC_GROUP_get0_order(group)) < 0
            && EC_POINT_mul(group, point, d, NULL, NULL, NULL) && EC_KEY_set_private_key(ec, d)
            && EC_KEY_set_public_key(ec, point);
        EC_POINT_free(point);
        BN_clear_free(d);
    }
    EVP_PKEY *key = ok ? EVP_PKEY_new() : NULL;
    if (key == NULL || !EVP_PKEY_assign_EC_KEY(key, ec)) {
        EVP_PKEY_free(key);
        EC_KEY_free(ec);
        return NULL;
    }
    return key;
}

/// The key's 32-byte private scalar into `out`. 1 on success.
static inline int caddie_p256_scalar(EVP_PKEY *key, unsigned char *out) {
    const EC_KEY *ec = EVP_PKEY_get0_EC_KEY(key);
    if (ec == NULL || EC_KEY_get0_private_key(ec) == NULL) return 0;
    return BN_bn2binpad(EC_KEY_get0_private_key(ec), out, 32) == 32;
}

/// The key as PKCS #8 PEM ("BEGIN PRIVATE KEY"), to be freed with OPENSSL_free... by `caddie_free`. NULL on failure.
static inline char *caddie_key_pem(EVP_PKEY *key) {
    BIO *bio = BIO_new(BIO_s_mem());
    if (bio == NULL) return NULL;
    char *text = NULL;
    if (PEM_write_bio_PrivateKey(bio, key, NULL, NULL, 0, NULL, NULL)) {
        char *data = NULL;
        long length = BIO_get_mem_data(bio, &data);
        text = length > 0 ? OPENSSL_malloc((size_t)length + 1) : NULL;
        if (text != NULL) {
            memcpy(text, data, (size_t)length);
            text[length] = 0;
        }
    }
    BIO_free(bio);
    return text;
}

static inline void caddie_free(void *pointer) { OPENSSL_free(pointer); }

/// Adds an extension from OpenSSL's configuration syntax ("critical,CA:TRUE,pathlen:0"). 1 on success.
static inline int caddie_add_extension(X509 *certificate, X509 *issuer, int nid, const char *value) {
    X509V3_CTX context;
    X509V3_set_ctx(&context, issuer, certificate, NULL, NULL, 0);
    X509_EXTENSION *extension = X509V3_EXT_conf_nid(NULL, &context, nid, value);
    if (extension == NULL) return 0;
    int ok = X509_add_ext(certificate, extension, -1);
    X509_EXTENSION_free(extension);
    return ok;
}

/// A v3 certificate of `key`'s public key, named O=Caddie, CN=`commonName`, valid from `notBefore` to `notAfter`
/// (seconds since 1970), issued and signed (ECDSA with SHA-256) by `issuer` with `issuerKey`, or self-signed when
/// `issuer` is NULL. `extensions` is a list of NID and value pairs in OpenSSL's configuration syntax, `count`
/// of them. NULL on failure.
static inline X509 *caddie_certificate(
    EVP_PKEY *key, const char *commonName, long long notBefore, long long notAfter, X509 *issuer,
    EVP_PKEY *issuerKey, const int *nids, const char *const *values, int count
) {
    X509 *certificate = X509_new();
    X509_NAME *name = X509_NAME_new();
    BIGNUM *serial = BN_new();
    int ok = certificate != NULL && name != NULL && serial != NULL && X509_set_version(certificate, X509_VERSION_3)
        && BN_rand(serial, 127, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY)
        && BN_to_ASN1_INTEGER(serial, X509_get_serialNumber(certificate)) != NULL
        && X509_NAME_add_entry_by_txt(name, "O", MBSTRING_UTF8, (const unsigned char *)"Caddie", -1, -1, 0)
        && X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, (const unsigned char *)commonName, -1, -1, 0)
        && X509_set_subject_name(certificate, name)
        && X509_set_issuer_name(certificate, issuer != NULL ? X509_get_subject_name(issuer) : name)
        && ASN1_TIME_set(X509_getm_notBefore(certificate), (time_t)notBefore) != NULL
        && ASN1_TIME_set(X509_getm_notAfter(certificate), (time_t)notAfter) != NULL
        && X509_set_pubkey(certificate, key);
    for (int index = 0; ok && index < count; index++) {
        ok = caddie_add_extension(certificate, issuer != NULL ? issuer : certificate, nids[index], values[index]);
    }
    ok = ok && X509_sign(certificate, issuerKey, EVP_sha256()) > 0;
    BN_free(serial);
    X509_NAME_free(name);
    if (!ok) {
        X509_free(certificate);
        return NULL;
    }
    return certificate;
}

/// A certificate's DER into a new buffer (freed with `caddie_free`), its length in `length`. NULL on failure.
static inline unsigned char *caddie_der(X509 *certificate, int *length) {
    unsigned char *der = NULL;
    *length = i2d_X509(certificate, &der);
    return *length > 0 ? der : NULL;
}

/// A certificate from DER. NULL when it does not read (or has bytes after it).
static inline X509 *caddie_read_certificate(const unsigned char *der, long length) {
    const unsigned char *cursor = der;
    X509 *certificate = d2i_X509(NULL, &cursor, length);
    if (certificate != NULL && cursor != der + length) {
        X509_free(certificate);
        return NULL;
    }
    return certificate;
}

/// When the certificate stops being valid, in seconds since 1970, through `out`. 1 on success.
static inline int caddie_not_after(X509 *certificate, long long *out) {
    struct tm parts;
    if (!ASN1_TIME_to_tm(X509_get0_notAfter(certificate), &parts)) return 0;
    *out = (long long)timegm(&parts);
    return 1;
}

/// When the certificate starts being valid, in seconds since 1970, through `out`. 1 on success.
static inline int caddie_not_before(X509 *certificate, long long *out) {
    struct tm parts;
    if (!ASN1_TIME_to_tm(X509_get0_notBefore(certificate), &parts)) return 0;
    *out = (long long)timegm(&parts);
    return 1;
}

/// Whether the certificate is of `key`'s public key.
static inline int caddie_certifies(X509 *certificate, EVP_PKEY *key) {
    EVP_PKEY *public = X509_get0_pubkey(certificate);
    return public != NULL && EVP_PKEY_eq(public, key) == 1;
}

/// The value (DER) of the certificate's Name Constraints extension, through `bytes` and `length` (owned by the
/// certificate), and whether it is critical. 1 when it has one.
static inline int caddie_name_constraints(X509 *certificate, const unsigned char **bytes, int *length, int *critical) {
    int position = X509_get_ext_by_NID(certificate, NID_name_constraints, -1);
    if (position < 0) return 0;
    X509_EXTENSION *extension = X509_get_ext(certificate, position);
    ASN1_OCTET_STRING *value = X509_EXTENSION_get_data(extension);
    *bytes = ASN1_STRING_get0_data(value);
    *length = ASN1_STRING_length(value);
    *critical = X509_EXTENSION_get_critical(extension);
    return 1;
}

/// SHA-256 of `length` bytes into `out` (32 bytes). 1 on success.
static inline int caddie_sha256(const unsigned char *bytes, size_t length, unsigned char *out) {
    unsigned int size = 0;
    return EVP_Digest(bytes, length, out, &size, EVP_sha256(), NULL) && size == 32;
}

#endif
