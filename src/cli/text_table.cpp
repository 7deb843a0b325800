#include "cli/text_table.hpp"

#include <algorithm>
#include <charconv>
#include <cctype>
#include <cstdio>
#include <ostream>

namespace hcemu::cli {

namespace {
// Display width of UTF-8 text: count the bytes that start a code point.
std::size_t width(const std::string& s) {
  return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0u) != 0x80u;
  }));
}

bool numeric(const std::string& s) {
  return !s.empty() && (std::isdigit(static_cast<unsigned char>(s.front())) || s.front() == '-' || s.front() == '+');
}
}  // namespace

void TextTable::print(std::ostream& out) const {
  std::vector<std::size_t> widths(headers_.size(), 0);
  for (std::size_t c = 0; c < headers_.size(); ++c) widths[c] = width(headers_[c]);
  for (const auto& row : rows_)
    for (std::size_t c = 0; c < row.size() && c < widths.size(); ++c) widths[c] = std::max(widths[c], width(row[c]));
  const auto line = [&](const std::vector<std::string>& cells, bool header) {
    for (std::size_t c = 0; c < widths.size(); ++c) {
      const std::string cell = c < cells.size() ? cells[c] : std::string();
      std::string pad(widths[c] - width(cell), ' ');
      if (c > 0) out << "  ";
      if (!header && numeric(cell)) out << pad << cell;
      else if (c + 1 < widths.size()) out << cell << pad;
      else out << cell;
    }
    out << '\n';
  };
  line(headers_, true);
  std::size_t total = 0;
  for (auto w : widths) total += w;
  out << std::string(total + 2 * (widths.empty() ? 0 : widths.size() - 1), '-') << '\n';
  for (const auto& row : rows_) line(row, false);
}

std::string fixed(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

std::string shortest(double value) {
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return ec == std::errc() ? std::string(buffer, end) : fixed(value, 6);
}

}  // namespace hcemu::cli
