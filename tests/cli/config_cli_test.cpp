// Machine configs: the presets reproduce their papers' parameters, and broken configs and overrides give errors
// that name the file, the line and the key.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "cli/config_builder.hpp"
#include "cli/config_loader.hpp"
#include "cli/presets.hpp"
#include "hcemu/errors.hpp"
#include "run_hcemu.hpp"

namespace hcemu::cli {
namespace {

TEST(Presets, Ipsc860HasNicolAndBokhariSection4Parameters) {
  MachineConfig c = load_config("ipsc860");
  EXPECT_EQ(c.d, 5);
  EXPECT_DOUBLE_EQ(c.lambda, 95.0);
  ASSERT_TRUE(c.lambda0.has_value());
  EXPECT_DOUBLE_EQ(*c.lambda0, 85.5);
  EXPECT_DOUBLE_EQ(c.tau, 0.394);
  EXPECT_DOUBLE_EQ(c.delta_msg, 5.15 * 5);  // δ = 5.15·d µs per message
  EXPECT_DOUBLE_EQ(c.delta_hop, 0.0);
  EXPECT_DOUBLE_EQ(c.rho, 0.54);
  EXPECT_DOUBLE_EQ(c.barrier_a, 0.0);
  EXPECT_DOUBLE_EQ(c.barrier_b, 150.0);  // Q(d) = 150·d µs
  EXPECT_EQ(c.protocol, Protocol::forced);
  EXPECT_EQ(c.switching, Switching::circuit);
  EXPECT_EQ(c.ports, Ports::parse("one"));
}

TEST(Presets, IpscYaleHasOneKilobytePacketsAndOnePort) {
  MachineConfig c = load_config("ipsc-yale");
  EXPECT_EQ(c.packet, 1024u);
  EXPECT_DOUBLE_EQ(c.lambda, 1500.0);  // NX start-up, Johnsson & Ho §1.3
  EXPECT_EQ(c.ports, Ports::parse("one"));
  EXPECT_EQ(c.switching, Switching::store_and_forward);
}

TEST(Presets, LinkboundIsAllPortStoreAndForwardWithoutSetUp) {
  MachineConfig c = load_config("linkbound");
  EXPECT_EQ(c.ports, Ports::parse("all"));
  EXPECT_EQ(c.switching, Switching::store_and_forward);
  EXPECT_DOUBLE_EQ(c.delta_hop, 0.0);
  EXPECT_DOUBLE_EQ(c.delta_msg, 0.0);
}

TEST(Presets, EveryPresetCitesItsSource) {
  for (const auto& preset : preset_files()) {
    ConfigBuilder builder;
    apply_toml(builder, preset.text, preset.path);
    EXPECT_FALSE(builder.source.empty()) << preset.name;
    EXPECT_EQ(builder.resolve().name, preset.name);
  }
}

TEST(ConfigBuilder, DeltaMsgPerDFollowsTheDimensionSetLater) {
  ConfigBuilder builder;
  apply_config(builder, "ipsc860");
  builder.set_text("d", "6", Origin{"-d 6", 0});
  EXPECT_DOUBLE_EQ(builder.resolve().delta_msg, 5.15 * 6);
}

TEST(ConfigBuilder, SettingDeltaMsgReplacesDeltaMsgPerD) {
  ConfigBuilder builder;
  apply_config(builder, "ipsc860");
  apply_assignment(builder, "delta_msg=3");
  EXPECT_DOUBLE_EQ(builder.resolve().delta_msg, 3.0);
}

TEST(ConfigBuilder, SetOverridesAreTypedByKey) {
  ConfigBuilder builder;
  apply_assignment(builder, "lambda=12");
  apply_assignment(builder, "ports=k:2");
  apply_assignment(builder, "trace=true");
  apply_assignment(builder, "packet=512");
  MachineConfig c = builder.resolve();
  EXPECT_DOUBLE_EQ(c.lambda, 12.0);
  EXPECT_EQ(c.ports, Ports::parse("k:2"));
  EXPECT_TRUE(builder.settings().trace);
  EXPECT_EQ(c.packet, 512u);
}

TEST(ConfigBuilder, NearestKeySuggestsTheTypo) {
  EXPECT_EQ(nearest_config_key("lamda"), "lambda");
  EXPECT_EQ(nearest_config_key("delta_hops"), "delta_hop");
  EXPECT_EQ(nearest_config_key("barier_b"), "barrier_b");
  EXPECT_EQ(nearest_config_key("completely_unrelated"), "");
}

// The corpus of broken configs: each names its file, line and key.
struct BrokenConfig {
  const char* text;
  const char* key;
  int line;
  const char* says;
};

class BrokenConfigs : public ::testing::TestWithParam<BrokenConfig> {};

TEST_P(BrokenConfigs, ErrorNamesFileLineAndKey) {
  const BrokenConfig& broken = GetParam();
  ConfigBuilder builder;
  try {
    apply_toml(builder, broken.text, "broken.toml");
    builder.resolve();
    FAIL() << "no error for: " << broken.text;
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key, broken.key);
    EXPECT_EQ(e.file, "broken.toml");
    EXPECT_EQ(e.line, broken.line);
    EXPECT_NE(std::string(e.what()).find(broken.says), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("broken.toml:" + std::to_string(broken.line)), std::string::npos)
        << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(
    Corpus, BrokenConfigs,
    ::testing::Values(
        BrokenConfig{"lambda = 1\ntua = 0.5\n", "tua", 2, "did you mean 'tau'"},
        BrokenConfig{"lamda = 95\n", "lamda", 1, "did you mean 'lambda'"},
        BrokenConfig{"\n\nrho = \"fast\"\n", "rho", 3, "must be a number"}, BrokenConfig{"d = 17\n", "d", 1, "0..16"},
        BrokenConfig{"engine = \"os_threads\"\nd = 14\n", "engine", 1, "0..13"},
        BrokenConfig{"d = 2.5\n", "d", 1, "must be an integer"},
        BrokenConfig{"tau = -0.1\n", "tau", 1, "between 0 and 1e9"},
        BrokenConfig{"ports = \"two\"\n", "ports", 1, "k:N"}, BrokenConfig{"ports = \"k:0\"\n", "ports", 1, "k:N"},
        BrokenConfig{"switching = \"wormhole\"\n", "switching", 1, "store_and_forward"},
        BrokenConfig{"protocol = \"FORCED\"\n", "protocol", 1, "forced or unforced"},
        BrokenConfig{"timing = \"virtal\"\n", "timing", 1, "virtual"},
        BrokenConfig{"packet = -1\n", "packet", 1, ">= 0"}, BrokenConfig{"trace = 1\n", "trace", 1, "true or false"},
        BrokenConfig{"time_scale = 0.5\n", "time_scale", 1, "must be in [1, 1000], got 0.5"},
        BrokenConfig{"time_scale = 1e16\n", "time_scale", 1, "must be in [1, 1000], got 1e+16"},
        BrokenConfig{"time_scale = 1e-300\n", "time_scale", 1, "got 1e-300"},
        BrokenConfig{"lambda = 1e308\n", "lambda", 1, "between 0 and 1e9, got 1e+308"},
        BrokenConfig{"d = 3.0\n", "d", 1, "must be an integer, written without a decimal point or exponent, got 3.0"},
        BrokenConfig{"packet = 1e3\n", "packet", 1, "got 1000.0"},
        BrokenConfig{"lambda = [1, 2]\n", "lambda", 1, "single value"},
        BrokenConfig{"delta_msg = 1\ndelta_msg_per_d = 2\n", "delta_msg_per_d", 2, "not both"},
        BrokenConfig{"name = 3\n", "name", 1, "must be a string"}));

TEST(ConfigLoader, InvalidTomlNamesFileAndLine) {
  ConfigBuilder builder;
  try {
    apply_toml(builder, "lambda = 1\nrho = \n", "syntax.toml");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("syntax.toml:2"), std::string::npos) << e.what();
  }
}

TEST(ConfigLoader, SetOverrideOutOfRangeNamesTheOverride) {
  ConfigBuilder builder;
  try {
    apply_assignment(builder, "lambda=-3");
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key, "lambda");
    EXPECT_EQ(e.file, "--set lambda=-3");
  }
}

TEST(ConfigLoader, SetOverrideWithUnknownKeySuggestsNearest) {
  ConfigBuilder builder;
  try {
    apply_assignment(builder, "rhoo=1");
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("did you mean 'rho'"), std::string::npos) << e.what();
  }
}

TEST(ConfigLoader, BaseFileIsOverriddenByTheFileThatNamesIt) {
  ConfigBuilder builder;
  apply_toml(builder, "base = \"ipsc860\"\nlambda = 100\n", "mine.toml");
  MachineConfig c = builder.resolve();
  EXPECT_DOUBLE_EQ(c.lambda, 100.0);
  EXPECT_DOUBLE_EQ(c.tau, 0.394);
  EXPECT_EQ(c.name, "mine");
}

// Config files that never end or never open: each refused by what it is, by name, without reading it (the command
// runs under the timeout wrapper, so that a read that blocks fails the test instead of hanging it).
class ConfigFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = std::filesystem::temp_directory_path() / ("hcemu-config-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
  }
  void TearDown() override { std::filesystem::remove_all(dir); }
  std::string write(const std::string& name, const std::string& text) {
    const auto path = dir / name;
    std::ofstream(path) << text;
    return path.string();
  }
  std::filesystem::path dir;
};

TEST_F(ConfigFiles, DevZeroIsRefusedAsADevice) {
  const test::Result r = test::hcemu("run exchange -d 2 --algo direct --config /dev/zero", 30);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("'/dev/zero' is a character device"), std::string::npos) << r.err;
}

TEST_F(ConfigFiles, DevZeroAsABaseIsRefusedAsADevice) {
  const std::string file = write("zero.toml", "base = \"/dev/zero\"\n");
  const test::Result r = test::hcemu("run exchange -d 2 --algo direct --config " + file, 30);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("'/dev/zero' is a character device"), std::string::npos) << r.err;
}

TEST_F(ConfigFiles, FifoIsRefusedWithoutBlocking) {
  const auto fifo = dir / "pipe.toml";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const test::Result r = test::hcemu("run exchange -d 2 --algo direct --config " + fifo.string(), 30);
  EXPECT_EQ(r.exit_code, 2) << "a hang ends as -1: " << r.err;
  EXPECT_NE(r.err.find("'" + fifo.string() + "' is a FIFO"), std::string::npos) << r.err;
}

TEST_F(ConfigFiles, FileOverOneMebibyteIsRefused) {
  const std::string file = write("big.toml", "# " + std::string(2u << 20, 'x') + "\nd = 3\n");
  ConfigBuilder builder;
  try {
    apply_config(builder, file);
    FAIL() << "a 2 MiB config was read";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("'" + file + "' is larger than 1 MiB"), std::string::npos) << e.what();
  }
}

TEST_F(ConfigFiles, ChainOfBasesDeeperThanTheLimitNamesTheLimit) {
  // c1 names c2 as its base, c2 names c3, ..., c9 names ipsc860: nine nested bases, one more than the limit.
  for (int i = 1; i < 10; ++i)
    write("c" + std::to_string(i) + ".toml",
          "base = \"" + (i < 9 ? "c" + std::to_string(i + 1) + ".toml" : std::string("ipsc860")) + "\"\n");
  ConfigBuilder builder;
  try {
    apply_config(builder, (dir / "c1.toml").string());
    FAIL() << "nine nested bases were read";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key, "base");
    EXPECT_NE(std::string(e.what()).find("bases may nest at most 8 deep"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find("cycle"), std::string::npos) << e.what();
  }
  // Eight are fine: c2 ... c9 and ipsc860.
  ConfigBuilder eight;
  EXPECT_NO_THROW(apply_config(eight, (dir / "c2.toml").string()));
}

TEST_F(ConfigFiles, CycleOfBasesNamesItsFiles) {
  const std::string a = write("a.toml", "base = \"b.toml\"\n");
  const std::string b = write("b.toml", "base = \"a.toml\"\n");
  ConfigBuilder builder;
  try {
    apply_config(builder, a);
    FAIL() << "a cycle of bases was read";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key, "base");
    EXPECT_NE(std::string(e.what()).find("cycle: " + a + " -> " + b + " -> " + a), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace hcemu::cli
