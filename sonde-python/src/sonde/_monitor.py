"""Recording: the registry of definitions, per-thread buffers and the writer that packs them into frames.

Threading model (CPython): each application thread appends encoded records to its own bounded
``collections.deque``; one writer thread pops them and packs them into DATA frames, one block per
thread. ``deque.append`` and ``deque.popleft`` are atomic, so producer and writer need no lock; only
the owner thread appends to a thread's deque, so a capacity check followed by an append cannot
overshoot (the writer can only make the deque shorter in between). Definitions are made on the
slow path under the registry lock and are always registered before the first record that uses
them is appended, and the writer takes new definitions before it drains the deques, so every
definition reaches the stream before its first use (format section 6).
"""

import collections
import itertools
import os
import socket
import struct
import sys
import threading
import time
import uuid as _uuid

from . import _wire as w

_mono = time.monotonic_ns
_cpu = time.thread_time_ns
# bound packers of the records on the hot path (the type byte is passed: ENTER 1, EXIT 2, ...)
_pack_timed = w._TIMED.pack
_pack_timed_cpu = w._TIMED_CPU.pack
_pack_gap = w._GAP.pack
# a TRACE_START and the root ENTER (or ENTER_CPU) in one entry
_pack_root = struct.Struct("<Bqqi" "BIq").pack
_pack_root_cpu = struct.Struct("<Bqqi" "BIqq").pack
_GAP_TYPE = bytes([w.GAP])


def _system_clock():
    return time.time_ns(), time.monotonic_ns()


class Registry:
    """Probes, strings and event types of this process, as definition records in registration order.

    Ids are process-wide and stable across monitor restarts; every stream repeats all of them at
    its start (format section 6, "Repetition").
    """

    def __init__(self):
        self.lock = threading.Lock()
        self.defs = []  # encoded definition records, registration order
        self._probes = {}
        self._strings = {}
        self._events = {}

    def _intern(self, table, key, definition):
        """The id of key in table; on first sight a new id, and definition(id) joins the definitions."""
        known = table.get(key)
        if known is None:
            with self.lock:
                known = table.get(key)
                if known is None:
                    known = len(table) + 1
                    self.defs.append(definition(known))
                    table[key] = known
        return known

    def probe(self, name, signature=""):
        pid = self._probes.get((name, signature))
        return pid if pid is not None else self._intern(
            self._probes, (name, signature), lambda i: w.probe_def(i, name, signature))

    def string(self, value):
        sid = self._strings.get(value)
        return sid if sid is not None else self._intern(self._strings, value, lambda i: w.string_def(i, value))

    def event_type(self, name, fields):
        """Id of the event type name with fields ((code, field name), ...); a different field list is an error."""
        fields = tuple((int(c), str(n)) for c, n in fields)
        with self.lock:
            known = self._events.get(name)
            if known is not None:
                if known[1] != fields:
                    raise ValueError("event type %r is already defined with fields %r, not %r" % (name, known[1], fields))
                return known[0]
            eid = len(self._events) + 1
            self.defs.append(w.event_def(eid, name, fields))
            self._events[name] = (eid, fields)
            return eid


REGISTRY = Registry()


class ThreadState:
    """One application thread's recording state within one session: its bounded record queue,
    its open executions (a stack of order indices) and its counters. Used by its own thread only,
    except that the writer pops ``q`` and reads the counters."""

    __slots__ = ("session", "tid", "thread", "q", "cap", "drop_reason", "stack", "order", "traces",
                 "produced", "dropped", "gap", "cpu", "handoff", "handoff_pending")

    def __init__(self, session, tid, thread, cap, drop_reason):
        self.session = session
        self.tid = tid
        self.thread = thread
        self.q = collections.deque()
        self.cap = cap
        self.drop_reason = drop_reason  # what a drop of this thread counts as: buffer full, or no buffer
        self.stack = []  # order index of each open execution
        self.order = 0  # next execution order index in the current trace
        self.traces = 0
        self.produced = 0
        self.dropped = 0
        self.gap = 0  # records dropped since the last record written: becomes a GAP
        self.cpu = session.cpu
        self.handoff = None  # (parent trace id, parent order index, hand-off time) while resuming handed-over work
        self.handoff_pending = False

    # ---- records; times are explicit so that tests can script them
    #
    # The hot path packs one queue entry and appends it; only a full queue or a pending GAP takes
    # the slow path. A root ENTER travels in one entry with its trace start (so both are written
    # or dropped together). An entry therefore holds one data record, except a GAP (none); the
    # writer counts data records that way (see Session._flush).

    def _put_slow(self, entry):
        """Appends an entry holding one data record, or counts the record as dropped when the queue
        is full; a GAP with the number dropped precedes the next entry written."""
        self.produced += 1
        q = self.q
        if len(q) >= self.cap:
            self.dropped += 1
            self.gap += 1
            return
        if self.gap:
            q.append(_pack_gap(w.GAP, min(self.gap, 0xFFFFFFFF)))
            self.gap = 0
        q.append(entry)

    def enter(self, probe_id, time, cpu=None):
        stack = self.stack
        if stack:
            stack.append(self.order)
            self.order += 1
            entry = _pack_timed(1, probe_id, time) if cpu is None else _pack_timed_cpu(4, probe_id, time, cpu)
        else:  # a root execution: a new trace
            self.traces += 1
            stack.append(0)
            self.order = 1
            trace_id = (self.tid << 32) | (self.traces & 0xFFFFFFFF)
            if self.handoff is None:
                entry = (_pack_root(8, trace_id, 0, -1, 1, probe_id, time) if cpu is None
                         else _pack_root_cpu(8, trace_id, 0, -1, 4, probe_id, time, cpu))
            else:
                entry = self._handed_over_start(trace_id) + (
                    _pack_timed(1, probe_id, time) if cpu is None else _pack_timed_cpu(4, probe_id, time, cpu))
        q = self.q
        if self.gap or len(q) >= self.cap:
            return self._put_slow(entry)
        self.produced += 1
        q.append(entry)

    def _handed_over_start(self, trace_id):
        parent_trace, parent_order, handoff_time = self.handoff
        if self.handoff_pending:
            self.handoff_pending = False
            return w.handoff_start(trace_id, parent_trace, parent_order, handoff_time)
        return w.trace_start(trace_id, parent_trace, parent_order)

    def exit(self, probe_id, time, cpu=None, exception_id=None):
        stack = self.stack
        if not stack:
            return  # its ENTER belongs to an earlier session (or was never made): nothing to close
        stack.pop()
        if exception_id is None:
            entry = _pack_timed(2, probe_id, time) if cpu is None else _pack_timed_cpu(5, probe_id, time, cpu)
        elif cpu is None:
            entry = w.exit_exception(probe_id, time, exception_id)
        else:
            entry = w.exit_exception_cpu(probe_id, time, cpu, exception_id)
        q = self.q
        if self.gap or len(q) >= self.cap:
            return self._put_slow(entry)
        self.produced += 1
        q.append(entry)

    def event(self, entry):
        self._put_slow(entry)

    def trace_id(self):
        return (self.tid << 32) | (self.traces & 0xFFFFFFFF)


class Session:
    """One monitoring run: an agent id, its threads, and the writer that sends their records to a sink."""

    def __init__(self, sink, *, agent_id=None, host=None, pid=None, cpu=False, buffer_records=65536,
                 max_threads=4096, flush_interval=0.1, frame_bytes=256 * 1024, segment_bytes=64 << 20,
                 major=2, clock=_system_clock, registry=REGISTRY):
        if buffer_records < 2:
            raise ValueError("buffer_records must be at least 2, got %r" % (buffer_records,))
        if max_threads < 1:
            raise ValueError("max_threads must be at least 1, got %r" % (max_threads,))
        if flush_interval <= 0:
            raise ValueError("flush_interval must be positive, got %r" % (flush_interval,))
        self.agent_id = agent_id if isinstance(agent_id, _uuid.UUID) else (_uuid.UUID(agent_id) if agent_id else _uuid.uuid4())
        self.encoder = w.FrameEncoder(self.agent_id, os.getpid() if pid is None else pid,
                                      socket.gethostname() if host is None else host)
        self.cpu = bool(cpu)
        self.buffer_records = int(buffer_records)
        self.max_threads = int(max_threads)
        self.flush_interval = float(flush_interval)
        self.frame_bytes = int(frame_bytes)
        self.segment_bytes = int(segment_bytes)
        self.major = major
        self.clock = clock
        self.registry = registry
        self.sink = sink
        self.lock = threading.Lock()  # guards states, thread_defs, the thread id counter
        self.states = []
        self.thread_defs = []
        self._next_tid = 1
        self._retired_produced = 0
        self._retired_dropped = {w.DROP_BUFFER_FULL: 0, w.DROP_NO_BUFFER: 0}
        # writer state (writer thread, or the caller of flush() in tests)
        self._write_lock = threading.RLock()
        self.sequence = 0
        self.written = 0
        self.writer_failed = 0
        self._defs_sent = 0
        self._thread_defs_sent = 0
        self._closed = False
        self._stop = threading.Event()
        self._thread = None

    # ---- producer side

    def new_thread_state(self, tid=None, name=None, thread=None):
        """Registers the calling thread (or a scripted one: tid and name given) and returns its state."""
        thread = thread or threading.current_thread()
        with self.lock:
            if tid is None:
                tid = self._next_tid
                self._next_tid += 1
            else:
                self._next_tid = max(self._next_tid, tid + 1)
            if len(self.states) >= self.max_threads:
                state = ThreadState(self, tid, thread, 0, w.DROP_NO_BUFFER)
            else:
                state = ThreadState(self, tid, thread, self.buffer_records, w.DROP_BUFFER_FULL)
                self.thread_defs.append(w.thread_def(tid, thread.name if name is None else name))
            self.states.append(state)
        return state

    # ---- writer side

    def open(self):
        """Opens the sink and sends the stream's first registry frame."""
        with self._write_lock:
            self.sink.open()
            self._send_registry_if_fresh()

    def start_writer(self):
        self._thread = threading.Thread(target=self._run, name="sonde-writer", daemon=True)
        self._thread.start()

    def _run(self):
        while not self._stop.wait(self.flush_interval):
            try:
                self.flush()
            except Exception as e:  # never let the writer die silently: say why and go on
                print("sonde: writer error: %r" % (e,), file=sys.stderr)

    def flush(self):
        """Packs every queued record (and new definitions) into DATA frames and sends them."""
        with self._write_lock:
            if self._closed:
                return
            self._flush()

    def _new_definitions(self):
        reg = self.registry
        with reg.lock:
            defs = reg.defs[self._defs_sent:]
            self._defs_sent += len(defs)
        with self.lock:
            tdefs = self.thread_defs[self._thread_defs_sent:]
            self._thread_defs_sent += len(tdefs)
            states = list(self.states)
        return defs + tdefs, states

    def _flush(self):
        defs, states = self._new_definitions()  # definitions first: see the module comment
        payload = []  # encoded blocks of the frame being built
        size = 0
        data = 0  # data records in it
        if defs:
            block = w.block(w.REGISTRY_THREAD_ID, defs)
            payload.append(block)
            size += len(block)
        retired = []
        for st in states:
            q = st.q
            n = len(q)
            if n == 0:
                if not st.thread.is_alive():
                    retired.append(st)
                continue
            pop = q.popleft
            entries = [pop() for _ in range(n)]
            # every entry holds one data record except a GAP (see ThreadState), counted at C speed
            count = n - sum(map(bytes.startswith, entries, itertools.repeat(_GAP_TYPE, n)))
            total = sum(map(len, entries))
            if size + total + 12 <= self.frame_bytes:  # the common case: the whole block fits
                block = w.block(st.tid, entries)
                payload.append(block)
                size += len(block)
                data += count
                continue
            start = chunk = count = 0
            for i, r in enumerate(entries):  # split the thread's entries over frames
                if size + chunk + len(r) + 12 > self.frame_bytes and (chunk or payload):
                    if chunk:
                        payload.append(w.block(st.tid, entries[start:i]))
                    self._emit_data(payload, data + count)
                    payload, size, data, start, chunk, count = [], 0, 0, i, 0, 0
                chunk += len(r)
                if r[0] != w.GAP:
                    count += 1
            if chunk:
                block = w.block(st.tid, entries[start:])
                payload.append(block)
                size += len(block)
                data += count
        if payload:
            self._emit_data(payload, data)
        if retired:
            self._retire(retired)

    def _retire(self, states):
        """Forgets the states of threads that ended with nothing left to write, keeping their counts."""
        with self.lock:
            for st in states:
                if st.q:
                    continue
                self.states.remove(st)
                self._retired_produced += st.produced
                self._retired_dropped[st.drop_reason] += st.dropped

    def _emit_data(self, blocks, data_records):
        if self._emit(w.FRAME_DATA, b"".join(blocks), data_records):
            self.written += data_records
        if self.sink.should_roll(self.segment_bytes):
            self._emit(w.FRAME_SEGMENT_END, w.segment_end_payload(self.sink.segment + 1), 0)
            self.sink.roll()
            self._send_registry_if_fresh()

    def _send_registry_if_fresh(self):
        """A new segment or connection starts with a registry frame repeating every definition."""
        if self.sink.fresh:
            self._emit(None, None, 0)

    def _emit(self, frame_type, payload, data_records):
        """Seals and sends one frame (none when frame_type is None), preceded by a registry frame if
        the sink has just started a stream. After a failed write the sink recovers (a new segment
        or a new connection) and the frame is sent again with a new sequence number. Returns False
        when the sink gave up: the frame's records then count as dropped by a failed writer."""
        for _attempt in range(2):
            try:
                if self.sink.fresh:
                    self.sink.fresh = False
                    self._send(w.FRAME_DATA, self._registry_payload())
                if frame_type is not None:
                    self._send(frame_type, payload)
                return True
            except OSError as e:
                if not self.sink.recover(e):
                    break
        self.writer_failed += data_records
        return False

    def _registry_payload(self):
        with self.registry.lock:
            defs = list(self.registry.defs)
            self._defs_sent = len(defs)
        with self.lock:
            defs += self.thread_defs
            self._thread_defs_sent = len(self.thread_defs)
        return w.block(w.REGISTRY_THREAD_ID, defs)

    def _send(self, frame_type, payload):
        seq = self.sequence
        self.sequence += 1
        wall, mono = self.clock()
        self.sink.write(self.encoder.frame(frame_type, seq, wall, mono, payload))

    def counts(self):
        """(produced, written, {drop reason: count}) as the trailer would state them now."""
        with self.lock:
            produced = self._retired_produced
            drops = dict(self._retired_dropped)
            for st in self.states:
                produced += st.produced
                drops[st.drop_reason] += st.dropped
        drops[w.DROP_WRITER_FAILED] = self.writer_failed
        # records produced but neither written nor counted otherwise were cut off by the close
        drops[w.DROP_CLOSED] = max(0, produced - self.written - sum(drops.values()))
        return produced, self.written, drops

    def close(self, timeout=10.0):
        """Stops the writer thread, writes what is queued, then the TRAILER, and closes the sink."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)
        with self._write_lock:
            if self._closed:
                return
            try:
                self._flush()
                produced, written, drops = self.counts()
                self._emit(w.FRAME_TRAILER, w.trailer_payload(produced, written, drops), 0)
            finally:
                self._closed = True
                self.sink.close()


# ---- sinks: where the frames go


class FileSink:
    """Segment files sonde-<agent>-<NNNNNN>.sonde in a folder (format section 7)."""

    def __init__(self, directory, agent_id, major=2):
        self.directory = os.fspath(directory)
        self.agent_id = agent_id
        self.major = major
        self.segment = 0
        self.size = 0
        self.fresh = False
        self._file = None

    def path(self, index):
        return os.path.join(self.directory, w.segment_file_name(self.agent_id, index))

    def open(self):
        os.makedirs(self.directory, exist_ok=True)
        prefix = "sonde-%s-" % self.agent_id
        taken = [int(n[len(prefix):-6]) for n in os.listdir(self.directory)
                 if n.startswith(prefix) and n.endswith(".sonde") and n[len(prefix):-6].isdigit()]
        self.segment = max(taken) + 1 if taken else 0
        self._open_segment()

    def _open_segment(self):
        self._file = open(self.path(self.segment), "xb")  # exclusive: never overwrite a segment
        self.size = 0
        self.write(w.stream_header(self.major))
        self.fresh = True

    def write(self, data):
        if self._file is None:
            raise OSError("no segment open in %s" % self.directory)
        self._file.write(data)
        self._file.flush()
        self.size += len(data)

    def should_roll(self, limit):
        return self.size >= limit

    def roll(self):
        self._file.close()
        self.segment += 1
        self._open_segment()

    def recover(self, error):
        """Cuts the segment back to its last whole frame and continues in the next segment."""
        print("sonde: writing %s failed (%s); continuing in a new segment" % (self.path(self.segment), error),
              file=sys.stderr)
        if self._file is not None:
            try:
                self._file.truncate(self.size)
                self._file.close()
            except OSError:
                pass
            self._file = None
        try:
            self.segment += 1
            self._open_segment()
        except OSError as e:
            print("sonde: cannot open a new segment (%s); records are dropped" % (e,), file=sys.stderr)
            return False
        return True

    def close(self):
        if self._file is not None:
            try:
                self._file.close()
            finally:
                self._file = None


class TcpSink:
    """A TCP connection to a Sonde receiver or collector (format section 8), reconnecting with back-off."""

    def __init__(self, host, port, major=2, connect_timeout=5.0, reconnect_for=5.0):
        self.host = host
        self.port = int(port)
        self.major = major
        self.connect_timeout = connect_timeout
        self.reconnect_for = reconnect_for
        self.segment = 0
        self.fresh = False
        self._sock = None
        self._quiet_until = 0.0  # after a reconnect period that failed: one attempt per failure until then

    def open(self):
        try:
            self._connect()
        except OSError as e:
            print("sonde: cannot connect to %s:%d (%s); will retry" % (self.host, self.port, e), file=sys.stderr)

    def _connect(self):
        sock = socket.create_connection((self.host, self.port), timeout=self.connect_timeout)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.sendall(w.stream_header(self.major))
        self._sock = sock
        self.fresh = True

    def write(self, data):
        if self._sock is None:
            raise ConnectionError("not connected to %s:%d" % (self.host, self.port))
        self._sock.sendall(data)

    def should_roll(self, limit):
        return False

    def roll(self):
        pass

    def recover(self, error):
        """Reconnects with back-off for at most reconnect_for seconds; False when that failed. After
        such a failure the next reconnect_for seconds try once per frame, without waiting."""
        self.close()
        now = time.monotonic()
        deadline = now if now < self._quiet_until else now + self.reconnect_for
        delay = 0.05
        while True:
            try:
                self._connect()
                return True
            except OSError as e:
                if time.monotonic() + delay > deadline:
                    if now >= self._quiet_until:
                        print("sonde: cannot reconnect to %s:%d (%s); records are dropped" % (self.host, self.port, e),
                              file=sys.stderr)
                    self._quiet_until = time.monotonic() + self.reconnect_for
                    return False
                time.sleep(delay)
                delay = min(delay * 2, 1.0)

    def close(self):
        if self._sock is not None:
            try:
                self._sock.close()
            finally:
                self._sock = None
