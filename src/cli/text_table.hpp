#pragma once
// A plain-text table for the terminal: columns padded to their widest cell, numbers right-aligned.
#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

namespace hcemu::cli {

// A table wider than the terminal it is printed on is printed in panels, one under the other, each as wide as the
// terminal allows and each repeating the first `sticky` columns (the row's name); printed anywhere else (a file, a
// pipe), it is one table of any width.
class TextTable {
 public:
  explicit TextTable(std::vector<std::string> headers, std::size_t sticky = 1)
      : headers_(std::move(headers)), sticky_(sticky) {}
  void add_row(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }
  void print(std::ostream& out) const;
  // Panels at most `max_width` columns wide (0: one table).
  void print(std::ostream& out, std::size_t max_width) const;

 private:
  void print_columns(std::ostream& out, const std::vector<std::size_t>& columns,
                     const std::vector<std::size_t>& widths) const;

  std::vector<std::string> headers_;
  std::size_t sticky_;
  std::vector<std::vector<std::string>> rows_;
};

// The width of the terminal that standard output is, when `out` writes to it; 0 otherwise.
std::size_t terminal_width(const std::ostream& out);

// A number with a fixed count of decimals ("1234.50").
std::string fixed(double value, int decimals = 2);
// A number in its shortest exact form ("0.394", "5.15", "1e-06").
std::string shortest(double value);

}  // namespace hcemu::cli
