#pragma once
// The docs' tables that are read off the project's own tables (config keys, algorithms): each generated here, and
// kept in the Markdown between `<!-- generated: NAME -->` and `<!-- end generated -->`. docs_tables_test fails when
// a page drifts from its table; run it with HCEMU_UPDATE_DOCS=1 to rewrite the pages.
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "harness/algorithm.hpp"
#include "hcemu/config_keys.hpp"

namespace hcemu::test {

inline std::string code(std::string_view text) { return text.empty() ? "" : "`" + std::string(text) + "`"; }

inline std::string row(const std::vector<std::string>& cells) {
  std::string line = "|";
  for (const auto& c : cells) line += " " + c + " |";
  return line + "\n";
}

inline std::string header(const std::vector<std::string>& titles) {
  std::string rule = "|";
  for (std::size_t i = 0; i < titles.size(); ++i) rule += "---|";
  return row(titles) + rule + "\n";
}

// docs/configs.md: every key a file or `--set` may give.
inline std::string config_keys_table() {
  std::string out = header({"key", "symbol", "unit", "range", "default", "of", "meaning"});
  for (const ConfigKey& k : config_keys())
    out += row({code(k.name), std::string(k.symbol), k.unit(), k.range(), k.default_text(),
                std::string(to_string(k.scope)), std::string(k.doc)});
  return out;
}

// docs/model.md: the machine's parameters, then the emulator's settings.
inline std::string scope_table(KeyScope scope) {
  std::string out = header({"key", "symbol", "unit", "meaning", "default"});
  for (const ConfigKey& k : config_keys())
    if (k.scope == scope)
      out += row({code(k.name), std::string(k.symbol), k.unit(), std::string(k.doc), k.default_text()});
  return out;
}

// docs/cli.md: the flags that are shorthands for one key each.
inline std::string machine_flags_table() {
  std::string out = header({"flag", "key", "values"});
  for (const ConfigKey& k : config_keys()) {
    if (k.flag.empty()) continue;
    std::string flags;
    std::string_view rest = k.flag;
    while (!rest.empty()) {
      const auto comma = rest.find(',');
      flags += (flags.empty() ? "" : ", ") + code(rest.substr(0, comma));
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    }
    out += row({flags, code(k.name), k.range() + (k.unit().empty() ? "" : " " + k.unit())});
  }
  return out;
}

// docs/cli.md: every algorithm of every kernel, its paper, the port models it is made for, its parameters.
inline std::string algorithms_table() {
  std::string out = header({"kernel", "algorithm", "from", "made for", "parameters", "lower bound"});
  for (const harness::KernelFamily& family : harness::families())
    for (const harness::Algorithm& algorithm : family.algorithms) {
      std::string ports;
      for (Ports::Kind kind : algorithm.ports) {
        Ports p;
        p.kind = kind;
        ports += (ports.empty() ? "" : ", ") + (kind == Ports::Kind::k ? std::string("k:N") : p.str());
      }
      std::string params;
      for (const harness::ParamSpec& p : algorithm.params) {
        const std::string name = p.chosen ? code(p.name) : code("--" + std::string(p.name));
        const std::string symbol = p.symbol.empty() ? "" : " (" + std::string(p.symbol) + ")";
        params += (params.empty() ? "" : "<br>") + name + symbol + ": " + std::string(p.doc) +
                  (p.chosen ? " (chosen, reported)" : "");
      }
      out += row({code(family.name), code(algorithm.name), std::string(algorithm.paper),
                  ports.empty() ? "every port model" : ports, params, algorithm.lower_bound ? "yes" : ""});
    }
  return out;
}

struct GeneratedTable {
  std::string page;  // relative to the source tree: "docs/configs.md"
  std::string name;  // the marker's NAME
  std::function<std::string()> generate;
};

// For GoogleTest's test names: the page and the table.
inline void PrintTo(const GeneratedTable& table, std::ostream* out) { *out << table.page << ": " << table.name; }

inline std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline std::string begin_marker(const std::string& name) { return "<!-- generated: " + name + " -->\n"; }
inline const std::string& end_marker() {
  static const std::string marker = "<!-- end generated -->";
  return marker;
}

// The text between the markers of `name` in `page`, or nullopt when the page has no such markers.
inline std::optional<std::string> generated_part(const std::string& page, const std::string& name) {
  const auto begin = page.find(begin_marker(name));
  if (begin == std::string::npos) return std::nullopt;
  const auto from = begin + begin_marker(name).size();
  const auto end = page.find(end_marker(), from);
  if (end == std::string::npos) return std::nullopt;
  return page.substr(from, end - from);
}

inline std::string with_generated_part(std::string page, const std::string& name, const std::string& text) {
  const auto from = page.find(begin_marker(name)) + begin_marker(name).size();
  const auto end = page.find(end_marker(), from);
  return page.replace(from, end - from, text);
}

}  // namespace hcemu::test
