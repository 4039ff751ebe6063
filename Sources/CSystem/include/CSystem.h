#ifndef CSYSTEM_H
#define CSYSTEM_H

// What Glibc's Swift module leaves out. Linux-only parts are fenced, so the shim builds on
// other platforms too (where HTTPLite uses its poll(2) backend).
#include <stddef.h>
#include <sys/socket.h>

#if defined(__linux__)
#include <malloc.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>

int csystem_accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags);
#endif

// memmem is a GNU and BSD extension (glibc needs _GNU_SOURCE for it).
void *csystem_memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length);

#endif
