/*
 * The least any program that transfers through Debian's libcurl can take for a re-check: it
 * loads libcurl, asks the server about every URL with If-Modified-Since (HTTP/1.1 keep-alive,
 * at most PARALLEL at once, one multi handle, as syncagent does) and throws the answers away.
 * No manifest, no state, no files, no progress: what is left is libcurl's own work and the
 * program's start. docs/benchmarks.md compares it with wget2's whole re-check.
 *
 *     cc -O2 -o /tmp/libcurl-floor bench/libcurl-floor.c -lcurl
 *     /tmp/libcurl-floor EPOCH-SECONDS URL...        # or: ... EPOCH-SECONDS - < urls.txt
 */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PARALLEL = 8 };

static size_t discard(char *data, size_t size, size_t count, void *context) {
    (void)data, (void)context;
    return size * count;
}

/* A handle for `url`: `handle` reset for it (handles are reused, as syncagent reuses them), or
 * a new one. */
static CURL *request(CURL *handle, const char *url, long since) {
    if (handle) curl_easy_reset(handle);
    else handle = curl_easy_init();
    curl_easy_setopt(handle, CURLOPT_URL, url);
    curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, discard);
    curl_easy_setopt(handle, CURLOPT_TIMECONDITION, (long)CURL_TIMECOND_IFMODSINCE);
    curl_easy_setopt(handle, CURLOPT_TIMEVALUE, since);
    return handle;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s EPOCH-SECONDS URL... (or - to read URLs from standard input)\n", argv[0]);
        return 2;
    }
    long since = atol(argv[1]);
    char **urls = argv + 2;
    size_t count = (size_t)argc - 2;
    if (strcmp(urls[0], "-") == 0) {
        static char *read[1 << 20];
        char line[4096];
        count = 0;
        while (count < sizeof read / sizeof *read && fgets(line, sizeof line, stdin)) {
            line[strcspn(line, "\n")] = 0;
            read[count++] = strdup(line);
        }
        urls = read;
    }
    curl_global_init(CURL_GLOBAL_DEFAULT);
    CURLM *multi = curl_multi_init();
    curl_multi_setopt(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, (long)PARALLEL);
    size_t next = 0, running = 0, failed = 0, changed = 0;
    for (; next < count && running < PARALLEL; next++, running++) curl_multi_add_handle(multi, request(NULL, urls[next], since));
    while (running > 0) {
        int still;
        curl_multi_perform(multi, &still);
        CURLMsg *message;
        int left;
        while ((message = curl_multi_info_read(multi, &left))) {
            if (message->msg != CURLMSG_DONE) continue;
            CURL *done = message->easy_handle;
            long status = 0;
            curl_easy_getinfo(done, CURLINFO_RESPONSE_CODE, &status);
            if (message->data.result != CURLE_OK) failed++;
            else if (status != 304) changed++;
            curl_multi_remove_handle(multi, done);
            if (next < count) {
                curl_multi_add_handle(multi, request(done, urls[next++], since));
            } else {
                curl_easy_cleanup(done);
                running--;
            }
        }
        if (running > 0) curl_multi_poll(multi, NULL, 0, 1000, NULL);
    }
    curl_multi_cleanup(multi);
    curl_global_cleanup();
    if (failed) fprintf(stderr, "%zu of %zu requests failed\n", failed, count);
    if (changed) fprintf(stderr, "%zu of %zu answers were not 304 Not Modified\n", changed, count);
    return failed ? 1 : 0;
}
