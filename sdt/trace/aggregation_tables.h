// The D program's aggregations, kept where the hits happen: one fixed
// table per aggregation in each thread's hit area (libxsdt's "hitarea",
// xsdt_handle_hit), written by that thread alone at its hits, with no lock
// and no allocation; merged by the agent's drain thread when it prints.
// The agent's own clauses (BEGIN, END, clauses that print) write a table
// set of the same layout, so that one rule adds a value everywhere.
//
// An area is a header of counters (per aggregation: the values that found
// no room; per clause and error: the evaluations that failed) and then
// the tables. A table is open-addressed: an entry is claimed by its thread
// (key first, then its state word with release) and its values are then
// updated by plain relaxed stores: one writer, readers that only ever see
// a value the writer wrote.
#ifndef XSDT_TRACE_AGGREGATION_TABLES_H
#define XSDT_TRACE_AGGREGATION_TABLES_H

#include "d_eval.h"
#include "d_format.h"
#include "d_program.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace xsdt::trace {

// A key as printed and sorted: its parts in order.
struct Key {
  std::vector<Value> parts;
  bool operator<(const Key &o) const;
};

// One key's values, merged over the tables.
struct AggValue {
  std::int64_t count = 0, sum = 0, min = INT64_MAX, max = INT64_MIN;
  std::vector<std::int64_t> buckets;
  // The value as printa's %@d and the sort see it.
  std::int64_t scalar(AggregatingFunction f) const;
};

// The errors an evaluation can count, EvalError::None excluded.
inline constexpr int kEvalErrorKinds = 3;

class AggregationTables {
public:
  // The default bytes per thread (-x aggsize=).
  static constexpr std::size_t kDefaultAreaBytes = 256 << 10;

  // The layout of program's tables in area_bytes per thread. Throws
  // std::invalid_argument with a message naming the aggregation when one
  // entry of a table does not fit.
  AggregationTables(const Program &program, std::size_t area_bytes);

  std::size_t area_bytes() const { return area_bytes_; }

  // At a hit (async-signal-safe): adds value under the key of aggregation
  // agg in area. A key that finds its table full is counted as a drop of
  // the aggregation instead. Strings longer than a key's room are cut, as
  // D's strsize cuts them.
  void add(void *area, int agg, const EvalValue *keys, int nkeys,
           std::int64_t value) const;
  // At a hit: one failed evaluation in clause.
  void count_error(void *area, int clause, EvalError error) const;

  // Reading (any thread): aggregation agg of area added into `into`, its
  // drops, and one clause's failed evaluations.
  void merge(const void *area, int agg, std::map<Key, AggValue> &into) const;
  std::uint64_t drops(const void *area, int agg) const;
  std::uint64_t errors(const void *area, int clause, EvalError error) const;

private:
  struct Table {
    std::size_t offset = 0;      // from the area's start
    std::size_t slots = 0;       // a power of two
    std::size_t entry_bytes = 0; // a multiple of 8
    std::size_t key_bytes = 0;   // the widest key
    int buckets = 0;             // quantize's, lquantize's, or 0
  };
  const Program &program_;
  std::vector<Table> tables_;
  std::size_t clauses_ = 0;
  std::size_t area_bytes_ = 0;
};

} // namespace xsdt::trace

#endif // XSDT_TRACE_AGGREGATION_TABLES_H
