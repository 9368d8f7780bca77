"""Sonde probes for Python: method probes, custom events and sensors, written in Sonde's binary format.

Quick start::

    import sonde

    @sonde.probe
    def checkout(cart): ...

    with sonde.span("load-config"):
        ...

    order = sonde.event_type("order", paid="boolean", items="int", region="string")
    order.emit(paid=True, items=3, region="eu-west")

Run with ``SONDE_DIR=DIR python app.py`` (or ``SONDE_TCP=host:port``) to record from the start and
write the log at exit, or call :func:`start` and :func:`stop`. ``sonde analyze DIR`` reads the log,
also together with Java agents' logs. See docs/python.md.
"""

import atexit
import functools
import inspect
import os
import sys
import threading

from . import _monitor
from . import _wire
from ._monitor import FileSink, Session, TcpSink

__all__ = ["probe", "span", "event_type", "event", "sensor", "handoff", "handed_over", "start", "stop",
           "active", "stats", "EventType", "Sensor", "Handoff"]
__version__ = "0.1.0"

_registry = _monitor.REGISTRY
_mono = _monitor._mono
_cpu = _monitor._cpu
_session = None  # the running Session, or None: probes then cost one global read and a call
_start_lock = threading.Lock()


class _ThreadLocal(threading.local):
    state = None


_tls = _ThreadLocal()


def _state():
    """The calling thread's state in the running session (made on first use), or None when not monitoring."""
    s = _session
    if s is None:
        return None
    st = _tls.state
    if st is None or st.session is not s:
        st = _tls.state = s.new_thread_state()
    return st


def _exception_id(exc_type):
    module = exc_type.__module__
    name = exc_type.__qualname__ if module in ("builtins", None) else module + "." + exc_type.__qualname__
    return _registry.string(name)


# ---- method probes


def _signature(fn):
    try:
        return str(inspect.signature(fn))
    except (TypeError, ValueError):
        return ""


def probe(fn=None, *, name=None):
    """Decorator: records every call of the function as an execution (ENTER, then EXIT or, when an
    exception leaves it, EXIT_EXCEPTION with the exception's class name), with thread CPU time when
    the monitor was started with ``cpu=True``.

    ``@sonde.probe`` names the probe ``module.qualname``; ``@sonde.probe(name="...")`` names it
    explicitly. Coroutine and async generator functions are refused: their executions interleave
    on one thread, which a per-thread call tree cannot express; use :func:`span` around
    synchronous parts instead.
    """
    if fn is None:
        return lambda f: probe(f, name=name)
    if not callable(fn):
        raise TypeError("sonde.probe decorates a function, got %r" % (fn,))
    if inspect.iscoroutinefunction(fn) or inspect.isasyncgenfunction(fn):
        raise TypeError("sonde.probe cannot probe %s: coroutines interleave on one thread; "
                        "use sonde.span around synchronous parts" % getattr(fn, "__qualname__", fn))
    probe_name = name or "%s.%s" % (getattr(fn, "__module__", None) or "?", getattr(fn, "__qualname__", repr(fn)))
    probe_id = _registry.probe(probe_name, _signature(fn))

    @functools.wraps(fn)
    def probed(*args, **kwargs):
        s = _session
        if s is None:
            return fn(*args, **kwargs)
        st = _tls.state
        if st is None or st.session is not s:
            st = _tls.state = s.new_thread_state()
        if st.cpu:
            st.enter(probe_id, _mono(), _cpu())
            try:
                result = fn(*args, **kwargs)
            except BaseException as e:
                st.exit(probe_id, _mono(), _cpu(), _exception_id(type(e)))
                raise
            st.exit(probe_id, _mono(), _cpu())
            return result
        st.enter(probe_id, _mono())
        try:
            result = fn(*args, **kwargs)
        except BaseException as e:
            st.exit(probe_id, _mono(), None, _exception_id(type(e)))
            raise
        st.exit(probe_id, _mono())
        return result

    probed.sonde_probe_id = probe_id
    return probed


class _Span:
    """The context manager of one span name; it keeps no per-use state, so one instance serves
    every thread and nesting level."""

    __slots__ = ("probe_id",)

    def __init__(self, probe_id):
        self.probe_id = probe_id

    def __enter__(self):
        st = _state()
        if st is not None:
            st.enter(self.probe_id, _mono(), _cpu() if st.cpu else None)
        return self

    def __exit__(self, exc_type, exc, tb):
        st = _tls.state
        if st is not None and st.session is _session and st.stack:
            st.exit(self.probe_id, _mono(), _cpu() if st.cpu else None,
                    None if exc_type is None else _exception_id(exc_type))
        return False


_spans = {}


def span(name, signature=""):
    """Context manager recording the block as an execution of the probe ``name``::

        with sonde.span("parse"):
            ...
    """
    s = _spans.get((name, signature))
    if s is None:
        s = _spans.setdefault((name, signature), _Span(_registry.probe(str(name), str(signature))))
    return s


# ---- custom events and sensors

_FIELD_TYPES = {"boolean": _wire.FIELD_BOOLEAN, "bool": _wire.FIELD_BOOLEAN, bool: _wire.FIELD_BOOLEAN,
                "int": _wire.FIELD_INT, "long": _wire.FIELD_LONG, int: _wire.FIELD_LONG,
                "double": _wire.FIELD_DOUBLE, "float": _wire.FIELD_DOUBLE, float: _wire.FIELD_DOUBLE,
                "string": _wire.FIELD_STRING, "str": _wire.FIELD_STRING, str: _wire.FIELD_STRING}


class EventType:
    """A custom event type (an EVENT_DEF): a name and typed fields. Make one with :func:`event_type`."""

    __slots__ = ("name", "id", "fields", "_codes", "_struct")

    def __init__(self, name, fields):
        self.name = name
        self.fields = tuple(f for f, _ in fields)
        self._codes = tuple(c for _, c in fields)
        self.id = _registry.event_type(name, [(c, f) for f, c in fields])
        self._struct = _wire.event_struct(self._codes)

    def emit(self, *values, **named):
        """Records one event now, with the field values in declaration order or by name."""
        st = _state()
        if st is None:
            return
        if named:
            rest = self.fields[len(values):]
            unknown = sorted(set(named) - set(rest))
            missing = [f for f in rest if f not in named]
            if unknown or missing:
                raise TypeError("event %r takes fields %s; %s" % (self.name, ", ".join(self.fields), "; ".join(
                    (["unknown or repeated: " + ", ".join(unknown)] if unknown else [])
                    + (["missing: " + ", ".join(missing)] if missing else []))))
            values = values + tuple(named[f] for f in rest)
        if len(values) != len(self.fields):
            raise TypeError("event %r takes %d values (%s), got %d" % (
                self.name, len(self.fields), ", ".join(self.fields), len(values)))
        encoded = []
        for code, v in zip(self._codes, values):
            if code == _wire.FIELD_STRING:
                v = _registry.string(str(v))
            elif code == _wire.FIELD_BOOLEAN:
                v = 1 if v else 0
            encoded.append(v)
        try:
            record = self._struct.pack(_wire.EVENT, self.id, _mono(), *encoded)
        except Exception as e:
            raise TypeError("event %r: a value does not fit its field type (%s)" % (self.name, e)) from None
        st.event(record)


_event_types = {}


def event_type(name, **fields):
    """Defines (or returns, for the same fields) the custom event type ``name``.

    Field types: ``"boolean"``, ``"int"`` (32 bits), ``"long"`` (64 bits), ``"double"``, ``"string"``
    (or the Python types bool, int = long, float, str). Defining a name again with other fields is
    an error.
    """
    try:
        codes = [(str(f), _FIELD_TYPES[t]) for f, t in fields.items()]
    except (KeyError, TypeError):
        bad = [f for f, t in fields.items() if not isinstance(t, (str, type)) or t not in _FIELD_TYPES]
        raise ValueError("event type %r: unknown field type for %s (use boolean, int, long, double or string)"
                         % (name, ", ".join(bad))) from None
    et = _event_types.get(name)
    if et is None or list(zip(et.fields, et._codes)) != codes:
        et = EventType(str(name), codes)  # raises on a conflicting redefinition
        _event_types[name] = et
    return et


def event(name, **values):
    """Records an event of type ``name``, defining the type from the values' Python types on first use
    (bool: boolean, int: long, float: double, anything else: string)."""
    et = _event_types.get(name)
    if et is None:
        et = event_type(name, **{f: (type(v) if type(v) in (bool, int, float) else str) for f, v in values.items()})
    et.emit(**values)


class Sensor:
    """An attribute sensor: a named value whose every ``set`` is recorded.

    Sonde's recording format has no attribute record (attributes travel only on live observe
    connections), so a sensor records each new value as an EVENT of the event type ``name`` with
    one field ``value``; ``sonde analyze`` lists them with the other events.
    """

    __slots__ = ("name", "value", "_type")

    def __init__(self, name, kind):
        self.name = name
        self.value = None
        self._type = event_type(name, value=kind)

    def set(self, value):
        self.value = value
        self._type.emit(value)

    def add(self, delta=1):
        self.set((self.value or 0) + delta)


def sensor(name, kind="long"):
    """An attribute sensor (see :class:`Sensor`); kind is a field type as in :func:`event_type`."""
    return Sensor(name, kind)


# ---- hand-off of work to another thread


class Handoff:
    """Where and when work was handed over: made by :func:`handoff` in the handing thread."""

    __slots__ = ("trace_id", "order_index", "time")

    def __init__(self, trace_id, order_index, time):
        self.trace_id = trace_id
        self.order_index = order_index
        self.time = time


def handoff():
    """Marks the hand-off of work to another thread from the current execution; pass the result to
    :func:`handed_over` in the thread that does the work. Outside an execution it names no parent."""
    st = _state()
    if st is None or not st.stack:
        return Handoff(0, -1, _mono())
    return Handoff(st.trace_id(), st.stack[-1], _mono())


class handed_over:
    """Context manager in the thread doing handed-over work: its first trace starts with a
    HANDOFF_START (parent execution and hand-off time), later ones with a TRACE_START naming the
    same parent (format section 5.1)."""

    def __init__(self, token):
        if not isinstance(token, Handoff):
            raise TypeError("handed_over takes the result of sonde.handoff(), got %r" % (token,))
        self.token = token
        self._saved = None

    def __enter__(self):
        st = _state()
        if st is not None:
            self._saved = (st, st.handoff, st.handoff_pending)
            t = self.token
            st.handoff = (t.trace_id, t.order_index, t.time) if t.trace_id else None
            st.handoff_pending = bool(t.trace_id)
        return self

    def __exit__(self, *exc):
        if self._saved is not None:
            st, st.handoff, st.handoff_pending = self._saved
            self._saved = None
        return False


# ---- starting and stopping


def start(directory=None, tcp=None, *, cpu=False, agent_id=None, host=None, buffer_records=65536,
          max_threads=4096, flush_interval=0.1, segment_bytes=64 << 20):
    """Starts monitoring: records go to segment files in ``directory`` or to a receiver at ``tcp``
    ("host:port"). Returns the agent id (a UUID). Raises RuntimeError when already started.

    - ``cpu``: record thread CPU time (ENTER_CPU/EXIT_CPU) with every execution;
    - ``buffer_records``: capacity of each thread's queue; records beyond it are dropped and counted;
    - ``max_threads``: threads with a queue; records of further threads are dropped as "no buffer";
    - ``flush_interval``: seconds between the writer thread's frames;
    - ``segment_bytes``: size after which a file segment ends and the next begins.
    """
    global _session
    if (directory is None) == (tcp is None):
        raise ValueError("sonde.start needs exactly one of directory= or tcp=")
    with _start_lock:
        if _session is not None:
            raise RuntimeError("sonde is already monitoring (agent %s); call sonde.stop() first" % _session.agent_id)
        if tcp is not None:
            host_part, _, port = str(tcp).rpartition(":")
            if not host_part or not port.isdigit() or not 0 < int(port) < 65536:
                raise ValueError("tcp must be host:port, got %r" % (tcp,))
            sink = TcpSink(host_part.strip("[]"), int(port))
        else:
            sink = None
        session = Session(sink, agent_id=agent_id, host=host, cpu=cpu, buffer_records=buffer_records,
                          max_threads=max_threads, flush_interval=flush_interval, segment_bytes=segment_bytes)
        if sink is None:
            session.sink = FileSink(directory, session.agent_id)
        session.open()
        session.start_writer()
        _session = session
        return session.agent_id


def stop(timeout=10.0):
    """Stops monitoring: writes what is queued and the trailer, closes the file or connection.
    Returns (produced, written, {drop reason: count}) as written in the trailer, or None if not
    monitoring."""
    global _session
    with _start_lock:
        session = _session
        if session is None:
            return None
        _session = None
        session.close(timeout)
        return session.counts()


def active():
    """True while monitoring."""
    return _session is not None


def stats():
    """(produced, written, {drop reason: count}) of the running session so far, or None."""
    s = _session
    return None if s is None else s.counts()


def _start_from_environment():
    directory = os.environ.get("SONDE_DIR")
    tcp = os.environ.get("SONDE_TCP")
    if not directory and not tcp:
        return
    if directory and tcp:
        print("sonde: both SONDE_DIR and SONDE_TCP are set; using SONDE_DIR", file=sys.stderr)
        tcp = None
    options = {}
    try:
        if os.environ.get("SONDE_CPU"):
            options["cpu"] = os.environ["SONDE_CPU"].strip().lower() in ("1", "on", "true", "yes")
        if os.environ.get("SONDE_BUFFER"):
            options["buffer_records"] = int(os.environ["SONDE_BUFFER"])
        start(directory or None, tcp or None, **options)
    except (ValueError, OSError) as e:
        print("sonde: not monitoring: %s" % (e,), file=sys.stderr)
        return
    atexit.register(stop)


def _after_fork_in_child():
    # the writer thread does not exist in a forked child: a child records nothing unless it starts anew
    global _session
    _session = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)

_start_from_environment()
