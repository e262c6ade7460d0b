// The aggregation tables of a hit area (aggregation_tables.h).
#include "aggregation_tables.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <stdexcept>

namespace xsdt::trace {
namespace {

// A key's string part: a 2-byte length and at most this many bytes, the
// strings stringof() reads (EvalScratch) without their NUL.
constexpr std::size_t kMaxKeyString = EvalScratch::kStringSize - 1;
// Encoded keys are built on the hit's stack.
constexpr std::size_t kMaxKeyBytes = 2048;
// An entry: state (u32), key length (u32), hash (u64), the key, then
// count, sum, min, max and the buckets (i64 each).
constexpr std::size_t kEntryHeader = 16;
constexpr std::size_t kValueWords = 4;

constexpr std::size_t round8(std::size_t n) {
  return (n + 7) & ~std::size_t{7};
}

// The words of an area are read by the drain thread while their thread
// writes them: relaxed atomics where the arch has them without a lock.
// Where it does not (ARMv5, 32-bit MIPS: 64-bit atomics go through
// libatomic's locks, which a signal handler must not take) the words are
// plain, and a live read may see a value half-written; reads after
// xsdt_stop() are exact everywhere.
template <class T> T load_word(const unsigned char *at) {
  T *word = reinterpret_cast<T *>(const_cast<unsigned char *>(at));
  if constexpr (std::atomic_ref<T>::is_always_lock_free)
    return std::atomic_ref<T>(*word).load(std::memory_order_relaxed);
  else
    return *word;
}

template <class T> void store_word(unsigned char *at, T value) {
  T *word = reinterpret_cast<T *>(at);
  if constexpr (std::atomic_ref<T>::is_always_lock_free)
    std::atomic_ref<T>(*word).store(value, std::memory_order_relaxed);
  else
    *word = value;
}

// The state word publishes a claimed entry's key: an atomic on every arch
// (on ARMv5 with clang through libxsdt's own __atomic functions,
// arches/armel/runtime/atomics.cpp, which are safe in a signal handler).
std::uint32_t entry_state(const unsigned char *entry, std::memory_order order) {
  return std::atomic_ref<std::uint32_t>(*reinterpret_cast<std::uint32_t *>(
                                            const_cast<unsigned char *>(entry)))
      .load(order);
}

std::uint64_t fnv1a(const unsigned char *bytes, std::size_t n) {
  std::uint64_t hash = 14695981039346656037u;
  for (std::size_t i = 0; i < n; ++i)
    hash = (hash ^ bytes[i]) * 1099511628211u;
  return hash;
}

// Keys are short: byte loops rather than libc's memcpy and memcmp, whose
// AVX-512 forms would dirty %zmm16-31, which the next hit's entry must
// then save and restore (x86-64's XINUSE, usdt_jump.cpp).
void copy_bytes(unsigned char *to, const void *from, std::size_t n) {
  const auto *in = static_cast<const unsigned char *>(from);
  for (std::size_t i = 0; i < n; ++i) {
    to[i] = in[i];
    asm("" ::"r"(to + i)); // not turned back into a call of memcpy
  }
}

bool same_bytes(const unsigned char *a, const unsigned char *b, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (a[i] != b[i])
      return false;
  return true;
}

std::size_t key_room(const Aggregation &agg) {
  std::size_t bytes = 0;
  for (Type t : agg.keys)
    bytes += t == Type::String ? 2 + kMaxKeyString : 8;
  return bytes;
}

int bucket_count(const Aggregation &agg) {
  switch (agg.function) {
  case AggregatingFunction::Quantize:
    return kQuantizeBuckets;
  case AggregatingFunction::LQuantize:
    return lquantize_buckets(agg);
  default:
    return 0;
  }
}

int bucket_of(const Aggregation &agg, std::int64_t value) {
  return agg.function == AggregatingFunction::Quantize
             ? quantize_bucket(value)
             : lquantize_bucket(agg, value);
}

std::size_t encode_key(const EvalValue *keys, int nkeys, unsigned char *out) {
  std::size_t at = 0;
  for (int i = 0; i < nkeys; ++i) {
    if (keys[i].type == Type::String) {
      const auto length =
          static_cast<std::uint16_t>(std::min(keys[i].length, kMaxKeyString));
      copy_bytes(out + at, &length, 2);
      copy_bytes(out + at + 2, keys[i].text, length);
      at += 2 + length;
    } else {
      copy_bytes(out + at, &keys[i].number, 8);
      at += 8;
    }
  }
  return at;
}

Key decode_key(const Aggregation &agg, const unsigned char *bytes) {
  Key key;
  std::size_t at = 0;
  for (Type t : agg.keys) {
    Value v;
    v.type = t;
    if (t == Type::String) {
      std::uint16_t length = 0;
      std::memcpy(&length, bytes + at, 2);
      v.text.assign(reinterpret_cast<const char *>(bytes + at + 2), length);
      at += 2 + length;
    } else {
      std::memcpy(&v.number, bytes + at, 8);
      at += 8;
    }
    key.parts.push_back(std::move(v));
  }
  return key;
}

} // namespace

bool Key::operator<(const Key &o) const {
  for (std::size_t i = 0; i < parts.size() && i < o.parts.size(); ++i) {
    const Value &a = parts[i], &b = o.parts[i];
    if (a.type == Type::String ? a.text != b.text : a.number != b.number)
      return a.type == Type::String ? a.text < b.text : a.number < b.number;
  }
  return parts.size() < o.parts.size();
}

std::int64_t AggValue::scalar(AggregatingFunction f) const {
  switch (f) {
  case AggregatingFunction::Sum:
    return sum;
  case AggregatingFunction::Min:
    return min;
  case AggregatingFunction::Max:
    return max;
  case AggregatingFunction::Avg:
    return count ? sum / count : 0;
  default:
    return count;
  }
}

AggregationTables::AggregationTables(const Program &program,
                                     std::size_t area_bytes)
    : program_(program), clauses_(program.clauses.size()) {
  const std::size_t naggs = program.aggregations.size();
  // The counters, rounded up to keep the tables 16-byte aligned.
  const std::size_t header_bytes =
      ((naggs + clauses_ * kEvalErrorKinds) * 8 + 15) & ~std::size_t{15};
  if (naggs == 0) {
    area_bytes_ = header_bytes;
    return;
  }
  const std::size_t share =
      area_bytes > header_bytes ? (area_bytes - header_bytes) / naggs : 0;
  std::size_t offset = header_bytes;
  for (const Aggregation &agg : program.aggregations) {
    Table t;
    t.key_bytes = key_room(agg);
    const std::string name = "@" + agg.name;
    if (t.key_bytes > kMaxKeyBytes)
      throw std::invalid_argument("aggregation " + name + ": its keys take " +
                                  std::to_string(t.key_bytes) +
                                  " bytes, more than the " +
                                  std::to_string(kMaxKeyBytes) + " a key may");
    t.buckets = bucket_count(agg);
    t.entry_bytes = kEntryHeader + round8(t.key_bytes) +
                    (kValueWords + static_cast<std::size_t>(t.buckets)) * 8;
    t.slots = 1;
    if (share < t.entry_bytes)
      throw std::invalid_argument(
          "aggregation " + name + ": one key takes " +
          std::to_string(t.entry_bytes) + " bytes, more than its share (" +
          std::to_string(share) + ") of -x aggsize=" +
          std::to_string(area_bytes) + ": raise -x aggsize=");
    while (t.slots * 2 * t.entry_bytes <= share)
      t.slots *= 2;
    t.offset = offset;
    offset += t.slots * t.entry_bytes;
    tables_.push_back(t);
  }
  area_bytes_ = offset;
}

void AggregationTables::add(void *area_bytes, int agg, const EvalValue *keys,
                            int nkeys, std::int64_t value) const {
  auto *area = static_cast<unsigned char *>(area_bytes);
  const Table &t = tables_[static_cast<std::size_t>(agg)];
  unsigned char key[kMaxKeyBytes];
  const std::size_t length = encode_key(keys, nkeys, key);
  const std::uint64_t hash = fnv1a(key, length);
  unsigned char *table = area + t.offset;
  for (std::size_t probe = 0; probe < t.slots; ++probe) {
    unsigned char *entry =
        table + ((hash + probe) & (t.slots - 1)) * t.entry_bytes;
    unsigned char *values = entry + kEntryHeader + round8(t.key_bytes);
    // Only this thread writes the table: its own stores need no ordering.
    const std::uint32_t state = entry_state(entry, std::memory_order_relaxed);
    if (state == 0) {
      // Claimed: the key and the first values, then the state (release)
      // that lets a reader see them.
      copy_bytes(entry + kEntryHeader, key, length);
      store_word<std::uint32_t>(entry + 4, static_cast<std::uint32_t>(length));
      store_word<std::uint64_t>(entry + 8, hash);
      store_word<std::int64_t>(values + 16, INT64_MAX);
      store_word<std::int64_t>(values + 24, INT64_MIN);
      std::atomic_ref<std::uint32_t>(*reinterpret_cast<std::uint32_t *>(entry))
          .store(1, std::memory_order_release);
    } else if (load_word<std::uint64_t>(entry + 8) != hash ||
               load_word<std::uint32_t>(entry + 4) != length ||
               !same_bytes(entry + kEntryHeader, key, length)) {
      continue;
    }
    store_word<std::int64_t>(values, load_word<std::int64_t>(values) + 1);
    // Sums wrap, as D's 64-bit sums do.
    store_word<std::uint64_t>(values + 8,
                              load_word<std::uint64_t>(values + 8) +
                                  static_cast<std::uint64_t>(value));
    if (value < load_word<std::int64_t>(values + 16))
      store_word<std::int64_t>(values + 16, value);
    if (value > load_word<std::int64_t>(values + 24))
      store_word<std::int64_t>(values + 24, value);
    if (t.buckets) {
      const Aggregation &a =
          program_.aggregations[static_cast<std::size_t>(agg)];
      unsigned char *bucket =
          values +
          (kValueWords + static_cast<std::size_t>(bucket_of(a, value))) * 8;
      store_word<std::int64_t>(bucket, load_word<std::int64_t>(bucket) + 1);
    }
    return;
  }
  unsigned char *drops = area + static_cast<std::size_t>(agg) * 8;
  store_word<std::uint64_t>(drops, load_word<std::uint64_t>(drops) + 1);
}

void AggregationTables::count_error(void *area_bytes, int clause,
                                    EvalError error) const {
  auto *area = static_cast<unsigned char *>(area_bytes);
  unsigned char *word =
      area + (program_.aggregations.size() +
              static_cast<std::size_t>(clause) * kEvalErrorKinds +
              static_cast<std::size_t>(error) - 1) *
                 8;
  store_word<std::uint64_t>(word, load_word<std::uint64_t>(word) + 1);
}

std::uint64_t AggregationTables::errors(const void *area, int clause,
                                        EvalError error) const {
  return load_word<std::uint64_t>(
      static_cast<const unsigned char *>(area) +
      (program_.aggregations.size() +
       static_cast<std::size_t>(clause) * kEvalErrorKinds +
       static_cast<std::size_t>(error) - 1) *
          8);
}

std::uint64_t AggregationTables::drops(const void *area, int agg) const {
  return load_word<std::uint64_t>(static_cast<const unsigned char *>(area) +
                                  static_cast<std::size_t>(agg) * 8);
}

void AggregationTables::merge(const void *area_bytes, int agg,
                              std::map<Key, AggValue> &into) const {
  const auto *area = static_cast<const unsigned char *>(area_bytes);
  const Table &t = tables_[static_cast<std::size_t>(agg)];
  const Aggregation &a = program_.aggregations[static_cast<std::size_t>(agg)];
  for (std::size_t slot = 0; slot < t.slots; ++slot) {
    const unsigned char *entry = area + t.offset + slot * t.entry_bytes;
    // Acquire: the key written before the claim is complete.
    if (entry_state(entry, std::memory_order_acquire) == 0)
      continue;
    const unsigned char *values = entry + kEntryHeader + round8(t.key_bytes);
    AggValue &v = into[decode_key(a, entry + kEntryHeader)];
    v.count += load_word<std::int64_t>(values);
    v.sum = static_cast<std::int64_t>(static_cast<std::uint64_t>(v.sum) +
                                      load_word<std::uint64_t>(values + 8));
    v.min = std::min(v.min, load_word<std::int64_t>(values + 16));
    v.max = std::max(v.max, load_word<std::int64_t>(values + 24));
    if (t.buckets) {
      v.buckets.resize(static_cast<std::size_t>(t.buckets));
      for (int b = 0; b < t.buckets; ++b)
        v.buckets[static_cast<std::size_t>(b)] += load_word<std::int64_t>(
            values + (kValueWords + static_cast<std::size_t>(b)) * 8);
    }
  }
}

} // namespace xsdt::trace
