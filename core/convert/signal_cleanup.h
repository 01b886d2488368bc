// Removes the converter's staging directory when the process is interrupted (SIGINT,
// SIGTERM, SIGHUP), so Ctrl-C leaves no partial output either. Only async-signal-safe calls
// are used: the directory holds a fixed set of files, so unlink + rmdir is enough.
#pragma once

#include <filesystem>

namespace snapscope::signal_cleanup {

void install();  // installs the handlers once; call from main()
void watch(const std::filesystem::path& staging_dir);
void unwatch();

}  // namespace snapscope::signal_cleanup
