#pragma once
// A JSON document written as it is made, laid out exactly as nlohmann::json::dump(2) lays out the same document (keys
// in the order given, which the caller keeps sorted where it must match a dump), so that a large report goes out
// without a tree of it in memory. Small parts can still be nlohmann::json values (value(const json&)).
#include <cstdint>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace hcemu::detail {

class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out);
  ~JsonWriter();  // flushes what is buffered
  JsonWriter(const JsonWriter&) = delete;
  JsonWriter& operator=(const JsonWriter&) = delete;

  void begin_object();
  void end_object();
  void begin_array();
  void end_array();
  // The next member's name, inside an object; its value follows.
  JsonWriter& key(std::string_view name);

  void value(const nlohmann::json& v);  // any value, indented where it lands
  void value(std::string_view text);
  void value(const char* text) { value(std::string_view(text)); }
  void value(bool b);
  void value(double x);
  void value(std::int64_t n);
  void value(std::uint64_t n);
  void value(int n) { value(static_cast<std::int64_t>(n)); }
  void value(unsigned n) { value(static_cast<std::uint64_t>(n)); }
  void null();

  // Ends the document's last line and writes out what is buffered.
  void end_document();
  // Writes out what is buffered.
  void flush();

 private:
  void before_value();  // the comma, new line and indentation a value needs where it lands
  void indent(std::size_t depth);
  void close(char bracket);  // ends the innermost object or array

  std::ostream& out_;
  std::string buffer_;
  struct Level {
    bool empty = true;
  };
  std::vector<Level> levels_;
  bool after_key_ = false;
};

}  // namespace hcemu::detail
