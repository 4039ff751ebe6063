#define _GNU_SOURCE
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
