"""benchlib - what bench/e2e, bench/memory and bench/startup share.

Starting fake-discord and a bot against it, talking to the fake's control
API (/_test/...), reading /proc, and the header every benchmark prints
(commit, date, machine, load average). Standard library only.
"""
import datetime
import http.client
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

TOKEN = "bench-token"
FAKE_CHANNEL_BASE = 1100000000000000200   # fake-discord's --channel-id
READY_TIMEOUT_S = 20.0
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def die(msg):
    print(f"{os.path.basename(sys.argv[0])}: {msg}", file=sys.stderr)
    sys.exit(2)


def binaries(build):
    """Paths of the programs in a build directory; dies if one is missing."""
    b = {
        "fray": os.path.join(build, "fray"),
        "fake": os.path.join(build, "tests", "fakes", "fake-discord"),
        "floor": os.path.join(build, "bench-floor-bot"),
        "mkdb": os.path.join(build, "bench-mkdb"),
    }
    missing = [p for p in b.values() if not os.access(p, os.X_OK)]
    if missing:
        die(f"missing {', '.join(missing)}: build first, e.g. "
            f"cmake -S . -B {build} && cmake --build {build} --target fray "
            f"fake-discord bench-floor-bot bench-mkdb")
    cache = os.path.join(build, "CMakeCache.txt")
    if os.path.exists(cache):
        text = open(cache).read()
        for bad in ("FRAY_SANITIZE:BOOL=ON", "CMAKE_BUILD_TYPE:STRING=Debug"):
            if bad in text:
                print(f"WARNING: {build} is a {bad.split(':')[0]} build: "
                      f"its timings mean nothing", file=sys.stderr)
    return b


def machine():
    model, cpus = "?", 0
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name") and model == "?":
                model = line.split(":", 1)[1].strip()
            if line.startswith("processor"):
                cpus += 1
    return model, cpus


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def source_dir(build):
    """The source tree a build directory was configured from."""
    try:
        with open(os.path.join(build, "CMakeCache.txt")) as f:
            for line in f:
                if line.startswith("CMAKE_HOME_DIRECTORY:"):
                    return line.split("=", 1)[1].strip()
    except OSError:
        pass
    return ROOT


def commit(src=ROOT):
    """The commit of src, +uncommitted when bot/ or engine/ differ from it
    (what the numbers measure is then not that commit)."""
    try:
        c = subprocess.run(["git", "-C", src, "rev-parse", "--short",
                            "HEAD"], capture_output=True, text=True,
                           check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", src, "status", "--porcelain",
                                "--untracked-files=no", "bot", "engine"],
                               capture_output=True, text=True).stdout.strip()
        return c + ("+uncommitted" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "?"


def header(title, build):
    model, cpus = machine()
    now = datetime.datetime.now(datetime.timezone.utc)
    print(f"{title}: fray {commit(source_dir(build))} ({build}); "
          f"{now:%Y-%m-%d %H:%M} UTC; {model}, "
          f"{cpus} CPUs; load average {loadavg()}")
    if cpus and float(loadavg().split()[0]) > cpus:
        print(f"WARNING: load average above {cpus} CPUs: the machine is "
              f"busy, these numbers are not worth keeping")


def proc_status(pid):
    """VmRSS, VmHWM, RssAnon, RssFile, RssShmem (from /proc/PID/status) and
    Pss (smaps_rollup) of a process, in KiB."""
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            k, _, v = line.partition(":")
            if k in ("VmRSS", "VmHWM", "RssAnon", "RssFile", "RssShmem"):
                out[k] = int(v.split()[0])
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    out["Pss"] = int(line.split()[1])
    except OSError:
        out["Pss"] = 0
    return out


class Fake:
    """fake-discord on a free port; stopped by stop() (or at exit)."""

    def __init__(self, binary, workdir, args=()):
        self.log = open(os.path.join(workdir, "fake.log"), "w")
        self.proc = subprocess.Popen([binary, "--port", "0", "--token", TOKEN,
                                      *args], stdout=subprocess.PIPE,
                                     stderr=self.log, text=True)
        line = self.proc.stdout.readline()
        if not line.startswith("PORT "):
            self.stop()
            die("fake-discord did not start")
        self.port = int(line.split()[1])
        self.api = f"http://127.0.0.1:{self.port}/api/v10"

    def call(self, method, path, body=None):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        data = json.dumps(body) if body is not None else None
        c.request(method, "/_test/" + path, body=data,
                  headers={"Content-Type": "application/json"} if data
                  else {})
        r = c.getresponse()
        text = r.read()
        c.close()
        out = json.loads(text) if text else None
        if r.status >= 300:
            raise RuntimeError(f"{method} /_test/{path}: {r.status} {out}")
        return out

    def get(self, path):
        return self.call("GET", path)

    def post(self, path, body=None):
        return self.call("POST", path, body if body is not None else {})

    def wait_ready(self, proc, timeout=READY_TIMEOUT_S):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.get("stats").get("ready"):
                return
            if proc.poll() is not None:
                die(f"the bot exited with status {proc.returncode} before "
                    f"READY")
            time.sleep(0.01)
        die("no READY")

    def load(self, spec, poll=0.1):
        """Run the load generator to the end; returns GET /_test/load."""
        self.post("load", spec)
        while True:
            time.sleep(poll)
            st = self.get("load")
            if not st["active"]:
                return st

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


def no_limits(fray):
    """A [limits] section turning off the per-user and per-channel buckets,
    for benchmarks whose load comes from one user by design; "" for a fray
    older than [limits] (it would refuse the unknown keys)."""
    with open(fray, "rb") as f:
        if b"user_per_minute" not in f.read():
            return ""
    return ("[limits]\nuser_per_minute = 0\nchannel_per_minute = 0\n"
            "secret_per_minute = 0\nautocomplete_per_minute = 0\n")


def fray_config(workdir, db, level="warn", extra=""):
    path = os.path.join(workdir, "fray.conf")
    with open(path, "w") as f:
        f.write(f"[store]\npath = {db}\n[log]\nlevel = {level}\n{extra}")
    return path


def free_port():
    """A loopback port free a moment ago (for fray's [metrics] listen)."""
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def scrape_gauge(port, name):
    """fray's /metrics gauge `name` (None when absent)."""
    import urllib.request
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics",
                                  timeout=10).read().decode()
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    return None


def scrape_outcomes(port, name="fray_interactions_total"):
    """fray's /metrics counter `name` summed by its outcome label:
    {"ok": n, "limited": n, ...}."""
    import urllib.request
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics",
                                  timeout=10).read().decode()
    out = {}
    for line in text.splitlines():
        if not line.startswith(name + "{") or 'outcome="' not in line:
            continue
        outcome = line.split('outcome="', 1)[1].split('"', 1)[0]
        out[outcome] = out.get(outcome, 0) + int(float(line.split()[-1]))
    return out


def scrape_hist(port, name):
    """fray's /metrics histogram `name` as [(upper bound s, cumulative)]."""
    import urllib.request
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics",
                                  timeout=10).read().decode()
    out = []
    for line in text.splitlines():
        if line.startswith(name + '_bucket{le="'):
            le, count = line[len(name) + 12:].split('"} ')
            out.append((float("inf") if le == "+Inf" else float(le),
                        int(count)))
    return out


def hist_quantile(before, after, q):
    """The q-quantile in ms of what a histogram counted between two scrapes,
    interpolated within its bucket as Prometheus' histogram_quantile()."""
    delta = [(le, a - b) for (le, a), (_, b) in zip(after, before)]
    total = delta[-1][1]
    if total == 0:
        return None
    rank, lo, prev = q * total, 0.0, 0
    for le, cum in delta:
        if cum >= rank:
            if le == float("inf"):
                return lo * 1000
            return (lo + (le - lo) * (rank - prev) / max(cum - prev, 1)) * 1000
        lo, prev = le, cum
    return None


def bot_env(fake):
    env = {k: v for k, v in os.environ.items()
           if k not in ("CREDENTIALS_DIRECTORY", "NOTIFY_SOCKET",
                        "WATCHDOG_USEC", "JOURNAL_STREAM")}
    env["DISCORD_TOKEN"] = TOKEN
    env["DISCORD_API_BASE"] = fake.api
    return env


def start_bot(argv, fake, workdir, name):
    log = open(os.path.join(workdir, f"{name}.log"), "w")
    p = subprocess.Popen(argv, env=bot_env(fake), stdout=log, stderr=log)
    p.bench_log = log
    return p


def stop_bot(p):
    if p.poll() is None:
        p.send_signal(signal.SIGTERM)
        try:
            p.wait(15)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
    p.bench_log.close()


def mkdb(binary, db, count, extra=()):
    r = subprocess.run([binary, "--db", db, "--count", str(count), *extra],
                       capture_output=True, text=True)
    if r.returncode != 0:
        die(f"bench-mkdb failed: {r.stderr.strip()} {r.stdout.strip()}")
    return json.loads(r.stdout)


class Workdir:
    """A temporary directory, removed at exit unless keep is set."""

    def __init__(self, keep=None):
        self.keep = keep
        self.path = keep or tempfile.mkdtemp(prefix="fray-bench-")
        os.makedirs(self.path, exist_ok=True)

    def __enter__(self):
        return self.path

    def __exit__(self, *exc):
        if not self.keep:
            shutil.rmtree(self.path, ignore_errors=True)


def median(xs):
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2
