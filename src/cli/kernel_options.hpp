#pragma once
// The kernel options of `run`, `sweep` and `fit`, declared once: the kernel's algorithm (--algo), a multiphase
// partition (--partition), the broadcast's root (--root), the random data's seed (--seed), one flag per parameter of
// any algorithm (--groups, --chunk, --packets: read off the algorithms' rows), and the older --pieces (hidden).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cli/case_runner.hpp"

namespace CLI {
class App;
}

namespace hcemu::cli {

struct KernelOptions {
  std::optional<int> root;  // the root of a rooted kernel (broadcast, scatter, gather, reduce); node 0 when not given
  std::uint64_t seed = 1;
  std::map<std::string, std::uint64_t, std::less<>> numbers;  // parameter -> value given; 0: not given
  std::map<std::string, std::string, std::less<>> texts;      // a word (--perm); empty: not given
  std::map<std::string, std::int64_t, std::less<>> nodes;     // a node (--src, --dst); kNodeNotGiven: not given
  std::map<std::string, std::string, std::less<>> lists;      // list parameter (--grid 1,2) -> text given; "": not
  std::uint64_t pieces = 0;

  // `several`: --algo takes a comma-separated list and --partition repeats (sweep: one curve each).
  void add_to(CLI::App& app, bool several);
  const std::vector<std::string>& algos() const { return algos_; }
  const std::vector<std::string>& partitions() const { return partitions_; }
  // The request for one algorithm ("" or "all" for every one) and one partition ("" for none).
  CaseRequest request(const std::string& algo, const std::string& partition, std::size_t m, Sync sync) const;

 private:
  std::vector<std::string> algos_;
  std::vector<std::string> partitions_;
};

// "exchange, transpose, broadcast, allgather or histogram".
std::string kernel_names();
// -m/--bytes, the size m: one (run), or several, FROM:TO:STEP or A,B,C (sweep, fit; cli/size_range.hpp). The older
// spelling --m of sweep and fit stays, not shown.
void add_size_option(CLI::App& app, std::size_t& m);
void add_sizes_option(CLI::App& app, std::string& sizes);

}  // namespace hcemu::cli
