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

// The calling thread's name as the system shows it (top -H, perf, /proc/.../comm): at most
// 15 bytes; longer names are cut. pthread_setname_np and pthread_getname_np need _GNU_SOURCE.
// 0 on success; on other platforms, nothing is done (and the name read is empty).
int csystem_set_thread_name(const char *name);
int csystem_thread_name(char *buffer, size_t length);

// memmem is a GNU and BSD extension (glibc needs _GNU_SOURCE for it).
void *csystem_memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length);

#endif
