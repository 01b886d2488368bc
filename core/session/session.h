// One open snapshot and everything derived from it, with no GUI: the document, the chosen device
// and timeline, the view, the time cursor and its analysis, the selection and the inspector's
// details, and the background indexes (stack catalog, annotations and phase tables, allocator
// history). Like Tracy's Worker: panels draw a Session and send it commands; "is X ready / get X"
// queries answer null until a background result has been taken by poll(). A Session is the one
// place that starts and cancels that work: destroying it cancels and joins every thread it
// started, then frees its memory. Several can be open at once (two runs compared, many ranks).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/allocator/allocator_history.h"
#include "core/allocator/allocator_settings.h"
#include "core/allocator/segment_layout.h"
#include "core/allocator/usage_curve.h"
#include "core/analysis/annotation_pairing.h"
#include "core/analysis/module_tree.h"
#include "core/analysis/phase_table.h"
#include "core/classify/category_timeline.h"
#include "core/classify/classifier.h"
#include "core/cursor/analysis_worker.h"
#include "core/cursor/element_marks.h"
#include "core/cursor/stack_catalog.h"
#include "core/cursor/time_cursor.h"
#include "core/document/document.h"
#include "core/export/export.h"
#include "core/findings/findings.h"
#include "core/session/background_result.h"
#include "core/store/elements_db/elements_db.h"
#include "core/timeline/memory_pyramid.h"
#include "core/timeline/private_pool_layout.h"
#include "core/view/allocation_details.h"
#include "core/view/chart_coloring.h"
#include "core/view/site_colors.h"
#include "core/view/view_transform.h"
#include "core/view/y_fit.h"

namespace snapscope {

struct ChartSettings {
  int device = -1;
  TimelineKind kind = TimelineKind::Blocks;
  ChartColoring coloring = ChartColoring::Allocation;
  bool time_axis = false;  // x linear in wall-clock time (when the trace has times) instead of events
  // memory_viz's "Allocated Memory (incl. Private Pools)": the blocks timeline with each private
  // pool's envelope (Session::private_pools), when the device has one.
  bool private_pools = false;
  bool show_all_frames = false;
  // A newly opened file or device starts with the time cursor at its peak, so every panel
  // answers at once; off (--no-cursor): no cursor until one is placed.
  bool cursor_at_peak = true;
  YFitSettings y_fit;  // zooming time fits y to the totals in view
};

// What each allocation of one timeline is: its category and why, the category totals over time,
// and the findings that need no allocator history. Built in the background; immutable after.
// The shown device's private pools view and the pyramid over its totals.
struct SessionPools {
  std::shared_ptr<const PrivatePoolLayout> layout;
  std::shared_ptr<const MemoryPyramid> pyramid;
};

struct SessionCategories {
  SessionCategories(const Timeline& shown, Classification classified)
      : timeline(&shown), classification(std::move(classified)), totals(shown, classification) {}
  SessionCategories(const SessionCategories&) = delete;
  SessionCategories& operator=(const SessionCategories&) = delete;
  const Timeline* timeline;
  Classification classification;
  CategoryTimeline totals;  // refers to `classification` above
  std::vector<Finding> findings;
};

// Every allocation of one device's blocks timeline placed in its nn.Module calls
// (core/analysis/module_instances), with that device's forward stacks. Built in the background.
struct SessionModules {
  SessionModules(const Timeline& of, ModuleInstances placed) : blocks(&of), instances(std::move(placed)) {}
  const Timeline* blocks;
  ModuleInstances instances;
};

// Live memory by module call at one state of a device's blocks timeline (the Modules tab).
struct SessionModuleTree {
  const Timeline* blocks = nullptr;
  ModuleTree tree;  // tree.state is a state of `blocks`
  std::shared_ptr<const SessionModules> modules;
  std::vector<LiveElement> live;  // at tree.state: a row's allocations (module_members)
};

// The caching allocator right after one event of a device (the Allocator state tab): its
// segments and blocks, laid out as the tab draws them, and what building it took.
struct SessionAllocatorState {
  int64_t event = -1;  // -1: before the first event
  AllocatorState state;
  SegmentLayout layout;
  double build_ms = 0;
};

// How the cursor's call trees and moment table group stacks (the analysis pane's toggles).
struct AnalysisOptions {
  bool filter_frames = true;
  LocationRule location_rule = LocationRule::FirstUserFrame;
  bool operator==(const AnalysisOptions&) const = default;
};

class Session {
 public:
  Session();  // nothing open: every query answers "none"
  // Takes an opened document (open_document, DocumentLoader) and starts its background indexes;
  // `ready` runs on a worker thread whenever a result lands (the viewer wakes its event loop).
  explicit Session(std::unique_ptr<Document> document, std::function<void()> ready = {});
  ~Session();  // cancels and joins every background task
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Opens a pickle or converted directory on the calling thread (tests, command-line tools).
  static std::unique_ptr<Session> open(const std::string& path, std::function<void()> ready = {});

  const Document* document() const { return document_.get(); }
  // elements.db is still being written (the chart came first: Document::pending_database). The
  // stacks, details, SQL, events and allocator state start once it lands; poll() notices.
  bool database_writing() const;
  // Counts the times a pending database landed and was opened (panels that opened it reopen).
  int database_generation() const { return database_generation_; }
  // The database was opened, or the pending one failed (error() says why): nothing waits for it.
  bool database_settled() const { return database_settled_; }
  void wait_database();  // blocks until a pending database has landed, then opens it
  // A failure inside the session (inspector details unreadable, an index failed), and a caveat
  // about the whole document (the allocator trace overflowed).
  const std::string& error() const { return error_; }
  const std::string& warning() const { return warning_; }
  void clear_error() { error_.clear(); }

  // The chart being shown.
  ChartSettings settings;
  ViewTransform view;
  const DeviceDocument* device() const;
  const Timeline* timeline() const;
  void select_device(int device);  // restarts the device's allocator history
  void select_kind(TimelineKind kind);
  // Bounds = the timeline's extent (up to at least `at_least_bytes`: a compared run's peak), view =
  // all of it.
  void fit_view(uint64_t at_least_bytes = 0);
  // Puts settings.time_axis into the view: time_warp() of the shown timeline, or none. poll()
  // calls it; true when the view's axis changed.
  bool sync_time_axis();
  // The wall-clock warp of one of the shown device's timelines (blocks or segments), built on
  // first use and shared: the chart's axis and the minimap use the same one (12 B per action).
  std::shared_ptr<const TimeWarp> time_warp(const Timeline& timeline);

  // Selection and hover (element indices in the current timeline).
  std::optional<uint32_t> hovered;
  const std::optional<uint32_t>& selected() const { return selected_; }
  void select(std::optional<uint32_t> elem);  // fills details() from elements.db
  const std::optional<AllocationDetails>& details() const { return details_; }
  std::optional<uint32_t> find_by_address(uint64_t address) const;
  // Elements of the shown timeline whose allocation event's user_metadata or compile_context
  // contains `text` (elements.db; blocks timeline only, else none), in allocation order.
  std::vector<uint32_t> elements_with_metadata(std::string_view text) const;
  // Frames the selection's whole lifetime in both axes (y fitting is switched off).
  void zoom_to_selection();
  // Where `elem` was allocated (innermost user frame), for the hover tooltip; cached per element.
  const std::string& location_of(uint32_t elem);

  // The time cursor every analysis follows (a state of timeline()), and element highlights.
  TimeCursor cursor;
  // The cursor to the chart's peak: the private pools view's when it is shown.
  void cursor_to_peak();
  // Where a newly shown file or device puts the cursor: its peak, or nowhere (settings).
  void place_opening_cursor();
  ElementHighlights highlights;

  // Allocation sites of the current timeline, computed on first use (one elements.db pass).
  const SiteColoring& site_coloring();
  // The wrapper-library list changed: what was grouped by location is stale.
  void forget_locations();

  // Categories of the shown timeline: null until they are classified (stacks and annotations
  // are read first). The findings add OOM forensics once the allocator history is built.
  const SessionCategories* categories() const;
  // The same, shared: for a worker that must keep them alive while new rules replace them.
  std::shared_ptr<const SessionCategories> categories_handle() const;
  const std::vector<Finding>& findings() const { return findings_; }
  std::string category_reason(uint32_t elem) const;  // "" until categories() is ready
  // User rules (docs/RULES.md) tried before the built-in evidence; reclassifies.
  void set_category_rules(std::optional<CategoryRules> rules);
  const std::optional<CategoryRules>& category_rules() const { return rules_; }
  // Puts the cursor (and the selection) where a finding points.
  void activate(const Finding& finding);

  // --- Background work ---------------------------------------------------------------------
  // Takes finished background results; call once per frame on the thread that reads the
  // session. True when something new arrived.
  bool poll();
  // Every started task has finished and been taken, and the phase table and cursor analysis
  // for the current settings are the ones shown: what headless screenshots wait for.
  bool settled() const;
  void wait_settled();
  bool background_busy() const;  // some task is running
  bool result_waiting() const;   // a finished result waits for poll()

  // The snapshot's allocator_settings in words (core/allocator/allocator_settings.h), read from
  // elements.db on first use: null while the database is written or unreadable.
  const std::vector<AllocatorSetting>* allocator_settings();

  // The stack catalog (every stack and frame of elements.db): null while it loads or if it failed.
  const std::shared_ptr<const StackCatalog>& stack_catalog() const { return catalog_.get(); }
  bool stack_catalog_loading() const { return catalog_.running(); }
  // external_annotations records: null while they are read (empty when the trace has none).
  const std::vector<AnnotationRecord>* annotations() const { return annotations_.get().get(); }
  // The current device's allocator state history: null while it is built or if it failed.
  AllocatorHistory* allocator_history() const { return history_.get().get(); }
  const std::string& allocator_history_error() const { return history_.error(); }
  void wait_allocator_history();  // the database first, if it is still being written
  // The allocator right after raw event `event` of the shown device (-1: before the first),
  // from its history: requests it, and answers the newest built from the current history (an
  // older event's until the new one lands), or null (session_allocator.cpp).
  const SessionAllocatorState* allocator_state(int64_t event);
  // Waits for the history and the state at `event` (scripts); null if the history failed.
  const SessionAllocatorState* allocator_state_now(int64_t event);
  // The shown device's reserved memory and fragmentation per chart column (the strip under the
  // chart): null without a device.
  const UsageCurve* usage_curve();
  // The shown device's private pools view (from elements.db): null while it is built, if it
  // failed, or when the device has no private pool. pools_shown(): settings ask for it, the
  // blocks timeline is shown, and it is there.
  const SessionPools* private_pools() const;
  bool private_pools_loading() const { return pools_.running(); }
  const std::string& private_pools_error() const { return pools_.error(); }
  const SessionPools* pools_shown() const;
  // Switches the private pools view on (on the blocks timeline) or off, and refits the view to
  // the chart's new peak.
  void show_private_pools(bool shown);
  void wait_private_pools();  // the database first, if it is still being written
  // The shown device's annotate events (torch.cuda.memory._annotate_memory), for the chart's
  // note markers: null while they are read or if that failed.
  const std::vector<AnnotateEventRow>* memory_notes() const { return notes_.get().get(); }

  // The phase table of the shown timeline for `filter`: requests it, and answers the newest
  // one built for this timeline (an older filter's until the new one lands), or null.
  const PhaseTable* phase_table(const std::string& filter);
  bool phase_table_current(const std::string& filter) const;
  // How many depth levels that table's rows take (phase_depth_levels; 0 while the annotations
  // are read): known before the table is built, so the lanes above the chart take their room
  // in the first frame and the chart is not drawn again at another height when the table lands.
  uint32_t phase_depth_levels(const std::string& filter);

  // Live memory at the cursor by nn.Module call (the Modules tab), over the shown device's blocks
  // timeline (a segments cursor is mapped through its event). Requests it, and answers the newest
  // one built for this device (an older cursor's until the new one lands), or null. The module
  // placement of every allocation is built once per device, after the stack catalog.
  const SessionModuleTree* module_tree();
  bool module_tree_current() const;  // the answer is the cursor's, or none can come
  // Waits for the cursor's tree (scripts); null without a cursor or if it cannot be built.
  const SessionModuleTree* module_tree_now();
  const std::string& module_tree_error() const { return module_tree_error_; }

  // The cursor's analysis (call trees, moment table) under `options`: request() computes it in
  // the background; analysis() is the newest taken, whatever it was computed for;
  // analysis_now() computes synchronously when the newest does not match (headless scripts).
  void request_analysis(const AnalysisOptions& options);
  const std::shared_ptr<const CursorAnalysis>& analysis() const { return analysis_; }
  uint64_t analysis_generation() const { return analysis_generation_; }
  std::shared_ptr<const CursorAnalysis> analysis_now(const AnalysisOptions& options);
  bool analysis_matches(const CursorAnalysis& analysis, const AnalysisOptions& options) const;

  // Exports (core/export) of the shown device as the panels show it (session_export.cpp): the
  // moment is the cursor (or the peak), an svg is the chart as shown, categories are the
  // viewer's. start_export() writes on a background result (one at a time) and poll() takes
  // its outcome into export_message(); run_export() writes at once (scripts) and throws.
  ExportRequest export_request(ExportFormat format) const;
  void start_export(ExportFormat format, const std::string& path);
  void run_export(ExportFormat format, const std::string& path);
  bool export_running() const { return export_.running(); }
  // "exporting ... to ...", "exported FORMAT to PATH" or the error; empty before any export.
  const std::string& export_message() const { return export_message_; }
  void set_export_message(std::string message) { export_message_ = std::move(message); }

 private:
  struct PhaseKey {
    const Timeline* timeline = nullptr;
    int device = -1;
    std::string filter;
    bool operator==(const PhaseKey&) const = default;
  };
  const PendingDatabase* pending_database() const;  // the document's, null when there is none
  void open_database();
  bool poll_database();          // true when a pending database landed (or failed) just now
  bool database_landed() const;  // it did, and poll() has not opened it yet
  bool take_early_indexes();     // true when the converter's catalog and warning arrived just now
  void start_indexes();
  void start_allocator_history();
  void start_private_pools();
  void start_categories();
  void rebuild_findings();
  void cancel_background();
  std::optional<AnalysisRequest> analysis_request(const AnalysisOptions& options) const;
  void start_allocator_state();
  void forget_allocator_state();         // the history it came from is gone or replaced
  bool allocator_state_pending() const;  // wanted, not shown, and the history can still give it
  void forget_view_state();
  struct ModuleTreeKey {
    const Timeline* blocks = nullptr;
    size_t state = 0;
    bool operator==(const ModuleTreeKey&) const = default;
  };
  std::optional<ModuleTreeKey> module_tree_key() const;  // the cursor's, on the device's blocks
  void start_module_tree();                              // whatever the wanted tree waits for next
  void start_module_index(const Timeline& blocks);
  bool module_tree_pending() const;  // wanted, not shown, and it can still come
  std::function<std::string()> export_work(ExportFormat format, const std::string& path) const;
  void register_background();  // every BackgroundResult below, once, in poll()'s order

  std::unique_ptr<Document> document_;
  std::unique_ptr<ElementsDbReader> elements_db_;
  std::optional<std::vector<AllocatorSetting>> allocator_settings_;
  bool database_settled_ = false;     // see database_settled()
  bool catalog_from_memory_ = false;  // the converter's catalog (take_early_indexes), kept
  int database_generation_ = 0;
  std::function<void()> ready_;
  std::string error_;
  std::string warning_;
  std::optional<uint32_t> selected_;
  std::optional<AllocationDetails> details_;
  std::optional<std::pair<uint32_t, std::string>> location_;  // location_of's cache
  std::optional<SiteColoring> site_coloring_;
  // time_warp()'s: one device's two timelines at most, the older replaced first.
  std::array<std::pair<const Timeline*, std::shared_ptr<const TimeWarp>>, 2> time_warps_;

  BackgroundResult<const StackCatalog> catalog_;
  BackgroundResult<const std::vector<AnnotationRecord>> annotations_;
  BackgroundResult<AllocatorHistory> history_;
  BackgroundResult<const SessionPools> pools_;
  BackgroundResult<const std::vector<AnnotateEventRow>> notes_;
  BackgroundResult<const PhaseTable> phase_build_;
  BackgroundResult<const SessionCategories> categories_;
  BackgroundResult<const SessionModules> module_index_;
  BackgroundResult<const SessionModuleTree> module_tree_build_;
  BackgroundResult<const SessionAllocatorState> allocator_state_build_;
  BackgroundResult<const std::string> export_;  // its message; the file is the work
  std::string export_message_;
  // The results above, each registered once with what landing means (register_background).
  // The analysis worker is not one of them: it is a long-lived thread that coalesces requests
  // (each cursor move supersedes the last unstarted one) rather than a one-shot result, so
  // poll(), background_busy() and cancel_background() ask it by name; the chart's LodWorker
  // (core/lod) likewise, and it belongs to the chart layer that streams its frames.
  BackgroundRegistry background_;
  const Timeline* categories_key_ = nullptr;  // the timeline categories_ was started for
  std::optional<CategoryRules> rules_;
  std::vector<Finding> findings_;
  PhaseKey phase_building_key_;
  std::shared_ptr<const PhaseTable> phase_table_;
  std::optional<PhaseKey> phase_shown_key_;
  std::optional<PhaseKey> phase_wanted_key_;
  struct PhaseLevels {
    PhaseKey key;
    std::shared_ptr<const std::vector<AnnotationRecord>> annotations;  // held: compared by address
    uint32_t levels = 0;
  };
  std::optional<PhaseLevels> phase_levels_;                         // phase_depth_levels()' answer
  std::optional<std::pair<const Timeline*, bool>> timed_timeline_;  // has_action_times()' answer
  const Timeline* module_index_key_ = nullptr;  // the blocks module_index_ was started for
  std::optional<ModuleTreeKey> module_tree_wanted_, module_tree_building_, module_tree_shown_;
  std::shared_ptr<const SessionModuleTree> module_tree_;
  std::string module_tree_error_;
  // allocator_state(): the event asked for, the one being built, the last one built (or failed)
  // from the current history.
  std::optional<int64_t> allocator_state_wanted_, allocator_state_building_, allocator_state_done_;
  std::shared_ptr<const SessionAllocatorState> allocator_state_;  // the newest from the current history
  std::unique_ptr<UsageCurve> usage_curve_;                       // usage_curve()'s, for usage_device_
  const DeviceDocument* usage_device_ = nullptr;
  AnalysisWorker analysis_worker_;
  std::optional<AnalysisRequest> analysis_requested_;
  std::shared_ptr<const CursorAnalysis> analysis_;
  uint64_t analysis_generation_ = 0;
};

}  // namespace snapscope
