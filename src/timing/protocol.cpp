#include "timing/protocol.hpp"

#include "timing/checked_time.hpp"

namespace hcemu::timing {

Time ProtocolRules::late_copy(std::size_t bytes, bool late) const {
  return late ? scale_time(sys_copy_, bytes, "a late copy") : 0;
}

}  // namespace hcemu::timing
