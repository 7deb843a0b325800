// `hcemu --load FILE.so` (docs/your_algorithm.md): the rows of a library built with hcemu/plugin.hpp join the
// command (examples/own_algorithm's allreduce, built here as HCEMU_TEST_ROWS), and every library that cannot be
// loaded is a usage error naming the file and why.
#include <gtest/gtest.h>

#include <string>

#include "hcemu/version.hpp"
#include "run_hcemu.hpp"

namespace hcemu::cli::test {
namespace {

const std::string kRows = HCEMU_TEST_ROWS;

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(Load, TheLibrarysRowsRunVerifiedInTheirClosedForms) {
  const nlohmann::json cases = test::runs_of(hcemu("--load " + kRows + " run allreduce --algo all -d 3 --json"));
  ASSERT_TRUE(cases.is_array());
  std::vector<std::string> algos;
  for (const nlohmann::json& c : cases) {
    algos.push_back(c["algo"]);
    EXPECT_TRUE(c["verified"].get<bool>()) << c["algo"];
    EXPECT_EQ(c["predicted_ps"], c["emulated_ps"]) << c["algo"];
    EXPECT_FALSE(c["lower_bound_ps"].is_null()) << c["algo"];
  }
  EXPECT_EQ(algos, (std::vector<std::string>{"recursive-doubling", "ring"}));
}

TEST(Load, MayComeAfterTheCommand) {
  const Result r = hcemu("run allreduce --algo ring -d 2 --load=" + kRows);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "ring")) << r.out;
}

TEST(Load, TheLoadedFamilyIsInTheHelp) {
  const Result r = hcemu("--load " + kRows + " run --help");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "allreduce: recursive-doubling, ring")) << r.out;
}

TEST(Load, WithoutItTheFamilyIsUnknown) {
  const Result r = hcemu("run allreduce -d 2");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(has(r.err, "allreduce")) << r.err;
}

TEST(Load, AMissingFileIsAUsageErrorNamingIt) {
  const Result r = hcemu("--load /nonexistent/librows.so run exchange -d 2");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(has(r.err, "hcemu: --load /nonexistent/librows.so: no such file")) << r.err;
}

TEST(Load, AFileThatIsNoSharedLibraryIsAUsageError) {
  const std::string text = std::string(HCEMU_CLI_TEST_DATA) + "/../CMakeLists.txt";
  const Result r = hcemu("--load " + text + " run exchange -d 2");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(has(r.err, "--load " + text + ": not a shared library")) << r.err;
}

TEST(Load, ALibraryWithoutHcemuPluginIsRefused) {
  const Result r = hcemu("--load " + std::string(HCEMU_TEST_NOT_A_PLUGIN) + " run exchange -d 2");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(has(r.err, "not a library of hcemu algorithms")) << r.err;
}

TEST(Load, ALibraryBuiltAgainstAnotherVersionIsRefusedNamingBoth) {
  const Result r = hcemu("--load " + std::string(HCEMU_TEST_WRONG_VERSION) + " run never-registered -d 2");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(has(r.err, "built against hcemu 0.0.0-other, and this is hcemu " HCEMU_VERSION_STRING)) << r.err;
  EXPECT_FALSE(has(r.err, "no kernel named")) << r.err;
}

TEST(Load, ALibraryWhoseFamilyClashesWithABuiltInOneIsRefusedNamingTheFile) {
  const std::string file = HCEMU_TEST_CLASHING_ROWS;
  const Result r = hcemu("--load " + file + " run exchange -d 2");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(has(r.err, "--load " + file + ": a kernel family named 'exchange' exists already (built in)")) << r.err;
}

TEST(Load, WithoutAFileIsAUsageError) {
  const Result r = hcemu("run exchange -d 2 --load");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(has(r.err, "--load needs a file")) << r.err;
}

}  // namespace
}  // namespace hcemu::cli::test
