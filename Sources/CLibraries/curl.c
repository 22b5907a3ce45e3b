// libcurl (libcurl4, libcurl.so.4), opened on first use: see library_table.h.
#include <curl/curl.h>
#include <dlfcn.h>
#include <openssl/crypto.h>
#include <openssl/ssl.h>
#include <pthread.h>
#include <string.h>

#include "library_table.h"

#define CURL_FUNCTIONS(FORWARD, FORWARD_VOID, RESOLVED) \
    FORWARD(CURLcode, curl_global_init, (long int a0), (a0)) \
    FORWARD(curl_version_info_data *, curl_version_info, (CURLversion a0), (a0)) \
    FORWARD(CURL *, curl_easy_init, (void), ()) \
    FORWARD_VOID(curl_easy_cleanup, (CURL *a0), (a0)) \
    FORWARD_VOID(curl_easy_reset, (CURL *a0), (a0)) \
    FORWARD(CURLcode, curl_easy_pause, (CURL *a0, int a1), (a0, a1)) \
    FORWARD(const char *, curl_easy_strerror, (CURLcode a0), (a0)) \
    FORWARD(struct curl_slist *, curl_slist_append, (struct curl_slist *a0, const char *a1), (a0, a1)) \
    FORWARD_VOID(curl_slist_free_all, (struct curl_slist *a0), (a0)) \
    FORWARD(CURLM *, curl_multi_init, (void), ()) \
    FORWARD(CURLMcode, curl_multi_cleanup, (CURLM *a0), (a0)) \
    FORWARD(CURLMcode, curl_multi_add_handle, (CURLM *a0, CURL *a1), (a0, a1)) \
    FORWARD(CURLMcode, curl_multi_remove_handle, (CURLM *a0, CURL *a1), (a0, a1)) \
    FORWARD(CURLMcode, curl_multi_perform, (CURLM *a0, int *a1), (a0, a1)) \
    FORWARD(CURLMcode, curl_multi_poll, (CURLM *a0, struct curl_waitfd *a1, unsigned int a2, int a3, int *a4), (a0, a1, a2, a3, a4)) \
    FORWARD(CURLMcode, curl_multi_wakeup, (CURLM *a0), (a0)) \
    FORWARD(CURLMsg *, curl_multi_info_read, (CURLM *a0, int *a1), (a0, a1)) \
    FORWARD(const char *, curl_multi_strerror, (CURLMcode a0), (a0)) \
    RESOLVED(curl_easy_setopt) \
    RESOLVED(curl_easy_getinfo) \
    RESOLVED(curl_multi_setopt)

#define syncagent_curl_FORWARD(returns, name, parameters, arguments) SYNCAGENT_FORWARD(syncagent_curl, returns, name, parameters, arguments)
#define syncagent_curl_FORWARD_VOID(name, parameters, arguments) SYNCAGENT_FORWARD_VOID(syncagent_curl, name, parameters, arguments)
static void prepare_curl(struct syncagent_library_table *table);
static void note_openssl(const char *soname, void *handle);
static void set_up_openssl_while_curl_opens(void);
/// Debian 12's libcurl4 tree (7.88, OpenSSL), leaves first (see library_table.h's
/// `dependencies`): opened so, the loading thread's dlopen calls (SQLite's and libcurl's tree)
/// take 12.8 M instructions instead of 15.7 M (the symbol look-ups, most of the work, pass fewer
/// libraries each), on the thread that opens them while the command parses, which a small
/// re-check waits for. SharedLibraryTests check that
/// it is libcurl's whole tree in such an order.
static const char *const curl_dependencies[] = {
    "libffi.so.8", "libresolv.so.2", "libkeyutils.so.1", "libtasn1.so.6", "libp11-kit.so.0", "libbrotlicommon.so.1",
    "libsasl2.so.2", "libkrb5support.so.0", "libcom_err.so.2", "libk5crypto.so.3", "libkrb5.so.3", "libgmp.so.10",
    "libnettle.so.8", "libhogweed.so.6", "libunistring.so.2", "libz.so.1", "libbrotlidec.so.1", "libzstd.so.1",
    "liblber-2.5.so.0", "libgssapi_krb5.so.2", "libcrypto.so.3", "libssl.so.3", "libssh2.so.1", "libidn2.so.0",
    "libgnutls.so.30", "libldap-2.5.so.0", "libpsl.so.5", "librtmp.so.1", "libnghttp2.so.14", NULL,
};
SYNCAGENT_LIBRARY_OVERLAPPED(
    syncagent_curl, "libcurl.so.4", "libcurl4", CURL_FUNCTIONS, prepare_curl, curl_dependencies, note_openssl, set_up_openssl_while_curl_opens
)

/// OPENSSL_init_crypto and OPENSSL_init_ssl, as dlsym finds them.
typedef int (*openssl_init_function)(uint64_t, const OPENSSL_INIT_SETTINGS *);

/// Tells OpenSSL, before libcurl sets it up, not to free all it holds when the process exits
/// (OPENSSL_INIT_NO_ATEXIT): 545,000 instructions at the end of every command that opened
/// libcurl, on the way to its exit, for memory the kernel takes back at once anyway. That
/// clean-up writes nothing and flushes nothing; syncagent never unloads OpenSSL, the one case
/// that would need it. Only the first set-up of OpenSSL in the process decides, so it must come
/// before curl_global_init's. libcrypto is libcurl's own dependency, already open here (none is
/// opened: RTLD_NOLOAD); a libcurl on another TLS library has none, and nothing is done.
static void skip_openssl_cleanup_at_exit(void) {
    void *crypto = dlopen("libcrypto.so.3", RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD);
    if (crypto == NULL) return;
    openssl_init_function init_crypto = (openssl_init_function)dlsym(crypto, "OPENSSL_init_crypto");
    if (init_crypto != NULL) (void)init_crypto(OPENSSL_INIT_NO_ATEXIT, NULL);
    // RTLD_NOLOAD counted one more user of it; libcurl still holds it open.
    dlclose(crypto);
}

/// OpenSSL's two set-up calls, found by the thread that opens libcurl's tree as it opens
/// libcrypto and libssl (dlsym, like dlopen, takes the dynamic loader's lock, which that thread
/// holds most of the time), for a thread that waits for libcurl meanwhile.
static struct {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    openssl_init_function init_crypto;
    openssl_init_function init_ssl;
    /// 0 while libssl is still to be opened, 1 once it and libcrypto are (both functions
    /// found), -1 when they will not be (libcurl's dependencies are all passed).
    int state;
} openssl = { .lock = PTHREAD_MUTEX_INITIALIZER, .changed = PTHREAD_COND_INITIALIZER };

static void note_openssl(const char *soname, void *handle) {
    pthread_mutex_lock(&openssl.lock);
    if (soname == NULL) {
        if (openssl.state == 0) openssl.state = -1;
    } else if (handle != NULL && strcmp(soname, "libcrypto.so.3") == 0) {
        openssl.init_crypto = (openssl_init_function)dlsym(handle, "OPENSSL_init_crypto");
    } else if (handle != NULL && strcmp(soname, "libssl.so.3") == 0) {
        openssl.init_ssl = (openssl_init_function)dlsym(handle, "OPENSSL_init_ssl");
        openssl.state = openssl.init_crypto != NULL && openssl.init_ssl != NULL ? 1 : -1;
    }
    pthread_cond_broadcast(&openssl.changed);
    pthread_mutex_unlock(&openssl.lock);
}

/// The command's thread, come to wait for libcurl while the loading thread is still opening its
/// tree (a small re-check's longest path), sets OpenSSL up itself as soon as libcrypto and
/// libssl are open, while the loading thread opens the eight libraries left (GnuTLS, LDAP,
/// libcurl…): OpenSSL's set-up is 2.4 M instructions, most of it reading its configuration, and
/// curl_global_init's own call of it in prepare_curl then finds it done. The same calls with
/// the same options as libcurl 7.88's (OPENSSL_init_ssl with the built-in engines and the
/// configuration), after the one that keeps OpenSSL's memory at exit, as prepare_curl makes
/// them; OpenSSL's set-up is thread-safe (each step runs once, under its own lock), so where
/// both threads get there at once one waits for the other. Takes no lock of the dynamic
/// loader's: the functions were found by the loading thread.
static void set_up_openssl_while_curl_opens(void) {
    pthread_mutex_lock(&openssl.lock);
    while (openssl.state == 0) pthread_cond_wait(&openssl.changed, &openssl.lock);
    int ready = openssl.state == 1;
    pthread_mutex_unlock(&openssl.lock);
    if (!ready) return;
    (void)openssl.init_crypto(OPENSSL_INIT_NO_ATEXIT, NULL);
    (void)openssl.init_ssl(OPENSSL_INIT_ENGINE_ALL_BUILTIN | OPENSSL_INIT_LOAD_CONFIG, NULL);
}

/// Sets libcurl up (curl_global_init: OpenSSL's set-up, 2.4 M instructions) where it is opened,
/// so that when the library-loading thread opens it (SharedLibraryPreload) that work is done
/// there too, alongside the command, and the command's own call (CurlGlobal) only counts one
/// more user. That call still makes the decision and its fatal message if this one failed:
/// curl_global_init undoes a failed set-up, so that call tries again and fails the same way.
///
/// Safe on a thread of its own only where libcurl says its set-up is thread-safe
/// (CURL_VERSION_THREADSAFE, since 7.84: a lock, and a count of calls; Debian 12's 7.88 is so
/// built): the command's thread runs on meanwhile, and the set-up of OpenSSL, libssh2 and the
/// rest it calls would otherwise have to run with no other thread in the process. Elsewhere
/// nothing is done here and CurlGlobal sets it up on the command's thread, as before. No call
/// into libcurl through its forwarders can come first (they wait for the loader's lock, held
/// while this runs).
static void prepare_curl(struct syncagent_library_table *table) {
    skip_openssl_cleanup_at_exit();
    curl_version_info_data *(*version)(CURLversion) = (curl_version_info_data * (*)(CURLversion)) table->functions[syncagent_index_curl_version_info];
    const curl_version_info_data *info = version(CURLVERSION_NOW);
    if (info == NULL || (info->features & CURL_VERSION_THREADSAFE) == 0) return;
    CURLcode (*global_init)(long) = (CURLcode(*)(long))table->functions[syncagent_index_curl_global_init];
    (void)global_init(CURL_GLOBAL_ALL);
}

// GnuTLS comes into the process only as a library libcurl's own libraries need (librtmp,
// libldap), for URL schemes syncagent never lets libcurl use: transfers allow http and https
// alone (CURLOPT_PROTOCOLS_STR), and libcurl's TLS is OpenSSL's. Its constructor would still
// set it up as libcurl is opened (system configuration, random generator, p11-kit), 0.85 MiB
// kept resident for nothing. GnuTLS asks this function first (gnutls.h's
// GNUTLS_SKIP_GLOBAL_INIT), and the answer here comes before its own because the program's
// symbols come first: the release build exports it (Package.swift). Code that does use GnuTLS
// (those two libraries included) calls gnutls_global_init itself, which is unaffected.
__attribute__((visibility("default"), used)) int _gnutls_global_init_skip(void) {
    return 1;
}

// The typed forwarders CCurl's shim.h declares: each calls the variadic function with an argument
// of the one type its option takes.
#define SETOPT SYNCAGENT_FUNCTION(syncagent_curl, curl_easy_setopt)
#define GETINFO SYNCAGENT_FUNCTION(syncagent_curl, curl_easy_getinfo)

CURLcode syncagent_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return SETOPT(handle, option, value);
}

CURLcode syncagent_easy_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    return SETOPT(handle, option, value);
}

CURLcode syncagent_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return SETOPT(handle, option, value);
}

CURLcode syncagent_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return SETOPT(handle, option, value);
}

CURLcode syncagent_easy_setopt_write_callback(CURL *handle, CURLoption option, curl_write_callback value) {
    return SETOPT(handle, option, value);
}

CURLcode syncagent_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return GETINFO(handle, info, value);
}

CURLcode syncagent_easy_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value) {
    return GETINFO(handle, info, value);
}

CURLcode syncagent_easy_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return GETINFO(handle, info, value);
}

CURLcode syncagent_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value) {
    return GETINFO(handle, info, value);
}

CURLMcode syncagent_multi_setopt_long(CURLM *handle, CURLMoption option, long value) {
    return SYNCAGENT_FUNCTION(syncagent_curl, curl_multi_setopt)(handle, option, value);
}

CURLcode syncagent_easy_unpause(CURL *handle) {
    return curl_easy_pause(handle, CURLPAUSE_CONT);
}
