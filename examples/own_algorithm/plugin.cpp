// The same rows as a library for the installed command, without a program of one's own:
//   hcemu --load ./liballreduce_rows.so run allreduce --algo all -d 5
// This line lets `hcemu --load` check that the library was built against its own version.
#include "hcemu/plugin.hpp"

HCEMU_PLUGIN();
