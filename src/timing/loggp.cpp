// docs/model.md §12: the LogGP model (Alexandrov, Ionescu, Schauser & Scheiman 1995 §2). A k-byte message costs its
// sender o and its receiver o; its bytes leave the sender G apart after the first and reach the receiver L after they
// leave, so its receive can end 2o + L + (k-1)G after its send starts. The gap g spaces a node's messages: each holds
// the sender's output and the receiver's input for max(o, g + (k-1)G). There are no links to book and no distance:
// the network is the L term, so no two transfers contend and each is placed as soon as it is issued.
#include "hcemu/model/loggp.hpp"
#include "timing/checked_time.hpp"
#include "timing/transfer.hpp"

namespace hcemu::timing {
namespace {

class LogGP final : public TransferModel {
 public:
  LogGP(const MachineConfig& config, const Wiring& wiring)
      : TransferModel(wiring), cost_(model::LogGP::from(config)) {}

  bool books_alone(const Transfer&) const override { return true; }
  // It starts at its ready time: its sender's release comes its hold later, and its arrival its time T(k) >= the hold.
  Time least_lead(const Transfer& t) const override { return t.duration; }
  Leads leads() const override { return Leads::no_links; }

  CommitStep commit(Transfer& t, LinkTable&, Time) const override {
    TransferTimes& x = t.times;
    x.start = t.key.ready;
    x.sender_done = x.start + t.duration;
    x.first_byte = x.start + cost_.o + cost_.L;  // the first byte, injected after the sender's overhead
    x.arrival = x.start + cost_.message(t.bytes);
    x.input_hold = t.duration;
    return {true, true, false};
  }

 protected:
  void start(Transfer& t) const override {
    try {
      add_time(t.key.ready, cost_.message(t.bytes), "");  // the latest of its times, hold(k) <= T(k) (loggp_gap)
    } catch (const TimeOverflow&) {
      time_overflow(describe(t));
    }
    t.duration = cost_.hold(t.bytes);
  }

 private:
  model::LogGP cost_;
};

}  // namespace

std::unique_ptr<TransferModel> make_loggp(const MachineConfig& config, const Wiring& wiring) {
  return std::make_unique<LogGP>(config, wiring);
}

}  // namespace hcemu::timing
