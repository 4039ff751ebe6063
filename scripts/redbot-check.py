#!/usr/bin/env python3
"""REDbot (an independent HTTP linter, from PyPI) on the running server: /health, a list, a
row, an export, /openapi.yaml, / and one of the web front end's scripts. REDbot asks each URL plain and then with Accept-Encoding: gzip (its
content-negotiation check), and with If-None-Match. Any note at level BAD fails; WARN notes
are printed, each fixed or explained in the README ("Caching, compression and REDbot").
Exits 0 when nothing is BAD.

    scripts/redbot-check.py [--binary .build/debug/server] [--redbot PATH]
"""
import argparse
import json
import re
import subprocess
import sys

from serverprocess import call, start

PATHS = ["/health", "/orders?filter=pending&q=john", "/orders/o-000439", "/orders/export?filter=pending&q=john", "/openapi.yaml", "/"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/debug/server")
    parser.add_argument("--redbot", default="redbot")
    arguments = parser.parse_args()
    server, port = start(arguments.binary)
    bad = 0
    try:
        page = call(port, "GET", "/")[2].decode()
        script = re.search(r'src="(/app/[0-9a-f]+/app\.js)"', page).group(1)
        for path in PATHS + [script]:
            url = f"http://127.0.0.1:{port}{path}"
            har = json.loads(subprocess.run([arguments.redbot, "-o", "har", url], check=True, capture_output=True, text=True).stdout)
            entries = har["log"]["entries"]
            if not entries:
                print(f"redbot {path}: no answer")
                bad += 1
                continue
            for entry in entries:
                status = entry["response"]["status"]
                notes = entry.get("_red_messages", [])
                levels = [note["level"] for note in notes]
                print(f"redbot {path}: {status}, {len(notes)} notes: " + ", ".join(f"{levels.count(l)} {l}" for l in ("GOOD", "INFO", "WARN", "BAD")))
                for note in notes:
                    if note["level"] in ("WARN", "BAD"):
                        print(f"  {note['level']}: {note['summary']}")
                        bad += note["level"] == "BAD"
    finally:
        server.terminate()
        server.wait()
    if bad:
        print(f"redbot: {bad} BAD notes", file=sys.stderr)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
