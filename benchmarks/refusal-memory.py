#!/usr/bin/env python3
"""Issue 26 §2: uploads refused on their heads, against a running server started with
--api-keys: COUNT clients at once each send `POST /quakes/import` without a key, announcing
SIZE bytes, and push the body until the answer comes. Prints the server's peak RSS growth
(sampled every 10 ms), what it holds after, and how long each answer took after its head.

    refusal-memory.py PORT PID [COUNT=20] [SIZE=60000000]
"""
import socket
import sys
import threading
import time

from procstat import PeakSampler, rss_mib

port, pid = int(sys.argv[1]), int(sys.argv[2])
count = int(sys.argv[3]) if len(sys.argv) > 3 else 20
size = int(sys.argv[4]) if len(sys.argv) > 4 else 60_000_000
chunk = b"x" * 65536


def upload(results, index):
    connection = socket.create_connection(("127.0.0.1", port))
    connection.settimeout(0.05)
    head = (f"POST /quakes/import HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            f"Content-Length: {size}\r\n\r\n").encode()
    started = time.monotonic()
    connection.sendall(head)
    sent, answer = 0, b""
    deadline = started + 120
    while time.monotonic() < deadline:
        try:
            answer += connection.recv(65536)
            if b"\r\n" in answer:
                break
        except socket.timeout:
            pass
        except OSError:
            break
        if sent < size:
            try:
                sent += connection.send(chunk[: min(len(chunk), size - sent)])
            except socket.timeout:
                pass
            except OSError:
                pass
    elapsed = time.monotonic() - started
    connection.close()
    results[index] = (answer.split(b"\r\n", 1)[0].decode(errors="replace"), elapsed, sent)


start = rss_mib(pid)
sampler = PeakSampler(pid)
sampler.start()
results = [None] * count
threads = [threading.Thread(target=upload, args=(results, index)) for index in range(count)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
time.sleep(1)
peak = sampler.stop()
statuses = sorted({result[0] for result in results})
latencies = sorted(result[1] for result in results)
print(f"uploads={count} announced_mib={size / 2**20:.0f} statuses={statuses} rss_start_mib={start:.0f} "
      f"peak_growth_mib={peak - start:+.0f} after_mib={rss_mib(pid) - start:+.0f} "
      f"answer_ms_median={latencies[count // 2] * 1000:.0f} answer_ms_max={latencies[-1] * 1000:.0f} "
      f"body_mib_sent_max={max(result[2] for result in results) / 2**20:.1f}")
