#pragma once
// Checks of option values that CLI11's conversions let through: a negative number read into an unsigned one wraps
// (`-m -5` would be 2^64 - 5 bytes), an empty string reads as "not given". Each check says what it expects; the
// parser's error then names the option (app.cpp prints it as one sentence after "hcemu:").
#include <CLI/CLI.hpp>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <string>

#include "cli/output_file.hpp"
#include "harness/algorithm.hpp"
#include "hcemu/errors.hpp"

namespace hcemu::cli {

// A whole number in [least, most] written in plain decimal digits.
inline CLI::Validator whole_number(std::uint64_t least, std::uint64_t most, const std::string& what) {
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        std::uint64_t value = 0;
        const char* end = text.data() + text.size();
        auto [stop, ec] = std::from_chars(text.data(), end, value);
        if (text.empty() || ec != std::errc() || stop != end || value < least || value > most)
          return "expected " + what + ", got '" + text + "'";
        return "";
      },
      "");
}

// The size m: 0 .. harness::kMaxCaseBytes bytes.
inline CLI::Validator size_in_bytes() {
  return whole_number(0, harness::kMaxCaseBytes, "a size in bytes from 0 to 2^40 (1 TiB)");
}

inline CLI::Validator non_empty(const std::string& what) {
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        return text.empty() ? "expected " + what + ", got an empty string" : "";
      },
      "");
}

// Throws UsageError when `path` cannot be written, so that a long run does not find out at its end; leaves behind
// no file that was not there, and an existing one as it was (check_output_path, cli/output_file.hpp).
inline void check_writable(const std::string& path, const std::string& option) { check_output_path(path, option); }

}  // namespace hcemu::cli
