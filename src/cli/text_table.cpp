#include "cli/text_table.hpp"

#include <algorithm>
#include <charconv>
#include <cctype>
#include <cstdio>
#include <iostream>
#include <ostream>

#include <sys/ioctl.h>
#include <unistd.h>

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

std::size_t terminal_width(const std::ostream& out) {
  if (out.rdbuf() != std::cout.rdbuf() || ::isatty(STDOUT_FILENO) != 1) return 0;
  struct winsize size {};
  if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) != 0 || size.ws_col < 40) return 0;
  return size.ws_col;
}

void TextTable::print(std::ostream& out) const { print(out, terminal_width(out)); }

void TextTable::print(std::ostream& out, std::size_t max_width) const {
  std::vector<std::size_t> widths(headers_.size(), 0);
  for (std::size_t c = 0; c < headers_.size(); ++c) widths[c] = width(headers_[c]);
  for (const auto& row : rows_)
    for (std::size_t c = 0; c < row.size() && c < widths.size(); ++c) widths[c] = std::max(widths[c], width(row[c]));
  const std::size_t sticky = std::min(sticky_, widths.size());
  std::vector<std::size_t> panel;
  std::size_t used = 0;
  for (std::size_t c = 0; c < sticky; ++c) panel.push_back(c), used += widths[c] + 2;
  bool first = true;
  // Each panel takes the sticky columns and as many of the rest as fit; a column wider than the terminal alone
  // still gets a panel of its own.
  for (std::size_t c = sticky; c < widths.size(); ++c) {
    if (max_width != 0 && panel.size() > sticky && used + widths[c] > max_width) {
      if (!first) out << '\n';
      print_columns(out, panel, widths);
      first = false;
      panel.resize(sticky);
      used = 0;
      for (std::size_t k = 0; k < sticky; ++k) used += widths[k] + 2;
    }
    panel.push_back(c);
    used += widths[c] + 2;
  }
  if (!first) out << '\n';
  print_columns(out, panel, widths);
}

void TextTable::print_columns(std::ostream& out, const std::vector<std::size_t>& columns,
                              const std::vector<std::size_t>& widths) const {
  const auto line = [&](const std::vector<std::string>& cells, bool header) {
    for (std::size_t i = 0; i < columns.size(); ++i) {
      const std::size_t c = columns[i];
      const std::string cell = c < cells.size() ? cells[c] : std::string();
      std::string pad(widths[c] - width(cell), ' ');
      if (i > 0) out << "  ";
      if (!header && numeric(cell)) out << pad << cell;
      else if (i + 1 < columns.size()) out << cell << pad;
      else out << cell;
    }
    out << '\n';
  };
  line(headers_, true);
  std::size_t total = 0;
  for (std::size_t c : columns) total += widths[c];
  out << std::string(total + 2 * (columns.empty() ? 0 : columns.size() - 1), '-') << '\n';
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
