// libxsdt: the table of the traps it writes, for both parts (trap_table.h).
// A trap at a USDT site, or at an SDT site (trap mode, and the x86
// trap-first protocol of jump mode), is looked up here by the trap handler,
// in signal context, while enable and disable replace the tables under
// api_lock(). Its readers are signal handlers, and it has its own rule for
// freeing.
//
// The tables are immutable and sorted, published through atomic pointers.
// A table replaced while no handler is reading is free to reuse; otherwise
// it waits for the next quiet publication. Free tables are kept for the
// next ones (a few, not freed): an enable of 100000 sites publishes tables
// of 1.6 MB, and fresh ones cost a page fault every 4 KiB.
#include "trap_table.h"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace xsdt::rt {
namespace {

// ---- Trap tables (read by the trap handler) -----------------------------

// Sorted by site; immutable once published.
struct TrapTable {
  std::size_t n = 0;
  std::size_t capacity = 0; // entries allocated
  TrapEntry *entries = nullptr;
};

TrapTable g_no_traps;
// Sites where a trap of ours may be now: enabled USDT sites (their hit, then
// past the site), SDT trap mode (resume at the out-of-line block) and jump
// writes in progress (resume as the new instruction: the block when
// enabling, after the site when disabling).
std::atomic<const TrapTable *> g_traps{&g_no_traps};
// Every site we ever wrote a trap into: a trap whose entry vanished before
// the handler looked (the site was restored meanwhile) re-executes the site.
std::atomic<const TrapTable *> g_trap_history{&g_no_traps};
// trap handlers between their first and last table read.
std::atomic<int> g_trap_readers{0};

const TrapEntry *find_trap(const TrapTable *t, std::uintptr_t site) {
  const TrapEntry *begin = t->entries, *end = t->entries + t->n;
  const TrapEntry *it = std::lower_bound(
      begin, end, site,
      [](const TrapEntry &e, std::uintptr_t s) { return e.site < s; });
  return it != end && it->site == site ? it : nullptr;
}

} // namespace

// Async-signal-safe. The entry is copied out: what a hit runs (a probe's
// handler) runs after this reader has left the tables.
TrapEntry lookup_trap(std::uintptr_t site) {
  g_trap_readers.fetch_add(1, std::memory_order_seq_cst);
  TrapEntry found;
  if (const TrapEntry *e =
          find_trap(g_traps.load(std::memory_order_seq_cst), site))
    found = *e;
  else if (find_trap(g_trap_history.load(std::memory_order_seq_cst), site))
    found = TrapEntry{site, site};
  g_trap_readers.fetch_sub(1, std::memory_order_release);
  return found;
}

namespace {

// Under api_lock(): what g_traps and g_trap_history hold (sorted by site),
// and the replaced tables not freed yet. Sorted vectors, not maps: an
// enable of 100000 sites publishes twice.
// The next versions are built in the scratch vectors and swapped in, so
// that both keep their storage.
std::vector<TrapEntry> g_trap_content, g_trap_scratch;
std::vector<std::uintptr_t> g_trapped_ever, g_history_scratch;
// The lists of tables are never destroyed: the tables they hold outlive
// exit (a thread may trap then), and a list destroyed at exit would leave
// them unreachable, leaks to a leak checker.
std::vector<const TrapTable *> &g_retired = *new std::vector<const TrapTable *>;
std::vector<TrapTable *> &g_spare = *new std::vector<TrapTable *>; // free
constexpr std::size_t kMaxSpare = 2; // the two tables' next versions

void destroy(const TrapTable *t) {
  delete[] t->entries;
  delete t;
}

template <class Range, class Site>
const TrapTable *make_trap_table(const Range &content, Site site_and_resume) {
  const std::size_t n = content.size();
  TrapTable *t = nullptr;
  for (auto it = g_spare.begin(); it != g_spare.end(); ++it)
    if ((*it)->capacity > n) {
      t = *it;
      g_spare.erase(it);
      break;
    }
  if (!t) {
    auto fresh = std::make_unique<TrapTable>();
    fresh->entries = new TrapEntry[n + 1];
    fresh->capacity = n + 1;
    t = fresh.release();
  }
  t->n = n;
  std::size_t i = 0;
  for (const auto &item : content)
    t->entries[i++] = site_and_resume(item);
  return t;
}

// Room for the bookkeeping of `tables` replace() calls, so that replace()
// allocates nothing: it runs after the tables are built, when nothing may
// fail any more.
void reserve_replacements(std::size_t tables) {
  g_retired.reserve(g_retired.size() + tables);
  g_spare.reserve(kMaxSpare);
}

// After reserve_replacements(): allocates nothing.
void replace(std::atomic<const TrapTable *> &slot, const TrapTable *fresh) {
  const TrapTable *old = slot.exchange(fresh, std::memory_order_seq_cst);
  if (old != &g_no_traps)
    g_retired.push_back(old);
  // A handler counts itself before it loads a table: none counted now means
  // none holds a replaced table, and later ones load the new ones.
  if (g_trap_readers.load(std::memory_order_seq_cst) != 0)
    return;
  for (const TrapTable *t : g_retired) {
    // Only this thread writes the tables: a free one is ours to refill.
    if (g_spare.size() < kMaxSpare)
      g_spare.push_back(const_cast<TrapTable *>(t));
    else
      destroy(t);
  }
  g_retired.clear();
}

// A table built but not published yet, destroyed if an exception stops
// the publication.
struct Unpublished {
  const TrapTable *table = nullptr;
  ~Unpublished() {
    if (table)
      destroy(table);
  }
  const TrapTable *release() { return std::exchange(table, nullptr); }
};

bool by_site(const TrapEntry &a, const TrapEntry &b) { return a.site < b.site; }

// The first of [from, end) not below site, searched from `from` in
// doubling steps: for sorted sites in turn this is linear when they are
// dense in the range and logarithmic when they are few.
std::vector<std::uintptr_t>::const_iterator
gallop(std::vector<std::uintptr_t>::const_iterator from,
       std::vector<std::uintptr_t>::const_iterator end, std::uintptr_t site) {
  std::ptrdiff_t step = 1, behind = 0;
  while (step < end - from && from[step - 1] < site) {
    behind = step;
    step *= 2;
  }
  return std::lower_bound(from + behind, from + std::min(step, end - from),
                          site);
}

const TrapTable *make_content_table(const std::vector<TrapEntry> &content) {
  return make_trap_table(content, [](const TrapEntry &e) { return e; });
}

const TrapTable *make_history_table(const std::vector<std::uintptr_t> &ever) {
  return make_trap_table(ever, [](std::uintptr_t site) {
    return TrapEntry{site, site};
  });
}

} // namespace

// Publishes traps at these sites (an entry for a site already present
// replaces it), and adds the sites to the history. Before any trap is
// written there. Everything that can fail comes before the first change.
void add_traps(std::vector<TrapEntry> &add) {
  if (add.empty())
    return;
  if (!std::is_sorted(add.begin(), add.end(), by_site))
    std::sort(add.begin(), add.end(), by_site);
  std::vector<TrapEntry> &merged = g_trap_scratch;
  merged.clear();
  merged.reserve(g_trap_content.size() + add.size());
  if (g_trap_content.empty()) // usual: nothing in progress, no trap mode
    merged.assign(add.begin(), add.end());
  auto old = g_trap_content.begin();
  for (std::size_t i = 0; !g_trap_content.empty() && i < add.size(); ++i) {
    const TrapEntry &e = add[i];
    while (old != g_trap_content.end() && old->site < e.site)
      merged.push_back(*old++);
    if (old != g_trap_content.end() && old->site == e.site)
      ++old;
    merged.push_back(e);
  }
  merged.insert(merged.end(), old, g_trap_content.end());

  // Usually every site is in the history already (enabled before), and the
  // history stays as it is.
  bool news = false;
  auto seen = g_trapped_ever.cbegin();
  for (const TrapEntry &e : add) {
    seen = gallop(seen, g_trapped_ever.end(), e.site);
    if (seen == g_trapped_ever.end() || *seen != e.site) {
      news = true;
      break;
    }
  }
  std::vector<std::uintptr_t> &history = g_history_scratch;
  if (news) {
    history.clear();
    history.reserve(g_trapped_ever.size() + add.size());
    auto ever = g_trapped_ever.begin();
    for (const TrapEntry &e : add) {
      while (ever != g_trapped_ever.end() && *ever < e.site)
        history.push_back(*ever++);
      if (ever != g_trapped_ever.end() && *ever == e.site)
        ++ever;
      history.push_back(e.site);
    }
    history.insert(history.end(), ever, g_trapped_ever.end());
  }
  reserve_replacements(2);
  Unpublished content{make_content_table(merged)};
  Unpublished ever{news ? make_history_table(history) : nullptr};

  // Nothing fails from here on.
  if (news) {
    g_trapped_ever.swap(history);
    replace(g_trap_history, ever.release());
  }
  g_trap_content.swap(merged);
  replace(g_traps, content.release());
}

// Withdraws the traps at these sites: after they are gone from the code.
void remove_traps(std::vector<std::uintptr_t> &sites) {
  if (!std::is_sorted(sites.begin(), sites.end()))
    std::sort(sites.begin(), sites.end());
  std::vector<TrapEntry> &kept = g_trap_scratch;
  kept.clear();
  kept.reserve(g_trap_content.size());
  auto gone = sites.begin();
  for (const TrapEntry &e : g_trap_content) {
    while (gone != sites.end() && *gone < e.site)
      ++gone;
    if (gone == sites.end() || *gone != e.site)
      kept.push_back(e);
  }
  if (kept.size() == g_trap_content.size())
    return;
  reserve_replacements(1);
  const TrapTable *table = make_content_table(kept);
  g_trap_content.swap(kept);
  replace(g_traps, table);
}

void remove_traps_if_memory(std::vector<std::uintptr_t> &sites) noexcept {
  try {
    remove_traps(sites);
  } catch (const std::bad_alloc &) {
  }
}

// Removes these sites from the history (their object was unloaded).
void forget_trap_history(std::vector<std::uintptr_t> sites) {
  std::sort(sites.begin(), sites.end());
  std::vector<std::uintptr_t> &kept = g_history_scratch;
  kept.clear();
  for (std::uintptr_t site : g_trapped_ever)
    if (!std::binary_search(sites.begin(), sites.end(), site))
      kept.push_back(site);
  if (kept.size() == g_trapped_ever.size())
    return;
  reserve_replacements(1);
  const TrapTable *table = make_history_table(kept);
  g_trapped_ever.swap(kept);
  replace(g_trap_history, table);
}

} // namespace xsdt::rt
