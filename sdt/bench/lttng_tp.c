/* The probes of lttng_tp.h, compiled once (LTTng-UST's provider object). */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "lttng_tp.h"
