// Bulk background work (indexing a whole trace for a panel) runs at a lower CPU priority, so on
// a machine with few cores it takes what the UI thread, the chart worker and the software
// rasteriser leave, instead of stretching every frame while it runs.
#pragma once

namespace snapscope {

void lower_thread_priority();  // the calling thread only; a no-op where unsupported

}  // namespace snapscope
