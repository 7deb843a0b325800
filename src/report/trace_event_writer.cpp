#include "report/trace_event_writer.hpp"

#include <ostream>

namespace hcemu::detail {

std::string exact_us(Time t) {
  const bool negative = t < 0;
  // Time's range is below 2^62 ps (hcemu/time.hpp), so its magnitude fits.
  const auto magnitude = static_cast<std::uint64_t>(negative ? -t : t);
  std::string text = std::to_string(magnitude / kPicosPerMicro);
  if (negative) text.insert(text.begin(), '-');  // not "-" + text: GCC 12 warns of an overlap there (-Wrestrict)
  std::uint64_t fraction = magnitude % kPicosPerMicro;
  if (fraction == 0) return text;
  std::string digits = std::to_string(fraction);
  digits.insert(0, 6 - digits.size(), '0');
  digits.erase(digits.find_last_not_of('0') + 1);
  return text + "." + digits;
}

void TraceEventWriter::event(const nlohmann::json& fields, std::optional<Time> ts, std::optional<Time> dur) {
  out_ << (open_ ? ",\n" : "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n");
  open_ = true;
  std::string times;
  if (ts) times += "\"ts\":" + exact_us(*ts);
  if (dur) times += std::string(times.empty() ? "" : ",") + "\"dur\":" + exact_us(*dur);
  const std::string rest = fields.dump();  // "{...}"
  if (times.empty()) {
    out_ << rest;
  } else if (fields.empty()) {
    out_ << '{' << times << '}';
  } else {
    out_ << '{' << times << ',' << rest.substr(1);
  }
}

void TraceEventWriter::finish() {
  out_ << (open_ ? "\n" : "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [") << "]}\n";
  open_ = false;
  flows_ = 0;
}

}  // namespace hcemu::detail
