#include "hcemu/config.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

#include "hcemu/config_keys.hpp"
#include "hcemu/errors.hpp"

namespace hcemu {

Ports Ports::parse(std::string_view text) {
  if (text == "one") return {Kind::one, 1};
  if (text == "half") return {Kind::half, 1};
  if (text == "all") return {Kind::all, 0};
  if (text.size() > 2 && text.substr(0, 2) == "k:") {
    int n = 0;
    auto digits = text.substr(2);
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (ec == std::errc() && end == digits.data() + digits.size() && n >= 1) return {Kind::k, n};
  }
  throw ConfigError("ports", "expected one, half, k:N (N >= 1) or all, got '" + std::string(text) + "'");
}

std::string Ports::str() const {
  switch (kind) {
    case Kind::one: return "one";
    case Kind::half: return "half";
    case Kind::all: return "all";
    case Kind::k: return "k:" + std::to_string(n);
  }
  return "?";
}

Topology Topology::parse(std::string_view text) {
  Topology t;
  std::string_view rest;
  if (text == "cube") return t;
  if (text.starts_with("torus")) t.kind = Kind::torus, rest = text.substr(5);
  else if (text.starts_with("mesh")) t.kind = Kind::mesh, rest = text.substr(4);
  else throw ConfigError("topology", "expected cube, torus, torus:RxC or mesh:RxC, got '" + std::string(text) + "'");
  if (rest.empty()) return t;
  const auto x = rest.find('x');
  const auto number = [](std::string_view s, int& out) {
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && end == s.data() + s.size() && out >= 1 && (out & (out - 1)) == 0;
  };
  if (rest.front() != ':' || x == std::string_view::npos || !number(rest.substr(1, x - 1), t.rows) ||
      !number(rest.substr(x + 1), t.cols))
    throw ConfigError("topology", "expected sides as R x C, powers of two, like torus:4x8, got '" +
                                      std::string(text) + "'");
  return t;
}

std::string Topology::str() const {
  if (kind == Kind::cube) return "cube";
  std::string name = kind == Kind::torus ? "torus" : "mesh";
  if (rows != 0) name += ":" + std::to_string(rows) + "x" + std::to_string(cols);
  return name;
}

std::pair<int, int> Topology::sides(int d) const {
  if (kind == Kind::cube) return {1, 1 << d};
  if (rows == 0) {
    if (d % 2 != 0)
      throw ConfigError("topology", "a square " + str() + " needs an even d (2^(d/2) x 2^(d/2) nodes), got d = " +
                                        std::to_string(d) + ": -d " + std::to_string(d - 1) + " is " + std::to_string(1 << (d / 2)) + " x " +
                                        std::to_string(1 << (d / 2)) + ", -d " + std::to_string(d + 1) + " is " +
                                        std::to_string(1 << (d / 2 + 1)) + " x " + std::to_string(1 << (d / 2 + 1)) +
                                        "; or give its sides, like " + str() + ":" + std::to_string(1 << (d / 2)) +
                                        "x" + std::to_string(1 << (d - d / 2)));
    return {1 << (d / 2), 1 << (d / 2)};
  }
  if (static_cast<long long>(rows) * cols != (1LL << d))
    throw ConfigError("topology", str() + " has " + std::to_string(static_cast<long long>(rows) * cols) +
                                      " nodes, but d = " + std::to_string(d) + " means " +
                                      std::to_string(1LL << d));
  return {rows, cols};
}

std::string_view to_string(Switching s) {
  switch (s) {
    case Switching::circuit: return "circuit";
    case Switching::store_and_forward: return "store_and_forward";
    case Switching::loggp: return "loggp";
  }
  return "?";
}
std::string_view to_string(Protocol p) { return p == Protocol::forced ? "forced" : "unforced"; }
std::string_view to_string(Timing t) {
  switch (t) {
    case Timing::virtual_time: return "virtual";
    case Timing::wall: return "wall";
    case Timing::native: return "native";
  }
  return "?";
}

Switching parse_switching(std::string_view s) {
  if (s == "circuit") return Switching::circuit;
  if (s == "store_and_forward") return Switching::store_and_forward;
  if (s == "loggp") return Switching::loggp;
  throw ConfigError("switching", "expected circuit, store_and_forward or loggp, got '" + std::string(s) + "'");
}
Protocol parse_protocol(std::string_view s) {
  if (s == "forced") return Protocol::forced;
  if (s == "unforced") return Protocol::unforced;
  throw ConfigError("protocol", "expected forced or unforced, got '" + std::string(s) + "'");
}
std::string_view to_string(EngineKind e) { return e == EngineKind::tasks ? "tasks" : "os_threads"; }
EngineKind parse_engine(std::string_view s) {
  if (s == "tasks") return EngineKind::tasks;
  if (s == "os_threads") return EngineKind::os_threads;
  throw ConfigError("engine", "expected tasks or os_threads, got '" + std::string(s) + "'");
}

EngineKind default_engine() {
  static const EngineKind engine = [] {
    const char* name = std::getenv("HCEMU_ENGINE");
    if (name == nullptr || *name == '\0') return EngineKind::tasks;
    try {
      return parse_engine(name);
    } catch (const ConfigError&) {
      throw ConfigError("engine",
                        "expected tasks or os_threads, got '" + std::string(name) +
                            "' (unset HCEMU_ENGINE for the default, tasks)",
                        "the environment variable HCEMU_ENGINE", 0);
    }
  }();
  return engine;
}

Timing parse_timing(std::string_view s) {
  if (s == "virtual") return Timing::virtual_time;
  if (s == "wall") return Timing::wall;
  if (s == "native") return Timing::native;
  throw ConfigError("timing", "expected virtual, wall or native, got '" + std::string(s) + "'");
}

int max_dimension(EngineKind engine) {
  // docs/model.md §1: one OS thread per node runs up to 2^13 node threads; lightweight threads on a worker pool
  // go to 2^16.
  return engine == EngineKind::os_threads ? 13 : 16;
}

int max_dimension() {
  int most = 0;
  for (EngineKind e : kEngineKinds) most = std::max(most, max_dimension(e));
  return most;
}

int max_spread_dimension(EngineKind engine, int ranks) {
  const int spread_bits = static_cast<int>(std::bit_width(static_cast<unsigned>(std::max(1, ranks)))) - 1;
  return std::min(kMaxSpreadDimension, max_dimension(engine) + spread_bits);
}

void MachineConfig::validate() const {
  for (const ConfigKey& key : config_keys()) key.check(*this);
}

void EmulatorSettings::validate() const {
  for (const ConfigKey& key : config_keys()) key.check(*this);
}

void EmulatorSettings::validate_for(const MachineConfig& config) const {
  const int ranks = spread.ranks();
  const int most = max_spread_dimension(engine, ranks);
  int most_of_any = 0;
  for (EngineKind e : kEngineKinds) most_of_any = std::max(most_of_any, max_spread_dimension(e, ranks));
  if (config.d > most)
    throw ConfigError("d", "the " + std::string(to_string(engine)) + " engine runs cubes of d = 0.." +
                               std::to_string(most) +
                               (ranks > 1 ? " over " + std::to_string(ranks) + " MPI ranks" : "") + ", got " +
                               std::to_string(config.d) +
                               (most < most_of_any ? " (another engine runs larger ones)" : ""));
}

}  // namespace hcemu
