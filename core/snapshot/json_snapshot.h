// JSON snapshots: the same dict as the pickle, as memory_viz accepts it (JSON.parse), plain or
// gzip-compressed. They are transcoded into pickle bytes with PickleWriter, so one reader (the
// safe unpickler and the snapshot reducer) checks and builds both encodings identically.
#pragma once

#include <cstdint>
#include <string>

#include "core/util/byte_source.h"

namespace snapscope {

// True when the (decompressed) file starts like a JSON object: '{' after optional whitespace.
bool looks_like_json_snapshot(const std::string& path);

// At most this much JSON text (after gzip) is read from one JSON snapshot (docs/FORMAT.md).
inline constexpr uint64_t kMaxJsonSnapshotTextBytes = uint64_t{64} << 30;

// The pickle (protocol 4) of the JSON document in `source`, parsed as it is read (the JSON text is
// never held whole; only the pickle is). Throws SourceError("not valid JSON: parse error at line
// L, column C: ...") for malformed input and past kMaxJsonSnapshotTextBytes.
std::string json_snapshot_to_pickle(ByteSource& source);

}  // namespace snapscope
