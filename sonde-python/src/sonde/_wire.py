"""Encoders of the Sonde binary format 2.0 (docs/format.md), byte for byte.

Everything here is a pure function of its arguments: records, definitions, blocks, frames and the
stream header. The recorder and the writer build on these; the golden-vector tests drive them
directly. All integers are little-endian (section 2).
"""

import struct
import uuid as _uuid

STREAM_MAGIC = b"\x89SONDE\r\n"
FRAME_MAGIC = 0x46444E53
MAX_FRAME_BYTES = 64 << 20
FRAME_FIXED_HEADER_BYTES = 62

FRAME_DATA = 1
FRAME_TRAILER = 2
FRAME_SEGMENT_END = 3

REGISTRY_THREAD_ID = 0

ENTER = 0x01
EXIT = 0x02
EXIT_EXCEPTION = 0x03
ENTER_CPU = 0x04
EXIT_CPU = 0x05
EXIT_EXCEPTION_CPU = 0x06
EVENT = 0x07
TRACE_START = 0x08
GAP = 0x09
HANDOFF_START = 0x0A
#: Record types 0x01..0x07 are "data records": the ones the trailer counts (section 4.2).
LAST_DATA_RECORD = EVENT

PROBE_DEF = 0x81
STRING_DEF = 0x82
THREAD_DEF = 0x83
EVENT_DEF = 0x84

FIELD_BOOLEAN = 1
FIELD_INT = 2
FIELD_LONG = 3
FIELD_DOUBLE = 4
FIELD_STRING = 5
#: struct codes of the field types of section 6.1, by type code.
FIELD_STRUCT = {FIELD_BOOLEAN: "B", FIELD_INT: "i", FIELD_LONG: "q", FIELD_DOUBLE: "d", FIELD_STRING: "I"}

DROP_BUFFER_FULL = 1
DROP_CLOSED = 2
DROP_NO_BUFFER = 3
DROP_WRITER_FAILED = 4

MAX_STR_BYTES = 65535
MAX_HOST_BYTES = 255

# ---- thread records (section 5); the prefix is type, id at 1, time at 5
_TIMED = struct.Struct("<BIq")
_TIMED_CPU = struct.Struct("<BIqq")
_EXIT_EXC = struct.Struct("<BIqI")
_EXIT_EXC_CPU = struct.Struct("<BIqqI")
_TRACE_START = struct.Struct("<Bqqi")
_HANDOFF_START = struct.Struct("<Bqqiq")
_GAP = struct.Struct("<BI")
_BLOCK_HEADER = struct.Struct("<QI")
# frame header up to the host name: magic, length, crc, type, flags, H, msb, lsb, seq, wall, mono, pid, n
_FRAME_HEADER = struct.Struct("<IIIBBHQQQqqIH")
_TRAILER_COUNTS = struct.Struct("<QQI")
_DROP_ENTRY = struct.Struct("<BQ")
_U32 = struct.Struct("<I")


def enter(probe_id, time):
    return _TIMED.pack(ENTER, probe_id, time)


def exit(probe_id, time):  # noqa: A001 - the record's name in the spec
    return _TIMED.pack(EXIT, probe_id, time)


def exit_exception(probe_id, time, exception_string_id):
    return _EXIT_EXC.pack(EXIT_EXCEPTION, probe_id, time, exception_string_id)


def enter_cpu(probe_id, time, cpu):
    return _TIMED_CPU.pack(ENTER_CPU, probe_id, time, cpu)


def exit_cpu(probe_id, time, cpu):
    return _TIMED_CPU.pack(EXIT_CPU, probe_id, time, cpu)


def exit_exception_cpu(probe_id, time, cpu, exception_string_id):
    return _EXIT_EXC_CPU.pack(EXIT_EXCEPTION_CPU, probe_id, time, cpu, exception_string_id)


def trace_start(trace_id, parent_trace_id=0, parent_order_index=-1):
    return _TRACE_START.pack(TRACE_START, trace_id, parent_trace_id, parent_order_index)


def handoff_start(trace_id, parent_trace_id, parent_order_index, handoff_time):
    return _HANDOFF_START.pack(HANDOFF_START, trace_id, parent_trace_id, parent_order_index, handoff_time)


def gap(dropped):
    return _GAP.pack(GAP, min(dropped, 0xFFFFFFFF))


def event_struct(field_types):
    """The struct that packs an EVENT record of an event type with these field type codes."""
    try:
        return struct.Struct("<BIq" + "".join(FIELD_STRUCT[t] for t in field_types))
    except KeyError as e:
        raise ValueError("unknown field type code %r (1 boolean, 2 int, 3 long, 4 double, 5 string)" % e.args[0]) from None


def event(event_type_id, time, field_types=(), values=()):
    """An EVENT record; string values are given as string ids, booleans as bool or 0/1."""
    return event_struct(field_types).pack(EVENT, event_type_id, time, *values)


# ---- definition records (section 6)

def utf8(text, limit=MAX_STR_BYTES):
    """UTF-8 of text, truncated at a character boundary to at most limit bytes (section 2)."""
    b = text.encode("utf-8", "replace")  # a lone surrogate becomes "?"
    if len(b) <= limit:
        return b
    end = limit
    while end > 0 and (b[end] & 0xC0) == 0x80:  # do not cut inside a multi-byte character
        end -= 1
    return b[:end]


def string(text):
    b = utf8(text)
    return struct.pack("<H", len(b)) + b


def probe_def(probe_id, name, signature):
    return struct.pack("<BI", PROBE_DEF, probe_id) + string(name) + string(signature)


def string_def(string_id, value):
    return struct.pack("<BI", STRING_DEF, string_id) + string(value)


def thread_def(thread_id, name):
    if thread_id == REGISTRY_THREAD_ID:
        raise ValueError("thread id 0 is reserved for the registry block")
    return struct.pack("<BQ", THREAD_DEF, thread_id) + string(name)


def event_def(event_type_id, name, fields=()):
    """fields: sequence of (field type code, field name), at most 255."""
    if len(fields) > 255:
        raise ValueError("event type %r has %d fields; at most 255" % (name, len(fields)))
    out = [struct.pack("<BI", EVENT_DEF, event_type_id), string(name), bytes([len(fields)])]
    for code, field_name in fields:
        if code not in FIELD_STRUCT:
            raise ValueError("event type %r: unknown field type code %r" % (name, code))
        out.append(bytes([code]))
        out.append(string(field_name))
    return b"".join(out)


# ---- blocks, frames, stream header (sections 3 and 4)

def block(thread_id, records):
    """A block: thread id, byte length, then the records (bytes, or an iterable of bytes)."""
    if not isinstance(records, (bytes, bytearray)):
        records = b"".join(records)
    return _BLOCK_HEADER.pack(thread_id, len(records)) + records


def stream_header(major=2, minor=0):
    return STREAM_MAGIC + struct.pack("<HH", major, minor)


def trailer_payload(produced, written, drops=None):
    """drops: {reason: count}; zero counts are left out, entries in reason order."""
    entries = sorted((r, c) for r, c in (drops or {}).items() if c)
    return _TRAILER_COUNTS.pack(produced, written, len(entries)) + b"".join(_DROP_ENTRY.pack(r, c) for r, c in entries)


def segment_end_payload(next_segment_index):
    return _U32.pack(next_segment_index)


class FrameEncoder:
    """The per-agent constant part of the frame header (agent id, pid, host) and frame sealing."""

    __slots__ = ("agent_id", "_msb", "_lsb", "_pid", "_host", "header_length")

    def __init__(self, agent_id, pid, host):
        if not isinstance(agent_id, _uuid.UUID):
            agent_id = _uuid.UUID(str(agent_id))
        self.agent_id = agent_id
        self._msb = agent_id.int >> 64
        self._lsb = agent_id.int & 0xFFFFFFFFFFFFFFFF
        self._pid = pid & 0xFFFFFFFF
        self._host = utf8(host, MAX_HOST_BYTES)
        self.header_length = FRAME_FIXED_HEADER_BYTES + len(self._host)

    def frame(self, frame_type, sequence, wall, mono, payload):
        """A whole frame with its CRC-32C over bytes [12, L)."""
        length = self.header_length + len(payload)
        if length > MAX_FRAME_BYTES:
            raise ValueError("frame of %d bytes exceeds the format's 64 MiB limit" % length)
        head = _FRAME_HEADER.pack(FRAME_MAGIC, length, 0, frame_type, 0, self.header_length, self._msb, self._lsb,
                                  sequence, wall, mono, self._pid, len(self._host))
        body = head[12:] + self._host + payload
        return head[:8] + _U32.pack(crc32c(body)) + body

    def data(self, sequence, wall, mono, blocks):
        """A DATA frame; blocks: sequence of (thread id, records)."""
        return self.frame(FRAME_DATA, sequence, wall, mono, b"".join(block(t, r) for t, r in blocks))

    def trailer(self, sequence, wall, mono, produced, written, drops=None):
        return self.frame(FRAME_TRAILER, sequence, wall, mono, trailer_payload(produced, written, drops))

    def segment_end(self, sequence, wall, mono, next_segment_index):
        return self.frame(FRAME_SEGMENT_END, sequence, wall, mono, segment_end_payload(next_segment_index))


def segment_file_name(agent_id, index):
    """The file writer's segment name (section 7): sonde-<uuid>-<NNNNNN>.sonde."""
    return "sonde-%s-%06d.sonde" % (agent_id, index)


# ---- CRC-32C (Castagnoli, reflected polynomial 0x82F63B78)
#
# Pure Python by default: byte tables, and for the bulk 16-bit tables (the 8 byte tables of
# slicing-by-8 merged pairwise: 4 lookups per 8 bytes; 1 MiB, built on first use). When the
# optional C module of the PyPI package "crc32c" or "google-crc32c" is installed, it is used
# instead (checked against the check value first); SONDE_PURE_CRC=1 forbids that.

import os as _os
from array import array as _array


def _byte_tables():
    t0 = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        t0.append(c)
    tables = [t0]
    for _ in range(7):
        prev = tables[-1]
        tables.append([(prev[n] >> 8) ^ t0[prev[n] & 0xFF] for n in range(256)])
    return tables


_T = _byte_tables()
_T0 = tuple(_T[0])
_U = None  # the 16-bit tables, made by _wide_tables()


def _wide_tables():
    global _U
    if _U is None:
        t = _T
        # for the 8 bytes b0..b7 of a little-endian word (already XORed with the register),
        # the new register is T7[b0]^T6[b1]^...^T0[b7]; U_k[b | b' << 8] holds a pair of those
        _U = tuple(_array("I", [t[7 - 2 * k][i & 0xFF] ^ t[6 - 2 * k][i >> 8] for i in range(65536)]) for k in range(4))
    return _U


def _crc32c_python(data, crc=0):
    c = crc ^ 0xFFFFFFFF
    mv = memoryview(data)
    n = len(mv) & ~7
    if n >= 64:
        u0, u1, u2, u3 = _wide_tables()
        for (q,) in struct.iter_unpack("<Q", mv[:n]):
            q ^= c
            c = u0[q & 0xFFFF] ^ u1[(q >> 16) & 0xFFFF] ^ u2[(q >> 32) & 0xFFFF] ^ u3[q >> 48]
        mv = mv[n:]
    t0 = _T0
    for b in mv:
        c = t0[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def _accelerator():
    if _os.environ.get("SONDE_PURE_CRC", "").strip() not in ("", "0"):
        return None, "pure Python (SONDE_PURE_CRC)"
    import importlib
    for module, function in (("crc32c", "crc32c"), ("google_crc32c", "value")):
        try:
            fn = getattr(importlib.import_module(module), function)
            if fn(b"123456789") == 0xE3069283:
                return fn, "C (%s)" % module
        except Exception:  # absent, or not the module we mean: the pure Python one serves
            continue
    return None, "pure Python"


_fast, CRC_IMPLEMENTATION = _accelerator()


def crc32c(data, crc=0):
    """CRC-32C of data, continuing from crc (0 to start); crc32c(b"123456789") == 0xE3069283."""
    if _fast is not None and crc == 0:
        return _fast(bytes(data)) & 0xFFFFFFFF
    return _crc32c_python(data, crc)
