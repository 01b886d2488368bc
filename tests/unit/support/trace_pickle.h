// A snapshot pickle that is one device's trace and nothing else, for tests that write their own
// trace entries.
#pragma once

#include <functional>
#include <string>

#include "core/pickle/pickle_writer.h"

namespace snapscope::test {

// {'segments': [], 'device_traces': [[<entries>]]}: protocol 4, memoised as PyTorch's own dumps.
inline std::string one_trace_pickle(const std::function<void(PickleWriter&)>& entries) {
  std::string out;
  PickleWriter w(out, 4, PickleWriter::Memo::Auto);
  w.begin_dict();
  w.str("segments");
  w.begin_list();
  w.end_list();
  w.str("device_traces");
  w.begin_list();
  w.begin_list();
  entries(w);
  w.end_list();
  w.end_list();
  w.end_dict();
  w.finish();
  return out;
}

}  // namespace snapscope::test
