#pragma once
// The Chrome trace event format's file, written one event a line: {"displayTimeUnit": "ns", "traceEvents": [...]}.
// Its times are microseconds; ours are whole picoseconds, so each is written as the exact decimal (six places at
// most), never through a double, which would round a long run's times.
#include <cstdint>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "hcemu/time.hpp"

namespace hcemu::detail {

// `t` picoseconds as microseconds, exactly: 13000000 -> "13", 1500000 -> "1.5", 1234567890123456 ->
// "1234567890.123456".
std::string exact_us(Time t);

class TraceEventWriter {
 public:
  explicit TraceEventWriter(std::ostream& out) : out_(out) {}

  // One event: its `fields` (ph, name, pid, tid, args...), with "ts" and, for a complete event, "dur" in front.
  void event(const nlohmann::json& fields, std::optional<Time> ts = {}, std::optional<Time> dur = {});
  // Flow ids are unique in the file: runs in one file number their messages alike.
  std::uint64_t new_flow_id() { return ++flows_; }
  // Closes the list and the file's object; the writer starts a new file after it.
  void finish();

 private:
  std::ostream& out_;
  bool open_ = false;
  std::uint64_t flows_ = 0;
};

}  // namespace hcemu::detail
