// Ready-made queries the SQL console offers (elements.db schema: docs/FORMAT.md).
#pragma once

#include <span>

namespace snapscope {

struct ExampleQuery {
  const char* title;
  const char* sql;
};

std::span<const ExampleQuery> example_queries();

}  // namespace snapscope
