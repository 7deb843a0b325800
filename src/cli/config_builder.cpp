#include "cli/config_builder.hpp"

#include "cli/commands.hpp"
#include "common/nearest_name.hpp"
#include "hcemu/errors.hpp"

namespace hcemu::cli {

namespace {

[[noreturn]] void fail(std::string_view key, const std::string& message, const Origin& origin) {
  throw ConfigError(std::string(key), message, origin.file, origin.line);
}

// The message of a ConfigError thrown without an origin, minus its "key 'x': " prefix, which fail() adds again.
std::string without_key_prefix(const ConfigError& e) {
  std::string message = e.what();
  auto prefix = "key '" + e.key + "': ";
  if (message.rfind(prefix, 0) == 0) message.erase(0, prefix.size());
  return message;
}

}  // namespace

std::string nearest_key(std::string_view unknown, const std::vector<std::string>& candidates) {
  return hcemu::detail::nearest_name(unknown, candidates);
}

std::string nearest_config_key(std::string_view unknown) {
  std::vector<std::string> names;
  for (const ConfigKey& key : config_keys()) names.emplace_back(key.name);
  return nearest_key(unknown, names);
}

ConfigBuilder::ConfigBuilder() { setup_.settings.spread = process_spread(); }

void ConfigBuilder::set(std::string_view key, const Value& value, const Origin& origin) {
  const ConfigKey* row = find_config_key(key);
  if (!row) {
    std::string hint = nearest_config_key(key);
    fail(key, hint.empty() ? "unknown key (`hcemu configs --keys` lists the valid ones)"
                           : "unknown key; did you mean '" + hint + "'?",
         origin);
  }
  MachineSetup next = setup_;
  try {
    row->set(next, value);
    // The ranges of the other keys hold already; a failure that names this key is this value's fault.
    next.config.validate();
    next.settings.validate();
  } catch (const ConfigError& e) {
    // Already placed, or about another key: pass it on as it is.
    if (!e.file.empty() || e.key != key) throw;
    fail(key, without_key_prefix(e), origin);
  }
  // The engine's largest cube: whichever of d and engine comes later (a file's keys come in name order) is at fault.
  try {
    next.settings.validate_for(next.resolved());
  } catch (const ConfigError& e) {
    fail(key, without_key_prefix(e), origin);
  }
  // A key that replaces another (delta_msg and delta_msg_per_d: the later one wins) takes its origin away too.
  for (const ConfigKey& other : config_keys())
    if (other.name != key && other.get(next) != other.get(setup_)) origins_.erase(std::string(other.name));
  setup_ = std::move(next);
  origins_[std::string(key)] = origin;
}

void ConfigBuilder::set_text(std::string_view key, std::string_view text, const Origin& origin) {
  const ConfigKey* row = find_config_key(key);
  set(key, row ? row->read(text) : Value(std::string(text)), origin);
}

MachineConfig ConfigBuilder::resolve() const {
  MachineConfig c = setup_.resolved();
  try {
    c.validate();
  } catch (const ConfigError& e) {
    const Origin* origin = origin_of(e.key);
    if (!origin || !e.file.empty()) throw;
    fail(e.key, without_key_prefix(e), *origin);
  }
  return c;
}

const Origin* ConfigBuilder::origin_of(std::string_view key) const {
  auto it = origins_.find(key);
  return it == origins_.end() ? nullptr : &it->second;
}

}  // namespace hcemu::cli
