"""RSS per idle live stream (issue 29): COUNT per-list streams (MODE `list`), or COUNT multiplexed
streams (`GET /live`, MODE `mux`) with LISTS lists each; every stream in a session of its own,
the lists computed once before. Prints the server's RSS growth per stream.

    python3 benchmarks/idle-stream-memory.py PORT SERVER_PID MODE COUNT [LISTS]"""
import json, socket, sys, time

port, pid, mode, count = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
lists = int(sys.argv[5]) if len(sys.argv) > 5 else 1
HOST = f"127.0.0.1:{port}"
paths = ["/orders/live?filter=pending&limit=20", "/orders/live?filter=completed&limit=20",
         "/tasks/live?view=active&limit=20", "/users/live?sort=name&limit=20"]

def rss():
    return int([l.split()[1] for l in open(f"/proc/{pid}/status") if l.startswith("VmRSS")][0])

def read_until(sock, needle, buf=b""):
    while needle not in buf:
        chunk = sock.recv(1 << 20)
        if not chunk:
            raise SystemExit(f"closed: {buf[:300]!r}")
        buf += chunk
    return buf

def request(conn, method, path, body, session):
    data = json.dumps(body).encode()
    conn.sendall(f"{method} {path} HTTP/1.1\r\nHost: {HOST}\r\nX-Session-ID: {session}\r\nContent-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n".encode() + data)
    buf = read_until(conn, b"\r\n\r\n")
    head, rest = buf.split(b"\r\n\r\n", 1)
    length = int([l.split(b":")[1] for l in head.split(b"\r\n") if l.lower().startswith(b"content-length")][0])
    while len(rest) < length:
        rest += conn.recv(65536)
    return head.split(b" ")[1]

def settle():
    time.sleep(2)
    return rss()

control = socket.create_connection(("127.0.0.1", port))
# Warm: every list computed once, so the figure is the streams' own.
warm = []
for path in paths:
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\nX-Session-ID: warm{len(warm)}\r\n\r\n".encode())
    read_until(s, b"event: snapshot")
    warm.append(s)
before = settle()
held = []
for n in range(count):
    session = f"s{mode}{lists}n{n}"
    s = socket.create_connection(("127.0.0.1", port))
    if mode == "list":
        s.sendall(f"GET {paths[n % len(paths)]} HTTP/1.1\r\nHost: {HOST}\r\nX-Session-ID: {session}\r\n\r\n".encode())
        read_until(s, b"event: snapshot")
    else:
        s.sendall(f"GET /live HTTP/1.1\r\nHost: {HOST}\r\nX-Session-ID: {session}\r\n\r\n".encode())
        buf = read_until(s, b"event: hello")
        buf = read_until(s, b"}\n", buf)
        stream = json.loads(buf.split(b"event: hello\ndata: ")[1].split(b"\n")[0])["stream"]
        for k in range(lists):
            assert request(control, "PUT", f"/live/{stream}/lists/k{k}", {"path": paths[(n + k) % len(paths)]}, session) == b"200"
        seen = b""
        while seen.count(b"event: snapshot") < lists:
            seen += s.recv(1 << 20)
    held.append(s)
after = settle()
print(f"{mode} lists={lists} streams={count}: rss {before} -> {after} KiB, {(after - before) * 1024 / count:.0f} bytes a stream")
