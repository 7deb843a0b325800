// `sweep --csv`: RFC 4180 quoting (csv_writer.hpp), one row per algorithm and m with every column docs/cli.md lists,
// and a config name with a comma and quotes that comes back whole.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/csv_writer.hpp"
#include "run_hcemu.hpp"

namespace hcemu::cli {
namespace {

using test::hcemu;
using test::Result;
using test::runs_of;

namespace fs = std::filesystem;

using Record = std::vector<std::string>;

// The records of a CSV text by RFC 4180 §2, records ending in LF: the reader a script would use, written out here so
// that the test does not read the CSV with the code that wrote it.
std::vector<Record> parse_csv(const std::string& text) {
  std::vector<Record> records;
  Record record;
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      record.push_back(std::move(field));
      field.clear();
    } else if (c == '\n') {
      record.push_back(std::move(field));
      field.clear();
      records.push_back(std::move(record));
      record.clear();
    } else {
      field += c;
    }
  }
  EXPECT_FALSE(quoted) << "a quoted field is not closed";
  EXPECT_TRUE(field.empty() && record.empty()) << "the last record does not end in LF";
  return records;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

struct Scratch {
  fs::path folder = fs::temp_directory_path() / ("hcemu-csv-" + std::to_string(::getpid()));
  Scratch() { fs::create_directories(folder); }
  ~Scratch() { fs::remove_all(folder); }
};

// ---- the quoting ------------------------------------------------------------------------------------------------

TEST(CsvField, PlainTextIsWrittenAsItIs) {
  EXPECT_EQ(csv_field("direct (5)"), "direct (5)");
  EXPECT_EQ(csv_field(""), "");
  EXPECT_EQ(csv_field(" spaces kept "), " spaces kept ");
}

TEST(CsvField, ACommaIsQuoted) { EXPECT_EQ(csv_field("standard (1,1)"), "\"standard (1,1)\""); }

TEST(CsvField, AQuoteIsDoubledInsideQuotes) { EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\""); }

TEST(CsvField, LineBreaksAreQuoted) {
  EXPECT_EQ(csv_field("a\nb"), "\"a\nb\"");
  EXPECT_EQ(csv_field("a\rb"), "\"a\rb\"");
}

TEST(CsvRecord, FieldsAreJoinedByCommasAndEndInLf) {
  std::ostringstream out;
  write_csv_record(out, {"a", "b,c", "", "d\"e"});
  EXPECT_EQ(out.str(), "a,\"b,c\",,\"d\"\"e\"\n");
  EXPECT_EQ(parse_csv(out.str()), (std::vector<Record>{{"a", "b,c", "", "d\"e"}}));
}

// ---- sweep --csv -------------------------------------------------------------------------------------------------

// The columns as docs/cli.md lists them, in order.
const Record kColumns = {
    "kernel",      "algo",        "curve",          "partition", "params",   "m",     "config",
    "topology",    "d",           "nodes",          "ports",     "switching", "protocol", "sync",
    "timing",      "seed",        "predicted_us",   "emulated_us", "lower_bound_us", "verified", "optimal",
    "messages",    "bytes",       "contention_events", "forced_discards", "error"};

std::string joined(const Record& fields) {
  std::string text;
  for (const auto& f : fields) text += (text.empty() ? "" : ",") + f;
  return text;
}

TEST(SweepCsv, TheDocsListEveryColumnInOrder) {
  const std::string docs = read_file(fs::path(HCEMU_CLI_TEST_DATA) / ".." / ".." / ".." / "docs" / "cli.md");
  EXPECT_NE(docs.find("\n" + joined(kColumns) + "\n"), std::string::npos)
      << "docs/cli.md does not show the header " << joined(kColumns);
}

TEST(SweepCsv, OneRowPerAlgorithmAndSizeWithTheJsonsValues) {
  const Scratch scratch;
  const fs::path csv = scratch.folder / "points.csv";
  const auto runs = runs_of(hcemu("sweep exchange --algo direct,standard -d 3 -m 0,64 --json --csv " + csv.string()));
  const auto records = parse_csv(read_file(csv));
  ASSERT_EQ(records.size(), 5u);  // the header and two algorithms at two sizes
  EXPECT_EQ(records[0], kColumns);
  ASSERT_EQ(runs.size(), 4u);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    std::map<std::string, std::string> row;
    for (std::size_t c = 0; c < kColumns.size(); ++c) row[kColumns[c]] = records[i + 1].at(c);
    const auto& run = runs[i];
    EXPECT_EQ(row["algo"], run["algo"]);
    EXPECT_EQ(row["m"], std::to_string(run["m"].get<std::size_t>()));
    EXPECT_EQ(row["config"], "ipsc860");
    EXPECT_EQ(row["topology"], "cube");
    EXPECT_EQ(row["d"], "3");
    EXPECT_EQ(row["nodes"], "8");
    EXPECT_EQ(row["ports"], "one");  // the iPSC/860 preset: one port, circuit switched, FORCED
    EXPECT_EQ(row["switching"], "circuit");
    EXPECT_EQ(row["protocol"], "forced");
    EXPECT_EQ(row["sync"], "none");
    EXPECT_EQ(row["timing"], "virtual");
    EXPECT_EQ(std::stod(row["predicted_us"]), run["predicted_us"].get<double>());
    EXPECT_EQ(std::stod(row["emulated_us"]), run["emulated_us"].get<double>());
    EXPECT_EQ(std::stod(row["lower_bound_us"]), run["lower_bound_us"].get<double>());
    EXPECT_EQ(row["verified"], "true");
    EXPECT_EQ(row["optimal"], run["optimal"].get<bool>() ? "true" : "false");
    EXPECT_EQ(row["messages"], std::to_string(run["messages"].get<std::uint64_t>()));
    EXPECT_EQ(row["bytes"], std::to_string(run["bytes"].get<std::uint64_t>()));
    EXPECT_EQ(row["contention_events"], "0");
    EXPECT_EQ(row["forced_discards"], "0");
    EXPECT_EQ(row["error"], "");
  }
  // Standard's label holds a comma: the field is quoted, and reads back whole.
  EXPECT_EQ(records[2][2], "standard (1,1,1)");
  EXPECT_EQ(records[2][3], "1-1-1");
}

TEST(SweepCsv, AConfigNameWithACommaAndQuotesComesBackWhole) {
  const Scratch scratch;
  const fs::path config = scratch.folder / "tuned.toml";
  std::ofstream(config) << "base = \"ipsc860\"\nname = 'iPSC/860, \"tuned\"'\n";
  const fs::path csv = scratch.folder / "points.csv";
  const Result r = hcemu("sweep exchange --algo direct -d 2 -m 8 --no-progress --config " + config.string() +
                         " --csv " + csv.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string text = read_file(csv);
  EXPECT_NE(text.find(",\"iPSC/860, \"\"tuned\"\"\","), std::string::npos) << text;
  const auto records = parse_csv(text);
  ASSERT_EQ(records.size(), 2u);
  ASSERT_EQ(records[1].size(), kColumns.size());
  EXPECT_EQ(records[1][6], "iPSC/860, \"tuned\"");
}

TEST(SweepCsv, PredictedOnlyLeavesTheEmulatedColumnsEmpty) {
  const Scratch scratch;
  const fs::path csv = scratch.folder / "points.csv";
  const Result r = hcemu("sweep exchange --algo direct -d 2 -m 8 --predicted-only --csv " + csv.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto records = parse_csv(read_file(csv));
  ASSERT_EQ(records.size(), 2u);
  std::map<std::string, std::string> row;
  for (std::size_t c = 0; c < kColumns.size(); ++c) row[kColumns[c]] = records[1].at(c);
  EXPECT_FALSE(row["predicted_us"].empty());
  for (const char* column : {"emulated_us", "verified", "messages", "bytes", "contention_events", "forced_discards"})
    EXPECT_EQ(row[column], "") << column;
}

}  // namespace
}  // namespace hcemu::cli
