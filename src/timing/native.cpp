// docs/model.md §8, native timing: the clocks are the host's real time and the emulator injects no delay, so a message
// holds nothing and is delivered as soon as it is issued. No model time is kept: nothing need wait for the other
// nodes' clocks before a transfer is placed.
#include "timing/transfer.hpp"

namespace hcemu::timing {
namespace {

class Native final : public TransferModel {
 public:
  explicit Native(const Wiring& wiring) : TransferModel(wiring) {}

  CommitStep commit(Transfer& t, LinkTable&, Time) const override {
    TransferTimes& x = t.times;
    x.start = x.first_byte = x.sender_done = x.arrival = t.key.ready;
    x.input_hold = 0;
    return {true, true, false};
  }
  bool keeps_model_time() const override { return false; }

 protected:
  void start(Transfer&) const override {}
};

}  // namespace

std::unique_ptr<TransferModel> make_native(const Wiring& wiring) { return std::make_unique<Native>(wiring); }

}  // namespace hcemu::timing
