#pragma once
// The two interfaces between a node and the placer (runtime/coordinator.hpp), so that neither knows the other's
// type: what a node tells the placer (Placer, here), and what the placer, or a node that completes a barrier, tells a
// node: the calls for any thread of its Parking (runtime/parking.hpp), the one part of a node that others write. Those
// are plain calls on the lines they touch, not virtual ones: the placer brings events to nodes whose lines are cold, in
// its serial part, and a virtual call would read one more cold line of the node (its vtable pointer) per event.
#include <cstdint>

#include "hcemu/report.hpp"
#include "hcemu/time.hpp"

namespace hcemu::detail {

class Parking;
struct Message;
struct Pending;

class Placer {
 public:
  // Whether transfers that may contend are placed in the model-time order of docs/model.md §7. False under native
  // timing, whose transfers hold nothing and are placed as they are issued: then no node waits for a horizon, and a
  // transfer is placed by its sender (place_now).
  virtual bool orders_in_model_time() const = 0;
  // Any thread: `p` waits for its turn in model time.
  virtual void submit(Pending* p) = 0;
  // Whether `m`, a transfer that books nothing another source can book (timing::TimingModel::books_alone), is placed
  // by its sender as it issues it (SendSide): in one process, and spread over ranks where each rank places its own
  // senders' transfers and the receiver is this rank's. Where every rank places the whole queue, only a message to
  // oneself is. Where the placer places while nodes run (Coordinator::place_early), not one without a lead
  // (timing::TimingModel::least_lead).
  virtual bool sender_places(const Message& m) const = 0;
  // A transfer its sender placed already goes to its receiver (on this rank or another).
  virtual void forward_placed(Message* m) = 0;
  // The node with index `slot` in this process stops running (it parks, or its kernel is done), or runs again:
  // woken by an event at model time `event`, before which it issues nothing (0 where that is not known).
  virtual void node_parked(int slot) = 0;
  virtual void node_woken(int slot, Time event) = 0;
  // A node that runs, not woken by this event, may take what it brings (a message that came, its transfer placed)
  // and issue from model time `event` on: it issues nothing before the least of this and what woke it.
  virtual void node_may_issue_from(int slot, Time event) = 0;
  virtual void node_done(int slot) = 0;
  // The last of this process's nodes has entered the barrier, the latest at `latest_entry`: the placer releases it,
  // at once in one process (true; every other node is notified), or at a round with every rank when spread over
  // ranks (false).
  virtual bool barrier_complete(Time latest_entry) = 0;

 protected:
  ~Placer() = default;
};


}  // namespace hcemu::detail
