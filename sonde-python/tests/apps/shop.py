"""A small monitored Python program, run as a real process by the Java tests (sonde-format's
PythonLogTest, sonde-cli's MixedLanguageAnalyzeTest): SONDE_DIR=DIR python shop.py [rounds].

Per round, on the main thread: checkout (price inside it as a span, an "order" event, audit
failing with ValueError); the first round hands work over to the thread "py-worker" (ship).
"""

import sys
import threading
import time

import sonde

order = sonde.event_type("order", paid="boolean", items="int", cents="long", weight="double", region="string")


@sonde.probe(name="py.shop.audit")
def audit():
    raise ValueError("audit failed")


@sonde.probe(name="py.shop.ship")
def ship():
    time.sleep(0.001)


def worker(token):
    with sonde.handed_over(token):
        ship()


@sonde.probe(name="py.shop.checkout")
def checkout(items):
    with sonde.span("py.shop.price"):
        time.sleep(0.002)
    order.emit(True, items, 1999, 2.5, "eu-west")
    try:
        audit()
    except ValueError:
        pass
    if items == 0:
        t = threading.Thread(target=worker, args=(sonde.handoff(),), name="py-worker")
        t.start()
        t.join()


def main():
    if not sonde.active():
        sys.exit("shop.py: not monitoring; set SONDE_DIR or SONDE_TCP")
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    for i in range(rounds):
        checkout(i)
    print("done", flush=True)


if __name__ == "__main__":
    main()
