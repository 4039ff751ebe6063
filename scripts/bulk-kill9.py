#!/usr/bin/env python3
"""SIGKILL in the middle of bulk actions: each trial completes 185 pending orders in one
`POST /orders/actions/complete`, kills the server with SIGKILL at a random moment while it is
being handled, restarts it on the same state directory, and counts how many of the 185 are
completed: all of them or none (all of them when the answer had come), never some.

    scripts/bulk-kill9.py [--trials 12] [--binary .build/release/server]

Prints one line per trial and a summary; exits 1 if a batch was kept in part.
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

from serverprocess import call, start


def pending(port, count):
    status, _, body = call(port, "GET", f"/orders?filter=pending&sort=total&limit={count}")
    assert status == 200, status
    return [row["id"] for row in json.loads(body)["items"]]


def statuses(port, ids):
    result = {}
    for order in ids:
        status, _, body = call(port, "GET", f"/orders/{order}")
        result[order] = json.loads(body)["status"] if status == 200 else None
    return result


def bulk(port, ids, answer):
    body = json.dumps({"items": [{"id": order} for order in ids]}).encode()
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("POST", "/orders/actions/complete", body=body, headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        answer["status"], answer["body"] = response.status, json.loads(response.read())
    except (OSError, http.client.HTTPException, ValueError):
        answer["status"] = None  # killed before the answer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--trials", type=int, default=12)
    parser.add_argument("--binary", default=".build/release/server")
    arguments = parser.parse_args()
    state = tempfile.mkdtemp(prefix="bulk-kill9-")
    failures, outcomes = 0, {"all": 0, "none": 0}
    try:
        server, port = start(arguments.binary, state)
        # How long one bulk takes here, to kill within it.
        ids = pending(port, 185)
        started = time.monotonic()
        answer = {}
        bulk(port, ids, answer)
        took = time.monotonic() - started
        assert answer["status"] == 200 and answer["body"]["accepted"] == 185, answer.get("status")
        print(f"one bulk of 185 answered in {took * 1000:.1f} ms; killing within 0–{took * 1500:.0f} ms of sending")
        for trial in range(1, arguments.trials + 1):
            ids = pending(port, 185)
            answer = {}
            sender = threading.Thread(target=bulk, args=(port, ids, answer))
            delay = random.uniform(0, took * 1.5)
            sender.start()
            time.sleep(delay)
            server.send_signal(signal.SIGKILL)
            server.wait()
            sender.join()
            server, port = start(arguments.binary, state, port)
            completed = sum(1 for status in statuses(port, ids).values() if status == "completed")
            answered = answer.get("status") == 200
            whole = completed in (0, 185) and (not answered or completed == 185)
            kind = "all" if completed == 185 else "none" if completed == 0 else "part"
            outcomes[kind] = outcomes.get(kind, 0) + 1
            failures += 0 if whole else 1
            print(f"trial {trial}: killed after {delay * 1000:.1f} ms, answer {'200' if answered else 'none'}, "
                  f"{completed} of 185 completed after the restart: {'ok' if whole else 'KEPT IN PART'}")
        server.terminate()
        server.wait()
    finally:
        shutil.rmtree(state, ignore_errors=True)
    print(f"bulk-kill9: {arguments.trials} trials, all {outcomes['all']}, none {outcomes['none']}, "
          f"in part {outcomes.get('part', 0)}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
