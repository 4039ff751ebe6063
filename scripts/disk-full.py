#!/usr/bin/env python3
"""A real full disk: the state directory on a small file system of its own (a 12 MB tmpfs, else
an ext4 image on a loop device; needs root and mount), the rest of it filled with a file.
Writes must get 503 while it is full, /health/ready must say so, nothing acknowledged may be
lost, nothing refused may appear, and writes must resume once the filler is removed ("space
returns"). Says which file system ran. Exits 0 on success, 1 on a failure, 77 when neither
can be mounted here (CI counts that as a failure).

    scripts/disk-full.py [--binary .build/release/server]
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile

from serverprocess import ORDER, call, start


def mount_small_filesystem(mount_point, image):
    """Mounts a 12 MB file system at mount_point: a tmpfs, else an ext4 image file on a loop
    device. Returns what was mounted, or None."""
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=12m", "tmpfs", mount_point], capture_output=True).returncode == 0:
        return "a 12 MB tmpfs"
    with open(image, "wb") as file:
        file.truncate(12 * 1024 * 1024)
    made = subprocess.run(["mkfs.ext4", "-q", "-F", image], capture_output=True).returncode == 0
    if made and subprocess.run(["mount", "-o", "loop", image, mount_point], capture_output=True).returncode == 0:
        return "a 12 MB ext4 image on a loop device"
    os.remove(image)
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/release/server")
    binary = parser.parse_args().binary
    mount_point = tempfile.mkdtemp(prefix="listservice-diskfull-")
    image = mount_point + ".img"
    kind = mount_small_filesystem(mount_point, image)
    if kind is None:
        print("disk-full: skipped (neither a tmpfs nor a loop-mounted ext4 image can be mounted here)")
        os.rmdir(mount_point)
        sys.exit(77)
    print(f"disk-full: the state directory is on {kind}")
    failures = []
    try:
        server, port = start(binary, mount_point)
        filler = os.path.join(mount_point, "filler")
        statvfs = os.statvfs(mount_point)
        with open(filler, "wb") as file:  # leave about 40 KB free
            file.write(b"\0" * max(0, statvfs.f_bavail * statvfs.f_frsize - 40 * 1024))
        acknowledged, refused = [], 0
        for _ in range(500):
            status, headers, body = call(port, "POST", "/orders", ORDER)
            if status == 201:
                acknowledged.append(headers["Location"].rsplit("/", 1)[1])
            elif status == 503:
                refused += 1
                if json.loads(body).get("code") != "storage-unavailable":
                    failures.append(f"503 with another code: {body[:200]}")
                break
            else:
                failures.append(f"unexpected status {status}")
                break
        if refused == 0:
            failures.append("the disk never filled up")
        if call(port, "GET", "/health/ready")[0] != 503:
            failures.append("/health/ready did not report the full disk")
        if call(port, "POST", "/orders", ORDER)[0] != 503:
            failures.append("a write went through on a full disk")
        os.remove(filler)
        status, headers, _ = call(port, "POST", "/orders", ORDER)
        if status == 201:
            acknowledged.append(headers["Location"].rsplit("/", 1)[1])
        else:
            failures.append(f"writes did not resume once space returned: {status}")
        if call(port, "GET", "/health/ready")[0] != 200:
            failures.append("/health/ready did not recover")
        server.send_signal(signal.SIGKILL)
        server.wait()
        server, port = start(binary, mount_point)
        missing = [order for order in acknowledged if call(port, "GET", f"/orders/{order}")[0] != 200]
        if missing:
            failures.append(f"acknowledged but lost: {missing}")
        expected = [f"o-{10_000 + n:06d}" for n in range(1, len(acknowledged) + 1)]
        if acknowledged != expected:
            failures.append(f"ids were skipped or reused: {acknowledged[-3:]} vs {expected[-3:]}")
        total = json.loads(call(port, "GET", "/orders?limit=1")[2])["total"]
        if total != 10_000 + len(acknowledged):
            failures.append(f"{total} orders after restart, expected {10_000 + len(acknowledged)}: a refused write appeared")
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
        print(f"disk-full: {len(acknowledged)} writes acknowledged, refused with 503 while full, "
              f"resumed after space returned, all there after SIGKILL and restart" if not failures else f"disk-full: FAILED {failures}")
    finally:
        subprocess.run(["umount", mount_point])
        os.rmdir(mount_point)
        if os.path.exists(image):
            os.remove(image)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
