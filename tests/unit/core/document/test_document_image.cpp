// A cache entry's timelines.img through the document loader's own path: written once the entry
// is whole, opened instead of the layout file (the same timelines), written again when missing,
// and a damaged one set aside for the layout file. A user's own converted directory gets none.
#include <doctest/doctest.h>

#include <filesystem>
#include <memory>
#include <string>

#include "core/document/document.h"
#include "core/store/timeline_image/timeline_image.h"
#include "unit/support/cache_home.h"
#include "unit/support/replay_checks.h"

using namespace snapscope;
namespace fs = std::filesystem;

namespace {

struct Opened {
  std::unique_ptr<Document> document;
  bool came_early = false;
  std::string stages;
};

// open_document_early as the viewer's loader calls it: the document, early or returned.
Opened open_as_viewer(const fs::path& path) {
  LoadProgress progress;
  Opened opened;
  auto returned = open_document_early(path.string(), progress, [&](std::unique_ptr<Document> early) {
    opened.document = std::move(early);
    opened.came_early = true;
  });
  if (returned) opened.document = std::move(returned);
  opened.stages = progress.stages.format();
  return opened;
}

bool has_stage(const Opened& opened, const std::string& name) {
  return opened.stages.find(name) != std::string::npos;
}

void check_same_timelines(const Document& a, const Document& b) {
  REQUIRE(a.devices.size() == b.devices.size());
  for (size_t i = 0; i < a.devices.size(); ++i) {
    CHECK(a.devices[i].device == b.devices[i].device);
    CHECK(a.devices[i].has_time == b.devices[i].has_time);
    for (const TimelineKind kind : {TimelineKind::Blocks, TimelineKind::Segments}) {
      const Timeline& x = a.devices[i].timeline(kind);
      const Timeline& y = b.devices[i].timeline(kind);
      test::check_same_replay(x.input(), y.input());
      CHECK(x.timesteps() == y.timesteps());
      CHECK(x.peak_bytes() == y.peak_bytes());
      for (size_t state = 0; state <= x.action_count(); ++state)
        REQUIRE(x.total_at_state(state) == y.total_at_state(state));
    }
    CHECK(a.devices[i].reserved.steps() == b.devices[i].reserved.steps());
  }
}

}  // namespace

TEST_CASE("timeline image: written once a conversion's entry is whole, then opened instead of the layout") {
  const test::FreshPickle fresh;
  const Opened converted = open_as_viewer(fresh.pickle);
  REQUIRE(converted.document != nullptr);
  CHECK(converted.came_early);
  const fs::path image = converted.document->directory / kTimelineImageName;
  CHECK(fs::exists(image));
  CHECK(has_stage(converted, "write timelines.img"));

  const Opened warm = open_as_viewer(fresh.pickle);
  REQUIRE(warm.document != nullptr);
  CHECK_FALSE(warm.came_early);  // nothing to write behind it
  CHECK(has_stage(warm, "map timelines.img"));
  CHECK_FALSE(has_stage(warm, "read allocations.json"));
  CHECK(warm.document->devices.front().blocks.input().elements.is_view());
  check_same_timelines(*converted.document, *warm.document);

  // Without its image, a warm open replays the layout, hands the document over, then writes one.
  fs::remove(image);
  const Opened replayed = open_as_viewer(fresh.pickle);
  REQUIRE(replayed.document != nullptr);
  CHECK(replayed.came_early);
  CHECK(has_stage(replayed, "read allocations.json"));
  CHECK(fs::exists(image));
  check_same_timelines(*converted.document, *replayed.document);
}

TEST_CASE("timeline image: a damaged image is set aside and the layout file opened") {
  const test::FreshPickle fresh;
  const fs::path dir = open_as_viewer(fresh.pickle).document->directory;
  const fs::path image = dir / kTimelineImageName;
  REQUIRE(fs::exists(image));
  const auto size = fs::file_size(image);
  fs::resize_file(image, size / 2);

  LoadProgress progress;
  const auto document = open_document(fresh.pickle.string(), progress);  // no loader: nothing written
  REQUIRE(document != nullptr);
  CHECK(progress.stages.format().find("read allocations.json") != std::string::npos);
  CHECK_FALSE(fs::exists(image));
  CHECK(document->wants_image);
  const Opened again = open_as_viewer(fresh.pickle);  // the viewer's load writes it again
  CHECK(fs::exists(image));
  CHECK(fs::file_size(image) == size);
  check_same_timelines(*document, *again.document);
}

TEST_CASE("timeline image: a user's converted directory is opened from its layout and left as it is") {
  const test::FreshPickle fresh;
  const fs::path entry = open_as_viewer(fresh.pickle).document->directory;
  const fs::path mine = fresh.dir / "converted";
  fs::create_directories(mine);
  for (const char* name : {"allocations.json.zst", "elements.db"}) fs::copy_file(entry / name, mine / name);
  const Opened opened = open_as_viewer(mine);
  REQUIRE(opened.document != nullptr);
  CHECK_FALSE(opened.document->wants_image);
  CHECK_FALSE(fs::exists(mine / kTimelineImageName));
  CHECK(test::TempDir::entries_of(mine) == std::vector<std::string>{"allocations.json.zst", "elements.db"});
}
