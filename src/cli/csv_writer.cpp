#include "cli/csv_writer.hpp"

#include <ostream>

namespace hcemu::cli {

std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + '"';
}

void write_csv_record(std::ostream& out, const std::vector<std::string>& fields) {
  for (std::size_t i = 0; i < fields.size(); ++i) out << (i == 0 ? "" : ",") << csv_field(fields[i]);
  out << '\n';
}

}  // namespace hcemu::cli
