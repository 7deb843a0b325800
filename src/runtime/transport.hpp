#pragma once
// What a machine spread over several processes (MPI ranks) needs of them, and nothing of MPI itself, so that the
// single-process build stays free of it: collectives on bytes at the rounds of placing (runtime/coordinator.hpp),
// payloads sent point to point between two ranks, and the host's name. An hcemu::mpi::Session owns the MPI transport
// (src/mpi) and hands it out in a Spread; a Machine whose settings carry that Spread puts its nodes on the ranks in
// blocks of consecutive ids (docs/mpi.md).
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/wire.hpp"
#include "hcemu/config.hpp"

namespace hcemu::detail {

class Transport {
 public:
  virtual ~Transport() = default;
  virtual int rank() const = 0;
  virtual int ranks() const = 0;
  virtual std::string host() const = 0;
  // The ranks of the job on this rank's host (this one included), which share its cores unless each is bound to its
  // own: the engine's default worker count divides the cores among them (docs/mpi.md, "Running it").
  virtual int ranks_on_host() const { return 1; }
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

  // Point to point, of sizes the receivers do not know: sends each of `out` to its rank, and receives one message
  // from each rank of `from`, returned in the order of `from`. Every rank calls it in the same round, and a rank
  // sends another at most one message per call.
  virtual std::vector<std::vector<std::byte>> exchange(
      const std::vector<std::pair<int, std::vector<std::byte>>>& out, const std::vector<int>& from) = 0;

  // Native timing: one message (head and payload), sent at once without waiting for its receiver.
  virtual void send_now(int rank, std::vector<std::byte> message) = 0;
  // A message sent with send_now that has come to this rank, or false; frees the sends that have completed.
  virtual bool poll(std::vector<std::byte>& message) = 0;
  // Native timing: a sum over every rank that does not block, one at a time: start it, then ask until it is done.
  virtual void start_sum(const std::vector<std::int64_t>& values) = 0;
  virtual bool sum_done(std::vector<std::int64_t>& totals) = 0;
};

// A Spread's transport: nullptr for this process alone. Spread::ranks() is the transport's ranks().
struct SpreadAccess {
  static Transport* transport(const Spread& spread) { return spread.transport_; }
  // Over the transport's ranks; this process alone when it has only one.
  static Spread over(Transport& transport) {
    Spread spread;
    if (transport.ranks() < 2) return spread;
    spread.transport_ = &transport;
    spread.ranks_ = transport.ranks();
    return spread;
  }
};

// Spread over ranks (a collective: every rank calls it): the first non-empty text of the ranks, in rank order.
std::string first_of_ranks(Transport& transport, const std::string& mine);

}  // namespace hcemu::detail
