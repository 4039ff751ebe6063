#!/usr/bin/env python3
"""SIGKILL at a random moment, many times: several connections create, rename and delete
orders; the server is killed with SIGKILL mid-stream, restarted on the same state directory,
and every acknowledged write is checked. Nothing acknowledged may be lost, and nothing
refused may appear.

    scripts/kill9-harness.py [--trials 50] [--connections 4] [--binary .build/release/server]

Prints one line per trial and a summary; exits 1 if any acknowledged write was lost.
"""
import argparse
import http.client
import json
import random
import shutil
import signal
import sys
import tempfile
import threading
import time

from serverprocess import ORDER, send, start


class Writer(threading.Thread):
    """One connection: creates orders, renames its own, deletes some; records what was acknowledged."""

    def __init__(self, port, number):
        super().__init__(daemon=True)
        self.port, self.number = port, number
        self.created, self.deleted = [], set()
        self.acknowledged_names, self.in_flight_names = {}, {}
        self.deleting = None  # the order of a DELETE sent but not answered when the server died
        self.counter = 0

    def run(self):
        try:
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
            while True:
                self.counter += 1
                live = [order for order in self.created if order not in self.deleted]
                choice = random.random()
                if not live or choice < 0.4:
                    status, headers, _ = send(connection, "POST", "/orders", ORDER)
                    if status == 201:
                        self.created.append(headers["Location"].rsplit("/", 1)[1])
                elif choice < 0.9:
                    order = random.choice(live)
                    name = f"Writer {self.number} {self.counter}"
                    self.in_flight_names.setdefault(order, set()).add(name)
                    status, _, _ = send(connection, "PATCH", f"/orders/{order}", {"customerName": name})
                    if status == 200:
                        self.acknowledged_names[order] = name
                        self.in_flight_names[order] = set()
                else:
                    order = random.choice(live)
                    self.deleting = order
                    status, _, _ = send(connection, "DELETE", f"/orders/{order}", None)
                    self.deleting = None
                    if status == 204:
                        self.deleted.add(order)
        except (OSError, http.client.HTTPException):
            return  # the server was killed


def check(port, writers):
    """Every acknowledged write of every writer, against the restarted server; the problems found."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    problems = []
    for writer in writers:
        for order in writer.created:
            connection.request("GET", f"/orders/{order}")
            response = connection.getresponse()
            row = json.loads(response.read() or b"{}")
            if order in writer.deleted:
                if response.status != 404:
                    problems.append(f"{order}: deleted (acknowledged) but still there")
                continue
            if response.status == 404 and order == writer.deleting:
                continue  # its delete was durable, only the answer was lost
            if response.status != 200:
                problems.append(f"{order}: created (acknowledged) but missing: {response.status}")
                continue
            acknowledged = writer.acknowledged_names.get(order)
            allowed = {acknowledged} | writer.in_flight_names.get(order, set()) if acknowledged else None
            if allowed and row.get("customerName") not in allowed:
                problems.append(f"{order}: name {row.get('customerName')!r}, acknowledged {acknowledged!r}")
    return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--trials", type=int, default=50)
    parser.add_argument("--connections", type=int, default=4)
    parser.add_argument("--binary", default=".build/release/server")
    options = parser.parse_args()
    state = tempfile.mkdtemp(prefix="listservice-kill9-")
    lost = acknowledged = 0
    try:
        for trial in range(1, options.trials + 1):
            process, port = start(options.binary, state)
            writers = [Writer(port, number) for number in range(options.connections)]
            for writer in writers:
                writer.start()
            time.sleep(random.uniform(0.2, 1.5))
            process.send_signal(signal.SIGKILL)
            process.wait()
            for writer in writers:
                writer.join(timeout=10)
            restarted, port = start(options.binary, state)
            problems = check(port, writers)
            restarted.send_signal(signal.SIGTERM)
            restarted.wait(timeout=30)
            writes = sum(len(w.created) + len(w.acknowledged_names) + len(w.deleted) for w in writers)
            acknowledged += writes
            lost += len(problems)
            print(f"trial {trial}: acknowledged writes {writes}, lost {len(problems)}" + (f": {problems[:3]}" if problems else ""))
            sys.stdout.flush()
    finally:
        shutil.rmtree(state, ignore_errors=True)
    print(f"{options.trials} trials, {acknowledged} acknowledged writes, {lost} lost")
    sys.exit(1 if lost else 0)


if __name__ == "__main__":
    main()
