#pragma once
// Plain values and strings as bytes, written and read in the same order on every MPI rank: what the ranks of a
// spread machine exchange at a round of placing (src/runtime), and what `hcemu fit` shares from rank 0 (src/cli).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace hcemu::detail {

class Wire {
 public:
  // put and put_string by resize and copy: GCC 12 takes an insert of a range into a vector whose size it knows for
  // a write past its end (-Wstringop-overflow, -Warray-bounds: false positives in a Release build).
  template <class T>
  void put(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    const std::size_t at = bytes_.size();
    bytes_.resize(at + sizeof(T));
    std::memcpy(bytes_.data() + at, &value, sizeof(T));
  }
  void put_string(const std::string& s) {
    put<std::uint64_t>(s.size());
    const std::size_t at = bytes_.size();
    bytes_.resize(at + s.size());
    if (!s.empty()) std::memcpy(bytes_.data() + at, s.data(), s.size());
  }
  void put_bytes(const std::byte* data, std::size_t n) { bytes_.insert(bytes_.end(), data, data + n); }
  std::vector<std::byte>& bytes() { return bytes_; }
  const std::vector<std::byte>& bytes() const { return bytes_; }

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
  void get_bytes(std::byte* into, std::size_t n) {
    need(n);
    if (n > 0) std::memcpy(into, bytes_.data() + at_, n);
    at_ += n;
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
