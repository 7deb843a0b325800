// The table of config keys (hcemu/config_keys.hpp): one row per key, at the bottom of this file. Above it, the kinds
// of value a key can hold (a time, an integer in a range, bytes, a choice...), each knowing how a file writes it, how
// to read and check it, and how to describe its range; every row names one of them and the field it lives in.
#include "hcemu/config_keys.hpp"

#include <charconv>
#include <cmath>
#include <functional>
#include <limits>
#include <string>

#include "hcemu/errors.hpp"

namespace hcemu {

namespace detail {

// What a row knows beyond its name and documentation: where its value lives and what kind of value it is.
class KeyBinding {
 public:
  virtual ~KeyBinding() = default;
  virtual KeyScope scope() const = 0;
  virtual KeyType type() const = 0;
  virtual std::string unit() const = 0;
  virtual std::string range() const = 0;
  virtual std::string default_text() const = 0;
  virtual KeyValue read(std::string_view text) const = 0;
  virtual void set(std::string_view key, MachineSetup& setup, const KeyValue& value) const = 0;
  virtual std::optional<KeyValue> get(const MachineSetup& setup) const = 0;
  virtual void check(std::string_view, const MachineConfig&) const {}
  virtual void check(std::string_view, const EmulatorSettings&) const {}
};

}  // namespace detail

namespace {

// ----- Writing and reading values as files do ----------------------------------------------------------------------

std::string shortest(double x) {
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, x);
  return std::string(buffer, ec == std::errc() ? end : buffer);
}

// A number as a file writes it: 3.0 stays 3.0, so that it is not taken for the integer 3.
std::string written(double x) {
  std::string text = shortest(x);
  if (std::isfinite(x) && text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

std::string plain(const KeyValue& v) {
  if (auto* i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
  if (auto* x = std::get_if<double>(&v)) return shortest(*x);
  if (auto* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  return std::get<std::string>(v);
}

// "a string 'fast'", "an integer 1": what was given, for errors.
std::string described(const KeyValue& v) {
  switch (v.index()) {
    case 0:
      return "an integer " + plain(v);
    case 1:
      return "a number " + written(std::get<double>(v));
    case 2:
      return "a boolean " + plain(v);
    default:
      return "a string '" + plain(v) + "'";
  }
}

[[noreturn]] void fail(std::string_view key, const std::string& message) {
  throw ConfigError(std::string(key), message);
}

bool parse_whole(std::string_view text, std::int64_t& out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return !text.empty() && ec == std::errc() && end == text.data() + text.size();
}

bool parse_whole(std::string_view text, double& out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return !text.empty() && ec == std::errc() && end == text.data() + text.size();
}

KeyValue number_or_text(std::string_view text) {
  std::int64_t i = 0;
  double x = 0;
  if (parse_whole(text, i)) return i;
  if (parse_whole(text, x)) return x;
  return std::string(text);
}

double number_of(std::string_view key, const KeyValue& v, std::string_view unit) {
  if (auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  if (auto* x = std::get_if<double>(&v)) return *x;
  fail(key, "must be a number" + std::string(unit) + ", got " + described(v));
}

std::int64_t integer_of(std::string_view key, const KeyValue& v) {
  if (auto* i = std::get_if<std::int64_t>(&v)) return *i;
  // 3.0 or 3e0: a whole value, but written as a number with a fraction, which an integer key does not take.
  if (auto* x = std::get_if<double>(&v); x && std::isfinite(*x) && *x == std::floor(*x))
    fail(key, "must be an integer, written without a decimal point or exponent, got " + written(*x));
  fail(key, "must be an integer, got " + described(v));
}

const std::string& string_of(std::string_view key, const KeyValue& v) {
  if (auto* s = std::get_if<std::string>(&v)) return *s;
  fail(key, "must be a string, got " + described(v));
}

// ----- The kinds of value ------------------------------------------------------------------------------------------
// Each has: Value (the field's C++ type), type, range(), read (a file's value -> Value, checking its type and range),
// check (a held Value's range), write (Value -> a file's value), and read_text (`--set` text -> a file's value).

// A time in microseconds, rounded once to whole picoseconds (hcemu::from_us): 0 .. max, so that whole picoseconds
// fit comfortably in 64 bits even when multiplied by large byte counts.
struct TimeKind {
  using Value = double;
  double max = 1e9;
  std::string max_text = "1e9";
  static constexpr KeyType type = KeyType::time;
  std::string range() const { return "0 .. " + max_text; }
  void check(std::string_view key, double x) const {
    if (!std::isfinite(x) || x < 0 || x > max)
      fail(key, "must be a time in microseconds between 0 and " + max_text + ", got " + shortest(x));
  }
  double read(std::string_view key, const KeyValue& v) const {
    const double x = number_of(key, v, " of microseconds");
    check(key, x);
    return x;
  }
  KeyValue write(double x) const { return x; }
  KeyValue read_text(std::string_view text) const { return number_or_text(text); }
};

// A time that may be left unset, then taking another key's value (λ0: a zero-byte message's start-up, λ unless
// measured apart).
struct DefaultedTimeKind {
  using Value = std::optional<double>;
  double MachineConfig::*fallback;
  std::string_view fallback_name;
  static constexpr KeyType type = KeyType::time;
  std::string range() const { return TimeKind{}.range(); }
  void check(std::string_view key, const Value& x) const {
    if (x) TimeKind{}.check(key, *x);
  }
  Value read(std::string_view key, const KeyValue& v) const { return TimeKind{}.read(key, v); }
  std::optional<KeyValue> write(const Value& x, const MachineConfig& owner) const {
    return x.value_or(owner.*fallback);
  }
  std::string default_text(const Value& x) const { return x ? shortest(*x) : "unset: " + std::string(fallback_name); }
  KeyValue read_text(std::string_view text) const { return number_or_text(text); }
};

// A time that may be left unset, and then has no value.
struct OptionalTimeKind {
  using Value = std::optional<double>;
  TimeKind time;
  static constexpr KeyType type = KeyType::time;
  std::string range() const { return time.range(); }
  void check(std::string_view key, const Value& x) const {
    if (x) time.check(key, *x);
  }
  Value read(std::string_view key, const KeyValue& v) const { return time.read(key, v); }
  std::optional<KeyValue> write(const Value& x) const {
    if (!x) return std::nullopt;
    return KeyValue(*x);
  }
  std::string default_text(const Value& x) const { return x ? shortest(*x) : "unset"; }
  KeyValue read_text(std::string_view text) const { return number_or_text(text); }
};

// An integer in [lo, hi], held as T.
template <class T>
struct IntegerKind {
  using Value = T;
  std::int64_t lo, hi;
  static constexpr KeyType type = KeyType::integer;
  std::string range() const { return std::to_string(lo) + ".." + std::to_string(hi); }
  void check_whole(std::string_view key, std::int64_t i) const {
    if (i < lo || i > hi) fail(key, "must be " + range() + ", got " + std::to_string(i));
  }
  void check(std::string_view key, T x) const { check_whole(key, static_cast<std::int64_t>(x)); }
  T read(std::string_view key, const KeyValue& v) const {
    const std::int64_t i = integer_of(key, v);
    check_whole(key, i);
    return static_cast<T>(i);
  }
  KeyValue write(T x) const { return static_cast<std::int64_t>(x); }
  // A number, not only an integer, so that 3.0 is refused as what it is rather than as a word.
  KeyValue read_text(std::string_view text) const { return number_or_text(text); }
};

// A number of bytes, at least `least`.
struct BytesKind {
  using Value = std::size_t;
  std::size_t least = 0;
  static constexpr KeyType type = KeyType::bytes;
  std::string range() const { return ">= " + std::to_string(least); }
  void check(std::string_view key, std::size_t x) const {
    if (x < least) fail(key, "must be at least " + std::to_string(least) + " bytes, got " + std::to_string(x));
  }
  std::size_t read(std::string_view key, const KeyValue& v) const {
    const std::int64_t i = integer_of(key, v);
    if (i < 0) fail(key, "must be a number of bytes >= 0, got " + std::to_string(i));
    check(key, static_cast<std::size_t>(i));
    return static_cast<std::size_t>(i);
  }
  KeyValue write(std::size_t x) const { return static_cast<std::int64_t>(x); }
  // A number, not only an integer, so that 3.0 is refused as what it is rather than as a word.
  KeyValue read_text(std::string_view text) const { return number_or_text(text); }
};

// A plain number: at least `lo` (or above it, when `lo_open`), and at most `hi` when given.
struct NumberKind {
  using Value = double;
  double lo;
  bool lo_open = false;
  std::optional<double> hi;
  std::string_view unit_words;  // " of seconds", for the type error
  static constexpr KeyType type = KeyType::number;
  std::string range() const {
    if (!hi) return (lo_open ? "> " : ">= ") + shortest(lo);
    return (lo_open ? "(" : "[") + shortest(lo) + ", " + shortest(*hi) + "]";
  }
  void check(std::string_view key, double x) const {
    const bool low = lo_open ? !(x > lo) : !(x >= lo);
    if (!std::isfinite(x) || low || (hi && x > *hi))
      fail(key, std::string(hi ? "must be in " : "must be ") + range() + ", got " + shortest(x));
  }
  double read(std::string_view key, const KeyValue& v) const {
    const double x = number_of(key, v, unit_words);
    check(key, x);
    return x;
  }
  KeyValue write(double x) const { return x; }
  KeyValue read_text(std::string_view text) const { return number_or_text(text); }
};

struct BooleanKind {
  using Value = bool;
  static constexpr KeyType type = KeyType::boolean;
  std::string range() const { return "true or false"; }
  void check(std::string_view, bool) const {}
  bool read(std::string_view key, const KeyValue& v) const {
    if (auto* b = std::get_if<bool>(&v)) return *b;
    fail(key, "must be true or false, got " + described(v));
  }
  KeyValue write(bool x) const { return x; }
  KeyValue read_text(std::string_view text) const {
    if (text == "true") return true;
    if (text == "false") return false;
    return std::string(text);
  }
};

// One of a few words, read and written by the type's own parse and to_string (which name the key in their errors).
template <class T>
struct ChoiceKind {
  using Value = T;
  std::function<T(std::string_view)> parse;
  std::function<std::string(const T&)> name;
  std::function<std::string()> choices;
  static constexpr KeyType type = KeyType::choice;
  std::string range() const { return choices(); }
  void check(std::string_view, const T&) const {}
  T read(std::string_view key, const KeyValue& v) const {
    try {
      return parse(string_of(key, v));
    } catch (const ConfigError& e) {
      if (e.key == key) throw;
      throw ConfigError(std::string(key), e.what());
    }
  }
  KeyValue write(const T& x) const { return name(x); }
  KeyValue read_text(std::string_view text) const {
    // A quoted word, as TOML writes it, is the word.
    if (text.size() >= 2 && (text.front() == '"' || text.front() == '\'') && text.back() == text.front())
      return std::string(text.substr(1, text.size() - 2));
    return std::string(text);
  }
};

template <class Owner>
Owner& part_of(MachineSetup& s) {
  if constexpr (std::is_same_v<Owner, MachineConfig>)
    return s.config;
  else if constexpr (std::is_same_v<Owner, EmulatorSettings>)
    return s.settings;
  else
    return s;
}

template <class Owner>
const Owner& part_of(const MachineSetup& s) {
  return part_of<Owner>(const_cast<MachineSetup&>(s));
}

template <class Owner>
constexpr KeyScope scope_of() {
  if constexpr (std::is_same_v<Owner, MachineConfig>)
    return KeyScope::machine;
  else if constexpr (std::is_same_v<Owner, EmulatorSettings>)
    return KeyScope::emulator;
  else
    return KeyScope::file;
}

// A row's binding: the field `member` of Owner (MachineConfig, EmulatorSettings or MachineSetup) holds a Kind.
template <class Owner, class Kind>
class Field final : public detail::KeyBinding {
 public:
  using Value = typename Kind::Value;
  // `after` runs after the key is set: a key that replaces another clears it (the later setting wins).
  Field(Value Owner::*member, Kind kind, std::string unit, std::string default_text = {},
        std::function<void(MachineSetup&)> after = {})
      : member_(member),
        kind_(std::move(kind)),
        unit_(std::move(unit)),
        default_text_(std::move(default_text)),
        after_(std::move(after)) {}

  KeyScope scope() const override { return scope_of<Owner>(); }
  KeyType type() const override { return Kind::type; }
  std::string unit() const override { return unit_; }
  std::string range() const override { return kind_.range(); }
  std::string default_text() const override {
    if (!default_text_.empty()) return default_text_;
    const MachineSetup pristine;
    const Value& v = part_of<Owner>(pristine).*member_;
    if constexpr (requires { kind_.default_text(v); })
      return kind_.default_text(v);
    else
      return plain(*get(pristine));
  }
  KeyValue read(std::string_view text) const override { return kind_.read_text(text); }
  void set(std::string_view key, MachineSetup& setup, const KeyValue& value) const override {
    part_of<Owner>(setup).*member_ = kind_.read(key, value);
    if (after_) after_(setup);
  }
  std::optional<KeyValue> get(const MachineSetup& setup) const override {
    const Owner& owner = part_of<Owner>(setup);
    if constexpr (requires { kind_.write(owner.*member_, owner); })
      return kind_.write(owner.*member_, owner);
    else
      return kind_.write(owner.*member_);
  }
  void check(std::string_view key, const MachineConfig& c) const override {
    if constexpr (std::is_same_v<Owner, MachineConfig>) {
      // A kind whose range depends on another key of the machine (the topology's on d) is checked with it.
      if constexpr (requires { kind_.check(key, c.*member_, c); })
        kind_.check(key, c.*member_, c);
      else
        kind_.check(key, c.*member_);
    }
  }
  void check(std::string_view key, const EmulatorSettings& s) const override {
    if constexpr (std::is_same_v<Owner, EmulatorSettings>) kind_.check(key, s.*member_);
  }

 private:
  Value Owner::*member_;
  Kind kind_;
  std::string unit_;
  std::string default_text_;
  std::function<void(MachineSetup&)> after_;
};

template <class Owner, class Kind>
std::shared_ptr<const detail::KeyBinding> field(typename Kind::Value Owner::*member, Kind kind, std::string unit,
                                                std::string default_text = {},
                                                std::function<void(MachineSetup&)> after = {}) {
  return std::make_shared<Field<Owner, Kind>>(member, std::move(kind), std::move(unit), std::move(default_text),
                                              std::move(after));
}

ChoiceKind<Switching> switching_kind() {
  return {parse_switching, [](Switching s) { return std::string(to_string(s)); },
          [] { return std::string("circuit, store_and_forward or loggp"); }};
}
// The floating-point element of the programs run on the machine: the matrix multiplications hold and send them.
ChoiceKind<std::size_t> element_kind() {
  return {[](std::string_view text) -> std::size_t {
            if (text == "float") return 4;
            if (text == "double") return 8;
            throw ConfigError("element", "'" + std::string(text) + "' is not float or double");
          },
          [](std::size_t bytes) { return std::string(bytes == 4 ? "float" : "double"); },
          [] { return std::string("float or double"); }};
}
// LogGP's g, which must stay within 2o + L under switching = loggp: hcemu's ports hold a message's input for its gap
// up to the moment its receive completes, and that hold must fit after the message starts (docs/model.md §12).
struct LogGPGapKind {
  using Value = double;
  TimeKind time;
  static constexpr KeyType type = KeyType::time;
  std::string range() const { return time.range() + ", and at most 2·loggp_overhead + loggp_latency under loggp"; }
  void check(std::string_view key, double x, const MachineConfig& owner) const {
    time.check(key, x);
    if (owner.switching != Switching::loggp) return;
    const Time bound = 2 * from_us(owner.loggp_overhead) + from_us(owner.loggp_latency);
    if (from_us(x) > bound)
      fail(key, "must be at most 2·loggp_overhead + loggp_latency = " + shortest(to_us(bound)) + " µs under "
                "switching = loggp (docs/model.md §12), got " + shortest(x));
  }
  double read(std::string_view key, const KeyValue& v) const { return time.read(key, v); }
  KeyValue write(double x) const { return x; }
  KeyValue read_text(std::string_view text) const { return number_or_text(text); }
};

ChoiceKind<Protocol> protocol_kind() {
  return {parse_protocol, [](Protocol p) { return std::string(to_string(p)); },
          [] { return std::string("forced or unforced"); }};
}
ChoiceKind<Timing> timing_kind() {
  return {parse_timing, [](Timing t) { return std::string(to_string(t)); },
          [] { return std::string("virtual, wall or native"); }};
}
ChoiceKind<Ports> ports_kind() {
  return {Ports::parse, [](const Ports& p) { return p.str(); }, [] { return std::string("one, half, k:N or all"); }};
}
// The topology, and whether it fits the dimension (a square torus needs an even d; given sides, 2^d nodes).
struct TopologyKind {
  using Value = Topology;
  static constexpr KeyType type = KeyType::choice;
  std::string range() const { return "cube, torus, torus:RxC, mesh or mesh:RxC"; }
  void check(std::string_view key, const Topology& t, const MachineConfig& owner) const {
    try {
      t.sides(owner.d);
    } catch (const ConfigError& e) {
      if (e.key == key) throw;
      throw ConfigError(std::string(key), e.what());
    }
  }
  Topology read(std::string_view key, const KeyValue& v) const {
    return ChoiceKind<Topology>{Topology::parse, [](const Topology& t) { return t.str(); }, [this] { return range(); }}
        .read(key, v);
  }
  KeyValue write(const Topology& t) const { return t.str(); }
  KeyValue read_text(std::string_view text) const { return ChoiceKind<Topology>{}.read_text(text); }
};

ChoiceKind<EngineKind> engine_kind() {
  return {parse_engine, [](EngineKind e) { return std::string(to_string(e)); },
          [] {
            std::string text;
            for (EngineKind e : kEngineKinds)
              text += (text.empty() ? "" : " or ") + std::string(to_string(e)) +
                      " (d <= " + std::to_string(max_dimension(e)) + ")";
            return text;
          }};
}

// The largest time_scale: a wait of t model picoseconds takes t·time_scale/1000 host nanoseconds, and the longest
// model time, 2^62 ps (docs/model.md, The range of model time), must stay within the 2^63 ns of the host's clock.
constexpr double kMaxTimeScale = 1000;

// δ' = delta_msg_per_d · d must stay a valid time on the largest cube, spread over MPI ranks or not.
TimeKind per_dimension_time() {
  const int d = kMaxSpreadDimension;
  return {TimeKind{}.max / d, "1e9/" + std::to_string(d)};
}

}  // namespace

// ----- The table ---------------------------------------------------------------------------------------------------

const std::vector<ConfigKey>& config_keys() {
  using M = MachineConfig;
  using E = EmulatorSettings;
  using S = MachineSetup;
  const TimeKind time;
  static const std::vector<ConfigKey> keys = {
      // The machine of the papers: docs/model.md §2.
      {"d", "", "-d,--dim", "dimension: 2^d nodes (a square torus or mesh: 2^(d/2) x 2^(d/2))",
       field(&M::d, IntegerKind<int>{0, kMaxSpreadDimension}, "")},
      {"lambda", "λ", "", "start-up of one transfer (one packet)", field(&M::lambda, time, "µs")},
      {"lambda0", "λ0", "",
       "start-up of a zero-byte message; follows lambda unless set, so a preset that sets it keeps it when only lambda "
       "changes",
       field(&M::lambda0, DefaultedTimeKind{&M::lambda, "lambda"}, "µs")},
      {"tau", "τ", "", "time per byte on a link", field(&M::tau, time, "µs/byte")},
      {"delta_hop", "δ", "", "circuit set-up per hop", field(&M::delta_hop, time, "µs")},
      {"delta_msg", "δ'", "", "circuit set-up per message",
       field(&M::delta_msg, time, "µs", {}, [](S& s) { s.delta_msg_per_d.reset(); })},
      {"delta_msg_per_d", "δ'/d", "", "δ' that grows with the cube: delta_msg = delta_msg_per_d · d (files only)",
       field(&S::delta_msg_per_d, OptionalTimeKind{per_dimension_time()}, "µs", {},
             [](S& s) { s.config.delta_msg = 0; })},
      {"rho", "ρ", "", "local copy or permutation, per byte (Node::copy, Node::permute)",
       field(&M::rho, time, "µs/byte")},
      {"barrier_a", "Q(d)", "", "barrier cost Q(d) = barrier_a + barrier_b · d", field(&M::barrier_a, time, "µs")},
      {"barrier_b", "Q(d)", "", "barrier cost Q(d) = barrier_a + barrier_b · d", field(&M::barrier_b, time, "µs")},
      {"packet", "B_m", "", "largest packet, each paying its own start-up; 0 = no limit",
       field(&M::packet, BytesKind{0}, "bytes")},
      {"flop", "t_a", "", "per floating-point operation (Node::compute)", field(&M::flop, time, "µs/flop")},
      {"sys_copy", "", "", "per byte copied out of the system buffer by a late UNFORCED receive",
       field(&M::sys_copy, time, "µs/byte")},
      // The short-message protocol (Nicol & Bokhari 1994 §4): docs/model.md §13.
      {"short_limit", "", "",
       "short-message protocol: packets of 1..short_limit bytes start up in lambda_short and move at tau_short; 0 = "
       "none (Nicol & Bokhari 1994 §4: the iPSC/860 handles messages of 100 bytes or fewer differently)",
       field(&M::short_limit, BytesKind{0}, "bytes")},
      {"lambda_short", "λs", "", "start-up of a packet of 1..short_limit bytes; follows lambda unless set",
       field(&M::lambda_short, DefaultedTimeKind{&M::lambda, "lambda"}, "µs")},
      {"tau_short", "τs", "", "time per byte of a packet of 1..short_limit bytes; follows tau unless set",
       field(&M::tau_short, DefaultedTimeKind{&M::tau, "tau"}, "µs/byte")},
      // The Intel iPSC's measured overheads (Johnsson & Ho 1987 §1.3, §5.1): docs/model.md §14.
      {"compute_overhead", "t_o", "",
       "fixed time of every Node::compute call, whatever its flops (Johnsson & Ho 1987 §5.1: the loop overhead that "
       "made N multiplication steps dearer than one or two)",
       field(&M::compute_overhead, time, "µs")},
      {"split_copy", "σ", "",
       "per byte of a message longer than packet, on top of tau: the system's copy of a message it splits into "
       "packets (Johnsson & Ho 1987 §1.3, §5.1: buffers past the 1 KB internal packet made the hybrid slower)",
       field(&M::split_copy, time, "µs/byte")},
      {"port_overlap", "f", "",
       "fraction of a transfer's hold of the node's port (output, and input) that the node's next transfer may "
       "overlap; links are held whole, so only a transfer on another link gains (Johnsson & Ho 1987 §1.3: an overlap "
       "of about 20% on the iPSC); no effect with ports = all",
       field(&M::port_overlap, NumberKind{0, false, 1.0, ""}, "")},
      {"element", "", "",
       "the floating-point element the programs hold and send: double (8 bytes) or float (4, the Intel iPSC's in "
       "Johnsson & Ho 1987); the matrix multiplications' default",
       field(&M::element, element_kind(), "")},
      {"switching", "", "--switching",
       "how a message crosses the machine: one circuit, hop by hop, or the LogGP model (no links, the loggp_ keys)",
       field(&M::switching, switching_kind(), "")},
      // LogGP (Alexandrov, Ionescu, Schauser & Scheiman 1995): docs/model.md §12. Read only under switching = loggp.
      {"loggp_latency", "L", "", "LogGP: from a message's injection into the network to its arrival",
       field(&M::loggp_latency, time, "µs")},
      {"loggp_overhead", "o", "", "LogGP: the sender's, and again the receiver's, processing of one message",
       field(&M::loggp_overhead, time, "µs")},
      {"loggp_gap", "g", "", "LogGP: least time between two messages sent, or received, by one node",
       field(&M::loggp_gap, LogGPGapKind{}, "µs")},
      {"loggp_gap_per_byte", "G", "", "LogGP: per byte of a message after its first",
       field(&M::loggp_gap_per_byte, time, "µs/byte")},
      {"topology", "", "--topology",
       "the 2^d-node hypercube (e-cube routes), or an R x C torus or mesh (routes x then y); square without sides",
       field(&M::topology, TopologyKind{}, "")},
      {"ports", "", "--ports", "transfers a node drives at once: one full duplex, half duplex, N, or one per link",
       field(&M::ports, ports_kind(), "")},
      {"protocol", "", "--protocol",
       "forced: a message that arrives before its receive is posted is lost; unforced: it waits in a buffer",
       field(&M::protocol, protocol_kind(), "")},
      // How the emulator runs the machine: docs/model.md §8.
      {"timing", "", "--timing", "virtual: model clocks; wall: real waits scaled by time_scale; native: no delay",
       field(&E::timing, timing_kind(), "")},
      {"time_scale", "", "--time-scale",
       "wall timing: real seconds per model second; at most 1000, since a wait of t model picoseconds takes "
       "t·time_scale/1000 host nanoseconds, and the longest model time, 2^62 ps, must stay within the 2^63 ns of the "
       "host's clock",
       field(&E::time_scale, NumberKind{1, false, kMaxTimeScale, ""}, "")},
      {"engine", "", "--engine",
       "tasks: node threads as lightweight threads on oneTBB's worker pool; os_threads: one OS thread per node",
       field(&E::engine, engine_kind(), "", "tasks, or $HCEMU_ENGINE")},
      {"workers", "", "--workers",
       "tasks engine: host threads that run the nodes, never more than the nodes; 0 = one per core (MPI ranks on one "
       "host that mpirun did not bind share its cores out; more than the cores take turns on them)",
       field(&E::workers, IntegerKind<int>{0, 1024}, "")},
      {"arena_bytes", "", "", "memory arena per node", field(&E::arena_bytes, BytesKind{4096}, "bytes")},
      {"stack_bytes", "", "", "stack per node thread", field(&E::stack_bytes, BytesKind{64u << 10}, "bytes")},
      {"huge_pages", "", "",
       "true: the nodes' buffers, request slots, matching tables and groups of receives in transparent huge pages "
       "where the kernel "
       "allows (fewer page faults; on a VM that hands free memory back to its host, a first run can be slower)",
       field(&E::huge_pages, BooleanKind{}, "")},
      {"memory_limit", "", "",
       "the most memory the process may hold, as the emulator counts it: what the process held before the "
       "machine's first run, plus its nodes' stacks (a page each, then the pages a run left them holding), runtimes, "
       "buffers, request slots, matching tables and groups of receives; a run that would pass it stops with an error "
       "instead (not counted: messages in flight, a kernel's own vectors, the engine's and the coordinator's per-node "
       "state, a stack's growth within a run); 0 = what the host has available before the machine's first run, less "
       "an eighth",
       field(&E::memory_limit, BytesKind{0}, "bytes")},
      {"yield_seed", "", "", "!= 0: random thread yields in the runtime, to shake out races",
       field(&E::yield_seed, IntegerKind<unsigned>{0, std::numeric_limits<unsigned>::max()}, "")},
      {"trace", "", "", "record spans for a Chrome trace", field(&E::trace, BooleanKind{}, "")},
      {"engine_stats", "", "--stats",
       "true: report how the engine spent the host's time (placement passes, transfers placed, time placing, "
       "running and idle per worker, the serial fraction; docs/engine.md)",
       field(&E::engine_stats, BooleanKind{}, "")},
      {"placing_share_from", "", "",
       "tasks engine: a level of at least this many transfers that share no link, sender or receiver is placed by "
       "every free worker at once (docs/engine.md); 0 = the placer places alone. The results are the same either way",
       field(&E::placing_share_from, IntegerKind<std::size_t>{0, 1 << 30}, "")},
      {"placing_early", "", "",
       "tasks engine, virtual timing: true = a worker whose nodes have all stopped places what no running node can "
       "still come before, without waiting for every node to stop (docs/engine.md). The results are the same either "
       "way; on 2 cores it is slower",
       field(&E::placing_early, BooleanKind{}, "")},
      {"placing_lookahead_limit", "", "",
       "the widest lookahead the placer uses: no transfer's lead counts for more, so batches (and, spread over MPI "
       "ranks, the rounds' windows) are at most this wide (docs/engine.md); 0 = the model's own. The results are the "
       "same either way; narrower windows place the same transfers in more, smaller batches",
       field(&E::placing_lookahead_limit, TimeKind{}, "µs")},
      {"mpi_timeout_seconds", "", "",
       "spread over MPI ranks: how long a rank waits in one exchange for the other ranks before it ends the job with "
       "an error (a rank stopped, killed or far slower); a rank's nodes may compute no longer than this between two "
       "exchanges; 0 = wait forever",
       field(&E::mpi_timeout_seconds, NumberKind{0, false, 86400.0, " of seconds"}, "s")},
  };
  return keys;
}

const ConfigKey* find_config_key(std::string_view name) {
  for (const ConfigKey& key : config_keys())
    if (key.name == name) return &key;
  return nullptr;
}

std::string_view to_string(KeyScope scope) {
  switch (scope) {
    case KeyScope::machine:
      return "machine";
    case KeyScope::emulator:
      return "emulator";
    case KeyScope::file:
      return "file";
  }
  return "?";
}

std::string_view to_string(KeyType type) {
  switch (type) {
    case KeyType::time:
      return "time";
    case KeyType::integer:
      return "integer";
    case KeyType::bytes:
      return "bytes";
    case KeyType::number:
      return "number";
    case KeyType::boolean:
      return "boolean";
    case KeyType::choice:
      return "choice";
  }
  return "?";
}

// ----- ConfigKey ---------------------------------------------------------------------------------------------------

ConfigKey::ConfigKey(std::string_view name_, std::string_view symbol_, std::string_view flag_, std::string_view doc_,
                     std::shared_ptr<const detail::KeyBinding> binding)
    : name(name_),
      symbol(symbol_),
      flag(flag_),
      doc(doc_),
      scope(binding->scope()),
      type(binding->type()),
      binding_(std::move(binding)) {}

std::string ConfigKey::unit() const { return binding_->unit(); }
std::string ConfigKey::range() const { return binding_->range(); }
std::string ConfigKey::default_text() const { return binding_->default_text(); }
void ConfigKey::set(MachineSetup& setup, const KeyValue& value) const { binding_->set(name, setup, value); }
KeyValue ConfigKey::read(std::string_view text) const { return binding_->read(text); }
std::optional<KeyValue> ConfigKey::get(const MachineSetup& setup) const { return binding_->get(setup); }
void ConfigKey::check(const MachineConfig& config) const { binding_->check(name, config); }
void ConfigKey::check(const EmulatorSettings& settings) const { binding_->check(name, settings); }

MachineConfig MachineSetup::at_dimension(int d) const {
  MachineConfig c = config;
  c.d = d;
  if (delta_msg_per_d) c.delta_msg = *delta_msg_per_d * d;
  return c;
}

}  // namespace hcemu
