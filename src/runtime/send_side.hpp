#pragma once
// A node's sends: issuing a transfer (placed at once when nothing can contend with it, else submitted to the placer),
// its release by whoever places it, the output hold it owes (docs/model.md §4), and the slots of sends made without a
// handle (Node::post_send), freed as soon as they are placed.
#include <cstdint>
#include <span>
#include <vector>

#include "hcemu/detail/node_backend.hpp"
#include "hcemu/model/torus.hpp"
#include "hcemu/report.hpp"
#include "runtime/requests.hpp"

namespace hcemu::detail {

class NodeCore;
struct Message;

class SendSide {
 public:
  // `core` may be constructed after the send side (it keeps only the reference until it is used).
  explicit SendSide(NodeCore* core) : core_(*core) {}

  void start_run();
  void route_ways(model::TorusRoutePreference ways) { ways_ = ways; }
  Request isend(int dest, std::span<const std::byte> data, int tag);
  void post_send(int dest, std::span<const std::byte> data, int tag);
  void wait_sends();

  // Waits until this node's transfers have left it and applies their port holds. `peer`, `tag` and `data`: of the
  // send about to be issued, if any (what the node touches first when it goes on, a hint).
  void place_own_transfers(int peer = -1, int tag = 0, const void* data = nullptr);
  void complete_send(std::uint32_t index);  // a released send: its output hold
  // The send whose output hold is still to apply (Slot::kNoSlot: none).
  std::uint32_t hold_slot() const { return hold_slot_; }

  std::uint64_t messages_sent() const { return messages_sent_; }
  std::uint64_t bytes_sent() const { return bytes_sent_; }

 private:
  // Places `m` now, as its sender may (nothing can contend with it): released, then handed to its receiver.
  void place_now(Message* m);
  // Frees the slot of a send made by post_send if it is placed and owes no output hold (true), taking its end.
  bool reap_posted_send(std::uint32_t index);
  void reap_posted_sends();  // of the list, from its front

  NodeCore& core_;
  model::TorusRoutePreference ways_;
  std::uint64_t issued_ = 0;                          // this node's transfers; Parking counts those released
  std::uint32_t hold_slot_ = Slot::kNoSlot;           // the send whose output hold is still to apply
  std::uint32_t latest_posted_send_ = Slot::kNoSlot;  // the slot of the latest send made by post_send, if kept
  std::uint64_t messages_sent_ = 0, bytes_sent_ = 0;
  // The slots of the other sends made by post_send, from the first not yet freed on; the latest end among those freed.
  std::vector<std::uint32_t> posted_sends_;
  std::size_t first_posted_send_ = 0;
  Time posted_sends_done_ = 0;
};

}  // namespace hcemu::detail
