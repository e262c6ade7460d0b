// The messages between xsdt-trace's agent (in the traced program) and the
// command: a kind byte, the payload's length (4 bytes, little-endian) and
// the payload, over a pipe (a started program) or a Unix socket (an
// attach by pid, where the command sends the Program first).
#ifndef XSDT_TRACE_AGENT_PROTOCOL_H
#define XSDT_TRACE_AGENT_PROTOCOL_H

#include <cstdint>
#include <optional>
#include <string>

namespace xsdt::trace {

enum class MessageKind : char {
  Started = 'S', // the probes are enabled; payload: the pid
  Output = 'O',  // text for the output
  Listing = 'L', // -l: one probe a line, tab-separated fields
  Warning = 'W', // drops, failed hits: printed on stderr
  Error = 'E',   // the trace cannot run; the agent ends the program
  Done = 'D',    // the trace is over; payload: "STATUS" or "STATUS exit"
  Program = 'P', // command to agent, attach: the options, '\n', the D text
};

// The exit status of a program whose agent could not start the trace.
inline constexpr int kAgentFailedStatus = 112;

std::string encode_message(MessageKind kind, const std::string &payload);

struct Message {
  MessageKind kind;
  std::string payload;
};

// Takes the first whole message off the front of *buffer; nullopt while
// it is incomplete. A kind byte the protocol does not know is an Error
// message naming it.
std::optional<Message> take_message(std::string *buffer);

} // namespace xsdt::trace

#endif // XSDT_TRACE_AGENT_PROTOCOL_H
