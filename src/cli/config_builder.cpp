#include "cli/config_builder.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <limits>

#include "hcemu/errors.hpp"

namespace hcemu::cli {

namespace {

enum class Kind { time, integer, bytes, number, string, boolean };

struct KeySpec {
  KeyInfo info;
  Kind kind;
};

// MODEL.md section 2 and the emulator settings of MachineConfig, in the order docs/configs.md lists them.
const std::vector<KeySpec>& key_specs() {
  static const std::vector<KeySpec> specs = {
      {{"d", "integer", "dimension: 2^d nodes, 0..13"}, Kind::integer},
      {{"lambda", "microseconds", "λ, start-up of one transfer (one packet)"}, Kind::time},
      {{"lambda0", "microseconds", "λ0, start-up of a zero-byte message (unset: lambda)"}, Kind::time},
      {{"tau", "microseconds", "τ, per byte on a link"}, Kind::time},
      {{"delta_hop", "microseconds", "δ, circuit set-up per hop"}, Kind::time},
      {{"delta_msg", "microseconds", "δ', circuit set-up per message"}, Kind::time},
      {{"delta_msg_per_d", "microseconds", "δ' that grows with the cube: delta_msg = delta_msg_per_d·d"},
       Kind::time},
      {{"rho", "microseconds", "ρ, local copy or permutation, per byte"}, Kind::time},
      {{"barrier_a", "microseconds", "Q(d) = barrier_a + barrier_b·d"}, Kind::time},
      {{"barrier_b", "microseconds", "Q(d) = barrier_a + barrier_b·d"}, Kind::time},
      {{"packet", "bytes", "B_m, largest packet; 0: no limit"}, Kind::bytes},
      {{"flop", "microseconds", "t_a, per floating-point operation"}, Kind::time},
      {{"sys_copy", "microseconds", "per byte out of the system buffer, UNFORCED late receive"}, Kind::time},
      {{"switching", "string", "circuit or store_and_forward"}, Kind::string},
      {{"ports", "string", "one, half, k:N or all"}, Kind::string},
      {{"protocol", "string", "forced or unforced"}, Kind::string},
      {{"timing", "string", "virtual, wall or native"}, Kind::string},
      {{"time_scale", "number", "wall timing: real seconds per model second, >= 1"}, Kind::number},
      {{"arena_bytes", "bytes", "memory arena per node"}, Kind::bytes},
      {{"stack_bytes", "bytes", "stack per node thread"}, Kind::bytes},
      {{"yield_seed", "integer", "!= 0: random thread yields in the runtime, to shake out races"}, Kind::integer},
      {{"deadlock_seconds", "number", "how long nothing may move before a deadlock is declared"}, Kind::number},
      {{"trace", "boolean", "record spans for a Chrome trace"}, Kind::boolean},
  };
  return specs;
}

const KeySpec* find_spec(std::string_view key) {
  for (const auto& spec : key_specs())
    if (spec.info.name == key) return &spec;
  return nullptr;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string type_name(const Value& v) {
  switch (v.index()) {
    case 0: return "an integer";
    case 1: return "a number";
    case 2: return "a boolean";
    default: return "a string";
  }
}

std::string show(const Value& v) {
  if (auto* i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
  if (auto* x = std::get_if<double>(&v)) {
    char buffer[64];
    auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, *x);
    return std::string(buffer, ec == std::errc() ? end : buffer);
  }
  if (auto* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  return "'" + std::get<std::string>(v) + "'";
}

[[noreturn]] void fail(std::string_view key, const std::string& message, const Origin& origin) {
  throw ConfigError(std::string(key), message, origin.file, origin.line);
}

double as_number(std::string_view key, const Value& v, const Origin& origin, std::string_view unit) {
  if (auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  if (auto* x = std::get_if<double>(&v)) return *x;
  fail(key, "must be a number" + std::string(unit) + ", got " + type_name(v) + " " + show(v), origin);
}

std::int64_t as_integer(std::string_view key, const Value& v, const Origin& origin) {
  if (auto* i = std::get_if<std::int64_t>(&v)) return *i;
  fail(key, "must be an integer, got " + type_name(v) + " " + show(v), origin);
}

std::size_t as_size(std::string_view key, const Value& v, const Origin& origin) {
  std::int64_t i = as_integer(key, v, origin);
  if (i < 0) fail(key, "must be a number of bytes >= 0, got " + std::to_string(i), origin);
  return static_cast<std::size_t>(i);
}

const std::string& as_string(std::string_view key, const Value& v, const Origin& origin) {
  if (auto* s = std::get_if<std::string>(&v)) return *s;
  fail(key, "must be a string, got " + type_name(v) + " " + show(v), origin);
}

void apply(MachineConfig& c, EmulatorSettings& s, std::optional<double>& delta_msg_per_d, std::string_view key,
           const Value& v, const Origin& o) {
  const auto time = [&] { return as_number(key, v, o, " of microseconds"); };
  if (key == "d") {
    auto d = as_integer(key, v, o);
    if (d < 0 || d > 13) fail(key, "the dimension must be 0..13, got " + std::to_string(d), o);
    c.d = static_cast<int>(d);
  } else if (key == "lambda") c.lambda = time();
  else if (key == "lambda0") c.lambda0 = time();
  else if (key == "tau") c.tau = time();
  else if (key == "delta_hop") c.delta_hop = time();
  else if (key == "delta_msg") {
    c.delta_msg = time();
    delta_msg_per_d.reset();  // the later setting wins
  } else if (key == "delta_msg_per_d") {
    double per_d = time();
    // δ' = per_d · d must stay a valid time for every d <= 13.
    if (!std::isfinite(per_d) || per_d < 0 || per_d * 13 > 1e9)
      fail(key, "must be a time in microseconds between 0 and 1e9/13, got " + show(v), o);
    delta_msg_per_d = per_d;
    c.delta_msg = 0;
  } else if (key == "rho") c.rho = time();
  else if (key == "barrier_a") c.barrier_a = time();
  else if (key == "barrier_b") c.barrier_b = time();
  else if (key == "packet") c.packet = as_size(key, v, o);
  else if (key == "flop") c.flop = time();
  else if (key == "sys_copy") c.sys_copy = time();
  else if (key == "switching") c.switching = parse_switching(as_string(key, v, o));
  else if (key == "ports") c.ports = Ports::parse(as_string(key, v, o));
  else if (key == "protocol") c.protocol = parse_protocol(as_string(key, v, o));
  else if (key == "timing") s.timing = parse_timing(as_string(key, v, o));
  else if (key == "time_scale") s.time_scale = as_number(key, v, o, "");
  else if (key == "arena_bytes") s.arena_bytes = as_size(key, v, o);
  else if (key == "stack_bytes") s.stack_bytes = as_size(key, v, o);
  else if (key == "yield_seed") {
    auto seed = as_integer(key, v, o);
    if (seed < 0 || seed > std::numeric_limits<unsigned>::max())
      fail(key, "must be an integer 0..4294967295, got " + std::to_string(seed), o);
    s.yield_seed = static_cast<unsigned>(seed);
  } else if (key == "deadlock_seconds") s.deadlock_seconds = as_number(key, v, o, " of seconds");
  else if (key == "trace") {
    auto* b = std::get_if<bool>(&v);
    if (!b) fail(key, "must be true or false, got " + type_name(v) + " " + show(v), o);
    s.trace = *b;
  }
}

// The message of a ConfigError thrown without an origin, minus its "key 'x': " prefix, which fail() adds again.
std::string without_key_prefix(const ConfigError& e) {
  std::string message = e.what();
  auto prefix = "key '" + e.key + "': ";
  if (message.rfind(prefix, 0) == 0) message.erase(0, prefix.size());
  return message;
}

bool parse_whole(std::string_view text, std::int64_t& out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

bool parse_whole(std::string_view text, double& out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

const std::vector<KeyInfo>& config_keys() {
  static const std::vector<KeyInfo> keys = [] {
    std::vector<KeyInfo> out;
    for (const auto& spec : key_specs()) out.push_back(spec.info);
    return out;
  }();
  return keys;
}

bool is_config_key(std::string_view key) { return find_spec(key) != nullptr; }

std::string nearest_key(std::string_view unknown, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = std::numeric_limits<std::size_t>::max();
  for (const auto& candidate : candidates) {
    std::size_t distance = edit_distance(unknown, candidate);
    if (distance < best_distance) best_distance = distance, best = candidate;
  }
  // Close enough to be a typo: a couple of edits, or a third of the word for long keys.
  std::size_t allowed = std::max<std::size_t>(2, unknown.size() / 3);
  return best_distance <= allowed ? best : std::string();
}

std::string nearest_config_key(std::string_view unknown) {
  std::vector<std::string> names;
  for (const auto& spec : key_specs()) names.emplace_back(spec.info.name);
  return nearest_key(unknown, names);
}

void ConfigBuilder::set(std::string_view key, const Value& value, const Origin& origin) {
  if (!find_spec(key)) {
    std::string hint = nearest_config_key(key);
    fail(key, hint.empty() ? "unknown key (`hcemu configs --keys` lists the valid ones)"
                           : "unknown key; did you mean '" + hint + "'?",
         origin);
  }
  MachineConfig next = config_;
  EmulatorSettings next_settings = settings_;
  auto per_d = delta_msg_per_d_;
  try {
    apply(next, next_settings, per_d, key, value, origin);
    // validate() holds the ranges; a failure that names this key is this value's fault.
    next.validate();
    next_settings.validate();
  } catch (const ConfigError& e) {
    // Already placed (thrown by fail above), or about another key: pass it on as it is.
    if (!e.file.empty() || e.key != key) throw;
    fail(key, without_key_prefix(e), origin);
  }
  config_ = std::move(next);
  settings_ = std::move(next_settings);
  delta_msg_per_d_ = per_d;
  origins_[std::string(key)] = origin;
  if (key == "delta_msg") origins_.erase("delta_msg_per_d");
  if (key == "delta_msg_per_d") origins_.erase("delta_msg");
}

void ConfigBuilder::set_text(std::string_view key, std::string_view text, const Origin& origin) {
  const KeySpec* spec = find_spec(key);
  if (!spec) {
    set(key, std::string(text), origin);  // reports the unknown key
    return;
  }
  Value value = std::string(text);
  switch (spec->kind) {
    case Kind::integer:
    case Kind::bytes: {
      std::int64_t i = 0;
      if (parse_whole(text, i)) value = i;
      break;
    }
    case Kind::time:
    case Kind::number: {
      std::int64_t i = 0;
      double x = 0;
      if (parse_whole(text, i)) value = i;
      else if (parse_whole(text, x)) value = x;
      break;
    }
    case Kind::boolean:
      if (text == "true") value = true;
      else if (text == "false") value = false;
      break;
    case Kind::string:
      if (text.size() >= 2 && (text.front() == '"' || text.front() == '\'') && text.back() == text.front())
        value = std::string(text.substr(1, text.size() - 2));
      break;
  }
  set(key, value, origin);
}

MachineConfig ConfigBuilder::resolve() const {
  MachineConfig c = config_;
  if (delta_msg_per_d_) c.delta_msg = *delta_msg_per_d_ * c.d;
  try {
    c.validate();
  } catch (const ConfigError& e) {
    const Origin* origin = origin_of(e.key);
    if (!origin && e.key == "delta_msg") origin = origin_of("delta_msg_per_d");
    if (!origin || !e.file.empty()) throw;
    fail(e.key, without_key_prefix(e), *origin);
  }
  return c;
}

MachineConfig MachineFamily::at_dimension(int d) const {
  MachineConfig c = config;
  c.d = d;
  if (delta_msg_per_d) c.delta_msg = *delta_msg_per_d * d;
  return c;
}

const Origin* ConfigBuilder::origin_of(std::string_view key) const {
  auto it = origins_.find(key);
  return it == origins_.end() ? nullptr : &it->second;
}

}  // namespace hcemu::cli
