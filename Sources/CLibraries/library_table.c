#define _GNU_SOURCE
#include "library_table.h"

#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((visibility("hidden"))) extern struct syncagent_library_table syncagent_curl, syncagent_crypto, syncagent_gio, syncagent_notify, syncagent_sqlite;

static struct syncagent_library_table *table_of(syncagent_library library) {
    switch (library) {
    case SYNCAGENT_LIBRARY_CURL: return &syncagent_curl;
    case SYNCAGENT_LIBRARY_CRYPTO: return &syncagent_crypto;
    case SYNCAGENT_LIBRARY_GIO: return &syncagent_gio;
    case SYNCAGENT_LIBRARY_NOTIFY: return &syncagent_notify;
    case SYNCAGENT_LIBRARY_SQLITE: return &syncagent_sqlite;
    }
    abort();
}

/// Whether this thread is a loading thread (syncagent_libraries_start_loading).
static __thread int is_loading_thread;

/// The other threads opening a library while a loading thread may be at work.
static struct {
    pthread_mutex_t lock;
    pthread_cond_t none_left;
    int opening;
} others = { .lock = PTHREAD_MUTEX_INITIALIZER, .none_left = PTHREAD_COND_INITIALIZER };

/// Makes the loading thread wait, between two libraries, while another thread opens one. The
/// dynamic loader opens one library at a time (under a lock of its own), and a thread that
/// opens thirty in a row takes that lock again each time before a waiting thread wakes up: the
/// command's thread, come to open SQLite for its state, waited for most of libcurl's tree.
static void give_way(void) {
    if (!is_loading_thread || __atomic_load_n(&others.opening, __ATOMIC_ACQUIRE) == 0) return;
    pthread_mutex_lock(&others.lock);
    while (others.opening > 0) pthread_cond_wait(&others.none_left, &others.lock);
    pthread_mutex_unlock(&others.lock);
}

/// Counts this thread among the others while it opens a library (`change` 1, then -1).
static void count_other_opener(int change) {
    if (is_loading_thread) return;
    pthread_mutex_lock(&others.lock);
    others.opening += change;
    if (others.opening == 0) pthread_cond_broadcast(&others.none_left);
    pthread_mutex_unlock(&others.lock);
}

/// RTLD_LAZY: the library's own calls into its dependencies are bound when first made, as when
/// it was linked (RTLD_NOW binds libcurl's whole tree at once: 6% more instructions for a
/// `--once` re-check). Every function syncagent calls is still looked up at once (dlsym in
/// open_table), so a library that lacks one fails here, by name.
/// RTLD_LOCAL: nothing it defines joins the program's global symbols.
static void *open_library(const char *soname, char *reason, size_t size) {
    give_way();
    void *handle = dlopen(soname, RTLD_LAZY | RTLD_LOCAL);
    if (handle == NULL) {
        const char *error = dlerror();
        snprintf(reason, size, "%s", error != NULL ? error : soname);
    }
    return handle;
}

static int open_table(struct syncagent_library_table *table) {
    __atomic_store_n(&table->opening, 1, __ATOMIC_RELEASE);
    if (table->dependencies != NULL) {
        char ignored[sizeof table->reason];
        for (const char *const *name = table->dependencies; *name != NULL; name++) {
            void *dependency = open_library(*name, ignored, sizeof ignored);
            if (table->dependency_opened != NULL) table->dependency_opened(*name, dependency);
        }
    }
    if (table->dependency_opened != NULL) table->dependency_opened(NULL, NULL);
    void *handle = open_library(table->soname, table->reason, sizeof table->reason);
    if (handle == NULL) return -1;
    for (size_t index = 0; index < table->count; index++) {
        void *function = dlsym(handle, table->names[index]);
        if (function == NULL) {
            const char *error = dlerror();
            snprintf(table->reason, sizeof table->reason, "%s", error != NULL ? error : table->names[index]);
            // The functions found so far stay unused; the handle stays open, as dlclose of a
            // library with threads of its own (GLib) is not safe.
            return -1;
        }
        table->functions[index] = function;
    }
    if (table->prepare != NULL) table->prepare(table);
    return 1;
}

int syncagent_table_load(struct syncagent_library_table *table) {
    int state = __atomic_load_n(&table->state, __ATOMIC_ACQUIRE);
    if (state != 0) return state == 1;
    if (table->while_opened_elsewhere != NULL && __atomic_load_n(&table->opening, __ATOMIC_ACQUIRE)) table->while_opened_elsewhere();
    pthread_mutex_lock(&table->lock);
    state = table->state;
    if (state == 0) {
        // Counted only now, holding the table: a loading thread that holds it (opening it)
        // never waits for this one.
        count_other_opener(1);
        state = open_table(table);
        count_other_opener(-1);
        __atomic_store_n(&table->state, state, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&table->lock);
    return state == 1;
}

void *syncagent_table_function(struct syncagent_library_table *table, size_t index) {
    if (!syncagent_table_load(table)) {
        fprintf(stderr, "syncagent: %s cannot be loaded (%s): install the Debian package %s\n",
            table->soname, table->reason, table->package);
        exit(3);
    }
    return table->functions[index];
}

const char *syncagent_library_soname(syncagent_library library) {
    return table_of(library)->soname;
}

const char *const *syncagent_library_dependencies(syncagent_library library) {
    static const char *const none[] = { NULL };
    const char *const *dependencies = table_of(library)->dependencies;
    return dependencies != NULL ? dependencies : none;
}

const char *syncagent_library_package(syncagent_library library) {
    return table_of(library)->package;
}

int syncagent_library_load(syncagent_library library, const char **reason) {
    struct syncagent_library_table *table = table_of(library);
    if (syncagent_table_load(table)) return 1;
    *reason = table->reason;
    return 0;
}

int syncagent_library_probe(const char *soname, char *reason, unsigned long size) {
    void *handle = open_library(soname, reason, size);
    if (handle == NULL) return 0;
    dlclose(handle);
    return 1;
}

/// The libraries a loading thread opens, in order.
struct loading_order {
    size_t count;
    syncagent_library libraries[];
};

static void *load_in_background(void *context) {
    struct loading_order *order = context;
    is_loading_thread = 1;
    for (size_t index = 0; index < order->count; index++) (void)syncagent_table_load(table_of(order->libraries[index]));
    free(order);
    return NULL;
}

int syncagent_libraries_can_load_alongside(void) {
    cpu_set_t cpus;
    if (sched_getaffinity(0, sizeof cpus, &cpus) != 0) return 0;
    return CPU_COUNT(&cpus) > 1;
}

void syncagent_libraries_start_loading(const syncagent_library *libraries, unsigned long count) {
    // On one processor the thread would only take turns with the command: no gain, a thread
    // more, and the command waiting whenever the loader is not the one running.
    if (!syncagent_libraries_can_load_alongside()) return;
    struct loading_order *order = malloc(sizeof *order + count * sizeof *libraries);
    if (order == NULL) return;
    order->count = count;
    memcpy(order->libraries, libraries, count * sizeof *libraries);
    // Every signal blocked in the thread from its first instruction (it inherits this mask):
    // SIGINT or SIGTERM must go to the threads that wait for them, or to none, and a thread
    // that has not yet blocked them would take them with their default action, ending the
    // process instead of letting it stop cleanly.
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    pthread_t thread;
    int started = pthread_create(&thread, NULL, load_in_background, order);
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    if (started == 0) {
        // Named like syncagent's other threads, for `top -H` and debuggers.
        (void)pthread_setname_np(thread, "load-libraries");
        pthread_detach(thread);
    } else {
        // Without a thread, each library loads on first use, as it would have anyway.
        free(order);
    }
}

void syncagent_libraries_start_loading_for_transfers(void) {
    static const syncagent_library transfers[] = { SYNCAGENT_LIBRARY_CURL, SYNCAGENT_LIBRARY_CRYPTO };
    syncagent_libraries_start_loading(transfers, sizeof transfers / sizeof *transfers);
}

int syncagent_arguments_may_transfer(const char *const *arguments, unsigned long count) {
    int once = 0;
    for (unsigned long index = 0; index < count; index++) {
        if (strcmp(arguments[index], "--dry-run") == 0) return 0;
        if (strcmp(arguments[index], "--once") == 0) once = 1;
    }
    return once;
}

/// Defined (returning 1) by a program whose command lines syncagent_arguments_may_transfer
/// reads: the syncagent command. Tests and probes that link this library do not define it, and
/// open nothing at start.
extern int syncagent_program_opens_libraries_at_start(void) __attribute__((weak));

/// Starts opening libcurl's tree as the program starts, before any Swift code runs, when the
/// command line looks like a batch of transfers: here, not in the command's `main`, because
/// the loading thread is a small re-check's longest path (it opens some thirty libraries and
/// sets up OpenSSL, while the command's thread parses, reads the manifest and the state and
/// then waits for it), and `main` comes 0.2–0.5 ms later, after the Swift runtime's start and
/// the program's other initialisers. One of those (the runtime's backtracer finding its path
/// with dladdr) then waits for the dynamic loader's lock while this thread opens a library:
/// time the command's thread has to spare, as it waits for libcurl later anyway. Glibc passes a
/// program's initialisers their arguments.
__attribute__((constructor)) static void start_loading_at_start(int argc, char **argv, char **environment) {
    (void)environment;
    if (syncagent_program_opens_libraries_at_start == NULL || !syncagent_program_opens_libraries_at_start()) return;
    if (argc < 1 || argv == NULL || !syncagent_arguments_may_transfer((const char *const *)argv + 1, (unsigned long)argc - 1)) return;
    syncagent_libraries_start_loading_for_transfers();
}
