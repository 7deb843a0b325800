// A library of rows whose family is named like a built-in one: `hcemu --load` refuses it, naming the file.
#include "hcemu/plugin.hpp"

namespace {

hcemu::KernelFamily another_exchange() {
  hcemu::Algorithm row;
  row.name = "mine";
  row.run = [](const hcemu::MachineConfig& config, const hcemu::EmulatorSettings& settings, const hcemu::KernelCase&) {
    return hcemu::run_verified(config, settings, [](hcemu::Node&, const hcemu::FailFn&) {});
  };
  hcemu::KernelFamily family;
  family.name = "exchange";
  family.algorithms = {row};
  return family;
}

}  // namespace

HCEMU_REGISTER_FAMILY(another_exchange());
HCEMU_PLUGIN();
