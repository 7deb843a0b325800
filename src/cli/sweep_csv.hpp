#pragma once
// `hcemu sweep --csv FILE`: one record per point, every column a script needs (docs/cli.md lists them), quoted by
// RFC 4180 (csv_writer.hpp).
#include <string>
#include <vector>

#include "cli/sweep_points.hpp"

namespace hcemu::cli {

// Writes the file through OutputFile (a temporary renamed into place); under mpirun only the first rank writes.
void write_sweep_csv(const std::string& path, const harness::KernelFamily& kernel, const MachineConfig& config,
                     const EmulatorSettings& settings, const std::vector<SweepPoint>& points);

}  // namespace hcemu::cli
