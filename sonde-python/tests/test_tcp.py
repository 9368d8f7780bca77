"""The TCP writer against a loopback receiver in the test: the stream it sends, and reconnecting
after the receiver drops the connection (format section 8)."""

import socket
import threading
import time
import unittest

import sonde
from sonde import _read


class Receiver:
    """Accepts connections on 127.0.0.1 and keeps each connection's bytes; closes the first
    connection after close_first_after bytes (None: never)."""

    def __init__(self, close_first_after=None):
        self.server = socket.create_server(("127.0.0.1", 0))
        self.server.settimeout(30)
        self.port = self.server.getsockname()[1]
        self.connections = []
        self.close_first_after = close_first_after
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self):
        try:
            while True:
                conn, _ = self.server.accept()
                data = bytearray()
                self.connections.append(data)
                limit = self.close_first_after if len(self.connections) == 1 else None
                threading.Thread(target=self._read, args=(conn, data, limit), daemon=True).start()
        except OSError:
            pass  # closed

    @staticmethod
    def _read(conn, data, limit):
        with conn:
            conn.settimeout(30)
            while True:
                chunk = conn.recv(65536)
                if not chunk:
                    return
                data += chunk
                if limit is not None and len(data) >= limit:
                    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
                    return  # an abortive close: the writer's next sends fail

    def close(self):
        self.server.close()


class TcpTest(unittest.TestCase):
    def setUp(self):
        self.addCleanup(sonde.stop)

    def test_a_stream_over_tcp_reads_to_every_record_and_the_trailer(self):
        receiver = Receiver()
        self.addCleanup(receiver.close)

        @sonde.probe
        def f(i):
            return i

        agent = sonde.start(tcp="127.0.0.1:%d" % receiver.port, flush_interval=0.01)
        for i in range(500):
            f(i)
        produced, written, drops = sonde.stop()
        self.assertEqual((produced, written, sum(drops.values())), (1000, 1000, 0))
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not receiver.connections:
            time.sleep(0.01)
        frames = self._frames_when_complete(receiver, 0)
        self.assertEqual(frames[0].agent_id, agent.hex)
        self.assertEqual(frames[-1].trailer, (1000, 1000, {}))
        self.assertEqual([f.sequence for f in frames], list(range(len(frames))))
        enters = sum(1 for fr in frames for _t, recs in fr.blocks for r in recs if r[0] == "ENTER")
        self.assertEqual(enters, 500)

    def _frames_when_complete(self, receiver, index, timeout=30):
        deadline = time.monotonic() + timeout
        while True:
            try:
                _major, frames = _read.read_stream(bytes(receiver.connections[index]))
                if frames and frames[-1].trailer is not None:
                    return frames
            except _read.FormatError:
                pass  # a frame still arriving
            if time.monotonic() > deadline:
                self.fail("no complete stream on connection %d" % index)
            time.sleep(0.01)

    def test_after_the_receiver_drops_the_connection_the_writer_reconnects_with_a_registry_frame(self):
        receiver = Receiver(close_first_after=200)
        self.addCleanup(receiver.close)

        @sonde.probe
        def f(i):
            return i

        sonde.start(tcp="127.0.0.1:%d" % receiver.port, flush_interval=0.01)
        deadline = time.monotonic() + 30
        i = 0
        while len(receiver.connections) < 2 and time.monotonic() < deadline:
            f(i)
            i += 1
            time.sleep(0.001)
        self.assertEqual(len(receiver.connections), 2, "the writer reconnected")
        for j in range(100):
            f(j)
        produced, written, drops = sonde.stop()
        self.assertEqual(produced, written + sum(drops.values()))
        frames = self._frames_when_complete(receiver, 1)
        first = frames[0]
        self.assertEqual(first.type, 1)
        self.assertEqual([t for t, _ in first.blocks], [0], "a registry frame opens the new connection")
        names = [r[2] for r in first.blocks[0][1] if r[0] == "PROBE_DEF"]
        self.assertIn(f.__module__ + "." + f.__qualname__, names)
        sequences = [fr.sequence for fr in frames]
        self.assertEqual(sequences, sorted(sequences))
        self.assertGreater(sequences[0], 0, "numbers continue from the first connection")
        self.assertEqual(frames[-1].trailer[:2], (produced, written))

    def test_an_unreachable_receiver_counts_writer_failures(self):
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        probe.close()  # nothing listens there now

        @sonde.probe
        def f():
            pass

        sonde.start(tcp="127.0.0.1:%d" % port, flush_interval=0.01)
        sonde._session.sink.reconnect_for = 0.2
        for _ in range(10):
            f()
        produced, written, drops = sonde.stop()
        self.assertEqual((produced, written), (20, 0))
        self.assertEqual(drops[4], 20)


if __name__ == "__main__":
    unittest.main()
