#!/usr/bin/env python3
"""Live streams churned as many clients would: WORKERS threads, for SECONDS each, open
`GET /live` in one of 60 sessions, put lists on it, replace and delete them, write orders and
taps, select quakes, then drop the connection, half of the time reopening it with its last
event id. Every answer must be the one the contract gives; every `delta` of a list must carry
as `base` the `v` the list last had on its stream; and once the clients are gone, every stream
must close and every list be dropped after its linger (30 s). Prints the server's RSS as it
goes. Exits 0 when all of that held, 1 otherwise.

    scripts/live-churn.py [--binary .build/release/server] [--seconds 60] [--workers 12]
                          [--data DIR] [--port PORT --pid PID]   (a server already running)
"""
import argparse
import http.client
import json
import random
import socket
import sys
import threading
import time

from serverprocess import call, send, start

SESSIONS = 60
LINGER_SECONDS = 30


class Run:
    """What the workers found: counts, and the first problems."""

    def __init__(self):
        self.lock = threading.Lock()
        self.problems = []
        self.counts = {key: 0 for key in ("streams", "resumes", "events", "deltas", "puts", "writes", "selections")}

    def note(self, text):
        with self.lock:
            if len(self.problems) < 50:
                self.problems.append(text)

    def count(self, key):
        with self.lock:
            self.counts[key] += 1


class Stream:
    """One `GET /live` connection, read on a thread of its own."""

    def __init__(self, run, port, session, last_id=None):
        self.run, self.id, self.last_id, self.versions = run, None, last_id, {}
        self.hello = threading.Event()
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        headers = {"X-Session-ID": session, "Accept": "text/event-stream"} | ({"Last-Event-ID": last_id} if last_id else {})
        self.connection.request("GET", "/live", headers=headers)
        self.response = self.connection.getresponse()
        if self.response.status != 200:
            run.note(f"GET /live: {self.response.status} {self.response.read()[:200]!r}")
            self.hello.set()
            return
        run.count("streams")
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        event, data, event_id = None, [], None
        try:
            while line := self.response.readline():
                line = line.decode().rstrip("\n")
                if line == "":
                    if event:
                        self.handle(event, "\n".join(data), event_id)
                    event, data, event_id = None, [], None
                elif line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: "):
                    data.append(line[6:])
                elif line.startswith("id: "):
                    event_id = line[4:]
        except (OSError, ValueError, AttributeError, http.client.HTTPException):
            pass  # the connection was dropped on purpose
        finally:
            self.hello.set()

    def handle(self, event, data, event_id):
        self.run.count("events")
        self.last_id = event_id or self.last_id
        if event == "hello":
            self.id = json.loads(data)["stream"]
            self.hello.set()
            return
        if event == "heartbeat":
            return
        body = json.loads(data)
        key = body.get("list")
        if event in ("snapshot", "reset"):
            self.versions[key] = body.get("v")
        elif event == "delta":
            self.run.count("deltas")
            if self.versions.get(key) is not None and body.get("base") != self.versions[key]:
                self.run.note(f"list {key}: a delta's base {body.get('base')} after v {self.versions[key]}")
            self.versions[key] = body.get("v")
        elif event == "closed":
            self.versions.pop(key, None)
        elif event != "selection":
            self.run.note(f"an unexpected event {event}: {data[:100]}")

    def drop(self):
        try:
            self.connection.sock.shutdown(socket.SHUT_RDWR)
        except (OSError, AttributeError):
            pass
        self.connection.close()


def worker(run, port, seed, deadline, day):
    rng = random.Random(seed)
    paths = [
        "/orders/live?filter=pending&q=john", "/orders/live?sort=date&order=desc&limit=20&locale=de-DE&tz=Europe%2FBerlin",
        "/orders/live?filter=highValue&sort=total", "/orders/live?filter=currentMonth&group=day&tz=Pacific%2FKiritimati",
        "/orders/live?sort=customer&limit=5", "/tasks/live?view=active", "/tasks/live?view=all&group=due&sort=dueDate",
        f"/quakes/live?date={day}", f"/quakes/map/live?date={day}&q=of", "/users/live?sort=name", "/users/live?group=initial",
    ]
    api = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def request(method, path, body=None):
        status, _, payload = send(api, method, path, body, {"X-Session-ID": session})
        return status, payload

    def expect(what, status, body, allowed):
        if status not in allowed:
            run.note(f"{what}: {status} {body[:200]!r}")

    while time.time() < deadline:
        session = f"churn-{rng.randrange(SESSIONS)}"
        try:
            stream = Stream(run, port, session)
            if not stream.hello.wait(10) or stream.id is None:
                if stream.response.status == 200:
                    run.note("no hello within 10 s")
                stream.drop()
                continue
            for _ in range(rng.randrange(3, 12)):
                action, key = rng.random(), f"k{rng.randrange(6)}"
                if action < 0.45:
                    run.count("puts")
                    expect("PUT a list", *request("PUT", f"/live/{stream.id}/lists/{key}", {"path": rng.choice(paths)}),
                           (200,))
                elif action < 0.55:
                    expect("DELETE a list", *request("DELETE", f"/live/{stream.id}/lists/{key}"), (204, 404))
                elif action < 0.8:
                    run.count("writes")
                    order = f"o-{rng.randrange(1, 3000):06d}"
                    expect("PATCH an order", *request("PATCH", f"/orders/{order}",
                                                      {"customerName": f"Churn {rng.randrange(10**6)}"}), (200,))
                elif action < 0.9:
                    status, body = request("GET", f"/quakes?date={day}&limit=5")
                    ids = [row["id"] for row in json.loads(body)["items"]] if status == 200 else []
                    if ids:
                        run.count("selections")
                        expect("PUT /session/selection", *request("PUT", "/session/selection",
                                                                  {"collection": "quakes", "id": rng.choice(ids)}), (200,))
                else:
                    run.count("writes")
                    expect("a tap", *request("POST", f"/users/u-{rng.randrange(1, 200):06d}/tap"), (200,))
                time.sleep(rng.random() * 0.05)
            time.sleep(rng.random() * 0.3)
            last_id = stream.last_id
            stream.drop()
            if last_id and rng.random() < 0.5:
                run.count("resumes")
                again = Stream(run, port, session, last_id)
                if again.hello.wait(10):
                    time.sleep(rng.random() * 0.3)
                again.drop()
        except (OSError, http.client.HTTPException) as error:
            run.note(f"a request failed: {error!r}")
            api.close()
            api = http.client.HTTPConnection("127.0.0.1", port, timeout=30)


def gauge(port, name):
    _, _, body = call(port, "GET", "/metrics")
    return next((float(line.split()[1]) for line in body.decode().splitlines() if line.startswith(name + " ")), None)


def newest_quake_day(port):
    """The latest UTC day, of the last 60, that has quakes (a data set's are up to the day it was made)."""
    for days_ago in range(60):
        day = time.strftime("%Y-%m-%d", time.gmtime(time.time() - days_ago * 86_400))
        _, _, body = call(port, "GET", f"/quakes?date={day}&limit=1")
        if json.loads(body)["total"] > 0:
            return day
    raise RuntimeError("no quakes in the last 60 days")


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) // 1024 for line in status if line.startswith("VmRSS"))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/release/server")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--workers", type=int, default=12)
    parser.add_argument("--data", help="a data directory (the embedded data without one)")
    parser.add_argument("--port", type=int, help="a server already running there (with --pid)")
    parser.add_argument("--pid", type=int)
    arguments = parser.parse_args()
    server = None
    if arguments.port:
        port, pid = arguments.port, arguments.pid
    else:
        server, port = start(arguments.binary, options=["--data", arguments.data] if arguments.data else [])
        pid = server.pid
    try:
        day = newest_quake_day(port)
        run, deadline = Run(), time.time() + arguments.seconds
        print(f"live-churn: {arguments.workers} workers for {arguments.seconds:.0f} s, quakes of {day}; RSS {rss_mib(pid)} MiB")
        workers = [threading.Thread(target=worker, args=(run, port, seed, deadline, day)) for seed in range(arguments.workers)]
        for thread in workers:
            thread.start()
        while any(thread.is_alive() for thread in workers):
            time.sleep(min(30, arguments.seconds / 2))
            with run.lock:
                print(f"  RSS {rss_mib(pid)} MiB, {run.counts}", flush=True)
        for thread in workers:
            thread.join()
        drained = time.time() + LINGER_SECONDS + 20
        while time.time() < drained and (gauge(port, "listservice_live_streams"), gauge(port, "listservice_live_lists")) != (0, 0):
            time.sleep(1)
        streams, lists = gauge(port, "listservice_live_streams"), gauge(port, "listservice_live_lists")
        print(f"  after the clients: {streams:.0f} streams, {lists:.0f} lists, RSS {rss_mib(pid)} MiB")
        if (streams, lists) != (0, 0):
            run.note(f"{streams:.0f} streams and {lists:.0f} lists left {LINGER_SECONDS + 20} s after the last client")
        if run.counts["deltas"] == 0 or run.counts["streams"] == 0:
            run.note(f"nothing was exercised: {run.counts}")
    finally:
        if server:
            server.terminate()
            server.wait()
    for problem in run.problems:
        print("  problem:", problem)
    print(f"live-churn: {'passed' if not run.problems else f'{len(run.problems)} problems'}")
    sys.exit(1 if run.problems else 0)


if __name__ == "__main__":
    main()
