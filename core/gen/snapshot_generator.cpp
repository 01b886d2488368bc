#include "core/gen/snapshot_generator.h"

#include <memory>
#include <ostream>
#include <stdexcept>
#include <streambuf>
#include <vector>

#include "core/gen/call_site_pool.h"
#include "core/gen/pinned_host_loop.h"
#include "core/gen/snapshot_pickler.h"
#include "core/gen/training_loop.h"
#include "core/pickle/pickle_writer.h"

namespace snapscope::gen {
namespace {

// Discards everything; used to measure how large a snapshot would be.
class NullBuffer : public std::streambuf {
 protected:
  int_type overflow(int_type c) override { return traits_type::not_eof(c); }
  std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

uint64_t events_of_device(const GenOptions& options, int device) {
  const auto devices = static_cast<uint64_t>(options.devices);
  return options.events / devices + (static_cast<uint64_t>(device) < options.events % devices ? 1 : 0);
}

// A trace ends at the first workload step boundary after its quota of events.
bool trace_continues(const TrainingLoop& loop, uint64_t taken, uint64_t quota) {
  return taken < quota || !loop.at_step_boundary();
}

// Runs each device's workload up to its last event, for the state the segment snapshot and
// the annotations describe. The trace itself is replayed again (deterministically) when written.
std::vector<std::unique_ptr<TrainingLoop>> run_to_end(const GenOptions& options,
                                                      const CallSitePool& call_sites,
                                                      std::vector<int64_t>& last_time_us) {
  std::vector<std::unique_ptr<TrainingLoop>> loops;
  for (int device = 0; device < options.devices; ++device) {
    loops.push_back(std::make_unique<TrainingLoop>(call_sites, device, options.seed, options.ghost_parameters,
                                                   options.mem_pool));
    const uint64_t quota = events_of_device(options, device);
    int64_t last = 0;
    for (uint64_t taken = 0; trace_continues(*loops.back(), taken, quota); ++taken)
      last = loops.back()->next().time_us;
    last_time_us.push_back(last);
  }
  return loops;
}

void write_segments(SnapshotPickler& pickler, PickleWriter& w,
                    const std::vector<std::unique_ptr<TrainingLoop>>& final_states, GenResult& result) {
  w.begin_list();
  for (size_t device = 0; device < final_states.size(); ++device) {
    for (const auto& [address, segment] : final_states[device]->allocator().segments()) {
      if (segment.size == 0) continue;  // an expandable segment that never mapped anything
      pickler.segment(segment, static_cast<int>(device));
      ++result.segments;
    }
    if (const CachingAllocator* pool = final_states[device]->pool_allocator()) {
      for (const auto& [address, segment] : pool->segments()) {
        pickler.segment(segment, static_cast<int>(device), kMemPoolId);
        ++result.segments;
      }
    }
  }
  w.end_list();
}

// torch.cuda.memory._annotate_memory as a training script might call it: every 40th allocation
// is noted a few events later, if it is still live then (an annotate event names a live block).
class MemoryNotes {
 public:
  static constexpr uint64_t kEvery = 40, kDelay = 3;

  // Called after each traced event; writes the notes that fall due.
  void after(const GenEvent& event, SnapshotPickler& pickler, const EventFields& fields, GenResult& result) {
    if (event.kind == EventKind::Alloc && ++allocs_ % kEvery == 0) pending_.push_back({event, kDelay});
    // A tensor is noted while it is alive: never between its free request and completion.
    if (event.kind == EventKind::FreeRequested || event.kind == EventKind::FreeCompleted) {
      std::erase_if(pending_, [&](const Pending& p) { return p.event.address == event.address; });
    }
    for (Pending& p : pending_) {
      if (--p.wait > 0) continue;
      GenEvent note = p.event;
      note.kind = EventKind::Annotate;
      note.time_us = event.time_us;
      pickler.event(note, fields, "retained by autograd (saved for backward)");
      ++result.events;
    }
    std::erase_if(pending_, [](const Pending& p) { return p.wait == 0; });
  }

 private:
  struct Pending {
    GenEvent event;
    uint64_t wait = 0;
  };
  uint64_t allocs_ = 0;
  std::vector<Pending> pending_;
};

void write_traces(SnapshotPickler& pickler, PickleWriter& w, const GenOptions& options,
                  const CallSitePool& call_sites, GenResult& result) {
  const EventFields fields{options.timestamps, options.compile_context, options.user_metadata,
                           options.forward_frames};
  w.begin_list();
  for (int device = 0; device < options.devices; ++device) {
    TrainingLoop loop(call_sites, device, options.seed, options.ghost_parameters, options.mem_pool);
    MemoryNotes notes;
    const uint64_t quota = events_of_device(options, device);
    uint64_t taken = 0;
    w.begin_list();
    for (; trace_continues(loop, taken, quota); ++taken) {
      const GenEvent event = loop.next();
      pickler.event(event, fields);
      if (options.memory_notes) notes.after(event, pickler, fields, result);
    }
    w.end_list();
    pickler.end_device_trace();
    result.events += taken;
  }
  w.end_list();
}

// Pinned host memory (record_pinned_host_memory=True): host_segments, then host_traces as one
// list of trace entries.
void write_host_memory(SnapshotPickler& pickler, PickleWriter& w, const GenOptions& options,
                       const CallSitePool& call_sites, GenResult& result) {
  PinnedHostLoop loop(call_sites, options.seed);
  const std::vector<GenEvent> events = loop.run(options.host_batches);
  pickler.text("host_segments");
  w.begin_list();
  for (const PinnedBlock& b : loop.blocks()) {
    SimSegment segment{b.address, b.size, 0, b.site, true, false, {}};
    segment.blocks[b.address] = SimBlock{b.size, b.requested, b.site, b.allocated, false};
    pickler.segment(segment, -1);  // the CPU's device index
    ++result.segments;
  }
  w.end_list();
  pickler.text("host_traces");
  const EventFields fields{options.timestamps, options.compile_context, options.user_metadata,
                           options.forward_frames};
  w.begin_list();
  for (const GenEvent& event : events) pickler.event(event, fields);
  w.end_list();
  pickler.end_device_trace();
  result.events += events.size();
}

// Annotations recorded up to each device's last event, devices in order.
void write_annotations(SnapshotPickler& pickler, PickleWriter& w,
                       const std::vector<std::unique_ptr<TrainingLoop>>& final_states,
                       const std::vector<int64_t>& last_time_us) {
  w.begin_list();
  for (size_t device = 0; device < final_states.size(); ++device)
    for (const GenAnnotation& annotation : final_states[device]->annotations())
      if (annotation.time_us <= last_time_us[device])
        pickler.annotation(annotation, static_cast<int>(device));
  w.end_list();
}

}  // namespace

GenResult write_snapshot(const GenOptions& requested, std::ostream& out) {
  GenOptions options = requested;
  if (options.devices < 1) throw std::invalid_argument("gen: --devices must be at least 1");
  if (options.protocol < 0 || options.protocol > 5)
    throw std::invalid_argument("gen: --protocol must be 0..5");
  if (options.target_bytes > 0) options.events = events_for_target_bytes(options);

  const CallSitePool call_sites(options.seed);
  std::vector<int64_t> last_time_us;
  const auto final_states = run_to_end(options, call_sites, last_time_us);

  GenResult result;
  PickleWriter w(out, options.protocol, PickleWriter::Memo::Auto);
  SnapshotPickler pickler(w, call_sites);
  w.begin_dict();
  pickler.text("segments");
  write_segments(pickler, w, final_states, result);
  pickler.text("device_traces");
  write_traces(pickler, w, options, call_sites, result);
  if (options.host_batches > 0) write_host_memory(pickler, w, options, call_sites, result);
  pickler.text("allocator_settings");
  pickler.allocator_settings(options.devices > 1);  // odd devices use expandable segments
  if (options.timestamps && options.annotations) {
    pickler.text("external_annotations");
    write_annotations(pickler, w, final_states, last_time_us);
  }
  w.end_dict();
  w.finish();
  result.bytes = w.bytes_written();
  return result;
}

// Size grows linearly with events once the shared frames are written, so two small
// measured runs give the slope and the fixed part.
uint64_t events_for_target_bytes(const GenOptions& options) {
  GenOptions probe = options;
  probe.target_bytes = 0;
  NullBuffer null_buffer;
  std::ostream null_stream(&null_buffer);
  const uint64_t small_events = 20000ull * static_cast<uint64_t>(options.devices);
  probe.events = small_events;
  const uint64_t small_bytes = write_snapshot(probe, null_stream).bytes;
  probe.events = 3 * small_events;
  const uint64_t large_bytes = write_snapshot(probe, null_stream).bytes;
  const double per_event =
      static_cast<double>(large_bytes - small_bytes) / static_cast<double>(2 * small_events);
  const double fixed = static_cast<double>(small_bytes) - per_event * static_cast<double>(small_events);
  const double wanted = (static_cast<double>(options.target_bytes) - fixed) / per_event;
  return wanted < 1.0 ? 1 : static_cast<uint64_t>(wanted);
}

}  // namespace snapscope::gen
