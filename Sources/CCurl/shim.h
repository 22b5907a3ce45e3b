#pragma once
#include <curl/curl.h>

// curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are C-variadic, which Swift
// cannot call. One fixed-type forwarder per argument kind, defined in CLibraries/curl.c
// (libcurl is opened on first use there); no logic lives in them.

CURLcode syncagent_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode syncagent_easy_setopt_off(CURL *handle, CURLoption option, curl_off_t value);
CURLcode syncagent_easy_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode syncagent_easy_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode syncagent_easy_setopt_write_callback(CURL *handle, CURLoption option, curl_write_callback value);
CURLcode syncagent_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode syncagent_easy_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value);
CURLcode syncagent_easy_getinfo_string(CURL *handle, CURLINFO info, char **value);
CURLcode syncagent_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value);
CURLMcode syncagent_multi_setopt_long(CURLM *handle, CURLMoption option, long value);

/// curl_easy_pause with CURLPAUSE_CONT, a macro of an expression Swift does not import.
CURLcode syncagent_easy_unpause(CURL *handle);
