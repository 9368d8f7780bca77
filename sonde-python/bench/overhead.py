"""Overhead per monitored call: Sonde's Python probes against OpenTelemetry's Python SDK, side by side.

    python bench/overhead.py [--calls N] [--runs R] [--json FILE]

Every variant times the same empty function, called N times in a loop, R runs each (runs of all
variants interleaved, so that a load change hits all of them alike); the figure is the median of
the runs in ns per call, with the spread (min..max) of the runs, and the overhead is that minus the
bare call's median. Times are the process's CPU time (time.process_time_ns: all threads, so the
writer thread's work counts), which a loaded machine disturbs far less than wall-clock time.
Variants:

- bare: the undecorated function;
- sonde-off: @sonde.probe with monitoring stopped;
- sonde-file: @sonde.probe while recording to a file (writer thread running; each run ends with a
  flush of what it queued, so the cost of encoding, CRC and writing is included);
- sonde-file-cpu: the same with thread CPU time (ENTER_CPU/EXIT_CPU);
- sonde-span: ``with sonde.span(...)`` around the call, recording to a file;
- otel-decorator: ``@tracer.start_as_current_span(...)`` on the function;
- otel-span: ``with tracer.start_as_current_span(...)`` around the call;
  both with the SDK's TracerProvider and no span processor or exporter (a span per call, no export).

OpenTelemetry is not a dependency of sonde: install it beside it (``pip install opentelemetry-sdk``);
without it the OpenTelemetry rows are left out and the output says so.
"""

import argparse
import gc
import json
import platform
import shutil
import statistics
import sys
import tempfile
import time

import sonde
from sonde import _wire


def work():
    return None


def make_variants(tmpdir):
    sonde_probed = sonde.probe(name="bench.work")(work)
    span = sonde.span("bench.span")

    def with_sonde_span():
        with span:
            work()

    variants = [("bare", work, None), ("sonde-off", sonde_probed, None),
                ("sonde-file", sonde_probed, {"cpu": False}), ("sonde-file-cpu", sonde_probed, {"cpu": True}),
                ("sonde-span", with_sonde_span, {"cpu": False})]
    try:
        from opentelemetry.sdk.trace import TracerProvider
        from importlib.metadata import version
    except ImportError:
        return variants, None
    tracer = TracerProvider().get_tracer("bench")  # no span processor: spans are made, ended and not exported
    otel_decorated = tracer.start_as_current_span("bench.work")(work)

    def with_otel_span():
        with tracer.start_as_current_span("bench.span"):
            work()

    variants += [("otel-decorator", otel_decorated, None), ("otel-span", with_otel_span, None)]
    return variants, version("opentelemetry-sdk")


def time_run(fn, calls, sonde_options, tmpdir):
    if sonde_options is not None:
        sonde.start(tmpdir, buffer_records=2 * calls + 16, **sonde_options)
    gc.collect()
    t0 = time.process_time_ns()
    for _ in range(calls):
        fn()
    if sonde_options is not None:
        sonde._session.flush()  # the writer's share: everything this run queued is framed and written
    elapsed = time.process_time_ns() - t0
    if sonde_options is not None:
        produced, written, drops = sonde.stop()
        assert produced == written == 2 * calls and not any(drops.values()), (produced, written, drops)
    return elapsed / calls


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--calls", type=int, default=200_000, help="calls per run (default 200000)")
    ap.add_argument("--runs", type=int, default=7, help="runs per variant (default 7)")
    ap.add_argument("--json", help="also write the results as JSON to this file")
    args = ap.parse_args(argv)
    tmpdir = tempfile.mkdtemp(prefix="sonde-bench-")
    try:
        variants, otel_version = make_variants(tmpdir)
        for name, fn, options in variants:  # warm-up
            time_run(fn, min(args.calls, 20_000), options, tmpdir)
        results = {name: [] for name, _, _ in variants}
        for _ in range(args.runs):
            for name, fn, options in variants:
                results[name].append(time_run(fn, args.calls, options, tmpdir))
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)
    bare = statistics.median(results["bare"])
    print("Python %s (%s), %s; %d calls x %d runs; Sonde's CRC-32C: %s; OpenTelemetry SDK %s" % (
        platform.python_version(), platform.python_implementation(), platform.machine(), args.calls, args.runs,
        _wire.CRC_IMPLEMENTATION,
        otel_version or "not installed (pip install opentelemetry-sdk): its rows are left out"))
    print("%-16s %12s %20s %14s" % ("variant", "ns/call", "runs min..max", "overhead ns"))
    rows = []
    for name, values in results.items():
        med = statistics.median(values)
        rows.append({"variant": name, "median_ns": med, "min_ns": min(values), "max_ns": max(values),
                     "overhead_ns": med - bare})
        print("%-16s %12.1f %9.1f..%-9.1f %14.1f" % (name, med, min(values), max(values), med - bare))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"python": platform.python_version(), "otel_sdk": otel_version, "crc": _wire.CRC_IMPLEMENTATION, "calls": args.calls,
                       "runs": args.runs, "rows": rows}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
