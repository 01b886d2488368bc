// What a panel that needs elements.db shows while the conversion is still writing it (the
// chart of a fresh pickle comes first).
#pragma once

namespace snapscope {

class Session;

// A short disabled note, wrapped to the panel, with the seconds waited since the chart came;
// nothing once the database is there.
void draw_database_wait(const Session& session);

}  // namespace snapscope
