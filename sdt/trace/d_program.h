// The D subset xsdt-trace runs: a parsed and checked program.
//
// A program is clauses, each a list of probe descriptions, an optional
// predicate and actions:
//
//   myapp:::request /arg0 > 100/ { @lat[probename] = quantize(arg1); }
//
// Expressions and actions live in flat vectors and refer to each other by
// index, so that evaluating one walks arrays and never allocates (the
// agent evaluates them in the probe's context, which may be a signal
// handler).
#ifndef XSDT_TRACE_D_PROGRAM_H
#define XSDT_TRACE_D_PROGRAM_H

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace xsdt::trace {

// A place in the program text; line and column count from 1, a column
// counts bytes.
struct Location {
  int line = 1;
  int column = 1;
};

// What xsdt-trace cannot run, or a malformed program. what() is
// "NAME:LINE:COL: error: MESSAGE" with NAME the script's file or "-n".
class ProgramError : public std::runtime_error {
public:
  ProgramError(const std::string &source_name, Location loc,
               const std::string &message);
  Location location() const { return loc_; }
  const std::string &message() const { return message_; }

private:
  Location loc_;
  std::string message_;
};

enum class Type { Int, String };

// The built-in variables a program may read.
enum class Builtin {
  Arg, // argN (Expr::value holds N)
  ProbeProv,
  ProbeMod,
  ProbeFunc,
  ProbeName,
  Tid,
  Pid,
  Timestamp, // CLOCK_MONOTONIC nanoseconds at the hit
};

enum class Op {
  // unary
  Negate,
  Not,
  Complement,
  // binary, arithmetic and bitwise on Int
  Add,
  Sub,
  Mul,
  Div,
  Mod,
  ShiftLeft,
  ShiftRight,
  BitAnd,
  BitOr,
  BitXor,
  // comparisons, on two Ints or two Strings
  Less,
  LessEqual,
  Greater,
  GreaterEqual,
  Equal,
  NotEqual,
  // logical, short-circuit
  LogicalAnd,
  LogicalOr,
};

struct Expr {
  enum class Kind {
    Int,      // value
    String,   // text: a literal
    Builtin,  // builtin (value: the argument number of argN)
    StringOf, // stringof(operands[0]): the C string at an address
    Unary,    // op operands[0]
    Binary,   // operands[0] op operands[1]
    Ternary,  // operands[0] ? operands[1] : operands[2]
  };
  Kind kind;
  Type type = Type::Int;
  Location loc;
  std::int64_t value = 0;
  std::string text;
  Builtin builtin = Builtin::Arg;
  Op op = Op::Add;
  int operands[3] = {-1, -1, -1};
};

enum class AggregatingFunction {
  Count,
  Sum,
  Min,
  Max,
  Avg,
  Quantize,
  LQuantize
};

// One aggregation (`@name`, or `@` alone: name ""), as every use of it
// agrees: the function, the types of its keys, lquantize's range.
struct Aggregation {
  std::string name;
  AggregatingFunction function = AggregatingFunction::Count;
  std::vector<Type> keys;
  std::int64_t lower = 0, upper = 0, step = 1; // lquantize
  Location first_use;
};

struct Action {
  enum class Kind {
    Aggregate, // @aggregation[keys] = function(argument)
    Printf,    // printf(format, arguments)
    Trace,     // trace(arguments[0])
    Printa,    // printa([format,] @aggregation)
    Exit,      // exit(arguments[0])
  };
  Kind kind;
  Location loc;
  int aggregation = -1;       // Aggregate, Printa
  std::vector<int> keys;      // Aggregate
  std::vector<int> arguments; // expressions
  std::string format;         // Printf; Printa's optional format
};

struct Clause {
  // The probe descriptions as written ("myapp:::request", "BEGIN").
  std::vector<std::string> probes;
  Location loc;
  int predicate = -1; // an expression, or -1
  std::vector<int> actions;
};

struct Program {
  std::vector<Clause> clauses;
  std::vector<Expr> exprs;
  std::vector<Action> actions;
  std::vector<Aggregation> aggregations;

  // The clauses of the special probes BEGIN and END, and the others.
  bool is_special(std::string_view description) const;
};

// Parses and checks source; source_name names it in errors (the script's
// path, or "-n" for a command-line program). Throws ProgramError for
// anything it cannot run: the whole program is refused.
Program parse_program(std::string_view source, const std::string &source_name);

} // namespace xsdt::trace

#endif // XSDT_TRACE_D_PROGRAM_H
