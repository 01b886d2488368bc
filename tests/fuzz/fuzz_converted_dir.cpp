// libFuzzer harness: a converted directory with one file replaced by the input (first byte even:
// elements.db, odd: allocations.json; the other file is the generated fixture's), opened as the
// viewer opens it and then read by every elements.db reader the panels use (the fixture has a
// private pool, so the private pools view is built too). A std::runtime_error
// (InputError included) with a message is the only acceptable failure.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <system_error>

#include "core/allocator/db_event_source.h"
#include "core/allocator/private_pool_input.h"
#include "core/analysis/db_annotations.h"
#include "core/analysis/db_stack_source.h"
#include "core/cursor/stack_catalog.h"
#include "core/document/document.h"
#include "core/store/allocations_json/allocations_json.h"
#include "core/view/allocation_details.h"
#include "fuzz_fixture.h"

using namespace snapscope;
namespace fs = std::filesystem;

namespace {

template <typename Read>
void tolerate_errors(Read read) {
  try {
    read();
  } catch (const std::runtime_error&) {
  }
}

void read_stacks(const std::string& db, const DeviceDocument& device) {
  const ElementsDbReader reader(db);
  const DbStackSource stacks(db);
  for (TimelineKind kind : {TimelineKind::Blocks, TimelineKind::Segments}) {
    const Timeline& timeline = device.timeline(kind);
    for (uint32_t elem = 0; elem < timeline.element_count() && elem < 8; ++elem) {
      tolerate_errors([&] { (void)read_allocation_details(reader, device.device, kind, elem); });
      for (FrameId frame : stacks.stack_frames(timeline.element(elem).stack)) (void)stacks.frame(frame);
    }
  }
}

// The private pools view as the session builds it, and its layout at a few states. A consistent
// input is the reader's promise: PrivatePoolLayout's std::invalid_argument would be a bug here.
void read_private_pools(const std::string& db, const Timeline& blocks) {
  PrivatePoolInput input = private_pool_input_from_db(db, blocks);
  if (input.pools.empty()) return;
  const PrivatePoolLayout layout(blocks, std::move(input));
  for (size_t state = 0; state <= blocks.action_count(); state += 1 + blocks.action_count() / 4) {
    (void)layout.layout_at(state);
  }
}

void read_everything(const Document& document) {
  const std::string db = document.elements_db().string();
  tolerate_errors([&] { (void)read_db_annotations(db); });
  tolerate_errors([&] { (void)catalog_from_elements_db(db); });
  for (const DeviceDocument& device : document.devices) {
    tolerate_errors([&] { read_stacks(db, device); });
    tolerate_errors([&] { (void)final_state_from_db(db, device.device); });
    tolerate_errors([&] { (void)allocator_history_from_db(db, device.device); });
    tolerate_errors([&] { read_private_pools(db, device.blocks); });
  }
}

// libFuzzer's -timeout watchdog is a SIGALRM that can interrupt the copy's sendfile; retry then.
void copy_retrying_on_eintr(const fs::path& from, const fs::path& to) {
  for (;;) {
    std::error_code error;
    fs::copy_file(from, to, fs::copy_options::overwrite_existing, error);
    if (!error) return;
    if (error != std::errc::interrupted) throw fs::filesystem_error("copy fixture", from, to, error);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const fs::path dir = fuzz::scratch_dir() / "dir.snapscope";
  fs::create_directories(dir);
  const bool replace_db = (data[0] & 1) == 0;
  const fs::path& fixture = fuzz::fixture_dir();
  // The layout file's bytes are read as Zstandard or plain text by their magic number, not its name.
  const char* layout = kAllocationsFileName;
  copy_retrying_on_eintr(fixture / (replace_db ? layout : "elements.db"),
                         dir / (replace_db ? layout : "elements.db"));
  fuzz::write_file(dir / (replace_db ? "elements.db" : layout), fuzz::as_text(data + 1, size - 1));
  LoadProgress progress;
  std::unique_ptr<Document> document;
  try {
    document = open_document(dir.string(), progress);
  } catch (const std::runtime_error&) {
    return 0;
  }
  read_everything(*document);
  return 0;
}
