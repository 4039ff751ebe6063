#ifndef CSYSTEM_H
#define CSYSTEM_H

// Glibc's Swift module map does not include these headers (malloc_trim among them);
// accept4 and memmem need _GNU_SOURCE.
#include <malloc.h>
#include <stddef.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>

int csystem_accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags);
void *csystem_memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length);

#endif
