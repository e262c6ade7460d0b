// Private to libxsdt: the enablings in force, which decide what a probe of
// an object loaded after an enable gets (docs/runtime.md, "Objects loaded
// later"). Each successful enable is kept as an enabling {pattern, payload}
// together with the patterns of the disables issued after it. A probe is
// enabled by enabling E iff it matches E's pattern and none of the disables
// recorded against E; the oldest such enabling wins. A disable whose
// pattern is textually E's, or matches every probe, ends E. So a late
// object gets what it would have got had it been loaded all along. Its own
// unit because both parts (USDT, SDT) apply the same rule with their own
// pattern syntax: matching is the caller's.
#ifndef XSDT_RUNTIME_ENABLINGS_H
#define XSDT_RUNTIME_ENABLINGS_H

#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace xsdt::rt {

template <class Payload> class Enablings {
public:
  struct Enabling {
    std::string pattern;
    Payload payload;
    std::size_t since; // disables_[since..] were issued after it
  };

  // A successful enable of `pattern`. Recorded before the enable writes
  // any code (it may throw std::bad_alloc), and withdrawn if the write
  // fails, so that nothing can fail once the code is written.
  void enable(std::string pattern, Payload payload) {
    in_force_.push_back(
        Enabling{std::move(pattern), std::move(payload), disables_.size()});
  }
  void withdraw_last() noexcept { in_force_.pop_back(); }

  // Makes the next disable() unable to fail: called before the disable
  // writes any code.
  void reserve_disable() { disables_.reserve(disables_.size() + 1); }
  // A disable of `pattern` (matches_everything: it matches every probe the
  // part could ever see, e.g. "*"). Ends the enablings it names exactly or
  // covers wholly; narrows the others. After reserve_disable() it cannot
  // fail (its one allocation is made).
  void disable(std::string pattern, bool matches_everything) {
    std::erase_if(in_force_, [&](const Enabling &e) {
      return matches_everything || e.pattern == pattern;
    });
    if (in_force_.empty())
      disables_.clear(); // no enabling is left to narrow
    else
      disables_.push_back(std::move(pattern));
  }

  // The enabling that enables a probe, or null: the oldest one whose
  // pattern the probe matches (matches(pattern) is true) and none of whose
  // later disables it matches.
  template <class Match> const Enabling *find(Match &&matches) const {
    for (const Enabling &e : in_force_) {
      if (!matches(e.pattern))
        continue;
      if (std::none_of(disables_.begin() + static_cast<std::ptrdiff_t>(e.since),
                       disables_.end(),
                       [&](const std::string &d) { return matches(d); }))
        return &e;
    }
    return nullptr;
  }
  bool empty() const { return in_force_.empty(); }
  const std::vector<Enabling> &in_force() const { return in_force_; }
  // The disables issued after enabling e, oldest first.
  std::size_t disables_after(const Enabling &e) const {
    return disables_.size() - e.since;
  }

private:
  std::vector<Enabling> in_force_;
  std::vector<std::string> disables_; // since the oldest enabling in force
};

} // namespace xsdt::rt

#endif // XSDT_RUNTIME_ENABLINGS_H
