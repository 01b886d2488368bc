// Removes the converters' staging directories, and the temporary of any OutputFile being written
// (core/util/output_cleanup), when the process is interrupted (SIGINT, SIGTERM, SIGHUP), so
// Ctrl-C leaves no partial output either. Only async-signal-safe calls
// are used: the directory holds a fixed set of files, so unlink + rmdir is enough. The process
// then prints one line ("<program>: interrupted by SIGTERM; nothing written") and dies of the
// signal. SIGXFSZ (a file-size limit) is ignored, so hitting it is a write error like a full disk.
#pragma once

#include <filesystem>

namespace snapscope::signal_cleanup {

void install(const char* program);  // installs the handlers once; call from main()
// A slot for unwatch(), or -1 when every slot is taken (that directory is then left behind).
// Several conversions may be watched at once, from any threads.
int watch(const std::filesystem::path& staging_dir);
void unwatch(int slot);  // -1 does nothing

}  // namespace snapscope::signal_cleanup
