// Categories and findings on the real snapshots of $SNAPSCOPE_SNAPSHOT_DIR: categories account
// for exactly the live bytes at every event, and on the AdamW training step the gradients and the
// optimizer state the trace shows add up (gradients = parameters, optimizer state = 2x).
#include <doctest/doctest.h>

#include <map>
#include <numeric>

#include "conformance/real_snapshots.h"
#include "converter/source_findings.h"
#include "core/analysis/state_mapping.h"
#include "core/classify/category_evidence.h"
#include "core/classify/category_timeline.h"

using namespace snapscope;
using namespace snapscope::conformance;
namespace fs = std::filesystem;

namespace {

AnalysisSource load_device(const fs::path& pickle, int device) {
  SourceOptions options;
  options.device = device;
  options.with_segments = false;
  return load_analysis_source(pickle.string(), options);
}

uint64_t bytes_of(const Classification& classification, const std::vector<uint64_t>& bytes,
                  Category category) {
  (void)classification;
  return bytes[category_id(category)];
}

}  // namespace

TEST_SUITE("conformance") {
  TEST_CASE("categories: every event's live bytes are split exactly into categories") {
    for (const fs::path& pickle : snapshot_pickles()) {
      const nlohmann::json reference = load_reference(pickle);
      for (const nlohmann::json& device : reference.at("devices")) {
        CAPTURE(pickle.filename().string());
        const AnalysisSource source = load_device(pickle, device.at("device").get<int>());
        const Timeline& timeline = *source.blocks;
        const Classification classification = classify_source(source, nullptr);
        const CategoryTimeline totals(timeline, classification);
        std::vector<uint64_t> bytes;
        for (size_t state = 0; state <= timeline.action_count(); ++state) {
          totals.bytes_at(state, bytes);
          REQUIRE(std::accumulate(bytes.begin(), bytes.end(), uint64_t{0}) == timeline.total_at_state(state));
        }
        const size_t peak = peak_state(timeline);
        CHECK(category_bytes_at(classification, timeline, peak) == (totals.bytes_at(peak, bytes), bytes));
        const std::vector<Finding> findings = source_findings(source, classification);
        if (timeline.element_count() > 0) {
          REQUIRE_FALSE(findings.empty());
          CHECK(findings.front().kind == FindingKind::Peak);
        }
      }
    }
  }

  TEST_CASE("categories: the AdamW training step's gradients and optimizer state add up") {
    const AnalysisSource source = load_device(snapshot_dir() / "gpt_train_step_ctx128.pickle", 0);
    const Timeline& timeline = *source.blocks;
    const Classification classification = classify_source(source, nullptr);
    const std::vector<uint64_t> at_peak = category_bytes_at(classification, timeline, peak_state(timeline));
    // The parameters each traced gradient vouches for, and 1.25 MiB of stackless blocks from before
    // recording with no gradient of their size (buffers or frozen weights: parameter, likely).
    std::map<Reason, uint64_t> parameter_reasons;
    for (const CategoryEvidence& entry :
         category_evidence_at(classification, timeline, peak_state(timeline))) {
      if (entry.category != category_id(Category::Parameter)) continue;
      for (const ReasonBytes& reason : entry.reasons) parameter_reasons[reason.reason] = reason.bytes;
    }
    const uint64_t parameters = parameter_reasons[Reason::PreexistingMatchesGradient];
    CHECK(parameters == 13'627'238'400);
    CHECK(parameter_reasons[Reason::PreexistingFrozen] == 1'314'816);
    CHECK(bytes_of(classification, at_peak, Category::Parameter) == parameters + 1'314'816);
    CHECK(bytes_of(classification, at_peak, Category::Gradient) == parameters);
    CHECK(bytes_of(classification, at_peak, Category::OptimizerState) == 2 * parameters);
    CHECK(bytes_of(classification, at_peak, Category::Activation) == 0);
    CHECK(bytes_of(classification, at_peak, Category::Workspace) == 64 << 20);  // two cuBLAS workspaces
    CHECK(classification.optimizer_state_traced);
    const std::vector<Finding> findings = source_findings(source, classification);
    REQUIRE_FALSE(findings.empty());
    CHECK(findings.front().title == "Peak 51.04 GiB at event #19335 (0.563 s into the trace)");
    CHECK(findings.front().text.find("in the optimizer step, inside Optimizer.step#AdamW.step") !=
          std::string::npos);
    // Activations existed: made in the forward, freed in the backward.
    bool activation = false;
    for (uint32_t elem = 0; elem < timeline.element_count() && !activation; ++elem)
      activation = classification.category(elem) == category_id(Category::Activation);
    CHECK(activation);
  }

  TEST_CASE("categories: a step that replaces its optimizer state and accumulates into old gradients") {
    const AnalysisSource source = load_device(snapshot_dir() / "train_user_metadata.pickle", 0);
    const Timeline& timeline = *source.blocks;
    const Classification classification = classify_source(source, nullptr);
    const std::vector<uint64_t> at_end = category_bytes_at(classification, timeline, timeline.action_count());
    // The state the step makes replaces the state it frees, one for one.
    uint64_t replaced = 0;
    for (uint32_t elem = 0; elem < timeline.element_count(); ++elem) {
      if (classification.reasons[elem] == Reason::PreexistingReplacedState)
        replaced += timeline.element(elem).size;
    }
    CHECK(replaced > 0);
    CHECK(bytes_of(classification, at_end, Category::OptimizerState) == replaced);
    // No gradient is allocated: the backward accumulates into the stackless blocks from before
    // recording, one beside each parameter of its size; AdamW keeps two state tensors per parameter.
    uint64_t paired_parameters = 0;
    for (uint32_t elem = 0; elem < timeline.element_count(); ++elem) {
      if (classification.reasons[elem] == Reason::PreexistingPairedParameter)
        paired_parameters += timeline.element(elem).size;
    }
    CHECK(paired_parameters == 761'840'640);
    CHECK(bytes_of(classification, at_end, Category::Gradient) == paired_parameters);
    CHECK(bytes_of(classification, at_end, Category::OptimizerState) == 2 * paired_parameters);
    CHECK(bytes_of(classification, at_end, Category::Unknown) == 0);
  }
}
