// Removes the converter's staging directory, and the temporary of any OutputFile being written
// (core/util/output_cleanup), when the process is interrupted (SIGINT, SIGTERM, SIGHUP), so
// Ctrl-C leaves no partial output either. Only async-signal-safe calls
// are used: the directory holds a fixed set of files, so unlink + rmdir is enough. The process
// then prints one line ("<program>: interrupted by SIGTERM; nothing written") and dies of the
// signal. SIGXFSZ (a file-size limit) is ignored, so hitting it is a write error like a full disk.
#pragma once

#include <filesystem>

namespace snapscope::signal_cleanup {

void install(const char* program);  // installs the handlers once; call from main()
void watch(const std::filesystem::path& staging_dir);
void unwatch();

}  // namespace snapscope::signal_cleanup
