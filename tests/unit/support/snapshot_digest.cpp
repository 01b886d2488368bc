#include "snapshot_digest.h"

#include <sstream>

namespace snapscope::testing {

namespace {

void digest_events(std::ostringstream& out, const Snapshot& s) {
  for (size_t d = 0; d < s.device_traces.size(); ++d) {
    out << "device " << d << ": " << s.device_traces[d].events.size() << " events\n";
    for (const TraceEvent& e : s.device_traces[d].events) {
      out << static_cast<int>(e.action()) << ' ' << e.addr << ' ' << e.size << ' ' << e.time_us << ' '
          << e.stack << ' ' << e.has_frames() << ' ' << e.has_extra() << ' ' << e.link() << '\n';
    }
  }
  for (const EventExtra& x : s.event_extras)
    out << "extra " << x.compile_context << ' ' << x.user_metadata << ' ' << x.rare << ' ' << x.stream
        << '\n';
  for (const RareEventFields& r : s.rare_event_fields) {
    out << "rare " << r.unknown_action << ' ' << r.forward_frames << ' ' << r.has_pool_id << ' '
        << r.pool_id[0] << ' ' << r.pool_id[1] << '\n';
  }
}

}  // namespace

std::string snapshot_digest(const Snapshot& s) {
  std::ostringstream out;
  for (StringId i = 0; i < s.strings.size(); ++i) out << "string " << s.strings.view(i) << '\n';
  for (FrameId i = 0; i < s.frames.size(); ++i) {
    const Frame& f = s.frames.get(i);
    out << "frame " << f.name << ' ' << f.filename << ' ' << f.line << ' ' << f.fx_node_op << ' '
        << f.fx_node_name << ' ' << f.fx_node_target << ' ' << f.fx_original_trace << '\n';
  }
  for (StackId i = 0; i < s.stacks.size(); ++i) {
    out << "stack";
    for (FrameId f : s.stacks.frames(i)) out << ' ' << f;
    out << '\n';
  }
  for (uint64_t stream : s.streams.values()) out << "stream " << stream << '\n';
  digest_events(out, s);
  out << s.segments.size() << " segments, " << s.blocks.size() << " blocks, " << s.annotations.size()
      << " annotations\n";
  for (const std::string& key : s.top_level_keys) out << "key " << key << '\n';
  return out.str();
}

}  // namespace snapscope::testing
