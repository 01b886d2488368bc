#include "core/session/session.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <thread>

#include "core/allocator/db_event_source.h"
#include "core/allocator/private_pool_input.h"
#include "core/analysis/db_annotations.h"
#include "core/analysis/trace_overflow.h"

namespace snapscope {

Session::Session() { register_background(); }

Session::Session(std::unique_ptr<Document> document, std::function<void()> ready)
    : document_(std::move(document)), ready_(std::move(ready)) {
  register_background();
  analysis_worker_.set_ready_callback(ready_);
  if (!document_->devices.empty()) settings.device = document_->devices.front().device;
  fit_view();
  place_opening_cursor();
  // Read with the timelines (from elements.db, or the snapshot being converted): the phases'
  // lanes need not wait for the database.
  if (document_->annotations) annotations_.set(document_->annotations);
  if (PendingDatabase* pending = document_->pending_database.get()) {
    pending->on_done(ready_);  // wakes the viewer; poll() opens it then
    poll_database();
  } else {
    open_database();
  }
}

void Session::open_database() {
  database_settled_ = true;
  const std::string warning_before = warning_;
  try {
    elements_db_ = std::make_unique<ElementsDbReader>(document_->elements_db().string());
    warning_ = trace_overflow_warning_in_db(document_->elements_db().string()).value_or("");
  } catch (const std::exception& failure) {
    error_ = std::string("details unavailable: ") + failure.what();
  }
  if (warning_ != warning_before) categories_key_ = nullptr;  // findings quote it: poll() redoes them
  start_indexes();
}

// A cold open's converter offers the stack catalog from memory while it still writes the
// database: categories, findings and the cursor's analysis start from it at once.
bool Session::take_early_indexes() {
  PendingDatabase* pending = document_ ? document_->pending_database.get() : nullptr;
  if (pending == nullptr || catalog_.get() || catalog_.running()) return false;
  std::optional<PendingDatabase::EarlyIndexes> early = pending->take_early_indexes();
  if (!early || !early->catalog) return false;
  catalog_.set(std::move(early->catalog));
  catalog_from_memory_ = true;
  warning_ = early->overflow_warning.value_or("");
  start_module_tree();  // one asked for before the catalog
  return true;
}

const PendingDatabase* Session::pending_database() const {
  return document_ ? document_->pending_database.get() : nullptr;
}

bool Session::poll_database() {
  const PendingDatabase* pending = pending_database();
  if (database_settled_ || pending == nullptr) return false;
  switch (pending->state()) {
    case PendingDatabase::State::Writing:
      return take_early_indexes();
    case PendingDatabase::State::Failed:
      database_settled_ = true;
      error_ = "details unavailable: " + pending->error();
      return true;
    case PendingDatabase::State::Ready:
      open_database();
      forget_locations();  // asked for (and found empty) before the database existed
      if (selected_) select(selected_);
      ++database_generation_;
      return true;
  }
  return false;
}

void Session::wait_database() {
  const PendingDatabase* pending = pending_database();
  if (pending == nullptr) return;
  pending->wait();
  poll_database();
}

void Session::wait_allocator_history() {
  wait_database();
  history_.wait();
}

void Session::wait_private_pools() {
  wait_database();
  pools_.wait();
}

const SessionPools* Session::private_pools() const {
  const SessionPools* pools = pools_.get().get();
  return pools && pools->layout ? pools : nullptr;
}

const SessionPools* Session::pools_shown() const {
  return settings.private_pools && settings.kind == TimelineKind::Blocks ? private_pools() : nullptr;
}

bool Session::database_landed() const {
  const PendingDatabase* pending = pending_database();
  return !database_settled_ && pending != nullptr && !pending->writing();
}

bool Session::database_writing() const {
  const PendingDatabase* pending = pending_database();
  return pending != nullptr && pending->writing();
}

Session::~Session() { cancel_background(); }

std::unique_ptr<Session> Session::open(const std::string& path, std::function<void()> ready) {
  LoadProgress progress;
  return std::make_unique<Session>(open_document(path, progress), std::move(ready));
}

// The order of poll(): the catalog and annotations first (categories and phases read them), the
// export last (it may write what the others built).
void Session::register_background() {
  background_.add(catalog_, [this] { start_module_tree(); });  // a tree asked for before the stacks
  background_.add(annotations_, [this] {
    if (phase_wanted_key_) phase_table(phase_wanted_key_->filter);  // it waited for them
  });
  background_.add(history_, [this] {
    rebuild_findings();  // OOM forensics need the history
    forget_allocator_state();
    start_allocator_state();  // asked for before the history was there
  });
  background_.add(notes_);
  background_.add(pools_, [this] {
    if (pools_shown()) fit_view(settings.y_fit.at_least);  // asked for before the pools were known
  });
  background_.add(categories_, [this] { rebuild_findings(); });
  background_.add(phase_build_, [this] {
    // A failed build shows the previous table rather than waiting for one forever.
    if (phase_build_.get()) phase_table_ = phase_build_.get();
    phase_shown_key_ = phase_building_key_;
  });
  background_.add(module_index_, [this] { start_module_tree(); });
  background_.add(module_tree_build_, [this] {
    // A failed build shows the previous tree rather than waiting for one forever.
    if (module_tree_build_.get()) module_tree_ = module_tree_build_.get();
    module_tree_error_ = module_tree_build_.get() ? "" : "modules: " + module_tree_build_.error();
    module_tree_shown_ = module_tree_building_;
    start_module_tree();  // the cursor moved on while it was built
  });
  background_.add(allocator_state_build_, [this] {
    if (allocator_state_build_.get()) allocator_state_ = allocator_state_build_.get();
    if (!allocator_state_build_.error().empty())
      error_ = "allocator state: " + allocator_state_build_.error();
    allocator_state_done_ = allocator_state_building_;
    start_allocator_state();  // the cursor moved on while it was built
  });
  background_.add(export_, [this] { export_message_ = export_.get() ? *export_.get() : export_.error(); });
}

void Session::cancel_background() {
  export_.wait();  // a file being written is finished, not dropped half-way
  analysis_worker_.wait_idle();
  background_.cancel_all();
}

void Session::start_indexes() {
  const std::string db = document_->elements_db().string();
  take_early_indexes();  // offered after the last poll
  if (catalog_from_memory_) {
    start_module_tree();  // one that waited for the database
  } else {
    catalog_.start([db](const std::atomic<bool>&) { return catalog_from_elements_db(db); }, ready_);
  }
  if (!document_->annotations)  // else the constructor took the load's
    annotations_.start([db](const std::atomic<bool>&) { return read_db_annotations_or_none(db); }, ready_);
  start_allocator_history();
}

void Session::start_allocator_history() {
  const DeviceDocument* shown = device();
  if (!database_settled_) return;  // open_database() starts it
  forget_allocator_state();
  if (shown == nullptr) {
    history_.cancel();
    return;
  }
  // A cold open's conversion built the first device's history while the events were in memory.
  std::shared_ptr<AllocatorHistory> built =
      document_->pending_database ? document_->pending_database->take_history(shown->device) : nullptr;
  history_.start(
      [db = document_->elements_db().string(), index = shown->device,
       built = std::move(built)](const std::atomic<bool>& cancelled) -> std::shared_ptr<AllocatorHistory> {
        if (built && built->replace_events(std::make_unique<DbEventSource>(db, index))) return built;
        return allocator_history_from_db(db, index, &cancelled);
      },
      ready_);
  start_private_pools();
}

// The private pools view and the note markers: the device's, from elements.db.
void Session::start_private_pools() {
  const DeviceDocument* shown = device();
  if (shown == nullptr) {
    pools_.cancel();
    notes_.cancel();
    return;
  }
  notes_.start(
      [db = document_->elements_db().string(), index = shown->device](const std::atomic<bool>&) {
        return std::make_shared<const std::vector<AnnotateEventRow>>(
            ElementsDbReader(db).annotate_events(index));
      },
      ready_);
  pools_.start(
      [db = document_->elements_db().string(), &blocks = shown->blocks](const std::atomic<bool>&) {
        auto pools = std::make_shared<SessionPools>();
        PrivatePoolInput input = private_pool_input_from_db(db, blocks);
        if (input.pools.empty()) return std::shared_ptr<const SessionPools>(pools);
        auto layout = std::make_shared<const PrivatePoolLayout>(blocks, std::move(input));
        pools->pyramid = std::make_shared<const MemoryPyramid>(blocks, layout->state_totals());
        pools->layout = std::move(layout);
        return std::shared_ptr<const SessionPools>(pools);
      },
      ready_);
}

bool Session::poll() {
  bool arrived = sync_time_axis();
  if (poll_database()) arrived = true;
  if (background_.poll()) arrived = true;
  // Categories follow the stack catalog and annotations (and the timeline shown).
  if (catalog_.get() && annotations_.get() && timeline() && categories_key_ != timeline()) start_categories();
  if (auto result = analysis_worker_.take_result()) {
    analysis_ = std::move(result);
    ++analysis_generation_;
    arrived = true;
  }
  return arrived;
}

bool Session::background_busy() const {
  return database_writing() || background_.running() || analysis_worker_.busy();
}

bool Session::result_waiting() const {
  return database_landed() || background_.finished() || analysis_worker_.has_result();
}

bool Session::settled() const {
  if (background_busy() || analysis_worker_.has_result() || database_landed()) return false;
  // Categories follow the stack catalog and annotations: the next poll() starts them.
  if (catalog_.get() && annotations_.get() && timeline() && categories_key_ != timeline()) return false;
  if (module_tree_pending() || allocator_state_pending()) return false;
  // A wanted phase table not built yet (its request comes from the next drawn frame).
  return !phase_wanted_key_ || phase_shown_key_ == phase_wanted_key_ || timeline() == nullptr;
}

void Session::wait_settled() {
  for (;;) {
    poll();
    if (settled()) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

}  // namespace snapscope
