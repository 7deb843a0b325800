#include "report/json_writer.hpp"

#include <charconv>
#include <cmath>
#include <ostream>

namespace hcemu::detail {

namespace {

// What is buffered before it goes to the stream: large enough that writes are few, small enough to stay in cache.
constexpr std::size_t kFlushAt = 1 << 16;

}  // namespace

JsonWriter::JsonWriter(std::ostream& out) : out_(out) { buffer_.reserve(kFlushAt + 4096); }

JsonWriter::~JsonWriter() { flush(); }

void JsonWriter::flush() {
  out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  buffer_.clear();
}

void JsonWriter::end_document() {
  buffer_ += '\n';
  flush();
}

void JsonWriter::indent(std::size_t depth) { buffer_.append(2 * depth, ' '); }

void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (levels_.empty()) return;  // the document itself
  Level& level = levels_.back();
  buffer_ += level.empty ? "\n" : ",\n";
  level.empty = false;
  indent(levels_.size());
}

JsonWriter& JsonWriter::key(std::string_view name) {
  Level& level = levels_.back();
  buffer_ += level.empty ? "\n" : ",\n";
  level.empty = false;
  indent(levels_.size());
  buffer_ += nlohmann::json(name).dump();
  buffer_ += ": ";
  after_key_ = true;
  return *this;
}

void JsonWriter::begin_object() {
  before_value();
  buffer_ += '{';
  levels_.push_back({});
}

void JsonWriter::begin_array() {
  before_value();
  buffer_ += '[';
  levels_.push_back({});
}

void JsonWriter::end_object() { close('}'); }

void JsonWriter::end_array() { close(']'); }

void JsonWriter::close(char bracket) {
  const bool empty = levels_.back().empty;
  levels_.pop_back();
  if (!empty) {
    buffer_ += '\n';
    indent(levels_.size());
  }
  buffer_ += bracket;
  if (buffer_.size() >= kFlushAt) flush();
}

void JsonWriter::value(const nlohmann::json& v) {
  before_value();
  // dump(2) indents from column 0; every line after the first moves to this value's depth (a newline inside a
  // string is written as \n, so each one here is the layout's).
  const std::string text = v.dump(2);
  std::string margin(1 + 2 * levels_.size(), ' ');
  margin.front() = '\n';
  std::size_t from = 0;
  for (std::size_t at = text.find('\n'); at != std::string::npos; at = text.find('\n', from)) {
    buffer_.append(text, from, at - from);
    buffer_ += margin;
    from = at + 1;
  }
  buffer_.append(text, from);
  if (buffer_.size() >= kFlushAt) flush();
}

void JsonWriter::value(std::string_view text) {
  before_value();
  buffer_ += nlohmann::json(text).dump();
}

void JsonWriter::value(bool b) {
  before_value();
  buffer_ += b ? "true" : "false";
}

void JsonWriter::value(double x) {
  before_value();
  if (!std::isfinite(x)) {
    buffer_ += "null";  // as dump writes NaN and infinity
    return;
  }
  // The very function dump uses for a double (its Grisu2 digits and layout: "4524.95", "95.0", "1e-05"), so that the
  // text is dump's to the byte; json(x).dump() would make a serializer, and ask for the locale, per number.
  char text[64];
  char* end = nlohmann::detail::to_chars(text, text + sizeof text, x);
  buffer_.append(text, end);
}

void JsonWriter::value(std::int64_t n) {
  before_value();
  char text[24];
  const auto end = std::to_chars(text, text + sizeof text, n).ptr;
  buffer_.append(text, end);
}

void JsonWriter::value(std::uint64_t n) {
  before_value();
  char text[24];
  const auto end = std::to_chars(text, text + sizeof text, n).ptr;
  buffer_.append(text, end);
}

void JsonWriter::null() {
  before_value();
  buffer_ += "null";
}

}  // namespace hcemu::detail
