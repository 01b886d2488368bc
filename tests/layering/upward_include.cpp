// Not part of any build: the layering test compiles it as a core/analysis source and expects the
// compiler to refuse its upward include of core/document (core/CMakeLists.txt's include roots).
#include "core/analysis/call_tree.h"
#include "core/document/document.h"
