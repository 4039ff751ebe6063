#ifndef CSYSTEM_H
#define CSYSTEM_H

// Glibc's Swift module map does not include these headers, and accept4 needs _GNU_SOURCE.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>

int csystem_accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags);

#endif
