#pragma once
// Checks of option values that CLI11's conversions let through: a negative number read into an unsigned one wraps
// (`-m -5` would be 2^64 - 5 bytes), an integer is read in the base its prefix says (`010` would be eight), an empty
// string reads as "not given". Each check says what it expects; the
// parser's error then names the option (app.cpp prints it as one sentence after "hcemu:").
#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <type_traits>

#include "cli/output_file.hpp"
#include "harness/algorithm.hpp"
#include "hcemu/errors.hpp"

namespace hcemu::cli {

// Every integer on the command line is decimal. CLI11 reads an integer option as strtoull(text, 0) would: 010 is
// eight, 0x3 three, 08 an error, and an unsigned option takes -1 as 2^64 - 1. The validators below run before that
// reading: each takes plain decimal digits (a '-' first only where the option is signed), drops leading zeros so that
// 010 is ten, and refuses anything else; the parser's error then names the option. Each is named "decimal";
// read_integers_in_decimal gives one to every integer option that has none.
namespace detail {
// Whether `text` is decimal digits, with a '-' first only when `is_signed`; if so, drops its leading zeros.
inline bool normalise_decimal(std::string& text, bool is_signed) {
  const bool negative = is_signed && !text.empty() && text.front() == '-';
  const std::size_t first = negative ? 1 : 0;
  if (text.size() == first || text.find_first_not_of("0123456789", first) != std::string::npos) return false;
  const std::size_t nonzero = std::min(text.find_first_not_of('0', first), text.size() - 1);
  text = (negative ? "-" : "") + text.substr(nonzero);
  return true;
}
}  // namespace detail

// Any integer: signed, or unsigned and so without a sign. `hidden` names an option that --help does not show, whose
// name CLI11 leaves out of the error.
inline CLI::Validator decimal_integer(bool is_signed, const std::string& hidden = "") {
  const std::string name = hidden.empty() ? "" : hidden + ": ";
  return CLI::Validator(
      [is_signed, name](std::string& text) -> std::string {
        const std::string given = text;
        if (detail::normalise_decimal(text, is_signed)) return "";
        std::string magnitude = given.empty() ? given : given.substr(1);
        if (!is_signed && given.starts_with('-') && detail::normalise_decimal(magnitude, false))
          return name + "expected a whole number >= 0, got '" + given + "'";
        return name + "expected a whole number in decimal digits, got '" + given + "'";
      },
      "", "decimal");
}

// A whole number in [least, most] written in decimal digits; `what` says what it is in the error. Give it with
// ->transform (read_integers_in_decimal makes it modifying if ->check was used).
inline CLI::Validator whole_number(std::uint64_t least, std::uint64_t most, const std::string& what) {
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        const std::string given = text;
        std::uint64_t value = 0;
        const bool decimal = detail::normalise_decimal(text, false);
        const char* end = text.data() + text.size();
        auto [stop, ec] = std::from_chars(text.data(), end, value);
        if (!decimal || ec != std::errc() || stop != end || value < least || value > most)
          return "expected " + what + ", got '" + given + "'";
        return "";
      },
      "", "decimal");
}

namespace detail {
template <class T>
struct IntegerOf {
  using type = T;
};
template <class T>
struct IntegerOf<std::optional<T>> {  // --root: an integer that may be left out
  using type = T;
};
}  // namespace detail

// An integer option that shows its own type name (NODE, BYTES) rather than CLI11's INT or UINT, by which
// read_integers_in_decimal finds the others: read in decimal digits, with no sign where T is unsigned.
template <class T>
CLI::Option* add_integer_option(CLI::App& app, const std::string& names, T& value, const std::string& help,
                                const std::string& type_name) {
  using Integer = typename detail::IntegerOf<T>::type;
  static_assert(std::is_integral_v<Integer>, "add_integer_option takes an integer");
  return app.add_option(names, value, help)
      ->transform(decimal_integer(std::is_signed_v<Integer>))
      ->type_name(type_name);
}

// Gives decimal_integer to every option of `app` and its subcommands that CLI11 reads as an integer under its own
// type name (INT, UINT) and has no "decimal" validator yet, and lets every "decimal" validator drop the leading
// zeros: run_main calls it once, after every command is declared, so that no integer option misses the rule.
inline void read_integers_in_decimal(CLI::App& app) {
  for (CLI::Option* option : app.get_options()) {
    try {
      option->get_validator("decimal")->non_modifying(false);
      continue;
    } catch (const CLI::OptionNotFound&) {
    }
    const std::string type = option->get_type_name();
    const std::string hidden =
        option->get_group().empty() && !option->get_lnames().empty() ? "--" + option->get_lnames().front() : "";
    if (type == "INT" || type == "UINT") option->transform(decimal_integer(type == "INT", hidden));
  }
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) read_integers_in_decimal(*sub);
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
