#include "core/sql/example_queries.h"

#include <array>

namespace snapscope {
namespace {

constexpr std::array<ExampleQuery, 6> kExamples = {{
    {"Largest allocations",
     "SELECT device, elem, printf('0x%x', addr) AS addr, size, requested_size, alloc_event, free_event\n"
     "FROM allocation_view ORDER BY size DESC LIMIT 100"},
    {"Bytes by file (first Python frame)",
     "WITH first_py AS (\n"
     "  SELECT s.stack_id, min(s.depth) AS depth FROM stacks s\n"
     "  JOIN frames f ON f.id = s.frame_id JOIN strings fs ON fs.id = f.filename\n"
     "  WHERE fs.text LIKE '%.py' GROUP BY s.stack_id)\n"
     "SELECT fs.text AS file, count(*) AS allocations, sum(a.size) AS bytes\n"
     "FROM allocations a JOIN first_py p ON p.stack_id = a.stack_id\n"
     "JOIN stacks s ON s.stack_id = p.stack_id AND s.depth = p.depth\n"
     "JOIN frames f ON f.id = s.frame_id JOIN strings fs ON fs.id = f.filename\n"
     "GROUP BY file ORDER BY bytes DESC"},
    {"Allocations alive at the end",
     "SELECT device, elem, printf('0x%x', addr) AS addr, size, alloc_event, o.name AS origin\n"
     "FROM allocations a JOIN origin_names o ON o.origin = a.origin\n"
     "WHERE free_event IS NULL ORDER BY size DESC"},
    {"Events by action",
     "SELECT e.id >> 40 AS device, n.name AS action, count(*) AS events, sum(e.size) AS bytes\n"
     "FROM events e JOIN action_names n ON n.action = e.action GROUP BY 1, e.action"},
    {"Out-of-memory events",
     "SELECT id >> 40 AS device, id & 1099511627775 AS event, size AS requested, addr AS device_free\n"
     "FROM events WHERE action = 8"},
    {"Segments by size",
     "SELECT id, device, printf('0x%x', address) AS address, total_size, allocated_size, stream, "
     "is_expandable\nFROM segments ORDER BY total_size DESC"},
}};

}  // namespace

std::span<const ExampleQuery> example_queries() { return kExamples; }

}  // namespace snapscope
