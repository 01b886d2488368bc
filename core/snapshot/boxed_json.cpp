#include "core/snapshot/boxed_json.h"

#include <nlohmann/json.hpp>

namespace snapscope {

BoxedJson::BoxedJson() : value_(std::make_unique<nlohmann::json>()) {}
BoxedJson::BoxedJson(nlohmann::json value) : value_(std::make_unique<nlohmann::json>(std::move(value))) {}
BoxedJson::BoxedJson(const BoxedJson& other)
    : value_(other.value_ ? std::make_unique<nlohmann::json>(*other.value_)
                          : std::make_unique<nlohmann::json>()) {}
BoxedJson::BoxedJson(BoxedJson&& other) noexcept = default;
BoxedJson& BoxedJson::operator=(const BoxedJson& other) {
  if (this != &other) *this = BoxedJson(other);
  return *this;
}
BoxedJson& BoxedJson::operator=(BoxedJson&& other) noexcept = default;
BoxedJson::~BoxedJson() = default;

}  // namespace snapscope
