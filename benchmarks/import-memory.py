#!/usr/bin/env python3
"""Issue 26 §3: memory of a large USGS import, against a running server: the server's RSS
before, its peak while `POST /quakes/import` sends FEED (sampled every 10 ms), and after.
What the imported items themselves take is what stays (after - before); the import's own
cost is the peak above that, given as a multiple of the body.

    import-memory.py PORT PID FEED
"""
import http.client
import sys
import time

from procstat import PeakSampler, rss_mib

port, pid, feed = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
body = open(feed, "rb").read()
start = rss_mib(pid)
sampler = PeakSampler(pid)
sampler.start()
began = time.time()
connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
connection.request("POST", "/quakes/import", body=body, headers={"Content-Type": "application/json"})
response = connection.getresponse()
answer = response.read()
elapsed = time.time() - began
time.sleep(1)
peak = sampler.stop()
after = rss_mib(pid)
body_mib = len(body) / 2**20
overhead = peak - after
print(f"status={response.status} answer={answer[:80]!r} seconds={elapsed:.1f} body_mib={body_mib:.0f} "
      f"rss_start_mib={start:.0f} peak_growth_mib={peak - start:+.0f} kept_mib={after - start:+.0f} "
      f"import_overhead_mib={overhead:.0f} overhead/body={overhead / body_mib:.1f}")
