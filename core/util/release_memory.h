// Gives freed heap memory back to the operating system. glibc keeps memory freed by many
// small allocations (the unpickler's containers) in its arenas, where it still counts as
// resident; the converter calls this between stages so that the peaks of stages do not add up.
#pragma once

namespace snapscope {

void release_free_memory();  // a no-op where the C library has no way to do it

}  // namespace snapscope
