#pragma once
// How a node's requests and receives complete (docs/model.md §4-5): receives posted alone or in groups, and the waits
// and tests on them and on sends. A receive whose message has come takes the input resource when it is waited for;
// what is not known yet (the first of several to complete, a receive from any source, a test's answer) is known once
// every transfer ready by then has been placed: the node asks the placer for that horizon and waits for it.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "hcemu/detail/node_backend.hpp"
#include "runtime/requests.hpp"
#include "timing/transfer.hpp"

namespace hcemu::detail {

class NodeCore;
class SendSide;
struct Message;
struct Pending;
struct RecvGroupState;

// A node's requests to the placer to be told when every transfer ready by a model time has been placed.
class Horizons {
 public:
  explicit Horizons(NodeCore& core) : core_(core) {}
  void start_run() { ticket_ = 0; }
  // Asks to be told when every transfer ready at or before `t` has been placed; returns the request's ticket.
  std::uint64_t request(Time t);
  bool passed(std::uint64_t ticket) const;

 private:
  NodeCore& core_;
  // Requests in the placer's queue (a newer request may leave an older one there), reused once answered.
  std::vector<std::unique_ptr<Pending>> requests_;
  std::uint64_t ticket_ = 0;
};

class Completion {
 public:
  // `core` may be constructed after the completion (it keeps only the reference until it is used).
  Completion(NodeCore* core, SendSide& sends) : core_(*core), sends_(sends), horizons_(*core) {}
  void start_run();
  Horizons& horizons() { return horizons_; }

  // Requests (completion_requests.cpp).
  Status wait(Request& request, const char* operation);
  void wait_all(std::span<Request> requests);
  std::size_t wait_any(std::span<Request> requests, Status* status);
  bool test(Request& request);

  // Receives (completion_receives.cpp).
  Request post_recv(int source, std::span<std::byte> buffer, int tag);
  RecvGroup post_recvs(std::span<const int> sources, std::span<std::byte> buffer, std::size_t block, int tag);
  Status wait(RecvGroup& group, std::size_t k);
  void wait_all(RecvGroup& group);

 private:
  // The request that completes first among those of a wait_any whose completion is known.
  struct Best {
    std::size_t index = 0;
    Time completion = kNever;
    int source = 0;
    Message* message = nullptr;  // a receive from any source: the message it would take
    bool found = false;
  };

  // wait_all's steps: the slots named (each once), split by kind; the wait for all of them; their completion.
  void gather(std::span<Request> requests, std::vector<std::uint32_t>& sends, std::vector<std::uint32_t>& receives);
  void await_all(const std::vector<std::uint32_t>& sends, const std::vector<std::uint32_t>& receives);
  Time complete_all(const std::vector<std::uint32_t>& sends, std::vector<std::uint32_t>& receives);
  // wait_any's: the best known, and its completion.
  Best best_known(std::span<Request> requests);
  Status complete_one(Request& r);
  bool fruitless_test(const Slot& s, Time now);  // counts a test() that found `s` incomplete; false
  void settle(const Slot& s, Time now);          // a test(): everything ready by `now` placed

  Time complete_receive(Slot& s);  // takes the input resource; returns the completion
  Time peek_receive(const Slot& s) const;
  Time complete_element(const RecvGroupState& g, std::uint32_t k);
  // Both: a matched message of `bytes` that arrived as `arrival` takes the input resource for a receive posted at
  // `posted`; recorded for the trace; returns the completion.
  Time take_input(const timing::TransferTimes& arrival, std::size_t bytes, Time posted, bool late, int source, int tag,
                  std::uint64_t message);
  // Receives from any source: the best waiting message for receive `r`, or nullptr.
  Message* best_for_any_source(const Slot& r, Time* completion = nullptr);
  void resolve_any_source(std::uint32_t index, const char* operation);
  // Why `operation` refuses element k: out of range, receiving nothing, or completed already.
  [[noreturn]] void refuse_element(const RecvGroupState& g, std::size_t k, const char* operation) const;

  NodeCore& core_;
  SendSide& sends_;
  Horizons horizons_;
  Time fruitless_clock_ = 0;  // the clock of the latest run of tests that found their requests incomplete
  std::uint64_t fruitless_tests_ = 0;
};

}  // namespace hcemu::detail
