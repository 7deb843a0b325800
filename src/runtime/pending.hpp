#pragma once
// What waits in the commit queue (runtime/coordinator.hpp) for its turn in model time: a message's next booking, or a
// node that waits until every transfer ready by some model time has been placed (a test, a wait_any, a receive from
// any source). Both carry the key of docs/model.md §7.
#include <atomic>

#include "timing/order_key.hpp"

namespace hcemu::detail {

struct Pending {
  enum class Kind : unsigned char { message, horizon };
  Kind kind = Kind::message;
  int owner = -1;            // a horizon request: the node waiting
  std::uint64_t ticket = 0;  // a horizon request: its number at that node
  std::atomic<bool> queued{false};
  timing::OrderKey key;
};

}  // namespace hcemu::detail
