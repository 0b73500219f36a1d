// One-line wrappers for C macros and variadic calls that Swift cannot import.
// Each wrapper is named CShims_<original>.
#ifndef CSHIMS_H
#define CSHIMS_H

#include <openssl/ssl.h>
#include <openssl/evp.h>
#include <openssl/bio.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <netinet/tcp.h>
#include <pthread.h>

int CShims_SSL_CTX_set_min_proto_version(SSL_CTX *ctx, int version);
int CShims_SSL_CTX_set_max_proto_version(SSL_CTX *ctx, int version);
long CShims_SSL_CTX_set_mode(SSL_CTX *ctx, long mode);
long CShims_SSL_CTX_set_session_cache_mode(SSL_CTX *ctx, long mode);
long CShims_BIO_get_mem_data(BIO *bio, char **data);
EVP_PKEY *CShims_EVP_EC_gen_P256(void);
void CShims_OPENSSL_free(void *pointer);

long CShims_SSL_CTX_add1_chain_cert(SSL_CTX *ctx, X509 *cert);
uint64_t CShims_SSL_OP_NO_RENEGOTIATION(void);
uint64_t CShims_SSL_OP_NO_COMPRESSION(void);
uint64_t CShims_SSL_OP_CIPHER_SERVER_PREFERENCE(void);
uint64_t CShims_SSL_OP_IGNORE_UNEXPECTED_EOF(void);
/// accept4(2) is only declared under _GNU_SOURCE.
int CShims_accept4(int fd, int flags);
/// pthread_timedjoin_np(3) (only declared under _GNU_SOURCE): waits until `deadline` (CLOCK_REALTIME)
/// for a thread to end, its thread-specific destructors run. Not pthread_clockjoin_np: the
/// sanitizers see only the older call.
int CShims_pthread_timedjoin(pthread_t thread, const struct timespec *deadline);
/// Returns freed memory to the system: tcmalloc's MallocExtension_ReleaseFreeMemory when the
/// process runs on tcmalloc (found at run time, so sanitizer builds without it link too), else
/// glibc's malloc_trim(0).
void CShims_release_free_memory(void);

#endif
