// A JSON value behind a pointer, copied deeply: Snapshot holds its allocator_settings in one so
// that model.h needs only nlohmann/json_fwd.hpp, and the ~180 files that include it (and no JSON)
// do not each parse all of nlohmann/json.hpp (about 5 CPU-minutes of a gcc build).
#pragma once

#include <memory>

#include <nlohmann/json_fwd.hpp>

namespace snapscope {

class BoxedJson {
 public:
  BoxedJson();  // null
  BoxedJson(nlohmann::json value);
  BoxedJson(const BoxedJson& other);
  BoxedJson(BoxedJson&& other) noexcept;
  BoxedJson& operator=(const BoxedJson& other);
  BoxedJson& operator=(BoxedJson&& other) noexcept;
  ~BoxedJson();

  const nlohmann::json& operator*() const { return *value_; }
  nlohmann::json& operator*() { return *value_; }
  const nlohmann::json* operator->() const { return value_.get(); }
  nlohmann::json* operator->() { return value_.get(); }

 private:
  std::unique_ptr<nlohmann::json> value_;  // null only when moved from: then only assigned or destroyed
};

}  // namespace snapscope
