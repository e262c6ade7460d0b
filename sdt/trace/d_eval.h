// Evaluating the D subset's expressions at a hit, and the buckets of its
// quantizing aggregations.
//
// Everything here runs in the probe's context (the agent's handler, which
// may be a signal handler): no allocation, no lock, no exception. Strings
// are views of the program's literals, of the hit's probe names or of the
// caller's scratch buffers.
#ifndef XSDT_TRACE_D_EVAL_H
#define XSDT_TRACE_D_EVAL_H

#include "d_program.h"

#include <cstddef>
#include <cstdint>

namespace xsdt::trace {

// What an expression may read of one hit.
struct HitContext {
  const char *provider = "", *module = "", *function = "", *name = "";
  const std::uint64_t *args = nullptr; // argc of them
  int argc = 0;
  std::uint64_t tid = 0, pid = 0, timestamp = 0;
  // Copies up to size bytes at address into out, stopping after a NUL;
  // returns the bytes copied, or -1 when the memory is not readable.
  long (*read_string)(std::uintptr_t address, char *out,
                      std::size_t size) = nullptr;
};

enum class EvalError {
  None,
  DivisionByZero,
  BadAddress, // stringof of memory that cannot be read
  TooManyStrings,
};

struct EvalValue {
  Type type = Type::Int;
  std::int64_t number = 0;
  const char *text = "";
  std::size_t length = 0;
};

// Buffers for the strings stringof() reads during one evaluation.
struct EvalScratch {
  static constexpr int kStrings = 4;
  static constexpr std::size_t kStringSize = 256; // with its NUL
  char strings[kStrings][kStringSize];
  int used = 0;
};

// The value of program.exprs[expr] at hit; EvalError::None on success.
// An argument beyond the hit's argc reads 0, as dtrace(1)'s do.
EvalError evaluate(const Program &program, int expr, const HitContext &hit,
                   EvalScratch &scratch, EvalValue *out);

const char *eval_error_text(EvalError error);

// quantize(): the power-of-two bucket of value, as an index into
// kQuantizeBuckets buckets, and the bucket's lower bound (its label):
// ..., -4, -2, -1, 0, 1, 2, 4, ... (value v > 0 falls into the largest
// power of two <= v; v < 0 mirrors it).
// -2^63 .. -1 (64 buckets), 0, 1 .. 2^62 (63 buckets).
inline constexpr int kQuantizeBuckets = 128;
int quantize_bucket(std::int64_t value);
std::int64_t quantize_label(int bucket);

// lquantize(lower, upper, step): bucket 0 is "< lower", bucket 1 + k holds
// [lower + k*step, lower + (k+1)*step), the last ">= upper".
int lquantize_buckets(const Aggregation &agg);
int lquantize_bucket(const Aggregation &agg, std::int64_t value);

} // namespace xsdt::trace

#endif // XSDT_TRACE_D_EVAL_H
