"""The public API end to end: probes, spans, events, sensors, hand-offs, threads and drop counting,
written by the real writer thread to files and read back with the strict reader."""

import os
import shutil
import subprocess
import sys
import tempfile
import threading
import unittest
import uuid

import sonde
from sonde import _monitor, _read
from sonde import _wire as w

# where the sonde under test comes from (the installed package, or src/ on PYTHONPATH): child processes use the same
SRC = os.path.dirname(os.path.dirname(os.path.abspath(sonde.__file__)))


def records_by_thread(frames):
    """{thread id: [records in stream order]} over all DATA frames."""
    out = {}
    for f in frames:
        for tid, records in f.blocks:
            if tid:
                out.setdefault(tid, []).extend(records)
    return out


class Recording(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="sonde-py-test-")
        self.addCleanup(shutil.rmtree, self.dir, True)
        self.addCleanup(sonde.stop)

    def read(self):
        logs = _read.read_log(self.dir)
        self.assertEqual(len(logs), 1, logs.keys())
        frames, registry = next(iter(logs.values()))
        return frames, registry

    def probe_name(self, registry, record):
        return registry[("probe", record[1])][0]


class ProbeTest(Recording):
    def test_decorator_and_span_make_a_call_tree_with_exceptions(self):
        @sonde.probe
        def inner(x):
            if x < 0:
                raise ValueError("negative")
            return x * 2

        @sonde.probe(name="shop.checkout")
        def outer(x):
            with sonde.span("pricing"):
                inner(x)
            try:
                inner(-1)
            except ValueError:
                pass
            return "done"

        agent = sonde.start(self.dir)
        self.assertTrue(sonde.active())
        self.assertEqual(outer(3), "done")
        self.assertEqual(outer.__name__, "outer")
        produced, written, drops = sonde.stop()
        self.assertFalse(sonde.active())
        self.assertEqual((produced, written), (8, 8))
        self.assertEqual(sum(drops.values()), 0)

        frames, registry = self.read()
        self.assertEqual(frames[0].agent_id, agent.hex)
        self.assertEqual(frames[0].pid, os.getpid())
        self.assertEqual([f.sequence for f in frames], list(range(len(frames))))
        self.assertEqual(frames[-1].trailer, (8, 8, {}))
        (tid, recs), = records_by_thread(frames).items()
        self.assertEqual(registry[("thread", tid)], threading.current_thread().name)
        shape = [(r[0], self.probe_name(registry, r) if r[0] != "TRACE_START" else None) for r in recs]
        inner_name = __name__ + ".ProbeTest.test_decorator_and_span_make_a_call_tree_with_exceptions.<locals>.inner"
        self.assertEqual(shape, [
            ("TRACE_START", None), ("ENTER", "shop.checkout"), ("ENTER", "pricing"), ("ENTER", inner_name),
            ("EXIT", inner_name), ("EXIT", "pricing"), ("ENTER", inner_name), ("EXIT_EXCEPTION", inner_name),
            ("EXIT", "shop.checkout")])
        self.assertEqual(recs[0][1:], ((tid << 32) | 1, 0, -1))
        self.assertEqual(registry[("string", recs[7][3])], "ValueError")
        times = [r[2] for r in recs[1:]]
        self.assertEqual(times, sorted(times))
        self.assertEqual(registry[("probe", recs[3][1])][1], "(x)")

    def test_cpu_time_variants(self):
        @sonde.probe
        def spin():
            return sum(range(20000))

        @sonde.probe
        def fail():
            raise KeyError("k")

        sonde.start(self.dir, cpu=True)
        spin()
        with self.assertRaises(KeyError):
            fail()
        sonde.stop()
        frames, registry = self.read()
        (_tid, recs), = records_by_thread(frames).items()
        kinds = [r[0] for r in recs]
        self.assertEqual(kinds, ["TRACE_START", "ENTER_CPU", "EXIT_CPU", "TRACE_START", "ENTER_CPU", "EXIT_EXCEPTION_CPU"])
        self.assertGreater(recs[2][3] - recs[1][3], 0, "CPU time of a busy loop")
        self.assertEqual(registry[("string", recs[5][4])], "KeyError")

    def test_not_monitoring_costs_no_records_and_coroutines_are_refused(self):
        @sonde.probe
        def f():
            return 1

        self.assertEqual(f(), 1)
        self.assertIsNone(sonde.stats())
        with self.assertRaises(TypeError):
            @sonde.probe
            async def g():
                pass
        with self.assertRaises(ValueError):
            sonde.start()
        sonde.start(self.dir)
        with self.assertRaises(RuntimeError):
            sonde.start(self.dir)

    def test_events_and_sensors(self):
        order = sonde.event_type("order", paid="boolean", items="int", cents="long", weight="double", region="string")
        self.assertIs(sonde.event_type("order", paid="boolean", items="int", cents="long", weight="double",
                                       region="string"), order)
        with self.assertRaises(ValueError):
            sonde.event_type("order", paid="int")
        with self.assertRaises(ValueError):
            sonde.event_type("bad", x="complex")
        queue = sonde.sensor("queue.length")
        sonde.start(self.dir)
        order.emit(True, 3, 1999, 2.5, "eu-west")
        order.emit(paid=False, items=-2 ** 31, cents=2 ** 63 - 1, weight=-0.125, region="eu-west")
        with self.assertRaises(TypeError):
            order.emit(paid=True)
        with self.assertRaises(TypeError):
            order.emit(True, 2 ** 31, 0, 0.0, "x")  # does not fit an int field
        sonde.event("tick")
        sonde.event("login", user="ann", admin=False, attempts=2)
        queue.set(5)
        queue.add(2)
        produced, written, _ = sonde.stop()
        self.assertEqual((produced, written), (6, 6))
        frames, registry = self.read()
        (_tid, recs), = records_by_thread(frames).items()
        self.assertEqual([(r[1], r[3]) for r in recs], [
            ("order", (True, 3, 1999, 2.5, "eu-west")),
            ("order", (False, -2 ** 31, 2 ** 63 - 1, -0.125, "eu-west")),
            ("tick", ()),
            ("login", ("ann", False, 2)),
            ("queue.length", (5,)),
            ("queue.length", (7,))])
        login = next(v for k, v in registry.items() if k[0] == "event" and v[0] == "login")
        self.assertEqual(login[1], ((w.FIELD_STRING, "user"), (w.FIELD_BOOLEAN, "admin"), (w.FIELD_LONG, "attempts")))

    def test_threads_and_handoff(self):
        @sonde.probe
        def work(n):
            return n

        @sonde.probe
        def submit():
            token = sonde.handoff()
            t = threading.Thread(target=child, args=(token,), name="worker-1")
            t.start()
            t.join()

        def child(token):
            with sonde.handed_over(token):
                work(1)
                work(2)
            work(3)

        sonde.start(self.dir)
        submit()
        sonde.stop()
        frames, registry = self.read()
        by_thread = records_by_thread(frames)
        self.assertEqual(len(by_thread), 2)
        main_tid = next(t for t in by_thread if registry[("thread", t)] == threading.current_thread().name)
        worker_tid = next(t for t in by_thread if registry[("thread", t)] == "worker-1")
        parent_trace = by_thread[main_tid][0][1]
        starts = [r for r in by_thread[worker_tid] if r[0] in ("TRACE_START", "HANDOFF_START")]
        self.assertEqual(starts[0][0], "HANDOFF_START")
        self.assertEqual(starts[0][2:4], (parent_trace, 0))
        self.assertLessEqual(by_thread[main_tid][1][2], starts[0][4], "hand-off time within the parent")
        self.assertEqual(starts[1], ("TRACE_START", starts[1][1], parent_trace, 0))
        self.assertEqual(starts[2][2:], (0, -1))
        self.assertEqual(len({s[1] for s in starts}), 3)

    def test_full_buffer_drops_are_counted_and_marked_by_a_gap(self):
        @sonde.probe
        def f():
            pass

        sonde.start(self.dir, buffer_records=8, flush_interval=3600)  # the writer never runs before stop
        for _ in range(10):
            f()
        produced, written, drops = sonde.stop()
        self.assertEqual(produced, 20)
        self.assertEqual(produced, written + sum(drops.values()))
        self.assertGreater(drops[w.DROP_BUFFER_FULL], 0)
        frames, _ = self.read()
        self.assertEqual(frames[-1].trailer[:2], (produced, written))
        (_tid, recs), = records_by_thread(frames).items()
        self.assertEqual(sum(1 for r in recs if r[0] in ("ENTER", "EXIT")), written)

    def test_thread_limit_drops_as_no_buffer(self):
        @sonde.probe
        def f():
            pass

        sonde.start(self.dir, max_threads=1)
        f()
        t = threading.Thread(target=f)
        t.start()
        t.join()
        produced, written, drops = sonde.stop()
        self.assertEqual((produced, written, drops[w.DROP_NO_BUFFER]), (4, 2, 2))

    def test_many_threads_many_frames_every_record_arrives(self):
        @sonde.probe
        def leaf(i):
            return i

        @sonde.probe
        def root(i):
            for j in range(3):
                leaf(j)

        def run():
            for i in range(2000):
                root(i)

        sonde.start(self.dir, flush_interval=0.005, buffer_records=1 << 20, segment_bytes=200 * 1024)
        threads = [threading.Thread(target=run, name="t%d" % k) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        produced, written, drops = sonde.stop()
        self.assertEqual((produced, written, sum(drops.values())), (4 * 2000 * 8, 4 * 2000 * 8, 0))
        self.assertGreater(len(os.listdir(self.dir)), 1, "rolled to several segments")
        frames, registry = self.read()
        by_thread = records_by_thread(frames)
        self.assertEqual(sorted(registry[("thread", t)] for t in by_thread), ["t0", "t1", "t2", "t3"])
        for recs in by_thread.values():
            depth = 0
            for r in recs:
                if r[0] == "ENTER":
                    depth += 1
                elif r[0] == "EXIT":
                    depth -= 1
                    self.assertGreaterEqual(depth, 0)
            self.assertEqual(depth, 0)
            self.assertEqual(sum(1 for r in recs if r[0] == "TRACE_START"), 2000)


class FailingFileSink(_monitor.FileSink):
    """Fails its fail_at-th write (counted from the stream header of segment 0), once."""

    def __init__(self, directory, agent_id, fail_at):
        super().__init__(directory, agent_id)
        self.writes = 0
        self.fail_at = fail_at

    def write(self, data):
        self.writes += 1
        if self.writes == self.fail_at:
            self._file.write(data[:len(data) // 2])  # half a frame reached the file: cut back later
            raise OSError(28, "No space left on device (simulated)")
        super().write(data)


class FileFailureTest(Recording):
    def test_a_failed_write_cuts_the_segment_back_and_the_run_goes_on_in_the_next(self):
        registry = _monitor.Registry()
        probe = registry.probe("job.run")
        sink = FailingFileSink(self.dir, uuid.uuid4(), fail_at=4)  # header, registry frame, frame 1, then fail
        session = _monitor.Session(sink, agent_id=sink.agent_id, registry=registry)
        session.open()
        t = session.new_thread_state()
        for round_ in range(3):
            for i in range(5):
                t.enter(probe, 1000 * round_ + 2 * i)
                t.exit(probe, 1000 * round_ + 2 * i + 1)
            session.flush()
        session.close()
        names = sorted(os.listdir(self.dir))
        self.assertEqual(len(names), 2, names)
        frames, _registry = self.read()
        self.assertEqual(frames[-1].trailer, (30, 30, {}))
        self.assertEqual([f.sequence for f in frames], sorted(f.sequence for f in frames))
        second = _read.read_stream(open(os.path.join(self.dir, names[1]), "rb").read())[1]
        self.assertEqual([tid for tid, _ in second[0].blocks], [0], "the new segment starts with a registry frame")
        self.assertEqual(sum(1 for f in frames for tid, recs in f.blocks if tid for r in recs if r[0] == "ENTER"), 15)


class EnvironmentStartTest(unittest.TestCase):
    def test_sonde_dir_writes_a_log_at_exit(self):
        d = tempfile.mkdtemp(prefix="sonde-py-env-")
        self.addCleanup(shutil.rmtree, d, True)
        app = ("import sonde\n"
               "@sonde.probe\n"
               "def hello(n):\n"
               "    return n + 1\n"
               "for i in range(5):\n"
               "    hello(i)\n")
        env = dict(os.environ, SONDE_DIR=d, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
        done = subprocess.run([sys.executable, "-c", app], env=env, capture_output=True, text=True, timeout=60)
        self.assertEqual(done.returncode, 0, done.stderr)
        logs = _read.read_log(d)
        (frames, registry), = logs.values()
        self.assertEqual(frames[-1].trailer, (10, 10, {}))
        self.assertIn(("__main__.hello", "(n)"), registry.values())

    def test_bad_environment_is_reported_not_fatal(self):
        env = dict(os.environ, SONDE_TCP="no-port-here", PYTHONPATH=SRC)
        env.pop("SONDE_DIR", None)
        done = subprocess.run([sys.executable, "-c", "import sonde; print(sonde.active())"], env=env,
                              capture_output=True, text=True, timeout=60)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stdout.strip(), "False")
        self.assertIn("tcp must be host:port", done.stderr)


if __name__ == "__main__":
    unittest.main()
