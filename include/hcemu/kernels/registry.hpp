#pragma once
// The kernels by name, as the `hcemu` command and the test harness see them: each kernel says which algorithms it
// has, runs one case on a machine with random data, verifies the result against a sequential reference, and gives
// the closed-form prediction of its time.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "hcemu/config.hpp"
#include "hcemu/model/sync.hpp"
#include "hcemu/report.hpp"

namespace hcemu::kernels {

struct KernelCase {
  std::string algo;             // one of KernelInfo::algos
  std::vector<int> partition;   // multiphase exchange: parts, first part spans the highest bits
  std::size_t m = 64;           // bytes per block (exchange, transpose), per message (broadcast), bins (histogram)
  Sync sync = Sync::none;
  int root = 0;                 // broadcast root
  std::uint64_t seed = 1;       // random data
  // The pipelining granularity of the algorithms that have one: BROADCAST 4's number of groups g (Stout & Wagar
  // 1990 §2), nESBT's chunk size in bytes (Johnsson & Ho 1987 §3.4), the Stout & Wagar block transpose's packets
  // per physical link P (§7.2). 0 = the paper's optimum for this machine and m. Other algorithms ignore it.
  // (Last, so that aggregate initialisers of the fields above keep their meaning.)
  std::size_t pieces = 0;
};

struct KernelResult {
  KernelCase run_case;          // as run (auto: with the partition chosen; pieces: the g / chunk / P used)
  RunReport report;
  bool verified = false;
  std::string verify_message;   // why verification failed, empty when it passed
  std::optional<Time> predicted;  // the closed form for this case, when the model has one
};

struct KernelInfo {
  std::string name;             // "exchange", "transpose", "broadcast", "allgather", "histogram"
  std::string summary;          // one line, with the paper it comes from
  std::vector<std::string> algos;
  std::string default_algo;
  // The cases `--algo all` runs for this machine (exchange: direct, standard and every equipartition).
  std::function<std::vector<KernelCase>(const MachineConfig&, const KernelCase& base)> expand_all;
  // Runs one case on a fresh Machine(config, settings); throws UsageError for an algo/partition it does not know.
  std::function<KernelResult(const MachineConfig&, const EmulatorSettings&, const KernelCase&)> run;
  // The closed-form prediction without running anything (nullopt when the model has none for this case).
  std::function<std::optional<Time>(const MachineConfig&, const KernelCase&)> predict;
};

// Each kernel family registers itself through one of these (defined next to the kernel).
KernelInfo exchange_kernel_info();
KernelInfo transpose_kernel_info();
KernelInfo broadcast_kernel_info();
KernelInfo allgather_kernel_info();
KernelInfo histogram_kernel_info();

const std::vector<KernelInfo>& registry();
const KernelInfo& find_kernel(std::string_view name);  // throws UsageError naming the known kernels

}  // namespace hcemu::kernels
