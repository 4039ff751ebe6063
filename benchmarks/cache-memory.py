#!/usr/bin/env python3
"""Memory held for sessions' pages, plain and gzip, against a running server: one wave of COUNT
sessions, each reading its own 500-row page (`/orders?limit=500&q=a&sort=total&offset=<i>`, one
X-Session-ID each), then, once they have expired (the server runs with --session-ttl TTL), a
second wave of COUNT new sessions. Prints RSS growth over the first wave, what is left after
expiry, and what the second wave adds to where the first left it.

    cache-memory.py PORT PID COUNT TTL plain|gzip
"""
import http.client
import sys
import time

from procstat import rss_mib

port, pid, count, ttl, mode = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
headers = {"Accept-Encoding": "gzip"} if mode == "gzip" else {}


def wave(prefix):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    for index in range(count):
        connection.request("GET", f"/orders?limit=500&q=a&sort=total&offset={index}",
                           headers={"X-Session-ID": f"{prefix}-{index}", **headers})
        response = connection.getresponse()
        response.read()
        assert response.status == 200, response.status
        assert (response.getheader("Content-Encoding") == "gzip") == (mode == "gzip")
    connection.close()


start = rss_mib(pid)
wave("first")
first = rss_mib(pid)
time.sleep(ttl + 1)
expired = rss_mib(pid)
wave("second")
second = rss_mib(pid)
# The second wave's growth is counted from where the first left RSS: memory given back at expiry
# and taken again is not growth, memory the first wave left behind and the second added to is.
print(f"{mode:5} sessions={count} start_mib={start:.0f} first_wave_growth_mib={first - start:+.0f} "
      f"after_expiry_mib={expired - start:+.0f} after_second_wave_mib={second - start:+.0f} "
      f"second_wave_growth_mib={second - first:+.0f} second/first={(second - first) / max(first - start, 1):.2f}")
