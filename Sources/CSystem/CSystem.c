#define _GNU_SOURCE
#include <pthread.h>
#include <string.h>
#include <sys/socket.h>
#include "CSystem.h"

#if defined(__linux__)
int csystem_accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags) {
    return accept4(fd, addr, len, flags);
}
#endif

void *csystem_memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length) {
    return memmem(haystack, haystack_length, needle, needle_length);
}

int csystem_set_thread_name(const char *name) {
#if defined(__linux__)
    char cut[16];
    strncpy(cut, name, sizeof cut - 1);
    cut[sizeof cut - 1] = 0;
    return pthread_setname_np(pthread_self(), cut);
#else
    (void)name;
    return 0;
#endif
}

int csystem_thread_name(char *buffer, size_t length) {
    if (length == 0) return -1;
    buffer[0] = 0;
#if defined(__linux__)
    return pthread_getname_np(pthread_self(), buffer, length);
#else
    return 0;
#endif
}
