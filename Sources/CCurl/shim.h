#ifndef FITIQ_CCURL_SHIM_H
#define FITIQ_CCURL_SHIM_H

/* libcurl's types and constants for FitIQHTTP's transport, from <curl/curl.h> (libcurl4-openssl-dev
 * to build). Nothing links libcurl: FitIQHTTP opens libcurl.so.4 with dlopen when the first request
 * is made (LibCurl.swift), so fitiq-tui starts without it and the thirty libraries it pulls in (TLS,
 * HTTP/2, IDN, Kerberos, LDAP, ...), and a first frame never waits for the dynamic loader to map them.
 *
 * The function pointer types below are for dlsym. curl_easy_setopt and curl_easy_getinfo are
 * variadic, which Swift can neither call nor import as a type: the typed wrappers take the pointer
 * dlsym gave and make the variadic call in C. */
#include <curl/curl.h>

typedef CURLcode (*fitiq_curl_global_init)(long flags);
typedef CURLM *(*fitiq_curl_multi_init)(void);
typedef CURLMcode (*fitiq_curl_multi_cleanup)(CURLM *multi);
typedef CURLMcode (*fitiq_curl_multi_wakeup)(CURLM *multi);
typedef CURLMcode (*fitiq_curl_multi_add_handle)(CURLM *multi, CURL *easy);
typedef CURLMcode (*fitiq_curl_multi_remove_handle)(CURLM *multi, CURL *easy);
typedef CURLMcode (*fitiq_curl_multi_perform)(CURLM *multi, int *running);
typedef CURLMcode (*fitiq_curl_multi_poll)(
    CURLM *multi, struct curl_waitfd *extra, unsigned int count, int timeout, int *ready);
typedef CURLMsg *(*fitiq_curl_multi_info_read)(CURLM *multi, int *left);
typedef CURL *(*fitiq_curl_easy_init)(void);
typedef void (*fitiq_curl_easy_cleanup)(CURL *easy);
typedef const char *(*fitiq_curl_easy_strerror)(CURLcode code);
typedef struct curl_slist *(*fitiq_curl_slist_append)(struct curl_slist *list, const char *line);
typedef void (*fitiq_curl_slist_free_all)(struct curl_slist *list);

typedef CURLcode (*fitiq_curl_easy_setopt_variadic)(CURL *easy, CURLoption option, ...);
typedef CURLcode (*fitiq_curl_easy_getinfo_variadic)(CURL *easy, CURLINFO info, ...);

static inline CURLcode fitiq_curl_setopt_long(void *setopt, CURL *easy, CURLoption option, long value) {
    return ((fitiq_curl_easy_setopt_variadic)setopt)(easy, option, value);
}

static inline CURLcode fitiq_curl_setopt_pointer(void *setopt, CURL *easy, CURLoption option, void *value) {
    return ((fitiq_curl_easy_setopt_variadic)setopt)(easy, option, value);
}

static inline CURLcode fitiq_curl_setopt_string(void *setopt, CURL *easy, CURLoption option, const char *value) {
    return ((fitiq_curl_easy_setopt_variadic)setopt)(easy, option, value);
}

static inline CURLcode fitiq_curl_setopt_offset(void *setopt, CURL *easy, CURLoption option, curl_off_t value) {
    return ((fitiq_curl_easy_setopt_variadic)setopt)(easy, option, value);
}

typedef size_t (*fitiq_curl_data_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode fitiq_curl_setopt_callback(
    void *setopt, CURL *easy, CURLoption option, fitiq_curl_data_callback callback) {
    return ((fitiq_curl_easy_setopt_variadic)setopt)(easy, option, callback);
}

static inline CURLcode fitiq_curl_getinfo_long(void *getinfo, CURL *easy, CURLINFO info, long *value) {
    return ((fitiq_curl_easy_getinfo_variadic)getinfo)(easy, info, value);
}

/// The result of a finished transfer from a `CURLMSG_DONE` message (a union member in C).
static inline CURLcode fitiq_curl_message_result(CURLMsg *message) {
    return message->data.result;
}

#endif
