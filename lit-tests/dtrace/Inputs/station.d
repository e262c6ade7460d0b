/* A provider file for `dtrace -C`: the C preprocessor runs first, with the
 * -I, -D and -U options of the command line. */
#include "station-types.h"

#define BACKLOG_T int

provider station {
	probe open(PORT_T port, BACKLOG_T backlog);
#ifdef WITH_DEBUG
	probe debug(int level);
#endif
#ifndef WITHOUT_CLOSE
	probe close(PORT_T port, station_peer_t *peer);
#endif
#ifdef WITH_UNUSED
	probe unused(int);
#endif
};
