// The generated header of kiosk.d from C++: the macros in member functions
// and, behind the _ENABLED() guard, in a function template.
#include "kiosk.h"
#include <string>

namespace {

class Counter {
public:
  explicit Counter(const char *window) : window_(window) {}
  void sell(int seat, long price) {
    ORACLE_GENERATED(KIOSK_TICKET_SOLD(seat, price), kiosk, ticket__sold, seat,
                     price);
  }
  void queue(unsigned waiting) {
    const char *name = window_.c_str();
    ORACLE_GENERATED(KIOSK_QUEUE(waiting, name, this), kiosk, queue, waiting,
                     name, this);
  }

private:
  std::string window_;
};

template <typename T> void boot_if_enabled(T &) {
  if (KIOSK_BOOT_ENABLED())
    ORACLE_GENERATED(KIOSK_BOOT(), kiosk, boot);
}

} // namespace

int main() {
  Counter counter("east");
  oracle_start();
  boot_if_enabled(counter);
  counter.sell(4, 1250L);
  counter.queue(9u);
  oracle_stop();
  return 0;
}
