#ifndef FITIQ_CCURL_SHIM_H
#define FITIQ_CCURL_SHIM_H

// libcurl for FitIQHTTP's transport. curl_easy_setopt and curl_easy_getinfo are variadic, which Swift
// cannot call: these typed wrappers are the only way the transport sets options and reads results.
#include <curl/curl.h>

static inline CURLcode fitiq_curl_setopt_long(CURL *easy, CURLoption option, long value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode fitiq_curl_setopt_pointer(CURL *easy, CURLoption option, void *value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode fitiq_curl_setopt_string(CURL *easy, CURLoption option, const char *value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode fitiq_curl_setopt_offset(CURL *easy, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(easy, option, value);
}

typedef size_t (*fitiq_curl_data_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode fitiq_curl_setopt_callback(CURL *easy, CURLoption option, fitiq_curl_data_callback callback) {
    return curl_easy_setopt(easy, option, callback);
}

static inline CURLcode fitiq_curl_getinfo_long(CURL *easy, CURLINFO info, long *value) {
    return curl_easy_getinfo(easy, info, value);
}

static inline CURLcode fitiq_curl_getinfo_pointer(CURL *easy, CURLINFO info, void **value) {
    return curl_easy_getinfo(easy, info, value);
}

/// The result of a finished transfer from a `CURLMSG_DONE` message (a union member in C).
static inline CURLcode fitiq_curl_message_result(CURLMsg *message) {
    return message->data.result;
}

#endif
