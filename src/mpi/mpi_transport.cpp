// The transport of a machine spread over MPI ranks (runtime/transport.hpp), and the session that owns it and hands it
// to the machines made with its Spread.
//
// Every call goes through one mutex: the node threads of a rank may reach MPI from several host threads, one at a
// time (MPI_THREAD_SERIALIZED would do; MPI_THREAD_MULTIPLE is asked for so that a user's own MPI calls may run
// beside ours). The transport works on its own duplicate of MPI_COMM_WORLD, so a user's messages never meet ours.
//
// Nothing here blocks inside MPI: every wait on other ranks is a non-blocking call tested in a loop against the
// watchdog's deadline (Transport::set_timeout, the key mpi_timeout_seconds), so that a rank stopped, killed or stuck
// ends the job with a message instead of hanging every other rank with no word (docs/mpi.md).
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "hcemu/config.hpp"
#include "hcemu/errors.hpp"
#include "hcemu/mpi.hpp"
#include "runtime/transport.hpp"

namespace hcemu::mpi {

namespace {

constexpr int kPayloadTag = 1;  // placed messages' payloads, in placing order between two ranks
constexpr int kNowTag = 2;      // native timing: a message, sent as it is issued
constexpr int kExchangeTag = 3;  // Transport::exchange: one message between two ranks per call
// MPI counts in int: a payload goes in pieces of at most 1 GiB.
constexpr std::size_t kPiece = std::size_t{1} << 30;
// The job's exit code when the watchdog ends it: the command's for a failed run (src/cli/cli_error.hpp).
constexpr int kWatchdogExit = 1;

using Clock = std::chrono::steady_clock;

void check(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(rc, text, &length);
  throw Error(std::string("MPI ") + what + " failed: " + std::string(text, static_cast<std::size_t>(length)));
}

class MpiTransport final : public detail::Transport {
 public:
  MpiTransport() {
    check(MPI_Comm_dup(MPI_COMM_WORLD, &comm_), "MPI_Comm_dup");
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &ranks_);
    char name[MPI_MAX_PROCESSOR_NAME];
    int length = 0;
    MPI_Get_processor_name(name, &length);
    host_.assign(name, static_cast<std::size_t>(length));
    // Collective: every rank makes its session's transport at the same point.
    MPI_Comm local = MPI_COMM_NULL;
    check(MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &local), "MPI_Comm_split_type");
    MPI_Comm_size(local, &ranks_on_host_);
    MPI_Comm_free(&local);
  }
  ~MpiTransport() override { MPI_Comm_free(&comm_); }

  int rank() const override { return rank_; }
  int ranks() const override { return ranks_; }
  std::string host() const override { return host_; }
  int ranks_on_host() const override { return ranks_on_host_; }

  std::vector<std::vector<std::byte>> all_gather(const std::vector<std::byte>& mine) override {
    std::lock_guard lock(mutex_);
    if (mine.size() > static_cast<std::size_t>(INT_MAX))
      throw Error("a round of placing carries more than 2 GiB from one MPI rank: spread the machine over more ranks");
    const int size = static_cast<int>(mine.size());
    std::vector<int> sizes(static_cast<std::size_t>(ranks_));
    MPI_Request request;
    check(MPI_Iallgather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, comm_, &request), "MPI_Iallgather");
    wait_all(&request, 1, "an all-gather (MPI_Iallgather of sizes)");
    std::vector<int> offsets(static_cast<std::size_t>(ranks_));
    std::size_t total = 0;
    for (int r = 0; r < ranks_; ++r) {
      if (total > static_cast<std::size_t>(INT_MAX))
        throw Error("a round of placing carries more than 2 GiB: spread the machine over more ranks");
      offsets[static_cast<std::size_t>(r)] = static_cast<int>(total);
      total += static_cast<std::size_t>(sizes[static_cast<std::size_t>(r)]);
    }
    std::vector<std::byte> all(total);
    check(MPI_Iallgatherv(mine.data(), size, MPI_BYTE, all.data(), sizes.data(), offsets.data(), MPI_BYTE, comm_,
                         &request),
          "MPI_Iallgatherv");
    wait_all(&request, 1, "an all-gather (MPI_Iallgatherv)");
    std::vector<std::vector<std::byte>> parts(static_cast<std::size_t>(ranks_));
    for (int r = 0; r < ranks_; ++r) {
      const auto at = all.begin() + offsets[static_cast<std::size_t>(r)];
      parts[static_cast<std::size_t>(r)].assign(at, at + sizes[static_cast<std::size_t>(r)]);
    }
    return parts;
  }

  void barrier() override {
    std::lock_guard lock(mutex_);
    MPI_Request r;
    check(MPI_Ibarrier(comm_, &r), "MPI_Ibarrier");
    wait_all(&r, 1, "a barrier (MPI_Ibarrier)");
  }

  void set_timeout(double seconds) override {
    std::lock_guard lock(mutex_);
    timeout_ = seconds;
  }

  void start_send(int rank, const std::byte* data, std::size_t bytes) override {
    start(rank, const_cast<std::byte*>(data), bytes, true);
  }
  void start_receive(int rank, std::byte* data, std::size_t bytes) override { start(rank, data, bytes, false); }

  void finish() override {
    std::lock_guard lock(mutex_);
    if (pending_.empty()) return;
    wait_all(pending_.data(), static_cast<int>(pending_.size()), "an exchange of payloads (MPI_Isend, MPI_Irecv)");
    pending_.clear();
  }

  std::vector<std::vector<std::byte>> exchange(const std::vector<std::pair<int, std::vector<std::byte>>>& out,
                                               const std::vector<int>& from) override {
    std::lock_guard lock(mutex_);
    std::vector<MPI_Request> requests;
    for (const auto& [rank, bytes] : out) {
      if (bytes.size() > static_cast<std::size_t>(INT_MAX))
        throw Error("a round of placing sends more than 2 GiB from one MPI rank to another: spread the machine over "
                    "more ranks");
      MPI_Request r;
      check(MPI_Isend(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, rank, kExchangeTag, comm_, &r),
            "MPI_Isend");
      requests.push_back(r);
    }
    // Each message's size is known once it has come: probe for it, then receive it.
    std::vector<std::vector<std::byte>> got(from.size());
    std::vector<bool> started(from.size(), false);
    auto progress = Clock::now();
    for (std::size_t left = from.size(); left > 0;) {
      bool any = false;
      for (std::size_t i = 0; i < from.size(); ++i) {
        if (started[i]) continue;
        int flag = 0;
        MPI_Status status;
        check(MPI_Iprobe(from[i], kExchangeTag, comm_, &flag, &status), "MPI_Iprobe");
        if (!flag) continue;
        int count = 0;
        MPI_Get_count(&status, MPI_BYTE, &count);
        got[i].resize(static_cast<std::size_t>(count));
        MPI_Request r;
        check(MPI_Irecv(got[i].data(), count, MPI_BYTE, from[i], kExchangeTag, comm_, &r), "MPI_Irecv");
        requests.push_back(r);
        started[i] = any = true;
        --left;
      }
      if (any) {
        progress = Clock::now();
      } else {
        if (past(progress)) give_up("an exchange of placed messages (MPI_Iprobe)");
        std::this_thread::yield();
      }
    }
    if (!requests.empty())
      wait_all(requests.data(), static_cast<int>(requests.size()), "an exchange of placed messages (MPI_Isend, "
                                                                     "MPI_Irecv)");
    return got;
  }

  void send_now(int rank, std::vector<std::byte> message) override {
    if (message.size() > static_cast<std::size_t>(INT_MAX))
      throw Error("under native timing a message between MPI ranks is limited to 2 GiB");
    std::lock_guard lock(mutex_);
    now_sends_.push_back(std::move(message));  // kept until its send completes
    MPI_Request r;
    check(MPI_Isend(now_sends_.back().data(), static_cast<int>(now_sends_.back().size()), MPI_BYTE, rank, kNowTag,
                    comm_, &r),
          "MPI_Isend");
    now_requests_.push_back(r);
  }

  bool poll(std::vector<std::byte>& message) override {
    std::lock_guard lock(mutex_);
    free_completed_sends();
    int flag = 0;
    MPI_Status status;
    check(MPI_Iprobe(MPI_ANY_SOURCE, kNowTag, comm_, &flag, &status), "MPI_Iprobe");
    if (!flag) return false;
    int count = 0;
    MPI_Get_count(&status, MPI_BYTE, &count);
    message.resize(static_cast<std::size_t>(count));
    // Its sender may stop before a long message has come whole: the receive is watched too.
    MPI_Request r;
    check(MPI_Irecv(message.data(), count, MPI_BYTE, status.MPI_SOURCE, kNowTag, comm_, &r), "MPI_Irecv");
    wait_all(&r, 1, "a native-timing receive (MPI_Irecv)");
    sum_progress_ = Clock::now();  // another rank moves: a count that waits for it is not stuck
    return true;
  }

  void start_sum(const std::vector<std::int64_t>& values) override {
    std::lock_guard lock(mutex_);
    sum_in_ = values;
    sum_out_.assign(values.size(), 0);
    check(MPI_Iallreduce(sum_in_.data(), sum_out_.data(), static_cast<int>(sum_in_.size()), MPI_INT64_T, MPI_SUM, comm_,
                         &sum_request_),
          "MPI_Iallreduce");
    sum_progress_ = Clock::now();
  }

  bool sum_done(std::vector<std::int64_t>& totals) override {
    std::lock_guard lock(mutex_);
    int done = 0;
    check(MPI_Test(&sum_request_, &done, MPI_STATUS_IGNORE), "MPI_Test");
    if (done) totals = sum_out_;
    // Asked again and again while this rank's nodes wait: the watchdog of the native-timing progress loop.
    if (!done && past(sum_progress_)) give_up("native timing's count of the ranks (MPI_Iallreduce)");
    return done != 0;
  }

  MPI_Comm comm() const { return comm_; }

 private:
  std::mutex mutex_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, ranks_ = 1, ranks_on_host_ = 1;
  std::string host_;
  std::vector<MPI_Request> pending_;
  // Native sends in flight, and their bytes.
  std::vector<MPI_Request> now_requests_;
  std::vector<std::vector<std::byte>> now_sends_;
  std::vector<std::int64_t> sum_in_, sum_out_;
  MPI_Request sum_request_ = MPI_REQUEST_NULL;
  Clock::time_point sum_progress_;  // the count's start, or the last native message received since
  double timeout_ = EmulatorSettings{}.mpi_timeout_seconds;  // seconds; 0 = forever

  // Whether the watchdog's time has run out since `since`.
  bool past(Clock::time_point since) const {
    return timeout_ > 0 && Clock::now() - since > std::chrono::duration<double>(timeout_);
  }

  // MPI_Waitall, watched: ends the job when none of `requests` completes for timeout_ seconds. Each completion is
  // progress and starts the time again, so a long exchange of many payloads is not cut short.
  void wait_all(MPI_Request* requests, int count, const char* operation) {
    std::vector<int> completed_at(static_cast<std::size_t>(count));
    auto progress = Clock::now();
    for (;;) {
      int completed = 0;
      check(MPI_Testsome(count, requests, &completed, completed_at.data(), MPI_STATUSES_IGNORE), "MPI_Testsome");
      if (completed == MPI_UNDEFINED) return;  // every request has completed
      if (completed > 0) {
        progress = Clock::now();
        continue;
      }
      if (past(progress)) give_up(operation);
      std::this_thread::yield();
    }
  }

  // The other ranks made no progress: a collective or a message can no longer complete, and waiting would hang
  // this rank (and, through it, every rank waiting on it) with no word. Says so on this rank, and ends the job.
  [[noreturn]] void give_up(const char* operation) const {
    std::fprintf(stderr,
                 "hcemu: rank %d: no progress from the other ranks for %g s in %s (a rank stopped, killed or far "
                 "slower?); giving up (key mpi_timeout_seconds sets how long to wait, 0 = forever; docs/mpi.md)\n",
                 rank_, timeout_, operation);
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, kWatchdogExit);
    std::abort();
  }

  // A payload in pieces of at most kPiece bytes (MPI counts in int), in order.
  void start(int rank, std::byte* data, std::size_t bytes, bool send) {
    std::lock_guard lock(mutex_);
    for (std::size_t at = 0; at < bytes; at += kPiece) {
      const int count = static_cast<int>(std::min(kPiece, bytes - at));
      MPI_Request r;
      check(send ? MPI_Isend(data + at, count, MPI_BYTE, rank, kPayloadTag, comm_, &r)
                 : MPI_Irecv(data + at, count, MPI_BYTE, rank, kPayloadTag, comm_, &r),
            send ? "MPI_Isend" : "MPI_Irecv");
      pending_.push_back(r);
    }
  }

  void free_completed_sends() {
    for (std::size_t i = 0; i < now_requests_.size();) {
      int done = 0;
      check(MPI_Test(&now_requests_[i], &done, MPI_STATUS_IGNORE), "MPI_Test");
      if (!done) {
        ++i;
        continue;
      }
      now_requests_[i] = now_requests_.back();
      now_requests_.pop_back();
      now_sends_[i] = std::move(now_sends_.back());
      now_sends_.pop_back();
    }
  }
};

}  // namespace

Session::Session(int& argc, char**& argv) {
  int already = 0;
  MPI_Initialized(&already);
  if (!already) {
    int provided = 0;
    check(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided), "MPI_Init_thread");
    initialised_here_ = true;
    if (provided < MPI_THREAD_SERIALIZED) {
      MPI_Finalize();
      initialised_here_ = false;
      throw Error(
          "this MPI library gives no thread support (MPI_THREAD_SERIALIZED at least): hcemu's node threads "
          "reach MPI from several host threads");
    }
  }
  transport_ = std::make_unique<MpiTransport>();
}

Session::~Session() {
  transport_.reset();
  if (initialised_here_) {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Finalize();
  }
}

int Session::rank() const { return transport_->rank(); }
int Session::ranks() const { return transport_->ranks(); }
std::string Session::host() const { return transport_->host(); }

Spread Session::spread() const { return detail::SpreadAccess::over(*transport_); }

Machine Session::machine(MachineConfig config, EmulatorSettings settings) const {
  settings.spread = spread();
  return Machine(std::move(config), std::move(settings));
}

std::string Session::first_of_ranks(const std::string& mine) const {
  return detail::first_of_ranks(*transport_, mine);
}

std::vector<std::string> Session::hosts() const {
  detail::Wire w;
  w.put_string(host());
  std::vector<std::string> all;
  for (const auto& part : transport_->all_gather(w.bytes())) {
    detail::WireReader r(part);
    all.push_back(r.get_string());
  }
  return all;
}

void Session::abort(int code) const {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::abort();
}

bool launched_by_mpirun() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE", "MPI_LOCALNRANKS"})
    if (std::getenv(name) != nullptr) return true;
  return false;
}

}  // namespace hcemu::mpi
