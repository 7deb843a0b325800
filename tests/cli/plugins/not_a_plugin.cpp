// A shared library that is no library of rows: it has no hcemu_plugin_abi_v1 (HCEMU_PLUGIN()).
extern "C" __attribute__((visibility("default"))) int some_function() { return 1; }
