/* The probes that station.d declares under -DWITH_DEBUG (and WITHOUT_CLOSE
 * undefined): open, debug and close, not unused. */
#include "station.h"

struct station_peer {
  int fd;
};

int main(void) {
  static struct station_peer peer = {7};
  unsigned short port = 8080;
  oracle_start();
  ORACLE_GENERATED(STATION_OPEN(port, 16), station, open, port, 16);
  ORACLE_GENERATED(STATION_DEBUG(3), station, debug, 3);
  ORACLE_GENERATED(STATION_CLOSE(port, &peer), station, close, port, &peer);
  oracle_stop();
#ifdef STATION_UNUSED
#error "STATION_UNUSED: WITH_UNUSED was not defined"
#endif
  return 0;
}
