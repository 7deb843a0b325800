#include "cli/trace_writer.hpp"

#include <algorithm>
#include <charconv>

#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "cli/output_file.hpp"
#include "cli/text_table.hpp"
#include "hcemu/errors.hpp"
#include "report/trace_event_writer.hpp"

namespace hcemu::cli {

namespace {

// Decimal digits only (option_checks.hpp's rule for every integer): no sign, no base prefix.
bool read_decimal(std::string_view text, std::uint64_t& value) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string_view::npos) return false;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size();
}

// "12", "12.5", "0.000001" microseconds as picoseconds, exactly; false for anything else.
bool read_microseconds(std::string_view text, Time& ps) {
  const auto dot = text.find('.');
  const std::string_view whole = text.substr(0, dot);
  const std::string_view fraction = dot == std::string_view::npos ? "" : text.substr(dot + 1);
  std::uint64_t us = 0, part = 0;
  if (!read_decimal(whole, us) || (dot != std::string_view::npos && !read_decimal(fraction, part))) return false;
  if (fraction.size() > 6 || us >= static_cast<std::uint64_t>(kTimeLimit / kPicosPerMicro)) return false;
  for (std::size_t i = fraction.size(); i < 6; ++i) part *= 10;
  ps = static_cast<Time>(us) * kPicosPerMicro + static_cast<Time>(part);
  return true;
}

std::string in_bytes(std::uint64_t bytes) {
  const auto b = static_cast<double>(bytes);
  return bytes >= 1'000'000'000 ? fixed(b / 1e9, 1) + " GB"
         : bytes >= 1'000'000   ? fixed(b / 1e6, 0) + " MB"
                                : fixed(b / 1e3, 0) + " KB";
}

}  // namespace

std::vector<bool> parse_node_list(const std::string& text, int nodes) {
  const auto bad = [](const std::string& why) { return UsageError("--trace-nodes: " + why); };
  std::vector<bool> kept(static_cast<std::size_t>(nodes), false);
  std::size_t begin = 0;
  while (true) {
    const std::size_t comma = std::min(text.find(',', begin), text.size());
    const std::string item = text.substr(begin, comma - begin);
    const std::size_t dash = item.find('-');
    std::uint64_t first = 0, last = 0;
    const bool read = dash == std::string::npos
                          ? read_decimal(item, first) && read_decimal(item, last)
                          : read_decimal(std::string_view(item).substr(0, dash), first) &&
                                read_decimal(std::string_view(item).substr(dash + 1), last);
    if (!read)
      throw bad("expected node numbers and ranges in decimal digits, separated by commas (0,3,5-7), got '" + text +
                "'" + (item.empty() ? " (an empty item)" : item == text ? "" : " ('" + item + "')"));
    if (first > last) throw bad("the range " + item + " runs backwards");
    if (last >= static_cast<std::uint64_t>(nodes))
      throw bad("node " + std::to_string(last) + " is not on this machine of " + std::to_string(nodes) +
                " nodes (0 to " + std::to_string(nodes - 1) + ")");
    for (std::uint64_t n = first; n <= last; ++n) kept[static_cast<std::size_t>(n)] = true;
    if (comma == text.size()) break;
    begin = comma + 1;
  }
  return kept;
}

std::pair<Time, Time> parse_time_window(const std::string& text) {
  const auto bad = [](const std::string& why) { return UsageError("--trace-window: " + why); };
  const std::size_t colon = text.find(':');
  if (colon == std::string::npos || text.find(':', colon + 1) != std::string::npos)
    throw bad("expected FROM:TO in microseconds (100:250.5; either may be left out: 100: or :250), got '" + text + "'");
  Time from = 0, to = kNever;
  const std::string first = text.substr(0, colon), second = text.substr(colon + 1);
  const std::string rule = " microseconds, in decimal digits with at most six decimals";
  if (!first.empty() && !read_microseconds(first, from)) throw bad("expected FROM in" + rule + ", got '" + first + "'");
  if (!second.empty() && !read_microseconds(second, to)) throw bad("expected TO in" + rule + ", got '" + second + "'");
  if (from > to) throw bad("the window " + text + " ends before it starts");
  return {from, to};
}

void TraceOptions::add_to(CLI::App& command) {
  CLI::Option* trace =
      command
          .add_option("--trace", path, "Write a Chrome trace (Perfetto, chrome://tracing, Chrome DevTools) to FILE.json")
          ->type_name("FILE")
          ->check(non_empty("a file name"));
  command.add_option("--trace-nodes", nodes, "Trace only these nodes and the links they drive: 0,3,5-7")
      ->type_name("LIST")
      ->check(non_empty("a node list"))
      ->needs(trace);
  command
      .add_option("--trace-window", window,
                  "Trace only what touches this span of the run's time, in µs: FROM:TO (either may be left out)")
      ->type_name("FROM:TO")
      ->check(non_empty("a window FROM:TO"))
      ->needs(trace);
}

hcemu::detail::TraceFilter TraceOptions::filter(int machine_nodes) const {
  hcemu::detail::TraceFilter f;
  if (!nodes.empty()) f.nodes = parse_node_list(nodes, machine_nodes);
  if (!window.empty()) std::tie(f.from, f.to) = parse_time_window(window);
  return f;
}

std::string large_trace_warning(const TraceOptions& options, const std::vector<LabelledReport>& runs,
                                std::uint64_t limit) {
  std::uint64_t bytes = 0, messages = 0;
  Time makespan = 0;
  int nodes = 0;
  for (const auto& run : runs) {
    const int run_nodes = static_cast<int>(run.report->nodes.size());
    bytes += hcemu::detail::estimated_trace_bytes(*run.report, options.filter(run_nodes));
    messages += run.report->messages();
    makespan = std::max(makespan, run.report->makespan);
    nodes = std::max(nodes, run_nodes);
  }
  if (bytes <= limit) return "";
  // The share of the file that fits, taken as nodes or as time: each shrinks it about in proportion.
  const double share = static_cast<double>(limit) / static_cast<double>(bytes);
  const int some_nodes = std::max(1, static_cast<int>(share * nodes));
  const std::string some_time = fixed(std::max(1.0, share * to_us(makespan)), 0);
  std::string text = "--trace " + options.path + ": about " + in_bytes(bytes) + " (" + std::to_string(messages) +
                     " messages); --trace-nodes 0-" + std::to_string(some_nodes - 1) + " or --trace-window 0:" +
                     some_time + " (µs) would bring it under " + in_bytes(limit);
  if (!options.nodes.empty() || !options.window.empty()) text += ", counting from the run rather than the filter given";
  return text;
}

void write_chrome_trace(const TraceOptions& options, const std::vector<LabelledReport>& runs,
                        const std::function<void(const std::string&)>& warn) {
  if (!writes_files()) return;  // another MPI rank than the first
  if (const std::string warning = large_trace_warning(options, runs); !warning.empty()) warn(warning + "; writing it");
  OutputFile file(options.path, "--trace");  // a temporary beside it until complete
  hcemu::detail::TraceEventWriter writer(file.stream());
  int pid = 0;
  for (const auto& run : runs)
    hcemu::detail::write_run_tracks(writer, *run.report, run.label, ++pid,
                             options.filter(static_cast<int>(run.report->nodes.size())));
  writer.finish();
  file.commit();
}

}  // namespace hcemu::cli
