// JSON snapshots: the same dict as the pickle, as memory_viz accepts it (JSON.parse), plain or
// gzip-compressed. They are transcoded into pickle bytes with PickleWriter, so one reader (the
// safe unpickler and the snapshot reducer) checks and builds both encodings identically.
#pragma once

#include <string>

#include "core/util/byte_source.h"

namespace snapscope {

// True when the (decompressed) file starts like a JSON object: '{' after optional whitespace.
bool looks_like_json_snapshot(const std::string& path);

// The pickle (protocol 4) of the JSON document in `source`. Throws SourceError("not valid JSON:
// parse error at line L, column C: ...") for malformed input. Holds the JSON text and the pickle in memory.
std::string json_snapshot_to_pickle(ByteSource& source);

}  // namespace snapscope
