// The preloaded agent's entry: a library of its own that needs the agent's
// core (libxsdt-trace-core.so), so that the dynamic loader runs the core's
// initialization, libxsdt's among it, before this constructor enables any
// probe. Within one library the order would be the link order, which puts
// this file's constructor before libxsdt's.
extern "C" void xsdt_trace_agent_start();

[[gnu::constructor]] static void start_agent() { xsdt_trace_agent_start(); }
