#pragma once
// A shared library of one's own algorithms for `hcemu --load FILE.so` (docs/your_algorithm.md), so that the installed
// `hcemu` runs them without a program of one's own. Its sources register rows with HCEMU_REGISTER_FAMILY and
// HCEMU_REGISTER_ALGORITHM (hcemu/algorithm.hpp), as a program's would, and exactly one of them says
//
//   HCEMU_PLUGIN();
//
// so that the command can check that the library was built against its own version: the rows' layout is not kept
// from one version to the next. CMake: link the library (add_library(NAME MODULE ...)) with hcemu::plugin, which
// gives the headers and nothing to link: the library takes hcemu's functions from the command that loads it.
#include "hcemu/algorithm.hpp"
#include "hcemu/version.hpp"

// What a library of rows and the command that loads it must agree on: hcemu's version, and the C++ ABI of the
// compiler (the rows hold std::string and std::function).
#define HCEMU_DETAIL_STRINGIFY_INNER(x) #x
#define HCEMU_DETAIL_STRINGIFY(x) HCEMU_DETAIL_STRINGIFY_INNER(x)
#if defined(__GXX_ABI_VERSION)
#define HCEMU_PLUGIN_ABI "hcemu " HCEMU_VERSION_STRING " (C++ ABI " HCEMU_DETAIL_STRINGIFY(__GXX_ABI_VERSION) ")"
#else
#define HCEMU_PLUGIN_ABI "hcemu " HCEMU_VERSION_STRING
#endif

// The symbol `hcemu --load` looks for, and what it answers: the version the library was built against.
#define HCEMU_PLUGIN()                                                                                     \
  extern "C" __attribute__((visibility("default"))) const char* hcemu_plugin_abi_v1() { return HCEMU_PLUGIN_ABI; } \
  static_assert(true, "HCEMU_PLUGIN() takes a semicolon")
