#!/usr/bin/env python3
"""Opens N sessions (one keep-alive connection, a distinct X-Session-ID per request) on a URL,
so each holds a cached view-model; prints the server's RSS before and after.

    sessions.py PORT PID COUNT PATH [ID_PREFIX]
"""
import http.client
import sys

from procstat import rss_mib


port, pid, count, path = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
prefix = sys.argv[5] if len(sys.argv) > 5 else "mem"
before = rss_mib(pid)
connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
for index in range(count):
    connection.request("GET", path, headers={"X-Session-ID": f"{prefix}-{index}"})
    response = connection.getresponse()
    response.read()
    assert response.status == 200, response.status
after = rss_mib(pid)
print(f"sessions={count} rss_before_mib={before:.1f} rss_after_mib={after:.1f} delta_mib={after - before:.1f}")
