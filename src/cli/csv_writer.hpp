#pragma once
// CSV by the rules of RFC 4180 §2: fields separated by commas, and a field that holds a comma, a double quote, a CR
// or an LF enclosed in double quotes, each double quote in it doubled. Records end in LF, as Unix tools and CSV
// readers take them (RFC 4180 names CRLF).
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace hcemu::cli {

// The field as it is written: `text` itself, or quoted when it must be (`a,b` -> `"a,b"`, `say "hi"` ->
// `"say ""hi"""`).
std::string csv_field(std::string_view text);

// One record: the fields, each by csv_field, separated by commas, and an LF.
void write_csv_record(std::ostream& out, const std::vector<std::string>& fields);

}  // namespace hcemu::cli
