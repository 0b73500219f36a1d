#define _GNU_SOURCE
#include <sys/socket.h>
#include <dlfcn.h>
#include <malloc.h>
#include "CShims.h"
#include <openssl/ec.h>

int CShims_SSL_CTX_set_min_proto_version(SSL_CTX *ctx, int version) { return (int)SSL_CTX_set_min_proto_version(ctx, version); }
int CShims_SSL_CTX_set_max_proto_version(SSL_CTX *ctx, int version) { return (int)SSL_CTX_set_max_proto_version(ctx, version); }
long CShims_SSL_CTX_set_mode(SSL_CTX *ctx, long mode) { return SSL_CTX_set_mode(ctx, mode); }
long CShims_SSL_CTX_set_session_cache_mode(SSL_CTX *ctx, long mode) { return SSL_CTX_set_session_cache_mode(ctx, mode); }
long CShims_BIO_get_mem_data(BIO *bio, char **data) { return BIO_get_mem_data(bio, data); }
EVP_PKEY *CShims_EVP_EC_gen_P256(void) { return EVP_EC_gen("P-256"); }
void CShims_OPENSSL_free(void *pointer) { OPENSSL_free(pointer); }
int CShims_accept4(int fd, int flags) { return accept4(fd, NULL, NULL, flags); }
int CShims_pthread_timedjoin(pthread_t thread, const struct timespec *deadline) { return pthread_timedjoin_np(thread, NULL, deadline); }
long CShims_SSL_CTX_add1_chain_cert(SSL_CTX *ctx, X509 *cert) { return SSL_CTX_add1_chain_cert(ctx, cert); }
uint64_t CShims_SSL_OP_NO_RENEGOTIATION(void) { return SSL_OP_NO_RENEGOTIATION; }
uint64_t CShims_SSL_OP_NO_COMPRESSION(void) { return SSL_OP_NO_COMPRESSION; }
uint64_t CShims_SSL_OP_CIPHER_SERVER_PREFERENCE(void) { return SSL_OP_CIPHER_SERVER_PREFERENCE; }
uint64_t CShims_SSL_OP_IGNORE_UNEXPECTED_EOF(void) { return SSL_OP_IGNORE_UNEXPECTED_EOF; }

void CShims_release_free_memory(void) {
    void (*release)(void) = (void (*)(void))dlsym(RTLD_DEFAULT, "MallocExtension_ReleaseFreeMemory");
    if (release) {
        release();
    } else {
        malloc_trim(0);
    }
}
