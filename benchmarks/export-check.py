"""Exports at scale against a running server (benchmarks/export-bench.sh): rows/s and RSS
growth per file, the files parsed and counted against the list's total, the English CSV cell
for cell against the list's pages, and a slowly read export during 100 writes/s holding
exactly the items of its start."""
import argparse
import csv
import gzip
import hashlib
import http.client
import io
import json
import threading
import time
import zlib

from procstat import PeakSampler, rss_mib

COLUMNS = ["id", "title", "customerName", "statusLabel", "formattedTotal", "formattedDate", "shippingLabel",
           "requiresSignature", "isHighValue"]


def get_json(port, path):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    connection.request("GET", path)
    body = connection.getresponse().read()
    connection.close()
    return json.loads(body)


def download(port, pid, path, headers=None, sink=None, pace=None, on_head=None):
    """Streams `path`; returns (seconds, bytes, RSS growth at peak in MiB, response headers).
    `sink` gets every chunk; `pace` (bytes/s) reads slowly; `on_head` runs once the
    response's head has come (the export's snapshot is taken before it is sent)."""
    before = rss_mib(pid)
    sampler = PeakSampler(pid)
    sampler.start()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    started = time.monotonic()
    connection.request("GET", path, headers=headers or {})
    response = connection.getresponse()
    assert response.status == 200, (path, response.status, response.read()[:300])
    if on_head:
        on_head()
    size = 0
    while True:
        chunk = response.read1(256 * 1024)
        if not chunk:
            break
        size += len(chunk)
        if sink:
            sink(chunk)
        if pace:
            time.sleep(len(chunk) / pace)
    elapsed = time.monotonic() - started
    connection.close()
    return elapsed, size, sampler.stop() - before, dict(response.getheaders())


def report(name, rows, elapsed, size, growth):
    print(f"{name:<28} {rows:>9} rows in {elapsed:6.2f} s = {rows / elapsed:>9.0f} rows/s, "
          f"{size / 1e6:7.1f} MB, RSS growth at peak {growth:5.1f} MiB")


class Collector:
    def __init__(self, keep=True, gunzip=False):
        self.parts, self.hash, self.keep = [], hashlib.sha256(), keep
        self.inflater = zlib.decompressobj(16 + zlib.MAX_WBITS) if gunzip else None

    def __call__(self, chunk):
        if self.inflater:
            chunk = self.inflater.decompress(chunk)
        self.hash.update(chunk)
        if self.keep:
            self.parts.append(chunk)

    @property
    def data(self):
        return b"".join(self.parts)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--raw-out", required=True)
    args = parser.parse_args()
    port, pid = args.port, args.pid
    total = get_json(port, "/orders?limit=1")["total"]
    print(f"list total: {total}; server RSS {rss_mib(pid):.0f} MiB before the exports")

    english = Collector()
    elapsed, size, growth, headers = download(port, pid, "/orders/export", sink=english)
    records = list(csv.reader(io.StringIO(english.data.decode("utf-8"), newline="")))
    assert records[0] == ["ID", "Title", "Customer", "Status", "Total", "Date", "Shipping", "Signature required",
                          "High value"], records[0]
    assert len(records) == total + 1, (len(records), total)
    report("CSV en-US", total, elapsed, size, growth)
    print(f"  {headers.get('Content-Disposition')}")

    german = Collector()
    elapsed, size, growth, _ = download(port, pid, "/orders/export?locale=de-DE&tz=Europe/Berlin", sink=german)
    rows_de = list(csv.reader(io.StringIO(german.data.decode("utf-8-sig"), newline=""), delimiter=";"))
    assert german.data.startswith(b"\xef\xbb\xbf") and rows_de[0][:3] == ["ID", "Titel", "Kunde"], rows_de[0]
    assert len(rows_de) == total + 1 and all(len(row) == 9 for row in rows_de)
    report("CSV de-DE (;, BOM)", total, elapsed, size, growth)
    print(f"  parsed by csv with delimiter=';': {len(rows_de) - 1} rows of 9 cells; first: {rows_de[1]}")
    del rows_de, german

    with open(args.raw_out, "wb") as raw_file:
        elapsed, size, growth, _ = download(port, pid, "/orders/export?raw=1", sink=raw_file.write)
    report("CSV raw=1", total, elapsed, size, growth)

    ndjson = Collector()
    elapsed, size, growth, _ = download(port, pid, "/orders/export?format=ndjson", sink=ndjson)
    lines = ndjson.data.split(b"\n")
    assert lines[-1] == b"" and len(lines) == total + 1, len(lines)
    report("NDJSON", total, elapsed, size, growth)

    zipped = Collector(keep=False, gunzip=True)
    elapsed, size, growth, headers = download(port, pid, "/orders/export", headers={"Accept-Encoding": "gzip"}, sink=zipped)
    assert headers.get("Content-Encoding") == "gzip" and zipped.hash.digest() == english.hash.digest()
    report("CSV en-US, gzip", total, elapsed, size, growth)
    print("  gunzipped: byte for byte the plain file")

    # The English CSV and the NDJSON file against the list's pages, every one of them.
    started, cursor, index = time.monotonic(), "", 1
    while True:
        page = get_json(port, "/orders?limit=500" + (f"&cursor={cursor}" if cursor else ""))
        for row in page["items"]:
            expected = [("true" if row[c] else "false") if isinstance(row[c], bool) else str(row[c]) for c in COLUMNS]
            assert records[index] == expected, (index, records[index], expected)
            assert json.loads(lines[index - 1]) == row, (index, lines[index - 1][:200], row)
            index += 1
        cursor = page.get("nextCursor")
        if not cursor:
            break
    assert index == total + 1
    print(f"CSV en-US cell for cell and NDJSON row for row equal the list's pages: {index - 1} rows, "
          f"{(index - 2) // 500 + 1} pages, in {time.monotonic() - started:.1f} s")
    del records, english, lines, ndjson

    # Slowly, during 100 writes/s: the file of the export's start.
    path = "/orders/export?format=ndjson&sort=total"
    first = Collector(keep=False)
    download(port, pid, path, sink=first)
    pending = [row["id"] for row in get_json(port, "/orders?filter=pending&sort=total&limit=500")["items"]]
    stop, writes, slowest, lock, begun = threading.Event(), [0], [0.0], threading.Lock(), [0.0]
    schedule = iter(enumerate(pending))

    def writer():
        started = begun[0]
        # Four connections take the next order at its time (one every 10 ms): 100 writes/s
        # whatever one write's latency.
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        while not stop.is_set():
            with lock:
                index, order = next(schedule, (None, None))
            if order is None:
                break
            time.sleep(max(0, started + index * 0.01 - time.monotonic()))
            sent = time.monotonic()
            connection.request("POST", f"/orders/{order}/complete", body=b"", headers={"Content-Length": "0"})
            response = connection.getresponse()
            response.read()
            assert response.status == 200, response.status
            with lock:
                slowest[0] = max(slowest[0], time.monotonic() - sent)
                writes[0] += 1
        connection.close()

    def start_writers():
        begun[0] = time.monotonic()
        for thread in threads:
            thread.start()

    during = Collector(keep=False)
    threads = [threading.Thread(target=writer) for _ in range(4)]
    elapsed, size, growth, _ = download(port, pid, path, sink=during, pace=60e6, on_head=start_writers)
    stop.set()
    for thread in threads:
        thread.join()
    after = Collector(keep=False)
    download(port, pid, path, sink=after)
    assert during.hash.digest() == first.hash.digest(), "the export changed with the writes"
    assert after.hash.digest() != first.hash.digest(), "the writes did not change the list"
    print(f"NDJSON read at 60 MB/s during {writes[0]} writes (100/s scheduled; slowest answered in "
          f"{slowest[0] * 1000:.1f} ms): {elapsed:.1f} s, RSS growth at peak {growth:.1f} MiB, "
          "byte for byte the file of its start; an export after them differs")


if __name__ == "__main__":
    main()
