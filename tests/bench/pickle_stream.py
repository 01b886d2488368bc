"""Writes a pickle the way CPython's protocol-4 pickler does, byte for byte, without holding
the object: lists may be generators (StreamedList). Only data types (dict, list, tuple, str,
bytes, int, float, bool, None). Objects made while writing (a scaled trace's events) are
memoised by count only: they may be freed, and a freed object's id must not hit the memo."""
import struct

FRAME_TARGET = 64 * 1024
BATCH = 1000
BINGET = [b"h" + bytes([i]) for i in range(256)]
BININT1 = [b"K" + bytes([i]) for i in range(256)]


class StreamedList:
    """A list pickled from an iterable, written as its items come. Its items, and the lists and
    dicts directly in them that the memo does not know, are transient: new objects that may be
    freed once written (a scaled trace's events and their frames lists). Everything deeper
    (frame dicts, strings) must outlive the pickler, as the source snapshot's objects do."""

    def __init__(self, items):
        self.items = items


class StreamPickler:
    def __init__(self, file):
        self.file = file
        self.frame = bytearray()
        self.memo = {}  # id -> index, for objects that live until the end
        self.memo_count = 0
        self.keep = []  # keeps memoised objects alive, so their ids stay theirs

    # --- framing, as pickle._Framer
    def commit_frame(self, force=False):
        if len(self.frame) >= FRAME_TARGET or (force and self.frame):
            data = bytes(self.frame)
            self.frame.clear()
            if len(data) >= 4:
                self.file.write(b"\x95" + struct.pack("<Q", len(data)))
            self.file.write(data)

    def dump(self, obj):
        self.file.write(b"\x80\x04")  # before the first frame
        self.save(obj)
        self.frame += b"."
        self.commit_frame(force=True)

    def memoize(self, obj, lasting):
        self.frame += b"\x94"
        if lasting:
            self.memo[id(obj)] = self.memo_count
            self.keep.append(obj)
        self.memo_count += 1

    def save(self, obj, lasting=True):
        """lasting=False: a transient container, memoised by count only."""
        if len(self.frame) >= FRAME_TARGET:
            self.commit_frame()
        index = self.memo.get(id(obj))
        if index is not None:
            self.frame += BINGET[index] if index < 256 else b"j" + struct.pack("<I", index)
            return
        kind = type(obj)
        if kind is int:
            self.save_int(obj)
        elif obj is None:
            self.frame += b"N"
        elif kind is bool:
            self.frame += b"\x88" if obj else b"\x89"
        elif kind is float:
            self.frame += b"G" + struct.pack(">d", obj)
        elif kind is str:
            data = obj.encode("utf-8", "surrogatepass")
            n = len(data)
            if n < 256:
                header = b"\x8c" + bytes([n])
            elif n > 0xFFFFFFFF:
                header = b"\x8d" + struct.pack("<Q", n)
            else:
                header = b"X" + struct.pack("<I", n)
            self.write_payload(header, data)
            self.memoize(obj, lasting)
        elif kind is bytes:
            n = len(obj)
            self.write_payload(b"C" + bytes([n]) if n < 256 else b"B" + struct.pack("<I", n), obj)
            self.memoize(obj, lasting)
        elif kind is tuple:
            self.save_tuple(obj, lasting)
        elif kind is list or kind is StreamedList:
            self.frame += b"]"
            self.memoize(obj, lasting and kind is list)
            if kind is StreamedList:
                self.batch_appends(obj.items, transient_items=True)
            else:
                self.batch_appends(obj)
        elif kind is dict:
            self.frame += b"}"
            self.memoize(obj, lasting)
            self.batch_setitems(obj, lasting)
        else:
            raise TypeError(f"cannot stream a {kind.__name__}")

    def write_payload(self, header, data):
        """A string's or bytes' opcode: a payload of a frame's size or more goes outside frames."""
        if len(data) < FRAME_TARGET:
            self.frame += header + data
            return
        self.commit_frame(force=True)
        self.file.write(header)
        self.file.write(data)

    def save_int(self, obj):
        if 0 <= obj <= 0xFF:
            self.frame += BININT1[obj]
        elif 0 <= obj <= 0xFFFF:
            self.frame += b"M" + struct.pack("<H", obj)
        elif -0x80000000 <= obj <= 0x7FFFFFFF:
            self.frame += b"J" + struct.pack("<i", obj)
        else:
            nbytes = (obj.bit_length() >> 3) + 1
            data = obj.to_bytes(nbytes, "little", signed=True)
            if obj < 0 and nbytes > 1 and data[-1] == 0xFF and (data[-2] & 0x80) != 0:
                data = data[:-1]
            self.frame += (b"\x8a" + bytes([len(data)]) if len(data) < 256 else b"\x8b" + struct.pack("<i", len(data))) + data

    def save_tuple(self, obj, lasting):
        if not obj:
            self.frame += b")"
            return
        if len(obj) <= 3:
            for item in obj:
                self.save(item)
            self.frame += b"\x85\x86\x87"[len(obj) - 1 : len(obj)]
        else:
            self.frame += b"("
            for item in obj:
                self.save(item)
            self.frame += b"t"
        self.memoize(obj, lasting)

    def save_child(self, value, parent_lasting):
        """A dict value: in a transient dict, a list or dict the memo does not know is transient too."""
        transient = not parent_lasting and type(value) in (list, dict) and id(value) not in self.memo
        self.save(value, lasting=not transient)

    def batch_appends(self, items, transient_items=False):
        """As CPython's batch_list_exact: one item is APPEND; more go in MARK ... APPENDS batches
        of up to 1000, the last one too, even of one item."""
        lasting = not transient_items
        iterator = iter(items)
        batch = [item for _, item in zip(range(BATCH), iterator)]
        if len(batch) == 1:
            self.save(batch[0], lasting)
            self.frame += b"a"
            return
        while batch:
            self.frame += b"("
            for item in batch:
                self.save(item, lasting)
            self.frame += b"e"
            batch = [item for _, item in zip(range(BATCH), iterator)]

    def batch_setitems(self, mapping, lasting):
        """As CPython's batch_dict_exact: one item is SETITEM; more go in MARK ... SETITEMS batches
        of up to 1000, and a full last batch is followed by an empty one."""
        items = list(mapping.items())
        if not items:
            return
        if len(items) == 1:
            self.save(items[0][0])
            self.save_child(items[0][1], lasting)
            self.frame += b"s"
            return
        start = 0
        while True:
            batch = items[start : start + BATCH]
            self.frame += b"("
            for key, value in batch:
                self.save(key)
                self.save_child(value, lasting)
            self.frame += b"u"
            start += BATCH
            if len(batch) < BATCH:
                return
