// The floor under the live-list latency targets on this machine: one 600-byte event sent to N
// loopback TCP streams (N send()s from one process, as the server's loops do), then read from
// all of them by another process (N recv()s, as the load client does), for 50 rounds. With
// two core numbers, the sender is pinned to the first and the reader to the second.
// Prints the mean time to send all, to read all, and when the median and the last stream had
// their event (from the first send). benchmarks/live-bench.sh runs it beside every live figure.
// Build and run: cc -O2 -o /tmp/socket-floor benchmarks/socket-floor.c && /tmp/socket-floor 1000 0 1
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e3 + t.tv_nsec / 1e6; }

static void pin(const char *core) {
    if (!core) return;
    cpu_set_t set; CPU_ZERO(&set); CPU_SET(atoi(core), &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) perror("socket-floor: pin");
}

static void fail(const char *what) { perror(what); exit(1); }

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 1000, rounds = 50, one = 1;
    int l = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (bind(l, (void *)&a, sizeof a) != 0 || listen(l, 4096) != 0) fail("socket-floor: listen");
    socklen_t len = sizeof a; getsockname(l, (void *)&a, &len);
    int ready[2], times[2];
    if (pipe(ready) != 0 || pipe(times) != 0) fail("socket-floor: pipe");
    char msg[600], buf[4096]; memset(msg, 'x', sizeof msg);
    pid_t reader = fork();
    if (reader == 0) {  // the reader: connects N streams, then reads each round's event from all
        pin(argc > 3 ? argv[3] : NULL);
        int *c = malloc(n * sizeof(int));
        for (int i = 0; i < n; i++) {
            c[i] = socket(AF_INET, SOCK_STREAM, 0);
            if (c[i] < 0 || connect(c[i], (void *)&a, sizeof a) != 0) fail("socket-floor: connect (ulimit -n?)");
        }
        if (write(ready[1], "r", 1) != 1) fail("socket-floor: ready");
        for (int r = 0; r < rounds; r++) {
            double seen[2] = {0, 0};
            for (int i = 0; i < n; i++) {
                int got = 0;
                while (got < (int)sizeof msg) {
                    ssize_t count = recv(c[i], buf, sizeof buf, 0);
                    if (count <= 0) fail("socket-floor: recv");
                    got += count;
                }
                if (i == n / 2) seen[0] = now();
            }
            seen[1] = now();
            if (write(times[1], seen, sizeof seen) != sizeof seen) fail("socket-floor: times");
        }
        return 0;
    }
    pin(argc > 2 ? argv[2] : NULL);
    int *s = malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) {
        if ((s[i] = accept(l, 0, 0)) < 0) fail("socket-floor: accept (ulimit -n?)");
        setsockopt(s[i], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }
    char signal;
    if (read(ready[0], &signal, 1) != 1) fail("socket-floor: reader");
    double sendms = 0, medianms = 0, lastms = 0;
    for (int r = 0; r < rounds; r++) {
        double t0 = now();
        for (int i = 0; i < n; i++) send(s[i], msg, sizeof msg, 0);
        double t1 = now(), seen[2];
        if (read(times[0], seen, sizeof seen) != sizeof seen) fail("socket-floor: times");
        sendms += t1 - t0; medianms += seen[0] - t0; lastms += seen[1] - t0;
    }
    waitpid(reader, NULL, 0);
    printf("streams=%d event=600B  send all: %.2f ms (%.2f us each)  last stream read: %.2f ms after the first send\n", n,
           sendms / rounds, sendms / rounds * 1000 / n, lastms / rounds);
    printf("floor_median_stream_ms=%.3f floor_last_stream_ms=%.3f\n", medianms / rounds, lastms / rounds);
    return 0;
}
