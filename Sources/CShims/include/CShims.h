// One-line wrappers for C macros and variadic calls that Swift cannot import.
// Each wrapper is named CShims_<original>.
#ifndef CSHIMS_H
#define CSHIMS_H

#include <openssl/ssl.h>
#include <openssl/evp.h>
#include <openssl/bio.h>

int CShims_SSL_CTX_set_min_proto_version(SSL_CTX *ctx, int version);
int CShims_SSL_CTX_set_max_proto_version(SSL_CTX *ctx, int version);
long CShims_SSL_CTX_set_mode(SSL_CTX *ctx, long mode);
long CShims_SSL_CTX_set_session_cache_mode(SSL_CTX *ctx, long mode);
long CShims_BIO_get_mem_data(BIO *bio, char **data);
EVP_PKEY *CShims_EVP_EC_gen_P256(void);
void CShims_OPENSSL_free(void *pointer);

#endif
