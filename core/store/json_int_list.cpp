#include "core/store/json_int_list.h"

#include "core/store/json_integer.h"

#include <algorithm>
#include <atomic>
#include <limits>
#include <thread>

namespace snapscope {
namespace {

bool is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

class IntListParser {
 public:
  IntListParser(std::string_view body, std::vector<int64_t>& out, int64_t null_value)
      : at_(body.data()), end_(body.data() + body.size()), out_(out), null_value_(null_value) {}

  bool run() {
    skip_space();
    if (at_ == end_) return true;  // []
    while (true) {
      if (!value()) return false;
      skip_space();
      if (at_ == end_) return true;
      if (*at_++ != ',') return false;
      skip_space();
    }
  }

 private:
  void skip_space() {
    while (at_ != end_ && is_space(*at_)) ++at_;
  }

  bool value() {
    if (at_ == end_) return false;
    if (*at_ != 'n') return number();
    if (end_ - at_ < 4 || std::string_view(at_, 4) != "null") return false;
    at_ += 4;
    out_.push_back(null_value_);
    return true;
  }

  bool number() {
    const std::optional<JsonInteger> number = scan_json_integer(at_, end_);
    if (number) out_.push_back(number->value);
    return number.has_value();
  }

  const char* at_;
  const char* end_;
  std::vector<int64_t>& out_;
  int64_t null_value_;
};

// Longest first onto the least loaded worker: close to even for a handful of big columns.
std::vector<std::vector<const IntListJob*>> share_out(std::span<const IntListJob> jobs, size_t workers) {
  std::vector<const IntListJob*> order;
  for (const IntListJob& job : jobs) order.push_back(&job);
  std::sort(order.begin(), order.end(),
            [](const IntListJob* a, const IntListJob* b) { return a->body.size() > b->body.size(); });
  std::vector<std::vector<const IntListJob*>> shares(workers);
  std::vector<size_t> load(workers, 0);
  for (const IntListJob* job : order) {
    const size_t lightest = static_cast<size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    shares[lightest].push_back(job);
    load[lightest] += job->body.size();
  }
  return shares;
}

}  // namespace

bool parse_json_int_list(std::string_view body, std::vector<int64_t>& out, int64_t null_value) {
  return IntListParser(body, out, null_value).run();
}

bool parse_json_int_lists(std::span<const IntListJob> jobs, int64_t null_value) {
  const size_t workers = std::clamp<size_t>(std::thread::hardware_concurrency(), 1, 8);
  const auto shares = share_out(jobs, std::min(workers, std::max<size_t>(jobs.size(), 1)));
  std::atomic<bool> ok = true;
  const auto run_share = [&](const std::vector<const IntListJob*>& share) {
    try {
      for (const IntListJob* job : share) {
        if (!ok || !parse_json_int_list(job->body, *job->out, null_value)) {
          ok = false;
          return;
        }
      }
    } catch (...) {  // out of memory: decline; the caller's full parser meets it on its own thread
      ok = false;
    }
  };
  std::vector<std::jthread> threads;  // joined on the way out, exceptions included
  for (size_t i = 1; i < shares.size(); ++i) threads.emplace_back(run_share, std::cref(shares[i]));
  run_share(shares[0]);
  threads.clear();
  return ok;
}

}  // namespace snapscope
