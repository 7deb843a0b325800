// The docs' tables of config keys and of algorithms are the tables they are read from (hcemu/config_keys.hpp,
// src/harness/algorithm.hpp), as they are now: a page that drifts from them fails here (HCEMU_UPDATE_DOCS=1 rewrites
// the pages).
#include "docs_tables.hpp"

#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <fstream>

namespace hcemu::test {
namespace {

const std::vector<GeneratedTable>& generated_tables() {
  static const std::vector<GeneratedTable> tables = {
      {"docs/configs.md", "config keys", config_keys_table},
      {"docs/model.md", "machine keys", [] { return scope_table(KeyScope::machine); }},
      {"docs/model.md", "emulator keys", [] { return scope_table(KeyScope::emulator); }},
      {"docs/cli.md", "machine flags", machine_flags_table},
      {"docs/cli.md", "algorithms", algorithms_table},
  };
  return tables;
}

class DocsTable : public ::testing::TestWithParam<GeneratedTable> {};

TEST_P(DocsTable, EqualsTheTableItIsReadFrom) {
  const GeneratedTable& table = GetParam();
  const std::string path = std::string(HCEMU_SOURCE_DIR) + "/" + table.page;
  const std::string page = read_text(path);
  const auto part = generated_part(page, table.name);
  ASSERT_TRUE(part.has_value()) << table.page << " has no '" << begin_marker(table.name) << "' ... '" << end_marker()
                                << "'";
  const std::string want = table.generate();
  if (*part != want && std::getenv("HCEMU_UPDATE_DOCS") != nullptr) {
    std::ofstream(path) << with_generated_part(page, table.name, want);
    return;
  }
  EXPECT_EQ(*part, want) << table.page << " (" << table.name << ") drifted from its table; run this test with "
                         << "HCEMU_UPDATE_DOCS=1 to rewrite it";
}

INSTANTIATE_TEST_SUITE_P(Pages, DocsTable, ::testing::ValuesIn(generated_tables()),
                         [](const ::testing::TestParamInfo<GeneratedTable>& param) {
                           std::string name = param.param.page + "_" + param.param.name;
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

}  // namespace
}  // namespace hcemu::test
