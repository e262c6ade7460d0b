// The D subset's evaluation at a hit (d_eval.h). No allocation, no lock,
// no exception: it runs in the probe's context.
#include "d_eval.h"

#include <bit>
#include <cstring>

namespace xsdt::trace {

namespace {

EvalValue int_value(std::int64_t n) {
  EvalValue v;
  v.number = n;
  return v;
}

EvalValue string_value(const char *text) {
  EvalValue v;
  v.type = Type::String;
  v.text = text ? text : "";
  v.length = std::strlen(v.text);
  return v;
}

int compare(const EvalValue &a, const EvalValue &b) {
  if (a.type == Type::String) {
    std::size_t n = a.length < b.length ? a.length : b.length;
    int c = std::memcmp(a.text, b.text, n);
    if (c != 0)
      return c;
    return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
  }
  return a.number < b.number ? -1 : a.number > b.number ? 1 : 0;
}

// Two's-complement arithmetic without signed overflow.
std::int64_t wrap(std::uint64_t u) { return static_cast<std::int64_t>(u); }

} // namespace

EvalError evaluate(const Program &program, int index, const HitContext &hit,
                   EvalScratch &scratch, EvalValue *out) {
  const Expr &e = program.exprs[index];
  EvalValue a, b;
  EvalError error;
  switch (e.kind) {
  case Expr::Kind::Int:
    *out = int_value(e.value);
    return EvalError::None;
  case Expr::Kind::String:
    out->type = Type::String;
    out->text = e.text.c_str();
    out->length = e.text.size();
    return EvalError::None;
  case Expr::Kind::Builtin:
    switch (e.builtin) {
    case Builtin::Arg:
      *out = int_value(e.value < hit.argc ? wrap(hit.args[e.value]) : 0);
      break;
    case Builtin::ProbeProv:
      *out = string_value(hit.provider);
      break;
    case Builtin::ProbeMod:
      *out = string_value(hit.module);
      break;
    case Builtin::ProbeFunc:
      *out = string_value(hit.function);
      break;
    case Builtin::ProbeName:
      *out = string_value(hit.name);
      break;
    case Builtin::Tid:
      *out = int_value(wrap(hit.tid));
      break;
    case Builtin::Pid:
      *out = int_value(wrap(hit.pid));
      break;
    case Builtin::Timestamp:
      *out = int_value(wrap(hit.timestamp));
      break;
    }
    return EvalError::None;
  case Expr::Kind::StringOf: {
    if ((error = evaluate(program, e.operands[0], hit, scratch, &a)) !=
        EvalError::None)
      return error;
    if (scratch.used >= EvalScratch::kStrings)
      return EvalError::TooManyStrings;
    char *buffer = scratch.strings[scratch.used++];
    long n = hit.read_string
                 ? hit.read_string(static_cast<std::uintptr_t>(a.number),
                                   buffer, EvalScratch::kStringSize - 1)
                 : -1;
    if (n < 0)
      return EvalError::BadAddress;
    buffer[n] = '\0';
    out->type = Type::String;
    out->text = buffer;
    out->length = std::strlen(buffer);
    return EvalError::None;
  }
  case Expr::Kind::Unary: {
    if ((error = evaluate(program, e.operands[0], hit, scratch, &a)) !=
        EvalError::None)
      return error;
    std::uint64_t u = static_cast<std::uint64_t>(a.number);
    *out = int_value(e.op == Op::Negate ? wrap(-u)
                     : e.op == Op::Not  ? !a.number
                                        : wrap(~u));
    return EvalError::None;
  }
  case Expr::Kind::Ternary:
    if ((error = evaluate(program, e.operands[0], hit, scratch, &a)) !=
        EvalError::None)
      return error;
    return evaluate(program, e.operands[a.number ? 1 : 2], hit, scratch, out);
  case Expr::Kind::Binary:
    break;
  }
  if ((error = evaluate(program, e.operands[0], hit, scratch, &a)) !=
      EvalError::None)
    return error;
  if (e.op == Op::LogicalAnd || e.op == Op::LogicalOr) {
    bool left = a.number != 0;
    if (left == (e.op == Op::LogicalOr)) {
      *out = int_value(left);
      return EvalError::None;
    }
    if ((error = evaluate(program, e.operands[1], hit, scratch, &b)) !=
        EvalError::None)
      return error;
    *out = int_value(b.number != 0);
    return EvalError::None;
  }
  if ((error = evaluate(program, e.operands[1], hit, scratch, &b)) !=
      EvalError::None)
    return error;
  std::uint64_t x = static_cast<std::uint64_t>(a.number);
  std::uint64_t y = static_cast<std::uint64_t>(b.number);
  std::int64_t r = 0;
  switch (e.op) {
  case Op::Add:
    r = wrap(x + y);
    break;
  case Op::Sub:
    r = wrap(x - y);
    break;
  case Op::Mul:
    r = wrap(x * y);
    break;
  case Op::Div:
  case Op::Mod:
    if (b.number == 0)
      return EvalError::DivisionByZero;
    if (a.number == INT64_MIN && b.number == -1)
      r = e.op == Op::Div ? INT64_MIN : 0;
    else
      r = e.op == Op::Div ? a.number / b.number : a.number % b.number;
    break;
  case Op::ShiftLeft:
    r = y >= 64 ? 0 : wrap(x << y);
    break;
  case Op::ShiftRight:
    r = y >= 64 ? (a.number < 0 ? -1 : 0) : a.number >> y;
    break;
  case Op::BitAnd:
    r = wrap(x & y);
    break;
  case Op::BitOr:
    r = wrap(x | y);
    break;
  case Op::BitXor:
    r = wrap(x ^ y);
    break;
  case Op::Less:
    r = compare(a, b) < 0;
    break;
  case Op::LessEqual:
    r = compare(a, b) <= 0;
    break;
  case Op::Greater:
    r = compare(a, b) > 0;
    break;
  case Op::GreaterEqual:
    r = compare(a, b) >= 0;
    break;
  case Op::Equal:
    r = compare(a, b) == 0;
    break;
  case Op::NotEqual:
    r = compare(a, b) != 0;
    break;
  default:
    break;
  }
  *out = int_value(r);
  return EvalError::None;
}

const char *eval_error_text(EvalError error) {
  switch (error) {
  case EvalError::None:
    return "no error";
  case EvalError::DivisionByZero:
    return "division by zero";
  case EvalError::BadAddress:
    return "stringof() of an address that cannot be read";
  case EvalError::TooManyStrings:
    return "more than 4 stringof() in one action";
  }
  return "unknown error";
}

int quantize_bucket(std::int64_t value) {
  if (value == 0)
    return 64;
  if (value > 0)
    return 65 + (63 - std::countl_zero(static_cast<std::uint64_t>(value)));
  std::uint64_t magnitude = -static_cast<std::uint64_t>(value);
  return 63 - (63 - std::countl_zero(magnitude));
}

std::int64_t quantize_label(int bucket) {
  if (bucket == 64)
    return 0;
  if (bucket > 64)
    return static_cast<std::int64_t>(std::uint64_t{1} << (bucket - 65));
  return wrap(-(std::uint64_t{1} << (63 - bucket)));
}

int lquantize_buckets(const Aggregation &agg) {
  return static_cast<int>((agg.upper - agg.lower + agg.step - 1) / agg.step) +
         2;
}

int lquantize_bucket(const Aggregation &agg, std::int64_t value) {
  if (value < agg.lower)
    return 0;
  if (value >= agg.upper)
    return lquantize_buckets(agg) - 1;
  return 1 + static_cast<int>((value - agg.lower) / agg.step);
}

} // namespace xsdt::trace
