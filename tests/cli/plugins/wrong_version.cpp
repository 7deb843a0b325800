// A library of rows that says it was built against another hcemu: `hcemu --load` must refuse it, and register none
// of its rows.
#include "hcemu/algorithm.hpp"

namespace {

hcemu::KernelFamily never_registered() {
  hcemu::Algorithm row;
  row.name = "never";
  row.run = [](const hcemu::MachineConfig& config, const hcemu::EmulatorSettings& settings, const hcemu::KernelCase&) {
    return hcemu::run_verified(config, settings, [](hcemu::Node&, const hcemu::FailFn&) {});
  };
  hcemu::KernelFamily family;
  family.name = "never-registered";
  family.algorithms = {row};
  return family;
}

}  // namespace

HCEMU_REGISTER_FAMILY(never_registered());

extern "C" __attribute__((visibility("default"))) const char* hcemu_plugin_abi_v1() { return "hcemu 0.0.0-other"; }
