#!/usr/bin/env python3
"""Replication lag between two replicas: PATCHes on replica A at a fixed rate, each a new
customer name for an order in the window replica B's live stream shows; the lag of a write is
from its response on A to the event carrying the new name on B's stream.
usage: replication-lag.py PORT_A PORT_B [writes_per_second] [seconds]"""
import http.client, json, socket, sys, threading, time

port_a, port_b = int(sys.argv[1]), int(sys.argv[2])
rate = float(sys.argv[3]) if len(sys.argv) > 3 else 200
seconds = float(sys.argv[4]) if len(sys.argv) > 4 else 20
window = "/orders/live?filter=pending&limit=100"

a = http.client.HTTPConnection("127.0.0.1", port_a)
a.request("GET", window.replace("/live", ""))
ids = [row["id"] for row in json.loads(a.getresponse().read())["items"]]

arrived = {}
stream = socket.create_connection(("127.0.0.1", port_b))
stream.sendall(f"GET {window} HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n".encode())
ready = threading.Event()

def read_stream():
    buffer = b""
    marker = b'"customerName":"Lag '
    while True:
        chunk = stream.recv(65536)
        if not chunk:
            return
        now = time.monotonic()
        buffer += chunk
        if b"event: snapshot" in buffer:
            ready.set()
        while True:
            at = buffer.find(marker)
            if at < 0:
                buffer = buffer[-64:]
                break
            end = buffer.find(b'"', at + len(marker))
            if end < 0:
                buffer = buffer[at:]
                break
            arrived.setdefault(int(buffer[at + len(marker):end]), now)
            buffer = buffer[end:]

threading.Thread(target=read_stream, daemon=True).start()
ready.wait(10)
answered = {}
statuses = {}
start = time.monotonic()
count = int(rate * seconds)
for n in range(count):
    due = start + n / rate
    delay = due - time.monotonic()
    if delay > 0:
        time.sleep(delay)
    body = json.dumps({"customerName": f"Lag {n}"})
    a.request("PATCH", f"/orders/{ids[n % len(ids)]}", body=body, headers={"Content-Type": "application/json"})
    response = a.getresponse()
    response.read()
    answered[n] = time.monotonic()
    statuses[response.status] = statuses.get(response.status, 0) + 1
elapsed = time.monotonic() - start
time.sleep(1)
lags = sorted((arrived[n] - answered[n]) * 1000 for n in answered if n in arrived)
missing = len(answered) - len(lags)
def pct(p):
    return lags[min(len(lags) - 1, int(len(lags) * p))] if lags else float("nan")
print(f"writes={len(answered)} rate={len(answered) / elapsed:.0f}/s statuses={statuses} seen_on_B={len(lags)} missing={missing} "
      f"lag_ms p50={pct(0.50):.2f} p90={pct(0.90):.2f} p99={pct(0.99):.2f} max={lags[-1] if lags else float('nan'):.2f}")
