// The floor under issue 11's live-list latency targets on this machine: one event sent to N
// loopback TCP streams (N send()s from one thread), then read from all (N recv()s).
// Build and run: gcc -O2 -o /tmp/socket-floor benchmarks/socket-floor.c && /tmp/socket-floor 1000
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e3 + t.tv_nsec / 1e6; }
int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 1000, rounds = 50;
    int l = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    bind(l, (void *)&a, sizeof a); listen(l, 4096);
    socklen_t len = sizeof a; getsockname(l, (void *)&a, &len);
    int *s = malloc(n * sizeof(int)), *c = malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) {
        c[i] = socket(AF_INET, SOCK_STREAM, 0); connect(c[i], (void *)&a, sizeof a);
        s[i] = accept(l, 0, 0); setsockopt(s[i], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }
    char msg[600], buf[4096]; memset(msg, 'x', sizeof msg);
    double sendms = 0, recvms = 0;
    for (int r = 0; r < rounds; r++) {
        double t0 = now();
        for (int i = 0; i < n; i++) send(s[i], msg, sizeof msg, 0);
        double t1 = now();
        for (int i = 0; i < n; i++) { int got = 0; while (got < (int)sizeof msg) got += recv(c[i], buf, sizeof buf, 0); }
        double t2 = now();
        sendms += t1 - t0; recvms += t2 - t1;
    }
    printf("streams=%d event=600B  send all: %.2f ms (%.2f us each)  read all: %.2f ms (%.2f us each)\n", n, sendms / rounds,
           sendms / rounds * 1000 / n, recvms / rounds, recvms / rounds * 1000 / n);
    return 0;
}
