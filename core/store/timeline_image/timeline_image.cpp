#include "core/store/timeline_image/timeline_image.h"

#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "core/snapshot/snapshot_reader.h"
#include "core/store/allocations_json/mapped_file.h"
#include "core/util/output_file.h"

namespace snapscope {

namespace fs = std::filesystem;

namespace {

constexpr std::array<char, 8> kMagic = {'S', 'N', 'P', 'S', 'C', 'T', 'L', 'I'};
constexpr uint32_t kImageVersion = 1;
constexpr uint32_t kByteOrder = 0x01020304;  // reads otherwise on a machine of the other order
constexpr size_t kColumnAlignment = 64;

// What a source file was when the image was made.
struct FileStamp {
  uint64_t size = 0;
  uint64_t mtime_ns = 0;
  bool operator==(const FileStamp&) const = default;
};

struct Header {
  std::array<char, 8> magic = kMagic;
  uint32_t version = kImageVersion;
  uint32_t byte_order = kByteOrder;
  FileStamp layout;  // the layout file it was made from
  uint64_t device_count = 0;
  uint64_t file_bytes = 0;  // the whole file: a shorter one was cut
  uint64_t unused[2] = {};
};
static_assert(sizeof(Header) == 64 && std::is_trivially_copyable_v<Header>);

FileStamp stamp_of(const fs::path& file) {
  struct stat info {};
  if (::stat(file.c_str(), &info) != 0) throw std::runtime_error(file.string() + ": " + std::strerror(errno));
  return {static_cast<uint64_t>(info.st_size), static_cast<uint64_t>(info.st_mtim.tv_sec) * 1'000'000'000u +
                                                   static_cast<uint64_t>(info.st_mtim.tv_nsec)};
}

// Timeline::parts_of's writer: figures in 8-byte slots, columns from 64-byte boundaries, through
// a buffer of a few MB into the file. Without a file it only counts, so that the header can name
// the length before a byte is written, from the same layout code.
class ImageWriter {
 public:
  explicit ImageWriter(OutputFile* file = nullptr) : file_(file) {
    if (file_) buffer_.reserve(kFlushBytes);
  }

  template <typename T>
  void value(const T& figure) {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= sizeof(uint64_t));
    uint64_t slot = 0;
    std::memcpy(&slot, &figure, sizeof(T));
    put(&slot, sizeof slot);
  }
  template <typename T>
  void column(const Column<T>& values) {
    const uint64_t head[2] = {values.size(), sizeof(T)};
    put(head, sizeof head);
    static constexpr char kZeros[kColumnAlignment] = {};
    put(kZeros, (kColumnAlignment - written_ % kColumnAlignment) % kColumnAlignment);
    put(values.data(), values.size() * sizeof(T));
  }
  void put(const void* data, size_t bytes) {
    const auto* from = static_cast<const char*>(data);
    written_ += bytes;
    while (file_ && bytes > 0) {
      const size_t part = std::min(bytes, kFlushBytes - buffer_.size());
      buffer_.append(from, part);
      from += part;
      bytes -= part;
      if (buffer_.size() == kFlushBytes) flush();
    }
  }
  void flush() {
    if (file_) file_->write(buffer_);
    buffer_.clear();
  }
  uint64_t written() const { return written_; }

 private:
  static constexpr size_t kFlushBytes = size_t{4} << 20;
  OutputFile* file_;  // null: counting only
  std::string buffer_;
  uint64_t written_ = 0;
};

// Timeline::parts_of's reader: views into the mapped file, every size checked against it.
class ImageReader {
 public:
  ImageReader(std::shared_ptr<const MappedFile> file, std::string path)
      : file_(std::move(file)), text_(file_->text()), path_(std::move(path)) {}

  template <typename T>
  void value(T& figure) {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= sizeof(uint64_t));
    uint64_t slot = 0;
    take(&slot, sizeof slot);
    if constexpr (std::is_same_v<T, bool>) {
      if (slot > 1) fail("a flag that is neither 0 nor 1");
      figure = slot == 1;
    } else {
      if constexpr (sizeof(T) < sizeof(uint64_t)) {
        if (slot >> (8 * sizeof(T)) != 0) fail("a figure too wide for its field");
      }
      std::memcpy(&figure, &slot, sizeof(T));
    }
  }
  template <typename T>
  void column(Column<T>& values) {
    uint64_t head[2] = {};
    take(head, sizeof head);
    if (head[1] != sizeof(T)) fail("a column of the wrong element size");
    offset_ += (kColumnAlignment - offset_ % kColumnAlignment) % kColumnAlignment;
    if (offset_ > text_.size() || head[0] > (text_.size() - offset_) / sizeof(T)) fail("cut short");
    const auto* first = reinterpret_cast<const T*>(text_.data() + offset_);
    values = Column<T>::view(first, head[0], file_);
    offset_ += head[0] * sizeof(T);
  }
  void take(void* out, size_t bytes) {
    if (bytes > text_.size() - offset_) fail("cut short");
    std::memcpy(out, text_.data() + offset_, bytes);
    offset_ += bytes;
  }
  bool at_end() const { return offset_ == text_.size(); }
  [[noreturn]] void fail(const std::string& what) const { throw InputError(path_ + ": " + what); }

 private:
  std::shared_ptr<const MappedFile> file_;
  std::string_view text_;
  std::string path_;
  size_t offset_ = 0;
};

ReservedSeries read_reserved(ImageReader& in) {
  uint64_t initial = 0;
  bool inconsistent = false;
  Column<ReservedStep> steps;
  in.value(initial);
  in.value(inconsistent);
  in.column(steps);
  ReservedSeries reserved(initial, std::move(steps));
  if (inconsistent) reserved.mark_inconsistent();
  return reserved;
}

Timeline read_timeline(ImageReader& in, TimelineKind kind) {
  try {
    Timeline timeline(Timeline::FromParts{}, in);
    if (timeline.input().kind != kind) in.fail("timelines in the wrong order");
    return timeline;
  } catch (const std::invalid_argument& error) {
    in.fail(error.what());
  }
}

void write_devices(ImageWriter& out, const Header& header, const std::vector<ImagedDevice>& devices) {
  out.put(&header, sizeof header);
  for (const ImagedDevice& device : devices) {
    out.value(device.device);
    Timeline::parts_of(*device.blocks, out);
    Timeline::parts_of(*device.segments, out);
    out.value(device.reserved->initial());
    out.value(device.reserved->inconsistent());
    out.column(device.reserved->steps());
  }
}

}  // namespace

void write_timeline_image(const fs::path& image, const fs::path& layout_file,
                          const std::vector<ImagedDevice>& devices) {
  Header header;
  header.layout = stamp_of(layout_file);
  header.device_count = devices.size();
  // The size goes into the header first: the layout is known before a byte is written.
  ImageWriter counter;
  write_devices(counter, header, devices);
  header.file_bytes = counter.written();
  OutputFile file(image.string());
  ImageWriter out(&file);
  write_devices(out, header, devices);
  out.flush();
  file.commit();
}

void write_timeline_image_quietly(const fs::path& image, const fs::path& layout_file,
                                  const std::vector<ImagedDevice>& devices, StageLog* log) {
  const StageTimer timer(log, std::string("write ") + kTimelineImageName);
  try {
    write_timeline_image(image, layout_file, devices);
  } catch (const std::exception&) {
    // A full disk or a removed directory: the next open replays, as it did before images.
  }
}

std::optional<std::vector<LoadedDevice>> read_timeline_image(const fs::path& image,
                                                             const fs::path& layout_file) {
  std::error_code missing;
  if (!fs::exists(image, missing)) return std::nullopt;
  const std::string path = image.string();
  auto file = std::make_shared<const MappedFile>(path);
  ImageReader in(file, path);
  Header header;
  in.take(&header, sizeof header);
  if (header.magic != kMagic) in.fail("not a timeline image");
  if (header.version != kImageVersion || header.byte_order != kByteOrder)
    return std::nullopt;  // another build's
  if (header.file_bytes != file->text().size()) in.fail("cut short or padded");
  if (header.layout != stamp_of(layout_file)) return std::nullopt;  // made from another layout file
  if (header.device_count > file->text().size() / sizeof(uint64_t)) in.fail("too many devices");
  std::vector<LoadedDevice> devices;
  devices.reserve(header.device_count);
  for (uint64_t i = 0; i < header.device_count; ++i) {
    int device = 0;
    in.value(device);
    Timeline blocks = read_timeline(in, TimelineKind::Blocks);
    Timeline segments = read_timeline(in, TimelineKind::Segments);
    if (blocks.input().device != device || segments.input().device != device)
      in.fail("a device's timelines disagree");
    devices.push_back({device, std::move(blocks), std::move(segments), read_reserved(in)});
  }
  if (!in.at_end()) in.fail("bytes after the last device");
  return devices;
}

}  // namespace snapscope
