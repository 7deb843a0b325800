#pragma once
// What a machine spread over several processes (MPI ranks) needs of them, and nothing of MPI itself, so that the
// single-process build stays free of it: collectives on bytes at the rounds of placing (runtime/coordinator.hpp),
// payloads sent point to point between two ranks, and the host's name. The MPI transport (src/mpi) registers itself
// for the process with set_process_transport while an hcemu::mpi::Session lives; every Machine made then spreads its
// nodes over the ranks in blocks of consecutive ids (docs/mpi.md).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace hcemu::detail {

class Transport {
 public:
  virtual ~Transport() = default;
  virtual int rank() const = 0;
  virtual int ranks() const = 0;
  virtual std::string host() const = 0;
  // The watchdog: every call below that waits on other ranks ends the job (MPI_Abort, with a message naming the
  // key mpi_timeout_seconds) when they make no progress for this long; 0 = wait forever. A run sets its machine's
  // value; it holds until the next run sets another (docs/mpi.md).
  virtual void set_timeout(double seconds) = 0;

  // Collective: every rank's bytes, in rank order.
  virtual std::vector<std::vector<std::byte>> all_gather(const std::vector<std::byte>& mine) = 0;
  // Collective: waits until every rank has come (native timing takes its origin after it).
  virtual void barrier() = 0;

  // Point to point, non-blocking; finish() waits for every one started. Between two ranks the k-th receive started
  // takes the k-th send started (the ranks start them in the same order).
  virtual void start_send(int rank, const std::byte* data, std::size_t bytes) = 0;
  virtual void start_receive(int rank, std::byte* data, std::size_t bytes) = 0;
  virtual void finish() = 0;

  // Native timing: one message (head and payload), sent at once without waiting for its receiver.
  virtual void send_now(int rank, std::vector<std::byte> message) = 0;
  // A message sent with send_now that has come to this rank, or false; frees the sends that have completed.
  virtual bool poll(std::vector<std::byte>& message) = 0;
  // Native timing: a sum over every rank that does not block, one at a time: start it, then ask until it is done.
  virtual void start_sum(const std::vector<std::int64_t>& values) = 0;
  virtual bool sum_done(std::vector<std::int64_t>& totals) = 0;
};

// The process's transport while one is registered and spread over more than one rank; nullptr otherwise, or on this
// thread while an hcemu::mpi::InProcess lives.
Transport* process_transport();
void set_process_transport(Transport* transport);
// Machines made on this thread from now on run in this process (a count, so that scopes nest).
void hold_in_process(bool on);

// Spread over ranks (a collective: every rank calls it): the first non-empty text of the ranks, in rank order.
std::string first_of_ranks(const std::string& mine);

// Bytes for the transport: plain values and strings, written and read in the same order on every rank.
class Wire {
 public:
  template <class T>
  void put(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* p = reinterpret_cast<const std::byte*>(&value);
    bytes_.insert(bytes_.end(), p, p + sizeof(T));
  }
  void put_string(const std::string& s) {
    put<std::uint64_t>(s.size());
    const auto* p = reinterpret_cast<const std::byte*>(s.data());
    bytes_.insert(bytes_.end(), p, p + s.size());
  }
  std::vector<std::byte>& bytes() { return bytes_; }

 private:
  std::vector<std::byte> bytes_;
};

class WireReader {
 public:
  explicit WireReader(const std::vector<std::byte>& bytes) : bytes_(bytes) {}
  template <class T>
  T get() {
    static_assert(std::is_trivially_copyable_v<T>);
    need(sizeof(T));
    T value;
    std::memcpy(&value, bytes_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return value;
  }
  std::string get_string() {
    const auto n = static_cast<std::size_t>(get<std::uint64_t>());
    need(n);
    std::string s(reinterpret_cast<const char*>(bytes_.data() + at_), n);
    at_ += n;
    return s;
  }
  bool done() const { return at_ == bytes_.size(); }

 private:
  void need(std::size_t n) const {
    if (bytes_.size() - at_ < n) throw std::logic_error("internal error: a transport record ends too soon");
  }
  const std::vector<std::byte>& bytes_;
  std::size_t at_ = 0;
};

}  // namespace hcemu::detail
