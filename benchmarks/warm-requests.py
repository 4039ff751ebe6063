"""Sends COUNT warm `GET /orders?filter=pending&q=john` on one keep-alive connection, each read
to its end: all the same bytes (`same`), or each with its own `X-Nonce` header (`differ`).

    python3 benchmarks/warm-requests.py PORT COUNT same|differ [header ...]
"""
import socket
import sys

port, count, mode = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
extra = "".join(f"{header}\r\n" for header in sys.argv[4:])
connection = socket.create_connection(("127.0.0.1", port))
answers = connection.makefile("rb")
for index in range(count):
    nonce = f"X-Nonce: {index}\r\n" if mode == "differ" else ""
    connection.sendall(
        ("GET /orders?filter=pending&q=john HTTP/1.1\r\nHost: 127.0.0.1\r\n"
         f"X-Session-ID: warm-instructions\r\n{extra}{nonce}\r\n").encode())
    length = 0
    while (line := answers.readline()) not in (b"\r\n", b""):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    answers.read(length)
