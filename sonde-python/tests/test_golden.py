"""Shared test vectors: the golden files of sonde-format, byte for byte, from the Python encoders and
from the Python writer pipeline driven through the same scenarios (golden/README.md)."""

import os
import random
import tempfile
import unittest
import uuid

from sonde import _monitor, _read
from sonde import _wire as w

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.environ.get("SONDE_GOLDEN_DIR") or os.path.join(
    HERE, "..", "..", "sonde-format", "src", "test", "resources", "golden")


def golden(relative):
    with open(os.path.join(GOLDEN, relative), "rb") as f:
        return f.read()


def folder(major):
    return "" if major == 1 else "%d.0/" % major


class Stream:
    """Builds a stream the way GoldenScenarios.java does: header, then explicit frames."""

    def __init__(self, agent, host, pid, major):
        self.enc = w.FrameEncoder(uuid.UUID(agent), pid, host)
        self.parts = [w.stream_header(major)]

    def data(self, seq, wall, mono, *blocks):
        self.parts.append(self.enc.data(seq, wall, mono, blocks))
        return self

    def trailer(self, seq, wall, mono, produced, written, drops=None):
        self.parts.append(self.enc.trailer(seq, wall, mono, produced, written, drops))
        return self

    def segment_end(self, seq, wall, mono, nxt):
        self.parts.append(self.enc.segment_end(seq, wall, mono, nxt))
        return self

    def bytes(self):
        return b"".join(self.parts)


MINIMAL = ("01234567-89ab-cdef-fedc-ba9876543210", "host-a", 4242, 1763800000000000000, 5000000000)
FULL = ("5f0e2c1a-7b3d-4e9f-8a6c-0123456789ab", "host-b.example", 31337, 1763800100000000000, 9000000000)
ROLLED = ("c0ffee00-0000-4000-8000-00000000beef", "host-c", 7, 1763800200000000000, 20000000000)
MS = 1000000


def minimal(major):
    agent, host, pid, W, M = MINIMAL
    return (Stream(agent, host, pid, major)
            .data(0, W, M, (0, [w.probe_def(1, "com.example.Shop.checkout", "(I)V")]))
            .data(1, W + MS, M + MS,
                  (0, [w.thread_def(1, "main")]),
                  (1, [w.trace_start(0x100000001, 0, -1), w.enter(1, M + 100000), w.exit(1, M + 350000)]))
            .trailer(2, W + 2 * MS, M + 2 * MS, 2, 2)
            .bytes())


ORDER = ((w.FIELD_BOOLEAN, "paid"), (w.FIELD_INT, "items"), (w.FIELD_LONG, "cents"), (w.FIELD_DOUBLE, "weight"),
         (w.FIELD_STRING, "region"))
ORDER_TYPES = [c for c, _ in ORDER]


def full(major):
    agent, host, pid, W, M = FULL
    child = (w.trace_start(0x200000001, 0x100000001, 1) if major == 1
             else w.handoff_start(0x200000001, 0x100000001, 1, M + 25000))
    return (Stream(agent, host, pid, major)
            .data(0, W, M, (0, [
                w.probe_def(1, "com.example.Shop.checkout", "(I)V"),
                w.probe_def(2, "com.example.Shop.price", "(Ljava/lang/String;)J"),
                w.probe_def(3, "com.example.Db.query", "()Ljava/util/List;"),
                w.string_def(1, "java.io.IOException"),
                w.string_def(2, "java.lang.IllegalStateException"),
                w.string_def(3, "eu-west"),
                w.event_def(1, "order", ORDER),
                w.event_def(2, "tick")]))
            .data(1, W + MS, M + MS,
                  (0, [w.thread_def(1, "main"), w.thread_def(17, "worker-\u00fc")]),
                  (1, [w.trace_start(0x100000001, 0, -1),
                       w.enter(1, M + 10000),
                       w.enter_cpu(2, M + 20000, 700000),
                       w.exit_cpu(2, M + 30000, 705000),
                       w.enter(3, M + 40000),
                       w.exit_exception(3, M + 50000, 1),
                       w.event(1, M + 55000, ORDER_TYPES, (True, 3, 1999, 2.5, 3))]),
                  (17, [child,
                        w.enter_cpu(3, M + 60000, 2000000),
                        w.exit_exception_cpu(3, M + 70000, 2004000, 2),
                        w.gap(4),
                        w.event(2, M + 80000)]))
            .data(2, W + 2 * MS, M + 2 * MS,
                  (17, [w.trace_start(0x200000002, 0, -1),
                        w.enter(1, M + 1100000),
                        w.event(1, M + 1150000, ORDER_TYPES, (False, -2 ** 31, 2 ** 63 - 1, -0.125, 3)),
                        w.exit(1, M + 1200000)]),
                  (1, [w.exit(1, M + 1300000)]))
            .trailer(3, W + 3 * MS, M + 3 * MS, 17, 13, {w.DROP_BUFFER_FULL: 4})
            .bytes())


def rolled_name(index):
    return w.segment_file_name(ROLLED[0], index)


def rolled(major):
    agent, host, pid, W, M = ROLLED
    s0 = (Stream(agent, host, pid, major)
          .data(0, W, M, (0, [w.probe_def(1, "com.example.Job.run", "()V"),
                              w.string_def(1, "java.lang.RuntimeException")]))
          .data(1, W + MS, M + MS,
                (0, [w.thread_def(5, "pool-1-thread-1")]),
                (5, [w.trace_start(0x500000001, 0, -1), w.enter(1, M + 100000)]))
          .segment_end(2, W + 2 * MS, M + 2 * MS, 1)
          .bytes())
    s1 = (Stream(agent, host, pid, major)
          .data(3, W + 3 * MS, M + 3 * MS, (0, [w.probe_def(1, "com.example.Job.run", "()V"),
                                                w.string_def(1, "java.lang.RuntimeException"),
                                                w.thread_def(5, "pool-1-thread-1")]))
          .data(4, W + 4 * MS, M + 4 * MS,
                (5, [w.exit_exception(1, M + 3500000, 1),
                     w.trace_start(0x500000002, 0, -1),
                     w.enter(1, M + 3600000),
                     w.exit(1, M + 3700000)]))
          .trailer(5, W + 5 * MS, M + 5 * MS, 4, 4)
          .bytes())
    return {rolled_name(0): s0, rolled_name(1): s1}


class ScriptedClock:
    """Frame k (in emission order) is stamped W + k ms, M + k ms, as in every golden scenario."""

    def __init__(self, wall, mono):
        self.wall, self.mono, self.k = wall, mono, 0

    def __call__(self):
        k = self.k
        self.k += 1
        return self.wall + k * MS, self.mono + k * MS


class _DeadThread:
    """Stands in for the scripted scenario's thread (it has ended, so the writer may retire it)."""
    name = "scripted"

    @staticmethod
    def is_alive():
        return False


class GoldenEncoderTest(unittest.TestCase):
    """The encoders reproduce every golden file of both versions."""

    def test_crc_check_value(self):
        self.assertEqual(w.crc32c(b"123456789"), 0xE3069283)
        self.assertEqual(w.crc32c(b""), 0)
        self.assertEqual(w._crc32c_python(b"123456789"), 0xE3069283)

    def test_crc_equals_the_bytewise_definition_at_every_length(self):
        def bytewise(data):
            c = 0xFFFFFFFF
            for b in data:
                c ^= b
                for _ in range(8):
                    c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
            return c ^ 0xFFFFFFFF

        rnd = random.Random(15)
        for n in list(range(0, 140)) + [1000, 4099]:
            data = bytes(rnd.getrandbits(8) for _ in range(n))
            self.assertEqual(w.crc32c(data), bytewise(data), "length %d (%s)" % (n, w.CRC_IMPLEMENTATION))
            self.assertEqual(w._crc32c_python(data), bytewise(data), "length %d, pure Python" % n)
            self.assertEqual(w._crc32c_python(data[n // 2:], w._crc32c_python(data[:n // 2])), bytewise(data))

    def test_minimal(self):
        for major in (1, 2):
            self.assertEqual(minimal(major), golden(folder(major) + "minimal.sonde"), "major %d" % major)

    def test_full(self):
        for major in (1, 2):
            self.assertEqual(full(major), golden(folder(major) + "full.sonde"), "major %d" % major)

    def test_rolled(self):
        for major in (1, 2):
            for name, data in rolled(major).items():
                self.assertEqual(data, golden(folder(major) + "rolled/" + name), "major %d %s" % (major, name))

    def test_the_reader_decodes_full_to_the_listed_values(self):
        _major, frames = _read.read_stream(golden("2.0/full.sonde"))
        self.assertEqual([f.type for f in frames], [1, 1, 1, 2])
        blocks = dict(frames[1].blocks)
        self.assertEqual(blocks[0], [("THREAD_DEF", 1, "main"), ("THREAD_DEF", 17, "worker-\u00fc")])
        self.assertEqual(blocks[1][-1], ("EVENT", "order", FULL[4] + 55000, (True, 3, 1999, 2.5, "eu-west")))
        self.assertEqual(blocks[17][0], ("HANDOFF_START", 0x200000001, 0x100000001, 1, FULL[4] + 25000))
        self.assertEqual(frames[3].trailer, (17, 13, {1: 4}))


class GoldenWriterTest(unittest.TestCase):
    """The real writer pipeline (registry, thread state, frames, file sink, trailer), driven through
    the scenarios with scripted ids, clocks and record times, writes the golden bytes."""

    def written(self, scenario, major, script):
        """Runs script(registry, session, M) on a fresh session writing into a temporary folder,
        closes the session, and returns the files written: {name: bytes}."""
        agent, host, pid, wall, mono = scenario
        with tempfile.TemporaryDirectory() as d:
            registry = _monitor.Registry()
            sink = _monitor.FileSink(d, uuid.UUID(agent), major)
            session = _monitor.Session(sink, agent_id=agent, host=host, pid=pid, major=major,
                                       clock=ScriptedClock(wall, mono), registry=registry)
            script(registry, session, mono)
            session.close()
            files = {}
            for name in sorted(os.listdir(d)):
                with open(os.path.join(d, name), "rb") as f:
                    files[name] = f.read()
            return files

    def test_minimal(self):
        def script(registry, s, M):
            probe = registry.probe("com.example.Shop.checkout", "(I)V")
            s.open()
            t = s.new_thread_state(1, "main", _DeadThread())
            t.enter(probe, M + 100000)
            t.exit(probe, M + 350000)
            s.flush()

        for major in (1, 2):
            files = self.written(MINIMAL, major, script)
            self.assertEqual(list(files.values()), [golden(folder(major) + "minimal.sonde")], "major %d" % major)

    def test_rolled(self):
        def script(registry, s, M):
            probe = registry.probe("com.example.Job.run", "()V")
            error = registry.string("java.lang.RuntimeException")
            s.segment_bytes = 1  # roll after the first data frame
            s.open()
            t = s.new_thread_state(5, "pool-1-thread-1", _DeadThread())
            t.enter(probe, M + 100000)
            s.flush()  # frame 1, then SEGMENT_END, then segment 1's registry frame
            s.segment_bytes = 64 << 20
            t.exit(probe, M + 3500000, None, error)
            t.enter(probe, M + 3600000)
            t.exit(probe, M + 3700000)
            s.flush()

        for major in (1, 2):
            files = self.written(ROLLED, major, script)
            self.assertEqual(list(files), [rolled_name(0), rolled_name(1)])
            for name, data in files.items():
                self.assertEqual(data, golden(folder(major) + "rolled/" + name), "major %d %s" % (major, name))


class DefinitionsSentAgainTest(unittest.TestCase):
    """What the Java writer writes after losing a frame that carried definitions (docs/format.md,
    section 6): the lost frame is missing, then DATA frames holding only a registry block repeat
    every definition, then the records that use them. The reader takes the repeated definitions."""

    def test_records_after_a_lost_definitions_frame_decode_with_the_definitions_sent_again(self):
        agent, host, pid, W, M = MINIMAL
        checkout = w.probe_def(1, "com.example.Shop.checkout", "(I)V")
        pay = w.probe_def(2, "com.example.Shop.pay", "()V")
        main = w.thread_def(1, "main")
        data = (Stream(agent, host, pid, 2)
                .data(0, W, M, (0, [checkout]))
                # seq 1 (thread 1's first records, with the definitions of probe 2 and thread 1) was lost
                .data(2, W + 2 * MS, M + 2 * MS, (0, [checkout, pay, main]))
                .data(3, W + 3 * MS, M + 3 * MS,
                      (1, [w.trace_start(0x100000002, 0, -1), w.enter(2, M + 3100000), w.exit(2, M + 3200000)]))
                .data(4, W + 4 * MS, M + 4 * MS, (0, [pay]), (1, [w.enter(1, M + 4100000), w.exit(1, M + 4200000)]))
                .trailer(5, W + 5 * MS, M + 5 * MS, 6, 4, {w.DROP_WRITER_FAILED: 2})
                .bytes())
        registry = {}
        _major, frames = _read.read_stream(data, registry)
        self.assertEqual([f.sequence for f in frames], [0, 2, 3, 4, 5])
        self.assertEqual(registry[("probe", 2)], ("com.example.Shop.pay", "()V"))
        self.assertEqual(registry[("thread", 1)], "main")
        records = [r for f in frames for tid, rs in f.blocks if tid == 1 for r in rs if r[0] in ("ENTER", "EXIT")]
        self.assertEqual(records, [("ENTER", 2, M + 3100000), ("EXIT", 2, M + 3200000),
                                   ("ENTER", 1, M + 4100000), ("EXIT", 1, M + 4200000)])
        self.assertEqual(frames[-1].trailer, (6, 4, {w.DROP_WRITER_FAILED: 2}))


if __name__ == "__main__":
    unittest.main()
