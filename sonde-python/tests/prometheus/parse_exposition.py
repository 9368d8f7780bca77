"""Parses a Prometheus text exposition (version 0.0.4) from stdin with the official Python client's
parser, prometheus_client.parser.text_string_to_metric_families, and prints what it read, one line
per family and per sample, for the Java tests (io.sonde.core.prometheus.PrometheusClient):

    version <prometheus_client version>
    family <name> <type> <documentation, percent-encoded>
    sample <name> <value> [<label>=<value, percent-encoded>]...

Family names are the parser's: a counter's family is named without its _total suffix, its samples
keep it. A sample that belongs to no declared family becomes a family of its own of type "unknown"
(older releases: "untyped"); the caller decides whether that is an error. Values are written so that
Java's Double.parseDouble reads them back exactly (NaN, Infinity, -Infinity, else Python's shortest
repr). Exits 1 with the parser's message when it refuses the text."""

import importlib.metadata
import math
import sys
import urllib.parse

from prometheus_client.parser import text_string_to_metric_families


def enc(text):
    return urllib.parse.quote(text, safe="")


def number(v):
    v = float(v)
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "Infinity" if v > 0 else "-Infinity"
    return repr(v)


def main():
    text = sys.stdin.buffer.read().decode("utf-8")
    out = ["version " + importlib.metadata.version("prometheus_client")]
    try:
        for family in text_string_to_metric_families(text):
            out.append("family %s %s %s" % (family.name, family.type, enc(family.documentation)))
            for s in family.samples:
                labels = " ".join("%s=%s" % (k, enc(v)) for k, v in s.labels.items())
                out.append(("sample %s %s %s" % (s.name, number(s.value), labels)).rstrip())
    except Exception as e:  # the parser raises ValueError (and, for some garbage, others)
        print("prometheus_client refused the exposition: %s: %s" % (type(e).__name__, e), file=sys.stderr)
        return 1
    sys.stdout.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
