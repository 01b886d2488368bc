// allocations.json reader: SAX-parse into raw columns, then validate and assemble ReplayInputs.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <limits>

#include "core/snapshot/snapshot_reader.h"
#include "core/store/allocations_json.h"
#include "core/store/allocations_json_columns.h"
#include "core/store/allocations_json_sax.h"
#include "core/util/run_beside.h"

namespace snapscope {
namespace {

using allocations_json::RawDevice;
using allocations_json::RawFile;
using allocations_json::RawReplay;

// Read-only view of a whole file; mapping avoids a copy of a possibly large document.
class MappedFile {
 public:
  explicit MappedFile(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw InputError(path + ": " + std::strerror(errno));
    struct stat info {};
    if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
      ::close(fd);
      throw InputError(path + ": not a regular file");
    }
    size_ = static_cast<size_t>(info.st_size);
    if (size_ > 0) {
      data_ = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
      if (data_ == MAP_FAILED) data_ = nullptr;
    }
    ::close(fd);
    if (size_ > 0 && !data_) throw InputError(path + ": cannot map file");
  }
  ~MappedFile() {
    if (data_) ::munmap(data_, size_);
  }
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  std::string_view text() const { return {static_cast<const char*>(data_), size_}; }

 private:
  void* data_ = nullptr;
  size_t size_ = 0;
};

class Assembler {
 public:
  explicit Assembler(const std::string& path) : path_(path) {}

  AllocationsFile assemble(const RawFile& raw) {
    if (raw.format != allocations_json::kFormatName) fail("not a snapscope allocations file");
    if (raw.version != kAllocationsJsonVersion) {
      fail("unsupported format version " + (raw.version ? std::to_string(*raw.version) : "(missing)") +
           " (expected " + std::to_string(kAllocationsJsonVersion) + ")");
    }
    AllocationsFile file;
    file.source_file = raw.source_file;
    file.source_bytes = raw.source_bytes;
    for (const RawDevice& device : raw.devices) file.devices.push_back(assemble_device(device));
    return file;
  }

 private:
  [[noreturn]] void fail(const std::string& reason) const { throw InputError(path_ + ": " + reason); }

  DeviceLayout assemble_device(const RawDevice& raw) {
    if (!raw.device || *raw.device < 0 || *raw.device > std::numeric_limits<int>::max()) {
      fail("device entry without a valid \"device\"");
    }
    DeviceLayout layout;
    layout.device = static_cast<int>(*raw.device);
    layout.blocks = assemble_replay(raw.blocks, layout.device, TimelineKind::Blocks);
    layout.segments = assemble_replay(raw.segments, layout.device, TimelineKind::Segments);
    return layout;
  }

  const std::vector<int64_t>& column(const RawReplay& raw, const std::string& name, size_t expected) const {
    const auto it = raw.columns.find(name);
    if (it == raw.columns.end()) fail("missing column " + name);
    if (it->second.size() != expected) {
      fail("column " + name + " has " + std::to_string(it->second.size()) + " values, expected " +
           std::to_string(expected));
    }
    return it->second;
  }

  size_t count(const std::optional<int64_t>& value, const char* name) const {
    if (!value || *value < 0 || *value >= int64_t{kNoIndex}) fail(std::string("missing or invalid ") + name);
    return static_cast<size_t>(*value);
  }

  ReplayInput assemble_replay(const RawReplay& raw, int device, TimelineKind kind) {
    const std::string_view name = allocations_json::kind_name(kind);
    if (!raw.present || raw.kind != name)
      fail("device " + std::to_string(device) + ": missing " + std::string(name));
    ReplayInput input;
    input.device = device;
    input.kind = kind;
    input.synthetic_action = raw.synthetic_action.value_or(false);
    const size_t element_count = count(raw.element_count, "element_count");
    // Elements and actions fill separate arrays (hundreds of MB at 10M allocations, most of it
    // fresh pages the kernel zeroes): two cores. Errors still come in file order.
    run_beside([&] { read_actions(raw, element_count, count(raw.action_count, "action_count"), input); },
               [&] {
                 read_elements(raw, element_count, input);
                 read_initial_stack(raw, input);
               });
    return input;
  }

  // Derived columns depend on others, so they are filled in after every stored column.
  void read_elements(const RawReplay& raw, size_t element_count, ReplayInput& input) {
    input.elements.resize(element_count);
    std::vector<const allocations_json::ElementColumn*> derived;
    for (const allocations_json::ElementColumn& spec : allocations_json::kElementColumns) {
      if (!read_element_column(raw, spec, input.elements)) derived.push_back(&spec);
    }
    for (const allocations_json::ElementColumn* spec : derived) {
      for (ReplayElement& element : input.elements) {
        if (!spec->set(element, allocations_json::derived_source_event(element)))
          fail("invalid value in column elements." + std::string(spec->name));
      }
    }
  }

  // (index, value) pairs over the default; indices strictly ascending.
  void read_sparse_column(const RawReplay& raw, const allocations_json::ElementColumn& spec,
                          std::vector<ReplayElement>& elements) {
    const std::string name = "elements." + std::string(spec.name);
    const auto it = raw.columns.find(name);
    if (it == raw.columns.end()) fail("missing column " + name);
    const std::vector<int64_t>& pairs = it->second;
    if (pairs.size() % 2 != 0) fail("column " + name + " is not a list of (index, value) pairs");
    for (ReplayElement& element : elements) {
      if (!spec.set(element, spec.fallback)) fail("invalid value in column " + name);
    }
    int64_t previous = -1;
    for (size_t k = 0; k < pairs.size(); k += 2) {
      const int64_t index = pairs[k];
      if (index <= previous || index >= static_cast<int64_t>(elements.size())) {
        fail("column " + name + ": element index out of order or range");
      }
      if (!spec.set(elements[static_cast<size_t>(index)], pairs[k + 1]))
        fail("invalid value in column " + name);
      previous = index;
    }
  }

  // False when the column is a Derived one written as [] (to be filled in afterwards).
  bool read_element_column(const RawReplay& raw, const allocations_json::ElementColumn& spec,
                           std::vector<ReplayElement>& elements) {
    using allocations_json::Coding;
    if (spec.coding == Coding::Sparse) {
      read_sparse_column(raw, spec, elements);
      return true;
    }
    const std::string name = "elements." + std::string(spec.name);
    const auto it = raw.columns.find(name);
    if (spec.coding == Coding::Derived && it != raw.columns.end() && it->second.empty() &&
        !elements.empty()) {
      return false;  // filled in afterwards
    }
    const std::vector<int64_t>& values = column(raw, name, elements.size());
    int64_t value = 0;
    for (size_t i = 0; i < elements.size(); ++i) {
      value = spec.coding == Coding::Delta ? allocations_json::undelta(value, values[i]) : values[i];
      if (!spec.set(elements[i], value)) fail("invalid value in column " + name);
    }
    return true;
  }

  void check_elem(int64_t elem, size_t element_count, const char* where) const {
    if (elem < 0 || static_cast<size_t>(elem) >= element_count) {
      fail(std::string("element index out of range in ") + where);
    }
  }

  void read_initial_stack(const RawReplay& raw, ReplayInput& input) {
    const auto it = raw.columns.find("initial_stack");
    if (it == raw.columns.end()) fail("missing column initial_stack");
    for (const int64_t elem : it->second) {
      check_elem(elem, input.elements.size(), "initial_stack");
      input.initial_stack.push_back(static_cast<uint32_t>(elem));
    }
  }

  // Touches only input.actions and input.action_time_us (it runs beside read_elements).
  void read_actions(const RawReplay& raw, size_t element_count, size_t action_count, ReplayInput& input) {
    const auto& elems = column(raw, "actions." + std::string(allocations_json::kActionElem), action_count);
    const auto& deltas =
        column(raw, "actions." + std::string(allocations_json::kActionEventDelta), action_count);
    input.actions.resize(action_count);
    int64_t event = 0;
    int64_t elem = 0;
    for (size_t i = 0; i < action_count; ++i) {
      elem = allocations_json::undelta(elem, elems[i]);
      check_elem(elem, element_count, "actions");
      event = allocations_json::undelta(event, deltas[i]);
      if (event < -1) fail("invalid action event");
      input.actions[i] = {static_cast<uint32_t>(elem), event};
    }
    read_action_times(raw, action_count, input);
  }

  void read_action_times(const RawReplay& raw, size_t action_count, ReplayInput& input) {
    const std::string name = "actions." + std::string(allocations_json::kActionTimeDelta);
    const auto it = raw.columns.find(name);
    if (it == raw.columns.end()) fail("missing column " + name);
    if (it->second.empty()) return;  // recorded without timestamps
    const std::vector<int64_t>& deltas = column(raw, name, action_count);
    input.action_time_us.resize(action_count);
    int64_t time_us = 0;
    for (size_t i = 0; i < action_count; ++i) {
      if (deltas[i] == allocations_json::kNullValue) {
        input.action_time_us[i] = kNoTime;
        continue;
      }
      time_us += deltas[i];
      input.action_time_us[i] = time_us;
    }
  }

  std::string path_;
};

}  // namespace

AllocationsFile read_allocations_json(const std::string& path) {
  const MappedFile file(path);
  RawFile raw;
  if (const auto error = allocations_json::parse_raw_file(file.text(), raw))
    throw InputError(path + ": " + *error);
  return Assembler(path).assemble(raw);
}

}  // namespace snapscope
