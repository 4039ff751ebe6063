"""A server process's resident memory, for the benchmark scripts."""


def rss_mib(pid):
    """VmRSS of process `pid` in MiB (0 when it is gone)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except FileNotFoundError:
        pass
    return 0.0
