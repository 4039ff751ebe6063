#!/usr/bin/env python3
"""Memory under hostile load, against a running server: RSS (from /proc/PID/status) while
COUNT sessions each ask for a different 500-row page, then the peak RSS while the worst bodies
we can build are sent (each refused), and RSS after.

    hostile-memory.py PORT PID COUNT [sessions]

With `sessions` only the first part runs (for a build that would take minutes on the bodies).
"""
import http.client
import sys
import time

from procstat import PeakSampler, rss_mib




def send(port, method, path, body, headers=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    connection.request(method, path, body=body, headers={"Content-Type": "application/json", **(headers or {})})
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, len(data)


port, pid, count = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
start = rss_mib(pid)
connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
samples = []
for index in range(count):
    connection.request("GET", f"/orders?limit=500&offset={index}", headers={"X-Session-ID": f"distinct-{index}"})
    response = connection.getresponse()
    response.read()
    assert response.status == 200, response.status
    if (index + 1) % (count // 6) == 0:
        samples.append(f"{index + 1}:{rss_mib(pid):.0f}")
print(f"distinct-pages sessions={count} rss_start_mib={start:.1f} rss_end_mib={rss_mib(pid):.1f} samples(count:MiB)={' '.join(samples)}")

if sys.argv[4:] == ["sessions"]:
    sys.exit(0)
bodies = [
    ("POST /orders, 1,000,000 unknown keys (11 MB)", "POST", "/orders",
     "{" + ",".join(f'"k{i}":0' for i in range(1_000_000)) + "}"),
    ("POST /orders, 250 KB of 20,001 values", "POST", "/orders", "[" + ",".join(["0"] * 20_001) + "]"),
    ("POST /quakes/import, 16 million empty features (48 MB)", "POST", "/quakes/import",
     '{"type":"FeatureCollection","features":[' + ",".join(["{}"] * 16_000_000) + "]}"),
    ("POST /quakes/import, one feature of 60 MB", "POST", "/quakes/import",
     '{"type":"FeatureCollection","features":[{"id":"x","properties":{"place":"' + "a" * 60_000_000 + '"}}]}'),
]
for name, method, path, body in bodies:
    before = rss_mib(pid)
    sampler = PeakSampler(pid)
    sampler.start()
    began = time.time()
    status, size = send(port, method, path, body.encode())
    elapsed = time.time() - began
    sampler.running = False
    sampler.join()
    time.sleep(0.5)
    print(f"{name}: status={status} answer_bytes={size} seconds={elapsed:.2f} rss_before_mib={before:.0f} "
          f"peak_mib={sampler.peak:.0f} after_mib={rss_mib(pid):.0f}")
