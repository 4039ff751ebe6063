"""Starting the server as a child process and talking to it, for the fault scripts."""
import http.client
import json
import re
import subprocess
import threading
import time

# A valid `POST /orders` body.
ORDER = {"customerName": "Fault Test", "currency": "USD", "items": [{"name": "Mug", "quantity": 1, "unitPrice": 9.99}],
         "shippingAddress": {"street": "1 Main St", "city": "Austin", "postalCode": "73301", "country": "US",
                             "isResidential": False}}


def start(binary, state=None, port=0, options=()):
    """Starts `binary` on `port` (a free one by default) with `--state state` (in memory
    without one), no rate limits (a harness sends from one address, fast) and further
    `options`; the process and the port it listens on."""
    storage = ["--state", state] if state else ["--in-memory"]
    process = subprocess.Popen([binary, "--port", str(port), *storage, "--no-access-log", "--rate-limit", "off", "--write-rate-limit", "off", *options],
                               stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    deadline = time.time() + 60
    while time.time() < deadline:
        line = process.stderr.readline()
        if not line:
            break
        match = re.search(r"event=listening address=127\.0\.0\.1:(\d+)", line)
        if match:
            threading.Thread(target=lambda: process.stderr.read(), daemon=True).start()  # keep the pipe drained
            return process, int(match.group(1))
    process.kill()
    raise RuntimeError("the server did not start")


def send(connection, method, path, body=None, headers=None):
    """One request on `connection` (JSON `body` if given, further `headers`): status, headers,
    body bytes."""
    data = json.dumps(body).encode() if body is not None else None
    connection.request(method, path, body=data, headers={**(headers or {}), **({"Content-Type": "application/json"} if data else {})})
    response = connection.getresponse()
    payload = response.read()
    return response.status, dict(response.getheaders()), payload


def call(port, method, path, body=None, headers=None):
    """`send` on a connection of its own."""
    return send(http.client.HTTPConnection("127.0.0.1", port, timeout=10), method, path, body, headers)
