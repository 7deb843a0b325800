#pragma once
// A plain-text table for the terminal: columns padded to their widest cell, numbers right-aligned.
#include <iosfwd>
#include <string>
#include <vector>

namespace hcemu::cli {

class TextTable {
 public:
  explicit TextTable(std::vector<std::string> headers) : headers_(std::move(headers)) {}
  void add_row(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }
  void print(std::ostream& out) const;

 private:
  std::vector<std::string> headers_;
  std::vector<std::vector<std::string>> rows_;
};

// A number with a fixed count of decimals ("1234.50").
std::string fixed(double value, int decimals = 2);
// A number in its shortest exact form ("0.394", "5.15", "1e-06").
std::string shortest(double value);

}  // namespace hcemu::cli
