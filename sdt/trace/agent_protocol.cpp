// The agent's messages (agent_protocol.h).
#include "agent_protocol.h"

namespace xsdt::trace {

std::string encode_message(MessageKind kind, const std::string &payload) {
  std::string frame(1, static_cast<char>(kind));
  const std::uint32_t n = static_cast<std::uint32_t>(payload.size());
  for (int i = 0; i < 4; ++i)
    frame += static_cast<char>((n >> (8 * i)) & 0xff);
  return frame + payload;
}

std::optional<Message> take_message(std::string *buffer) {
  if (buffer->size() < 5)
    return std::nullopt;
  std::uint32_t n = 0;
  for (int i = 0; i < 4; ++i)
    n |=
        static_cast<std::uint32_t>(static_cast<unsigned char>((*buffer)[1 + i]))
        << (8 * i);
  if (buffer->size() < 5 + static_cast<std::size_t>(n))
    return std::nullopt;
  Message m{static_cast<MessageKind>((*buffer)[0]), buffer->substr(5, n)};
  buffer->erase(0, 5 + static_cast<std::size_t>(n));
  switch (m.kind) {
  case MessageKind::Started:
  case MessageKind::Output:
  case MessageKind::Listing:
  case MessageKind::Warning:
  case MessageKind::Error:
  case MessageKind::Done:
  case MessageKind::Program:
    return m;
  }
  return Message{MessageKind::Error,
                 std::string("the agent sent a message of unknown kind '") +
                     static_cast<char>(m.kind) + "'"};
}

} // namespace xsdt::trace
