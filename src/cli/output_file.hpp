#pragma once
// Every file the command writes (--trace, --csv, --plot) and its standard output, with every write checked. A file
// is written to a temporary beside it and renamed into place once complete, so that a full disk, a failed write or a
// SIGINT/SIGTERM leaves either the earlier file or none at the path, never half of one. An output that fails is an
// OutputError: exit 1 (cli_error.hpp), "hcemu: --csv points.csv: cannot write the file: No space left on device".
#include <cstddef>
#include <memory>
#include <ostream>
#include <streambuf>
#include <string>
#include <utility>
#include <vector>

#include "hcemu/errors.hpp"

namespace hcemu::cli {

// A file or standard output that could not be written, found after the runs.
struct OutputError : Error {
  using Error::Error;
};

// A stream buffer over a file descriptor that checks every write(2) and keeps the errno of the first that failed;
// after a failure it takes nothing more, so that the stream goes bad. Unbuffered when asked (a terminal, so that
// stdout and stderr keep their order there). Does not close the descriptor.
class CheckedFdBuf : public std::streambuf {
 public:
  explicit CheckedFdBuf(int fd, bool unbuffered = false);
  ~CheckedFdBuf() override;
  CheckedFdBuf(const CheckedFdBuf&) = delete;
  CheckedFdBuf& operator=(const CheckedFdBuf&) = delete;

  int error() const { return error_; }  // 0: every write so far went through

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override;

 private:
  bool drain();  // writes out the put area; false (and error_ set) when a write failed
  bool write_all(const char* data, std::size_t size);

  int fd_;
  int error_ = 0;
  std::vector<char> buffer_;
};

// One file the command writes. The constructor creates a unique temporary beside the path (".NAME.hcemu-XXXXXX.EXT"),
// which a SIGINT, SIGTERM or SIGHUP removes; commit() flushes, fsyncs and closes it and renames it over the path;
// the destructor of one not committed removes it. A path that is not a regular file (/dev/null, /dev/stdout on a
// terminal, a pipe) is written directly. Errors throw OutputError naming the option, the path and strerror.
class OutputFile {
 public:
  OutputFile(std::string path, std::string option);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  std::ostream& stream() { return stream_; }
  // Where a program that writes the file itself (gnuplot) should write: the temporary, or the path itself.
  const std::string& writing_path() const { return writing_; }
  void commit();

  // A scratch file in the system's temporary folder (the gnuplot script, "hcemu-STEM-XXXXXX.EXT"): written and
  // closed with close(), removed by the destructor or a signal, never renamed.
  // `what` names it in errors ("--plot figure.png: the gnuplot script").
  struct Scratch {};
  OutputFile(Scratch, std::string what, const std::string& stem, const std::string& extension);
  void close();

 private:
  void create_beside(const std::string& target);
  void create_from_template(std::string pattern, int suffix_length);
  [[noreturn]] void fail(int error, const std::string& doing);
  void discard();

  std::string path_, option_;
  std::string target_;   // what the temporary is renamed to: the path, or the file a link at the path names
  std::string writing_;  // the temporary, or the path itself
  int fd_ = -1;
  int slot_ = -1;  // in the registry of temporaries that a signal removes; -1: writing the path itself
  bool closed_ = false, committed_ = false;
  std::unique_ptr<CheckedFdBuf> buf_;
  std::ostream stream_{nullptr};
};

// Throws UsageError when `path` cannot be written (a folder, a missing or read-only folder, a read-only file), so
// that a long run does not find out at its end; leaves nothing behind.
void check_output_path(const std::string& path, const std::string& option);

// Throws UsageError when two outputs, or an output and standard output (`--csv F --json > F`), are the same regular
// file: the one would overwrite the other. `outputs` are (option, path) pairs; empty paths are skipped.
void check_distinct_outputs(const std::vector<std::pair<std::string, std::string>>& outputs);

// The command's standard output: a checked buffer over descriptor 1 (main.cpp and mpi_main.cpp pass it to run_main).
std::ostream& standard_output();

// Flushes `out` and says why writing it failed ("No space left on device"), or "" when it did not.
std::string output_failure(std::ostream& out);

}  // namespace hcemu::cli
