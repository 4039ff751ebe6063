"""A server process's resident memory, for the benchmark scripts."""
import threading
import time


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


class PeakSampler(threading.Thread):
    """Samples RSS every 10 ms until stopped; `peak` is the highest seen."""

    def __init__(self, pid):
        super().__init__(daemon=True)
        self.pid, self.peak, self.running = pid, rss_mib(pid), True

    def run(self):
        while self.running:
            self.peak = max(self.peak, rss_mib(self.pid))
            time.sleep(0.01)

    def stop(self):
        """Stops sampling and returns the peak."""
        self.running = False
        self.join()
        return self.peak
