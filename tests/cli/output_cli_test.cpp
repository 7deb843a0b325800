// Output that fails is a failure (src/cli/output_file.hpp): standard output to /dev/full or a full file system exits
// 1 with "hcemu: standard output: <reason>"; a --csv, --trace or --plot that cannot be written exits non-zero naming
// the path and the reason, leaves any earlier file at the path as it was and no temporary beside it, and so does a
// SIGTERM or SIGINT while a file is being written; the same file named twice is refused before anything runs.
// Every command runs under timeout(1), so a hang fails the test.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/output_file.hpp"
#include "hcemu/errors.hpp"

#include "run_hcemu.hpp"

namespace hcemu::cli {
namespace {

namespace fs = std::filesystem;
using test::hcemu;
using test::Result;

// A fresh empty folder of this test, removed with its contents at the end.
class Folder {
 public:
  explicit Folder(const std::string& name)
      : path_(fs::temp_directory_path() / ("hcemu-output-" + std::to_string(::getpid()) + "-" + name)) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~Folder() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  std::string operator/(const std::string& file) const { return (path_ / file).string(); }
  const fs::path& path() const { return path_; }

  // The temporaries output_file.cpp leaves, which must be none.
  std::vector<std::string> temporaries() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(path_))
      if (entry.path().filename().string().find(".hcemu-") != std::string::npos)
        names.push_back(entry.path().filename().string());
    return names;
  }

 private:
  fs::path path_;
};

std::string contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void put(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& n : names) text += n + " ";
  return text;
}

// ---- standard output -------------------------------------------------------------------------------------------

class StandardOutputToDevFull : public ::testing::TestWithParam<const char*> {};

TEST_P(StandardOutputToDevFull, FailsWithTheReason) {
  const Result r = hcemu(std::string(GetParam()) + " > /dev/full", 120);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("hcemu: standard output: No space left on device"), std::string::npos) << r.err;
}

INSTANTIATE_TEST_SUITE_P(EveryCommand, StandardOutputToDevFull,
                         ::testing::Values("run exchange -d 2 --algo direct", "run exchange -d 2 --algo direct --json",
                                           "plan -d 2", "plan -d 2 --json", "configs", "configs --json",
                                           "sweep exchange -d 2 -m 0:64:32 --no-progress",
                                           "sweep exchange -d 2 -m 0:64:32 --json",
                                           "fit --kernel exchange -d 2 --algo direct --m 32,256 --json", "--help",
                                           "run --help"));

TEST(StandardOutput, AUsageErrorIsStillExit2) {
  const Result r = hcemu("run exchange -d 2 --algo nosuch > /dev/full", 60);
  EXPECT_EQ(r.exit_code, 2) << r.err;
}

// ---- files that cannot be written ------------------------------------------------------------------------------

TEST(OutputFiles, CsvToDevFullFailsAndIsNotAnnounced) {
  const Result r = hcemu("sweep exchange -d 2 -m 0:64:32 --no-progress --csv /dev/full", 60);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("hcemu: --csv /dev/full: cannot write the file: No space left on device"), std::string::npos)
      << r.err;
  EXPECT_EQ(r.out.find("CSV written"), std::string::npos) << r.out;
}

TEST(OutputFiles, TraceToDevFullFailsAndIsNotAnnounced) {
  const Result r = hcemu("run exchange -d 2 --algo direct --trace /dev/full", 60);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("--trace /dev/full: cannot write the file: No space left on device"), std::string::npos)
      << r.err;
  EXPECT_EQ(r.out.find("trace written"), std::string::npos) << r.out;
}

TEST(OutputFiles, DevNullIsWrittenAsItIs) {
  const Result r = hcemu("sweep exchange -d 2 -m 0:64:32 --no-progress --csv /dev/null", 60);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
}

TEST(OutputFiles, AFolderThatIsNotThereIsAUsageErrorBeforeTheRun) {
  const Folder folder("missing");
  const std::string path = folder / "not-there/points.csv";
  const Result r = hcemu("sweep exchange -d 2 -m 0:64:32 --json --csv " + path, 60);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--csv " + path + ": cannot open the file for writing: No such file or directory"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.out, "");
}

TEST(OutputFiles, AnEarlierFileIsReplacedWholeKeepingItsPermissions) {
  const Folder folder("replace");
  const std::string path = folder / "points.csv";
  put(path, std::string(100000, 'Z'));  // longer than the new file: nothing of it may remain
  fs::permissions(path, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  const Result r = hcemu("sweep exchange -d 2 --algo direct -m 0:64:32 --no-progress --csv " + path, 60);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("CSV written to " + path), std::string::npos) << r.out;
  const std::string csv = contents(path);
  EXPECT_EQ(csv.rfind("kernel,algo,", 0), 0u) << csv;
  EXPECT_EQ(csv.find('Z'), std::string::npos);
  EXPECT_EQ(fs::status(path).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  EXPECT_TRUE(folder.temporaries().empty()) << joined(folder.temporaries());
}

TEST(OutputFiles, ALinkIsWrittenThrough) {
  const Folder folder("link");
  const std::string target = folder / "target.csv", link = folder / "link.csv";
  put(target, "earlier\n");
  fs::create_symlink(target, link);
  const Result r = hcemu("sweep exchange -d 2 --algo direct -m 0:64:32 --no-progress --csv " + link, 60);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(contents(target).rfind("kernel,algo,", 0), 0u);
  EXPECT_TRUE(folder.temporaries().empty()) << joined(folder.temporaries());
}

// In-process: what the command's files go through.
TEST(OutputFile, NotCommittedLeavesTheEarlierFileAndNoTemporary) {
  const Folder folder("uncommitted");
  const std::string path = folder / "out.json";
  put(path, "earlier");
  {
    OutputFile file(path, "--trace");
    file.stream() << "half of a new file";
    EXPECT_TRUE(fs::exists(file.writing_path()));
    EXPECT_EQ(fs::path(file.writing_path()).parent_path(), folder.path());
    EXPECT_EQ(fs::path(file.writing_path()).extension(), ".json");  // gnuplot picks its terminal by it
  }
  EXPECT_EQ(contents(path), "earlier");
  EXPECT_TRUE(folder.temporaries().empty()) << joined(folder.temporaries());
}

TEST(OutputFile, CommitReplacesTheFile) {
  const Folder folder("committed");
  const std::string path = folder / "out.csv";
  put(path, "earlier");
  OutputFile file(path, "--csv");
  file.stream() << "new\n";
  EXPECT_EQ(contents(path), "earlier");  // nothing at the path changes before the commit
  file.commit();
  EXPECT_EQ(contents(path), "new\n");
  EXPECT_TRUE(folder.temporaries().empty()) << joined(folder.temporaries());
}

TEST(OutputFile, WriteErrorsNameThePathAndTheReason) {
  OutputFile file("/dev/full", "--csv");
  file.stream() << "anything\n";
  try {
    file.commit();
    FAIL() << "no error";
  } catch (const OutputError& e) {
    EXPECT_STREQ(e.what(), "--csv /dev/full: cannot write the file: No space left on device");
  }
}

// ---- a full file system ----------------------------------------------------------------------------------------

// How to get a private mount namespace where a 64 KiB tmpfs can be mounted ("" when none can be had: no
// unshare(1), no user namespaces, no CAP_SYS_ADMIN).
const std::string& private_mount() {
  static const std::string how = [] {
    for (const std::string unshare : {"unshare -rm", "unshare -m"}) {
      const std::string probe = "timeout 20 " + unshare + " sh -c 'd=$(mktemp -d) && mount -t tmpfs -o size=64k " +
                                "none \"$d\" && umount \"$d\"; s=$?; rmdir \"$d\"; exit $s' >/dev/null 2>&1";
      if (std::system(probe.c_str()) == 0) return unshare;
    }
    return std::string();
  }();
  return how;
}

// Runs `script` (sh) in a private mount namespace with $D a 64 KiB tmpfs over `folder` and $HCEMU the command;
// what it prints comes back. Files written there vanish with the namespace: the script prints what is to be checked.
Result on_small_tmpfs(const Folder& folder, const std::string& script) {
  const std::string inner = "mount -t tmpfs -o size=64k none " + folder.path().string() + " || exit 99; D=" +
                            folder.path().string() + "; HCEMU=" + std::string(HCEMU_BINARY) + "; " + script;
  const std::string path = folder / "script.sh";
  put(path, inner);
  return hcemu::cli::test::run_shell("timeout -s KILL 120 " + private_mount() + " sh " + path + " 2>&1");
}

// Puts "old" at $D/$NAME, fills $D, runs the command, and prints its stderr, its exit code, the folder and the file.
const char* const kFullScript =
    "printf old > \"$D/$NAME\"; head -c 1048576 /dev/zero > \"$D/filler\" 2>/dev/null; "
    "$HCEMU $ARGS > /dev/null; echo \"exit=$?\"; "
    "echo \"files: $(ls -A \"$D\" | LC_ALL=C sort | tr '\\n' ' ')\"; echo \"content=$(cat \"$D/$NAME\")\"";

struct FullCase {
  const char* name;       // the file at the path before the run
  const char* arguments;  // with $D/name
  const char* says;
};

class FullFileSystem : public ::testing::TestWithParam<FullCase> {};

TEST_P(FullFileSystem, FailsAndKeepsTheEarlierFile) {
  if (private_mount().empty())
    GTEST_SKIP() << "no private mount namespace here (unshare -rm and unshare -m both failed): no tmpfs to fill";
  const Folder folder(std::string("full-") + GetParam().name);
  const Result r = on_small_tmpfs(folder, std::string("NAME=") + GetParam().name + "; ARGS=\"" +
                                              GetParam().arguments + "\"; " + kFullScript);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("exit=1\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(GetParam().says), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("No space left on device"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("content=old\n"), std::string::npos) << r.out;
  // Only what the script put there: no temporary, no new file.
  const std::string name = GetParam().name;
  const std::string files = name < "filler" ? name + " filler" : "filler " + name;
  EXPECT_NE(r.out.find("files: " + files + " \n"), std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find(".hcemu-"), std::string::npos) << r.out;
}

INSTANTIATE_TEST_SUITE_P(
    OutputFiles, FullFileSystem,
    ::testing::Values(FullCase{"points.csv", "sweep exchange -d 2 -m 0:64:32 --no-progress --csv $D/points.csv",
                               "hcemu: --csv "},
                      FullCase{"trace.json", "run exchange -d 2 --algo direct --trace $D/trace.json", "hcemu: --trace "},
                      FullCase{"figure.png", "sweep exchange -d 2 -m 0:64:32 --no-progress --plot $D/figure.png",
                               "hcemu: --plot "},
                      FullCase{"figure.svg", "sweep exchange -d 2 -m 0:64:32 --no-progress --plot $D/figure.svg",
                               "hcemu: --plot "}));

TEST(FullFileSystem, StandardOutputFails) {
  if (private_mount().empty())
    GTEST_SKIP() << "no private mount namespace here (unshare -rm and unshare -m both failed): no tmpfs to fill";
  const Folder folder("full-stdout");
  const Result r = on_small_tmpfs(folder,
                                  "head -c 1048576 /dev/zero > \"$D/filler\" 2>/dev/null; "
                                  "$HCEMU run exchange -d 2 --algo direct --json > \"$D/out.json\"; echo \"exit=$?\"");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("hcemu: standard output: No space left on device"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("exit=1\n"), std::string::npos) << r.out;
}

TEST(FullFileSystem, ATraceLargerThanTheRoomLeavesNoPartOfIt) {
  if (private_mount().empty())
    GTEST_SKIP() << "no private mount namespace here (unshare -rm and unshare -m both failed): no tmpfs to fill";
  const Folder folder("full-large");
  // Nothing filled: the first 64 KiB of the trace fit, the rest does not.
  const Result r = on_small_tmpfs(folder,
                                  "printf old > \"$D/trace.json\"; "
                                  "$HCEMU run exchange -d 5 --algo direct --trace \"$D/trace.json\" > /dev/null; "
                                  "echo \"exit=$?\"; echo \"files: $(ls -A \"$D\" | tr '\\n' ' ')\"; "
                                  "echo \"content=$(cat \"$D/trace.json\")\"");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("--trace " + (folder / "trace.json") + ": cannot write the file: No space left on device"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("exit=1\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("files: trace.json \n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("content=old\n"), std::string::npos) << r.out;
}

// ---- signals ---------------------------------------------------------------------------------------------------

class SignalWhileWriting : public ::testing::TestWithParam<int> {};

// The signal comes once the temporary of an 84 MB trace is there: the path then holds the earlier file (or, if the
// trace was complete and renamed before the signal landed, the whole new one), and no temporary is left.
TEST_P(SignalWhileWriting, LeavesTheEarlierFileAndNoTemporary) {
  const int signal = GetParam();
  const Folder folder("signal-" + std::to_string(signal));
  const std::string path = folder / "trace.json";
  put(path, "old");
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, STDOUT_FILENO);
    ::dup2(null, STDERR_FILENO);
    std::signal(SIGINT, SIG_DFL);  // not ignored, as it is in a background job
    std::signal(SIGTERM, SIG_DFL);
    ::execl(HCEMU_BINARY, HCEMU_BINARY, "run", "exchange", "-d", "7", "--algo", "direct", "--trace", path.c_str(),
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  bool seen = false;
  int status = 0;
  while (!seen && std::chrono::steady_clock::now() < deadline) {
    if (::waitpid(child, &status, WNOHANG) == child) break;  // ended before a temporary was seen
    seen = !folder.temporaries().empty();
    if (!seen) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  if (seen) {
    ::kill(child, signal);
    const auto stop = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (::waitpid(child, &status, WNOHANG) != child) {
      if (std::chrono::steady_clock::now() > stop) {
        ::kill(child, SIGKILL);
        ::waitpid(child, &status, 0);
        FAIL() << "hcemu did not end within 60 s of the signal";
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  } else if (std::chrono::steady_clock::now() >= deadline) {
    ::kill(child, SIGKILL);
    ::waitpid(child, &status, 0);
    FAIL() << "hcemu neither wrote its trace nor ended within 120 s";
  }
  EXPECT_TRUE(seen) << "the temporary never appeared (status " << status << ")";
  const bool by_signal = WIFSIGNALED(status) && WTERMSIG(status) == signal;
  const bool finished = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  EXPECT_TRUE(by_signal || finished) << "status " << status;
  EXPECT_TRUE(folder.temporaries().empty()) << joined(folder.temporaries());
  const std::string content = contents(path);
  if (by_signal && content == "old") return;
  // The signal came after the rename: then the file is the whole trace.
  EXPECT_TRUE(nlohmann::json::accept(content)) << "a partial file of " << content.size() << " bytes at the path";
}

INSTANTIATE_TEST_SUITE_P(TermAndInt, SignalWhileWriting, ::testing::Values(SIGTERM, SIGINT));

// ---- the same file twice ---------------------------------------------------------------------------------------

TEST(SameFileTwice, CsvAndStandardOutputIsRefused) {
  const Folder folder("twice-stdout");
  const std::string path = folder / "out";
  const Result r = hcemu("sweep exchange -d 2 -m 0:64:32 --csv " + path + " --json > " + path, 60);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("hcemu: --csv " + path + ": is also the standard output"), std::string::npos) << r.err;
  EXPECT_EQ(contents(path), "");  // the shell emptied it; hcemu wrote nothing in it
}

TEST(SameFileTwice, TraceAndStandardOutputIsRefused) {
  const Folder folder("twice-trace");
  const std::string path = folder / "out.json";
  const Result r = hcemu("run exchange -d 2 --algo direct --json --trace " + path + " >> " + path, 60);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("is also the standard output"), std::string::npos) << r.err;
}

TEST(SameFileTwice, CsvAndPlotAreRefused) {
  const Folder folder("twice-files");
  const Result r = hcemu("sweep exchange -d 2 -m 0:64:32 --csv " + (folder / "f.svg") + " --plot " +
                             folder.path().string() + "/./f.svg",
                         60);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("are the same file"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(folder / "f.svg"));
}

TEST(SameFileTwice, DevNullTwiceIsNoHarm) {
  const Result r = hcemu("sweep exchange -d 2 -m 0:64:32 --csv /dev/null --json > /dev/null", 60);
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

}  // namespace
}  // namespace hcemu::cli
