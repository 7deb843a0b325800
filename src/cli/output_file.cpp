#include "cli/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <mutex>

namespace hcemu::cli {

namespace {

// The temporaries that exist now, for the signal handler: fixed slots of plain characters and lock-free atomics,
// which a handler may read (an async-signal-safe handler calls only unlink, sigaction and raise).
constexpr int kSlots = 16;
enum SlotState : int { kFree = 0, kTaken = 1, kLive = 2 };
struct Slot {
  std::atomic<int> state{kFree};
  char path[PATH_MAX];
};
Slot slots[kSlots];
static_assert(std::atomic<int>::is_always_lock_free);

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
struct sigaction previous_actions[std::size(kSignals)];

// Removes every live temporary, puts back what the signal did before (by default: end the process) and raises it
// again, so that the process ends as the signal would have ended it.
void remove_temporaries(int signal) {
  const int saved = errno;
  for (Slot& slot : slots)
    if (slot.state.load(std::memory_order_acquire) == kLive) ::unlink(slot.path);
  for (std::size_t i = 0; i < std::size(kSignals); ++i)
    if (kSignals[i] == signal) ::sigaction(signal, &previous_actions[i], nullptr);
  ::raise(signal);
  errno = saved;
}

// Installed with the first temporary. A signal that is ignored (nohup) stays ignored.
void install_handlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (std::size_t i = 0; i < std::size(kSignals); ++i) {
      struct sigaction old {};
      if (::sigaction(kSignals[i], nullptr, &old) != 0) continue;
      if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_IGN) continue;
      previous_actions[i] = old;
      struct sigaction action {};
      action.sa_handler = remove_temporaries;
      sigfillset(&action.sa_mask);
      ::sigaction(kSignals[i], &action, nullptr);
    }
  });
}

int take_slot() {
  for (int i = 0; i < kSlots; ++i) {
    int expected = kFree;
    if (slots[i].state.compare_exchange_strong(expected, kTaken)) return i;
  }
  return -1;
}

mode_t current_umask() {
  static const mode_t mask = [] {
    const mode_t m = ::umask(022);
    ::umask(m);
    return m;
  }();
  return mask;
}

constexpr std::size_t kBufferBytes = std::size_t{1} << 16;

}  // namespace

CheckedFdBuf::CheckedFdBuf(int fd, bool unbuffered) : fd_(fd) {
  if (!unbuffered) {
    buffer_.resize(kBufferBytes);
    setp(buffer_.data(), buffer_.data() + buffer_.size());
  }
}

CheckedFdBuf::~CheckedFdBuf() { drain(); }

bool CheckedFdBuf::write_all(const char* data, std::size_t size) {
  if (error_ != 0) return false;
  while (size > 0) {
    const ssize_t written = ::write(fd_, data, size);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) {
      error_ = written < 0 ? errno : EIO;
      return false;
    }
    data += written;
    size -= static_cast<std::size_t>(written);
  }
  return true;
}

bool CheckedFdBuf::drain() {
  const bool ok = write_all(pbase(), static_cast<std::size_t>(pptr() - pbase()));
  setp(pbase(), epptr());
  return ok;
}

CheckedFdBuf::int_type CheckedFdBuf::overflow(int_type c) {
  if (!drain()) return traits_type::eof();
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  const char ch = traits_type::to_char_type(c);
  if (pbase() == epptr()) return write_all(&ch, 1) ? c : traits_type::eof();  // unbuffered
  *pptr() = ch;
  pbump(1);
  return c;
}

std::streamsize CheckedFdBuf::xsputn(const char* s, std::streamsize n) {
  if (error_ != 0) return 0;
  const auto fits = [&] { return n <= epptr() - pptr(); };
  if (!fits() && !drain()) return 0;
  if (fits() && pbase() != epptr()) {
    std::memcpy(pptr(), s, static_cast<std::size_t>(n));
    pbump(static_cast<int>(n));
    return n;
  }
  return write_all(s, static_cast<std::size_t>(n)) ? n : 0;
}

int CheckedFdBuf::sync() { return drain() ? 0 : -1; }

OutputFile::OutputFile(std::string path, std::string option) : path_(std::move(path)), option_(std::move(option)) {
  target_ = path_;
  struct stat st {};
  // A link is written through, as opening it would: the file it names is replaced.
  if (::lstat(path_.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
    char resolved[PATH_MAX];
    if (::realpath(path_.c_str(), resolved)) target_ = resolved;
  }
  const bool exists = ::stat(target_.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) fail(EISDIR, "cannot open the file for writing");
  if (exists && !S_ISREG(st.st_mode)) {
    // A device or a pipe (/dev/null, /dev/stdout on a terminal): nothing to rename, written as it is.
    fd_ = ::open(target_.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd_ < 0) fail(errno, "cannot open the file for writing");
    writing_ = target_;
  } else {
    const std::filesystem::path p(target_);
    std::string stem = p.stem().string(), extension = p.extension().string();
    if (stem.size() > 100) stem.resize(100);  // room for the rest within NAME_MAX
    if (extension.size() > 16) extension.clear();
    const std::string folder = p.parent_path().string();
    create_from_template((folder.empty() ? "" : folder + "/") + "." + stem + ".hcemu-XXXXXX" + extension,
                         static_cast<int>(extension.size()));
    // The new file takes the old one's permissions, or those a new file gets.
    if (::fchmod(fd_, exists ? st.st_mode & 07777 : 0666 & ~current_umask()) != 0)
      fail(errno, "cannot open the file for writing");
  }
  buf_ = std::make_unique<CheckedFdBuf>(fd_);
  stream_.rdbuf(buf_.get());
}

OutputFile::OutputFile(Scratch, std::string what, const std::string& stem, const std::string& extension)
    : option_(std::move(what)) {
  path_ = (std::filesystem::temp_directory_path() / ("hcemu-" + stem + "-XXXXXX" + extension)).string();
  create_from_template(path_, static_cast<int>(extension.size()));
  path_ = target_ = writing_;
  buf_ = std::make_unique<CheckedFdBuf>(fd_);
  stream_.rdbuf(buf_.get());
}

void OutputFile::create_from_template(std::string pattern, int suffix_length) {
  install_handlers();
  if (pattern.size() >= PATH_MAX) fail(ENAMETOOLONG, "cannot open the file for writing");
  slot_ = take_slot();
  if (slot_ < 0) fail(EMFILE, "cannot open the file for writing");
  Slot& slot = slots[slot_];
  std::memcpy(slot.path, pattern.c_str(), pattern.size() + 1);
  // Live before it exists: a signal from here on removes whatever name mkostemps has made in the slot.
  slot.state.store(kLive, std::memory_order_release);
  fd_ = ::mkostemps(slot.path, suffix_length, O_CLOEXEC);
  if (fd_ < 0) {
    const int error = errno;
    slot.state.store(kFree, std::memory_order_release);
    slot_ = -1;
    fail(error, "cannot open the file for writing");
  }
  writing_ = slot.path;
}

OutputFile::~OutputFile() {
  if (!committed_) discard();
}

void OutputFile::discard() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (slot_ >= 0) {
    ::unlink(writing_.c_str());
    slots[slot_].state.store(kFree, std::memory_order_release);
    slot_ = -1;
  }
}

void OutputFile::fail(int error, const std::string& doing) {
  discard();
  throw OutputError(option_ + " " + path_ + ": " + doing + ": " + std::strerror(error));
}

void OutputFile::close() {
  if (closed_) return;
  stream_.flush();
  if (buf_->error() != 0) fail(buf_->error(), "cannot write the file");
  if (!stream_) fail(EIO, "cannot write the file");
  // Written data that the file system could not keep (a full disk, a quota, NFS) shows at fsync or close.
  if (slot_ >= 0 && ::fsync(fd_) != 0) fail(errno, "cannot write the file");
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0 && errno != EINTR) fail(errno, "cannot write the file");
  closed_ = true;
}

void OutputFile::commit() {
  close();
  if (slot_ >= 0) {
    if (::rename(writing_.c_str(), target_.c_str()) != 0) fail(errno, "cannot rename " + writing_ + " to it");
    slots[slot_].state.store(kFree, std::memory_order_release);
    slot_ = -1;
  }
  committed_ = true;
}

void check_output_path(const std::string& path, const std::string& option) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw UsageError(option + " " + path + ": is a directory, not a file");
    if (::access(path.c_str(), W_OK) != 0)
      throw UsageError(option + " " + path + ": cannot open the file for writing: " + std::strerror(errno));
    if (!S_ISREG(st.st_mode)) return;  // a device or a pipe: opened when written, and nothing to probe
  }
  try {
    OutputFile probe(path, option);  // a temporary beside it, removed at once
  } catch (const OutputError& e) {
    throw UsageError(e.what());
  }
}

void check_distinct_outputs(const std::vector<std::pair<std::string, std::string>>& outputs) {
  namespace fs = std::filesystem;
  struct stat out {};
  const bool out_is_file = ::fstat(STDOUT_FILENO, &out) == 0 && S_ISREG(out.st_mode);
  const auto same = [](const struct stat& a, const struct stat& b) {
    return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
  };
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const auto& [option, path] = outputs[i];
    if (path.empty()) continue;
    struct stat st {};
    const bool exists = ::stat(path.c_str(), &st) == 0;
    if (exists && !S_ISREG(st.st_mode)) continue;  // /dev/null twice is no harm
    if (exists && out_is_file && same(st, out))
      throw UsageError(option + " " + path + ": is also the standard output, and the one would overwrite the other");
    for (std::size_t j = 0; j < i; ++j) {
      const auto& [other_option, other] = outputs[j];
      if (other.empty()) continue;
      struct stat other_st {};
      const bool other_exists = ::stat(other.c_str(), &other_st) == 0;
      // Neither there yet: the same name, once "./" and links in the folders are resolved.
      const auto resolved = [](const std::string& name) {
        std::error_code ec;
        return fs::weakly_canonical(fs::absolute(name, ec), ec);
      };
      const bool clash = exists && other_exists     ? same(st, other_st)
                         : !exists && !other_exists ? resolved(path) == resolved(other)
                                                    : false;
      if (clash)
        throw UsageError(other_option + " " + other + " and " + option + " " + path +
                         " are the same file, and the one would overwrite the other");
    }
  }
}

std::ostream& standard_output() {
  static CheckedFdBuf buffer(STDOUT_FILENO, ::isatty(STDOUT_FILENO) == 1);
  static std::ostream out(&buffer);
  return out;
}

std::string output_failure(std::ostream& out) {
  if (!out.rdbuf()) return "";  // a stream that discards everything (the other MPI ranks)
  out.flush();
  if (const auto* checked = dynamic_cast<const CheckedFdBuf*>(out.rdbuf()); checked && checked->error() != 0)
    return std::strerror(checked->error());
  return out ? "" : "the stream failed";
}

}  // namespace hcemu::cli
