"""RSS per idle live stream (issue 29): COUNT per-list streams (MODE `list`), or COUNT multiplexed
streams (`GET /live`, MODE `mux`) with LISTS lists each; every stream in a session of its own,
the lists computed once before. Prints the server's RSS growth per stream.

    python3 benchmarks/idle-stream-memory.py PORT SERVER_PID MODE COUNT [LISTS]"""
import http.client
import json
import socket
import sys
import time

from procstat import rss_mib

port, pid, mode, count = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
lists = int(sys.argv[5]) if len(sys.argv) > 5 else 1
PATHS = ["/orders/live?filter=pending&limit=20", "/orders/live?filter=completed&limit=20",
         "/tasks/live?view=active&limit=20", "/users/live?sort=name&limit=20"]


def read_until(sock, needle, times=1):
    """What the stream sent until `needle` has come `times` times and its event ended."""
    received = b""
    while received.count(needle) < times or b"\n\n" not in received[received.rindex(needle):]:
        chunk = sock.recv(1 << 20)
        if not chunk:
            raise SystemExit(f"closed: {received[:300]!r}")
        received += chunk
    return received


def open_stream(path, session):
    """A stream of `session` on `path`, left unread once its first event came."""
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Session-ID: {session}\r\n\r\n".encode())
    return sock, read_until(sock, b"event: ")


def settled_rss():
    time.sleep(2)
    return rss_mib(pid)


control = http.client.HTTPConnection("127.0.0.1", port)
warm = [open_stream(path, f"warm{index}")[0] for index, path in enumerate(PATHS)]  # every list computed once
before = settled_rss()
held = []
for n in range(count):
    session = f"s{mode}{lists}n{n}"
    if mode == "list":
        sock, _ = open_stream(PATHS[n % len(PATHS)], session)
    else:
        sock, hello = open_stream("/live", session)
        stream = json.loads(hello.split(b"event: hello\ndata: ")[1].split(b"\n")[0])["stream"]
        for k in range(lists):
            body = json.dumps({"path": PATHS[(n + k) % len(PATHS)]})
            control.request("PUT", f"/live/{stream}/lists/k{k}", body,
                            {"X-Session-ID": session, "Content-Type": "application/json"})
            answer = control.getresponse()
            answer.read()
            assert answer.status == 200, answer.status
        read_until(sock, b"event: snapshot", times=lists)
    held.append(sock)
after = settled_rss()
print(f"{mode} lists={lists} streams={count}: rss {before:.1f} -> {after:.1f} MiB, "
      f"{(after - before) * 1024 * 1024 / count:.0f} bytes a stream")
