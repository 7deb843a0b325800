#include "cli/kernel_options.hpp"

#include <CLI/CLI.hpp>
#include <vector>

#include "cli/machine_options.hpp"
#include "cli/option_checks.hpp"

namespace hcemu::cli {

namespace {

using harness::Algorithm;
using harness::KernelFamily;
using harness::ParamSpec;

// "exchange: direct, standard, multiphase, auto, all-port; transpose: ...".
std::string every_algorithm() {
  std::string text;
  for (const KernelFamily& family : harness::families()) {
    std::string names;
    for (const Algorithm& row : family.algorithms) names += (names.empty() ? "" : ", ") + std::string(row.name);
    text += (text.empty() ? "" : "; ") + std::string(family.name) + ": " + names;
  }
  return text;
}

// Every parameter that some algorithm takes as an input, but the partition (which has its list form), with the first
// row's documentation and every algorithm that takes it.
struct ParamFlag {
  const ParamSpec* spec;
  std::string takers;
};

std::map<std::string, ParamFlag, std::less<>> parameter_flags() {
  std::map<std::string, ParamFlag, std::less<>> flags;
  for (const KernelFamily& family : harness::families()) {
    // A parameter that every algorithm of the kernel takes (long-send's --src) names the kernel alone.
    std::map<std::string, std::string, std::less<>> rows;
    std::map<std::string, std::size_t, std::less<>> count;
    for (const Algorithm& row : family.algorithms)
      for (const ParamSpec& p : row.params) {
        // The multiphase partition has its own option; every other list (matmul's --grid) becomes a flag.
        if (p.chosen || p.name == "partition") continue;
        flags.try_emplace(std::string(p.name), ParamFlag{&p, {}});
        std::string& list = rows[std::string(p.name)];
        list += (list.empty() ? "" : ", ") + std::string(family.name) + " " + std::string(row.name);
        ++count[std::string(p.name)];
      }
    for (const auto& [name, list] : rows) {
      std::string& takers = flags.at(name).takers;
      takers += (takers.empty() ? "" : ", ") + (count[name] == family.algorithms.size() && count[name] > 1
                                                    ? "every " + std::string(family.name) + " algorithm"
                                                    : list);
    }
  }
  return flags;
}

}  // namespace

std::string kernel_names() {
  std::string text;
  const auto& all = harness::families();
  for (std::size_t i = 0; i < all.size(); ++i)
    text += (i == 0 ? "" : i + 1 == all.size() ? " or " : ", ") + std::string(all[i].name);
  return text;
}

namespace {
// What m is, kernel by kernel.
std::string what_m_is() {
  std::string text;
  for (const KernelFamily& family : harness::families())
    text += (text.empty() ? "" : "; ") + std::string(family.name) + ": " + std::string(family.m_is);
  return "(" + text + ")";
}
}  // namespace

void add_size_option(CLI::App& app, std::size_t& m) {
  app.add_option("-m,--bytes", m, "The size m " + what_m_is())->capture_default_str()->transform(size_in_bytes());
}

void add_sizes_option(CLI::App& app, std::string& sizes) {
  const std::string help = "The sizes m, FROM:TO:STEP or A,B,C " + what_m_is();
  auto* bytes = app.add_option("-m,--bytes", sizes, help)->capture_default_str();
  // The same option under its older name: both given is the option twice, an error as for any other.
  app.add_option("--m", sizes, help)->group("")->excludes(bytes);
}

void KernelOptions::add_to(CLI::App& app, bool several) {
  auto* algo = app.add_option("--algo", algos_,
                              std::string(several ? "Algorithms, comma-separated, or all" : "An algorithm, or all") +
                                  " (the default without --partition: every algorithm); " + every_algorithm());
  auto* partition = app.add_option("--partition", partitions_,
                                   "A multiphase partition, e.g. 2,3 (sums to d; alone, it picks the algorithm that "
                                   "takes one)" +
                                       std::string(several ? "; repeatable, one curve each" : ""));
  partition->check(non_empty("a partition like 2,3"));
  if (several) {
    algo->delimiter(',');
    partition->expected(1)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  } else {
    // One algorithm and one partition: given twice is an error, as every single-valued option is.
    algo->expected(1)->multi_option_policy(CLI::MultiOptionPolicy::Throw);
    partition->expected(1)->multi_option_policy(CLI::MultiOptionPolicy::Throw);
  }
  add_integer_option(app, "--root", root, "Root node of broadcast, scatter, gather and reduce (default 0)", "NODE");
  for (const auto& [name, flag] : parameter_flags()) {
    const std::string help = flag.takers + ": " + std::string(flag.spec->doc);
    if (flag.spec->kind == harness::ParamKind::text) {
      app.add_option("--" + name, texts[name], help)->type_name("NAME");
    } else if (flag.spec->kind == harness::ParamKind::node) {
      nodes[name] = kNodeNotGiven;
      add_integer_option(app, "--" + name, nodes[name], help, "NODE");
    } else if (flag.spec->kind == harness::ParamKind::partition) {
      app.add_option("--" + name, lists[name], help)->type_name("N1,N2");
    } else if (flag.spec->kind == harness::ParamKind::bytes) {
      // A number of bytes, at most what a case's m may be: a chunk past it is no chunk at all.
      app.add_option("--" + name, numbers[name], help)
          ->transform(whole_number(0, harness::kMaxCaseBytes, "a number of bytes from 0 to 2^40 (1 TiB)"))
          ->type_name("BYTES");
    } else {
      add_integer_option(app, "--" + name, numbers[name], help, "N");
    }
  }
  // The older spelling of every algorithm's granularity parameter: kept for scripts, not shown.
  app.add_option("--pieces", pieces, granularity_help())->group("");
  app.add_option("--seed", seed, "Seed of the random data")
      ->capture_default_str()
      ->transform(whole_number(0, UINT64_MAX, "a seed from 0 to 2^64 - 1"));
}

CaseRequest KernelOptions::request(const std::string& algo, const std::string& partition, std::size_t m,
                                   Sync sync) const {
  CaseRequest request;
  request.algo = algo;
  if (!partition.empty()) request.partition = parse_partition(partition);
  request.m = m;
  request.sync = sync;
  request.root = root.value_or(0);
  request.root_given = root.has_value();
  request.seed = seed;
  request.numbers = numbers;
  request.texts = texts;
  request.nodes = nodes;
  for (const auto& [name, text] : lists)
    if (!text.empty()) request.lists[name] = parse_list("--" + name, text);
  request.pieces = pieces;
  return request;
}

}  // namespace hcemu::cli
