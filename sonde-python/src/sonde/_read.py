"""A strict reader of Sonde streams, for the tests: it checks the envelope
(magic, version, frame length, header length, CRC-32C) and decodes every record, stopping at the
first problem with its byte offset. It is not a full reader (no recovery, no call-tree checks);
``sonde analyze`` and ``sonde dump`` are."""

import struct

from . import _wire as w

_HEADER = struct.Struct("<IIIBBHQQQqqIH")


class FormatError(ValueError):
    """A violation of the format, at a byte offset of the stream."""

    def __init__(self, offset, problem):
        super().__init__("offset %d: %s" % (offset, problem))
        self.offset = offset


class Frame:
    __slots__ = ("type", "sequence", "wall", "mono", "agent_id", "pid", "host", "offset", "payload", "blocks",
                 "trailer", "next_segment")

    def __repr__(self):
        return "Frame(type=%d, seq=%d, blocks=%r, trailer=%r)" % (self.type, self.sequence, self.blocks, self.trailer)


def _str(b, at):
    n = struct.unpack_from("<H", b, at)[0]
    return b[at + 2:at + 2 + n].decode("utf-8", "replace"), at + 2 + n


def read_stream(data, registry=None):
    """Decodes one stream (bytes). Returns (major, frames); each DATA frame's blocks is a list of
    (thread id, [record tuples]). registry (a dict, carried over between segments) collects the
    definitions: ("probe", id) -> (name, signature), ("string", id), ("thread", id), ("event", id)."""
    registry = {} if registry is None else registry
    if len(data) < 12:
        raise FormatError(len(data), "truncated stream header")
    if data[:8] != w.STREAM_MAGIC:
        bad = next(i for i in range(8) if data[i] != w.STREAM_MAGIC[i])
        raise FormatError(bad, "not a Sonde stream")
    major, _minor = struct.unpack_from("<HH", data, 8)
    if major not in (1, 2):
        raise FormatError(8, "unsupported major version %d" % major)
    frames = []
    at = 12
    while at < len(data):
        if len(data) - at < 62:
            raise FormatError(len(data), "truncated frame header")
        (magic, length, crc, ftype, _flags, hlen, msb, lsb, seq, wall, mono, pid, hostlen) = _HEADER.unpack_from(data, at)
        if magic != w.FRAME_MAGIC:
            raise FormatError(at, "bad frame magic")
        if length < 62 or length > w.MAX_FRAME_BYTES:
            raise FormatError(at + 4, "frame length %d out of range" % length)
        if at + length > len(data):
            raise FormatError(len(data), "truncated frame: %d bytes declared, %d available" % (length, len(data) - at))
        if hlen < 62 + hostlen or hlen > length:
            raise FormatError(at + 14, "inconsistent header length")
        computed = w.crc32c(data[at + 12:at + length])
        if computed != crc:
            raise FormatError(at, "CRC mismatch: stored %08x, computed %08x" % (crc, computed))
        f = Frame()
        f.type, f.sequence, f.wall, f.mono, f.pid, f.offset = ftype, seq, wall, mono, pid, at
        f.agent_id = "%016x%016x" % (msb, lsb)
        f.host = data[at + 62:at + 62 + hostlen].decode("utf-8", "replace")
        f.payload = data[at + hlen:at + length]
        f.blocks, f.trailer, f.next_segment = [], None, None
        if ftype == w.FRAME_DATA:
            _blocks(f, at + hlen, registry)
        elif ftype == w.FRAME_TRAILER:
            produced, written, k = struct.unpack_from("<QQI", f.payload, 0)
            drops = {}
            for i in range(k):
                reason, count = struct.unpack_from("<BQ", f.payload, 20 + 9 * i)
                drops[reason] = drops.get(reason, 0) + count
            f.trailer = (produced, written, drops)
        elif ftype == w.FRAME_SEGMENT_END:
            f.next_segment = struct.unpack_from("<I", f.payload, 0)[0]
        else:
            raise FormatError(at + 12, "unknown frame type %d" % ftype)
        frames.append(f)
        at += length
    return major, frames


def _blocks(frame, base, registry):
    p = frame.payload
    at = 0
    while at < len(p):
        if len(p) - at < 12:
            raise FormatError(base + at, "block overrun")
        tid, n = struct.unpack_from("<QI", p, at)
        if n > len(p) - at - 12:
            raise FormatError(base + at, "block overrun")
        records = _records(p[at + 12:at + 12 + n], tid, base + at + 12, registry)
        frame.blocks.append((tid, records))
        at += 12 + n


def _records(b, tid, base, registry):
    out = []
    at = 0
    while at < len(b):
        t = b[at]
        try:
            if tid == 0:
                at = _definition(b, at, t, registry, out, base)
            else:
                at = _record(b, at, t, registry, out, base)
        except struct.error:
            raise FormatError(base + at, "record overruns its block") from None
    return out


def _definition(b, at, t, registry, out, base):
    if t == w.PROBE_DEF:
        pid = struct.unpack_from("<I", b, at + 1)[0]
        name, nxt = _str(b, at + 5)
        sig, nxt = _str(b, nxt)
        registry[("probe", pid)] = (name, sig)
        out.append(("PROBE_DEF", pid, name, sig))
    elif t == w.STRING_DEF:
        sid = struct.unpack_from("<I", b, at + 1)[0]
        value, nxt = _str(b, at + 5)
        registry[("string", sid)] = value
        out.append(("STRING_DEF", sid, value))
    elif t == w.THREAD_DEF:
        thread = struct.unpack_from("<Q", b, at + 1)[0]
        name, nxt = _str(b, at + 9)
        registry[("thread", thread)] = name
        out.append(("THREAD_DEF", thread, name))
    elif t == w.EVENT_DEF:
        eid = struct.unpack_from("<I", b, at + 1)[0]
        name, nxt = _str(b, at + 5)
        k = b[nxt]
        nxt += 1
        fields = []
        for _ in range(k):
            code = b[nxt]
            fname, nxt = _str(b, nxt + 1)
            fields.append((code, fname))
        registry[("event", eid)] = (name, tuple(fields))
        out.append(("EVENT_DEF", eid, name, tuple(fields)))
    else:
        raise FormatError(base + at, "record type 0x%02x in the registry block" % t)
    if nxt > len(b):
        raise FormatError(base + at, "record overruns its block")
    return nxt


_LAYOUTS = {
    w.ENTER: ("ENTER", "<Iq"), w.EXIT: ("EXIT", "<Iq"), w.EXIT_EXCEPTION: ("EXIT_EXCEPTION", "<IqI"),
    w.ENTER_CPU: ("ENTER_CPU", "<Iqq"), w.EXIT_CPU: ("EXIT_CPU", "<Iqq"),
    w.EXIT_EXCEPTION_CPU: ("EXIT_EXCEPTION_CPU", "<IqqI"), w.TRACE_START: ("TRACE_START", "<qqi"),
    w.GAP: ("GAP", "<I"), w.HANDOFF_START: ("HANDOFF_START", "<qqiq"),
}


def _record(b, at, t, registry, out, base):
    if t == w.EVENT:
        eid, time = struct.unpack_from("<Iq", b, at + 1)
        if ("event", eid) not in registry:
            raise FormatError(base + at + 1, "undefined event type id %d" % eid)
        name, fields = registry[("event", eid)]
        fmt = "<" + "".join(w.FIELD_STRUCT[c] for c, _ in fields)
        values = struct.unpack_from(fmt, b, at + 13)
        decoded = []
        for (code, _), v in zip(fields, values):
            if code == w.FIELD_STRING:
                v = registry[("string", v)]
            elif code == w.FIELD_BOOLEAN:
                if v not in (0, 1):
                    raise FormatError(base + at, "boolean value %d" % v)
                v = bool(v)
            decoded.append(v)
        out.append(("EVENT", name, time, tuple(decoded)))
        return at + 13 + struct.calcsize(fmt)
    layout = _LAYOUTS.get(t)
    if layout is None:
        raise FormatError(base + at, "unknown record type 0x%02x" % t)
    name, fmt = layout
    fields = struct.unpack_from(fmt, b, at + 1)
    if t <= w.EXIT_EXCEPTION_CPU and ("probe", fields[0]) not in registry:
        raise FormatError(base + at + 1, "undefined probe id %d" % fields[0])
    out.append((name,) + fields)
    return at + 1 + struct.calcsize(fmt)


def read_log(directory):
    """Reads every segment file of every agent in a folder: {agent id: (frames, registry)}, segments
    in index order, the registry carried over between an agent's segments."""
    import os
    import re
    logs = {}
    names = sorted(n for n in os.listdir(directory) if re.match(r"sonde-[0-9a-f-]{36}-\d{6}\.sonde$", n))
    for n in names:
        agent = n[6:42]
        frames, registry = logs.setdefault(agent, ([], {}))
        with open(os.path.join(directory, n), "rb") as f:
            frames.extend(read_stream(f.read(), registry)[1])
    return logs
