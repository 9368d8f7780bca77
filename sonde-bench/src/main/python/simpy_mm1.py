#!/usr/bin/env python3
"""The M/M/1 queue of Sonde's simulator benchmark, in SimPy.

Run by io.sonde.bench.sim.SimBenchmark (``./sonde bench sim``). On first use it creates a
virtual environment under ~/.cache/sonde/venv (or $SONDE_VENV), installs SimPy 4.1.2 from PyPI
into it, and re-executes itself with that interpreter; nothing is installed system-wide.

Prints one JSON object on stdout: customers, events processed, wall seconds, events/s,
customers/s and the mean waiting time (to check the run against the closed form).
"""
import argparse
import json
import os
import platform
import random
import subprocess
import sys
import time

SIMPY_VERSION = "4.1.2"


def venv_dir():
    return os.environ.get("SONDE_VENV") or os.path.join(os.path.expanduser("~"), ".cache", "sonde", "venv")


def ensure_simpy():
    """Returns normally when simpy is importable; otherwise re-executes inside the venv."""
    try:
        import simpy  # noqa: F401
        if simpy.__version__ == SIMPY_VERSION:
            return
    except ImportError:
        pass
    if os.environ.get("SONDE_SIMPY_REEXEC") == "1":
        sys.exit("simpy_mm1: SimPy %s still not importable inside %s" % (SIMPY_VERSION, venv_dir()))
    venv = venv_dir()
    python = os.path.join(venv, "bin", "python")
    if not os.path.exists(python):
        print("simpy_mm1: creating a virtual environment in %s" % venv, file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", venv], check=True, stdout=sys.stderr)
    have = subprocess.run([python, "-c", "import simpy,sys; sys.exit(0 if simpy.__version__=='%s' else 1)"
                           % SIMPY_VERSION], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if have.returncode != 0:
        print("simpy_mm1: installing simpy==%s from PyPI into %s" % (SIMPY_VERSION, venv), file=sys.stderr)
        subprocess.run([python, "-m", "pip", "install", "--disable-pip-version-check", "-q",
                        "simpy==%s" % SIMPY_VERSION], check=True, stdout=sys.stderr)
    env = dict(os.environ, SONDE_SIMPY_REEXEC="1")
    os.execve(python, [python] + sys.argv, env)


def run(customers, arrival_rate, service_mean, seed):
    import simpy

    rng = random.Random(seed)
    env = simpy.Environment()
    server = simpy.Resource(env, capacity=1)
    waits = []

    def customer(env):
        arrived = env.now
        with server.request() as req:
            yield req
            waits.append(env.now - arrived)
            yield env.timeout(rng.expovariate(1.0 / service_mean))

    def source(env):
        for _ in range(customers):
            yield env.timeout(rng.expovariate(arrival_rate))
            env.process(customer(env))

    env.process(source(env))
    start = time.perf_counter()
    env.run()
    seconds = time.perf_counter() - start
    # SimPy numbers every scheduled event from one counter; reading it once more tells how many
    # were scheduled (all were processed: the run ended with an empty queue). Reading it this way
    # costs nothing during the run, unlike wrapping step().
    events = next(env._eid)
    return {
        "engine": "simpy",
        "simpy_version": simpy.__version__,
        "python": platform.python_version(),
        "customers": customers,
        "events": events,
        "seconds": seconds,
        "events_per_s": events / seconds,
        "customers_per_s": customers / seconds,
        "mean_wait_ms": sum(waits) / len(waits),
    }


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--customers", type=int, default=200000)
    p.add_argument("--arrival-rate", type=float, default=0.8, help="per ms")
    p.add_argument("--service-mean", type=float, default=1.0, help="ms")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--repeat", type=int, default=1, help="runs; the fastest is reported")
    a = p.parse_args()
    if a.customers < 1 or a.repeat < 1:
        p.error("--customers and --repeat must be >= 1")
    ensure_simpy()
    best = None
    for i in range(a.repeat):
        r = run(a.customers, a.arrival_rate, a.service_mean, a.seed + i)
        if best is None or r["seconds"] < best["seconds"]:
            best = r
    print(json.dumps(best))


if __name__ == "__main__":
    main()
