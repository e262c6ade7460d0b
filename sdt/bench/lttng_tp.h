/* The LTTng-UST tracepoints xsdt-bench-lttng compares xsdt's probes with:
 * the same three payloads (1, 4 and 8 integers, then a string). */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER xsdt_peer

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "lttng_tp.h"

#if !defined(XSDT_BENCH_LTTNG_TP_H) ||                                         \
    defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define XSDT_BENCH_LTTNG_TP_H

#include <lttng/tracepoint.h>

LTTNG_UST_TRACEPOINT_EVENT(
    xsdt_peer, args1, LTTNG_UST_TP_ARGS(long, a0, const char *, s),
    LTTNG_UST_TP_FIELDS(lttng_ust_field_integer(long, a0, a0)
                            lttng_ust_field_string(s, s)))

LTTNG_UST_TRACEPOINT_EVENT(
    xsdt_peer, args4,
    LTTNG_UST_TP_ARGS(long, a0, long, a1, long, a2, long, a3, const char *, s),
    LTTNG_UST_TP_FIELDS(lttng_ust_field_integer(long, a0, a0)
                            lttng_ust_field_integer(long, a1, a1)
                                lttng_ust_field_integer(long, a2, a2)
                                    lttng_ust_field_integer(long, a3, a3)
                                        lttng_ust_field_string(s, s)))

LTTNG_UST_TRACEPOINT_EVENT(
    xsdt_peer, args8,
    LTTNG_UST_TP_ARGS(long, a0, long, a1, long, a2, long, a3, long, a4, long,
                      a5, long, a6, long, a7, const char *, s),
    LTTNG_UST_TP_FIELDS(
        lttng_ust_field_integer(long, a0, a0)
            lttng_ust_field_integer(long, a1, a1)
                lttng_ust_field_integer(long, a2, a2)
                    lttng_ust_field_integer(long, a3, a3)
                        lttng_ust_field_integer(long, a4, a4)
                            lttng_ust_field_integer(long, a5, a5)
                                lttng_ust_field_integer(long, a6, a6)
                                    lttng_ust_field_integer(long, a7, a7)
                                        lttng_ust_field_string(s, s)))

#endif

#include <lttng/tracepoint-event.h>
