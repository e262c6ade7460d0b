/*
 * libxsdt: lets a tracer attach to this running program by its pid
 * (xsdt-trace -p PID), without the kernel's help and without a preload.
 *
 * xsdt_attach_listen() starts one thread that listens on the abstract Unix
 * socket "@xsdt-attach.<pid>" (XSDT_ATTACH_SOCKET_PREFIX and the decimal
 * pid). A peer of another user (SO_PEERCRED; root excepted) is refused. A
 * connection's first line names a tracer's agent library; libxsdt dlopen()s
 * it, checks that it exports XSDT_ATTACH_ENTRY, answers "ok\n" (or
 * "error: ...\n" and closes) and calls the entry with the connection, on
 * the listening thread: one tracer at a time, any number one after
 * another. The agent is never unloaded (a thread may still run its code).
 */
#ifndef XSDT_ATTACH_H
#define XSDT_ATTACH_H

#include <xsdt/runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

#define XSDT_ATTACH_SOCKET_PREFIX "xsdt-attach."
/* int entry(int fd): runs a session on fd; returns when it ends. */
#define XSDT_ATTACH_ENTRY "xsdt_trace_agent_attach"

/* Starts listening. Returns 0 (also when already listening), or -1 and
 * fills err (XSDT_ERR_INTERNAL: the socket, e.g. its name is taken). */
int xsdt_attach_listen(xsdt_error *err);

#ifdef __cplusplus
}
#endif

#endif /* XSDT_ATTACH_H */
