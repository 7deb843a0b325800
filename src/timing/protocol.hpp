#pragma once
// The protocols of docs/model.md §5, FORCED and UNFORCED: what becomes of a message that a receive is matched with,
// and what a late one costs. The same under every transfer model: a model only says when the first byte arrives.
#include <cstddef>

#include "hcemu/config.hpp"
#include "hcemu/time.hpp"
#include "timing/transfer.hpp"

namespace hcemu::timing {

// What becomes of a message when a receive is matched with it.
enum class MatchOutcome {
  deliver,       // it arrived after the receive was posted
  deliver_late,  // UNFORCED: it arrived before and waited in the system buffer; the receive pays the copy out
  discard,       // FORCED: it arrived before and is lost; the receive stays pending
};

class ProtocolRules {
 public:
  // `sys_copy`: per byte out of the system buffer, in exact time (CostTable).
  ProtocolRules(Protocol protocol, Time sys_copy) : protocol_(protocol), sys_copy_(sys_copy) {}

  // A message whose first byte reaches the receiver before the receive is posted arrived early.
  MatchOutcome on_match(const TransferTimes& message, Time posted) const {
    if (message.first_byte >= posted) return MatchOutcome::deliver;
    return protocol_ == Protocol::forced ? MatchOutcome::discard : MatchOutcome::deliver_late;
  }
  // What a receive adds to its completion: the copy out of the system buffer for a late UNFORCED message, nothing
  // otherwise. Throws TimeOverflow past the model's range.
  Time late_copy(std::size_t bytes, bool late) const;

 private:
  Protocol protocol_;
  Time sys_copy_;
};

}  // namespace hcemu::timing
