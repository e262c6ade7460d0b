// xsdt-trace's agent: the part that runs inside the traced program
// (libxsdt-trace-agent.so, preloaded by the command). It enables the
// program's probes through libxsdt's consumer API, which records every hit
// into the hitting thread's buffer without a lock; a drain thread of the
// agent runs the D program's clauses over the records (predicates,
// aggregations, printf) and sends the text to the command over a pipe.
//
// The command passes, in the environment:
//   XSDT_TRACE_PROGRAM  the path of the D program's text
//   XSDT_TRACE_OUT      the fd of the pipe the agent writes messages to
//   XSDT_TRACE_CONTROL  the fd whose end (EOF) tells the agent to stop
//   XSDT_TRACE_OPTIONS  "bufsize=64k,switchrate=10,list=1", each optional
// Messages are framed (agent_protocol.h). A program that calls
// xsdt_attach_listen() (xsdt/attach.h) can instead be attached by pid: its
// libxsdt loads this library and calls xsdt_trace_agent_attach with the
// command's connection, which carries the program and the options.
#include "agent_protocol.h"
#include "aggregation_tables.h"
#include "d_eval.h"
#include "d_format.h"
#include "d_program.h"
#include "object_symbols.h"    // libxsdt's rule for the program's file
#include "probe_description.h" // libxsdt's one rule for descriptions

#include <xsdt/consumer.h>
#include <xsdt/runtime.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <mutex>
#include <new>
#include <optional>
#include <poll.h>
#include <sstream>
#include <string>
#include <sys/socket.h>
#include <sys/uio.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace xsdt::trace {
namespace {

// ---- The pipe to the command ------------------------------------------------

int g_out_fd = -1;

void send(MessageKind kind, const std::string &payload) {
  if (g_out_fd < 0)
    return;
  std::string frame = encode_message(kind, payload);
  const char *p = frame.data();
  std::size_t left = frame.size();
  while (left > 0) {
    // A socket's peer gone raises no SIGPIPE in the program (MSG_NOSIGNAL);
    // a pipe's is written as a pipe.
    ssize_t n = ::send(g_out_fd, p, left, MSG_NOSIGNAL);
    if (n < 0 && errno == ENOTSOCK)
      n = write(g_out_fd, p, left);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return; // the command is gone: nothing to tell
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

// A string the program passed: read through the kernel, so that a bad
// address is an error of the hit, never a crash of the program.
long read_own_string(std::uintptr_t address, char *out, std::size_t size) {
  std::size_t got = 0;
  while (got < size) {
    // Page by page: a string may end just before an unmapped page.
    std::size_t page = 4096 - ((address + got) & 4095);
    std::size_t want = std::min(page, size - got);
    iovec local{out + got, want};
    iovec remote{reinterpret_cast<void *>(address + got), want};
    ssize_t n = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
    if (n <= 0)
      return got == 0 ? -1 : static_cast<long>(got);
    const void *nul = std::memchr(out + got, '\0', static_cast<std::size_t>(n));
    if (nul)
      return static_cast<const char *>(nul) - out;
    got += static_cast<std::size_t>(n);
  }
  return static_cast<long>(got);
}

// The program's file name, as probemod reads it: libxsdt's rule for the
// main program's file (object_symbols.h), so that a program the loader was
// started for is named, not the loader.
std::string program_name() {
  const std::string path = xsdt::rt::main_program_path();
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// ---- Aggregations -----------------------------------------------------------

std::string bar(std::int64_t n, std::int64_t total) {
  constexpr int kWidth = 40;
  int at = total > 0 ? static_cast<int>((n * kWidth + total / 2) / total) : 0;
  return std::string(static_cast<std::size_t>(at), '@') +
         std::string(static_cast<std::size_t>(kWidth - at), ' ');
}

std::string key_text(const Key &key) {
  std::string text;
  for (const Value &v : key.parts) {
    char buffer[64];
    if (v.type == Type::String)
      std::snprintf(buffer, sizeof buffer, "  %-24s", v.text.c_str());
    else
      std::snprintf(buffer, sizeof buffer, "  %16lld",
                    static_cast<long long>(v.number));
    text += v.type == Type::String && v.text.size() > 24 ? "  " + v.text
                                                         : std::string(buffer);
  }
  return text;
}

// The distribution of one key of quantize() or lquantize(), as dtrace(1)
// draws it: the rows from one below the first used bucket to one above
// the last.
std::string distribution(const Aggregation &agg, const AggValue &value) {
  const auto &b = value.buckets;
  int first = -1, last = -1;
  std::int64_t total = 0;
  for (int i = 0; i < static_cast<int>(b.size()); ++i)
    if (b[i]) {
      if (first < 0)
        first = i;
      last = i;
      total += b[i];
    }
  if (first < 0)
    return "";
  first = std::max(first - 1, 0);
  last = std::min(last + 1, static_cast<int>(b.size()) - 1);
  std::ostringstream out;
  out << "           value  ------------- Distribution ------------- count\n";
  for (int i = first; i <= last; ++i) {
    char label[64];
    if (agg.function == AggregatingFunction::Quantize) {
      std::snprintf(label, sizeof label, "%16lld",
                    static_cast<long long>(quantize_label(i)));
    } else if (i == 0) {
      std::snprintf(label, sizeof label, "%16s",
                    ("< " + std::to_string(agg.lower)).c_str());
    } else if (i == static_cast<int>(b.size()) - 1) {
      std::snprintf(label, sizeof label, "%16s",
                    (">= " + std::to_string(agg.upper)).c_str());
    } else {
      std::snprintf(label, sizeof label, "%16lld",
                    static_cast<long long>(agg.lower + (i - 1) * agg.step));
    }
    out << label << " |" << bar(b[i], total) << " " << b[i] << "\n";
  }
  return out.str();
}

// ---- The session ------------------------------------------------------------

// What runs for one probe's hits: the clauses whose actions are all
// aggregations run at the hit (in the hitting thread, into its area); the
// others (printf, trace, printa, exit) run in the drain thread over the
// records, which are kept only for them.
struct ProbePlan {
  std::vector<int> at_hit, at_drain;
};

struct Agent {
  Program program;
  std::optional<AggregationTables> tables;
  // The drain thread's own aggregation area (BEGIN, END, the clauses that
  // run over records), laid out as a hitting thread's.
  std::vector<std::uint64_t> own_area;
  xsdt_hdl *handle = nullptr;
  bool areas = false; // the handle has hit areas (after go)
  int control_fd = -1;
  int switchrate_ms = 10;
  std::uint64_t pid = 0;
  std::string module; // the program's own name, as probemod reads it
  std::vector<rt::ProbeDescription> descriptions; // per clause and probe
  std::vector<std::vector<int>> descriptions_of;  // per clause
  std::vector<char> runs_at_hit;                  // per clause
  std::vector<ProbePlan> plans;                   // per probe index, from go
  std::vector<bool> printed;
  std::mutex lock; // the handle and everything above
  std::atomic<bool> finished{false};
  // Set once exit() ran: the hits that follow run nothing.
  std::atomic<bool> hits_stopped{false};
  int exit_status = 0;
  bool exit_asked = false;
  bool any_probe = false;
  // Set when the program's exit finished the session: its handle is left
  // to the exit (an attach does not close it under the program's atexit).
  bool program_exiting = false;

  std::string text; // output gathered during one drain
  void *own() { return own_area.data(); }
};

std::atomic<Agent *> g_agent{nullptr};

// The plan of one probe: the clauses whose descriptions match it.
ProbePlan plan_for(const Agent &a, const xsdt_probedesc *probe) {
  ProbePlan plan;
  for (std::size_t c = 0; c < a.program.clauses.size(); ++c)
    for (int d : a.descriptions_of[c])
      if (d >= 0 &&
          a.descriptions[static_cast<std::size_t>(d)].matches(
              probe->provider, probe->module, probe->function, probe->name)) {
        (a.runs_at_hit[c] ? plan.at_hit : plan.at_drain)
            .push_back(static_cast<int>(c));
        break;
      }
  return plan;
}

Value to_value(const EvalValue &v) {
  Value out;
  out.type = v.type;
  out.number = v.number;
  if (v.type == Type::String)
    out.text.assign(v.text, v.length);
  return out;
}

// Calls visit for the drain thread's aggregation area and every hitting
// thread's (libxsdt's hit areas, once the probes are enabled).
template <class Visit> void for_each_area(Agent &a, Visit visit) {
  visit(static_cast<const void *>(a.own()));
  if (a.areas)
    xsdt_area_walk(
        a.handle,
        [](uint64_t, const void *area, void *arg) {
          (*static_cast<Visit *>(arg))(area);
          return 0;
        },
        &visit);
}

// Aggregation index as it stands: every area's table, merged.
std::map<Key, AggValue> snapshot(Agent &a, int index) {
  std::map<Key, AggValue> merged;
  for_each_area(
      a, [&](const void *area) { a.tables->merge(area, index, merged); });
  return merged;
}

// A counter of the areas (drops of an aggregation, failures of a clause),
// summed.
template <class Read> std::uint64_t total(Agent &a, Read read) {
  std::uint64_t sum = 0;
  for_each_area(a, [&](const void *area) { sum += read(area); });
  return sum;
}

void print_aggregation(Agent &a, int index, const std::string &format) {
  const Aggregation &agg =
      a.program.aggregations[static_cast<std::size_t>(index)];
  const std::map<Key, AggValue> values = snapshot(a, index);
  a.printed[static_cast<std::size_t>(index)] = true;
  // Smallest value first, as dtrace(1) sorts.
  std::vector<std::pair<const Key *, const AggValue *>> rows;
  for (const auto &[key, value] : values)
    rows.emplace_back(&key, &value);
  bool quantizing = agg.function == AggregatingFunction::Quantize ||
                    agg.function == AggregatingFunction::LQuantize;
  std::stable_sort(rows.begin(), rows.end(), [&](const auto &x, const auto &y) {
    std::int64_t vx = x.second->scalar(agg.function),
                 vy = y.second->scalar(agg.function);
    return vx < vy;
  });
  std::string out = format.empty() ? "\n" : "";
  for (const auto &[key, value] : rows) {
    if (!format.empty()) {
      std::vector<Value> parts = key->parts;
      parts.push_back({Type::Int, value->scalar(agg.function), ""});
      out += format_values(format, parts);
      continue;
    }
    if (quantizing) {
      if (!key->parts.empty())
        out += key_text(*key) + "\n";
      out += distribution(agg, *value) + "\n";
    } else {
      char number[32];
      std::snprintf(number, sizeof number, "%16lld",
                    static_cast<long long>(value->scalar(agg.function)));
      std::string keys = key_text(*key);
      out += keys + (keys.empty() ? "" : "  ") + number + "\n";
    }
  }
  a.text += out;
}

// An aggregation takes at most this many keys (they are evaluated on the
// hit's stack).
constexpr std::size_t kMaxAggregationKeys = 16;

// Runs clause c at one hit, into area: at the hit (a clause of
// aggregations only: area is the hitting thread's; nothing here may lock or
// allocate) or in the drain thread over a record (area is its own). An
// action that fails skips the rest of the clause, as dtrace(1) does, and
// is counted in area (reported when the trace ends).
void run_clause(Agent &a, int c, const HitContext &hit, void *area) {
  const Clause &clause = a.program.clauses[static_cast<std::size_t>(c)];
  auto failed = [&](EvalError e) { a.tables->count_error(area, c, e); };
  if (clause.predicate >= 0) {
    EvalScratch scratch;
    EvalValue v;
    if (EvalError e = evaluate(a.program, clause.predicate, hit, scratch, &v);
        e != EvalError::None)
      return failed(e);
    if (!v.number)
      return;
  }
  for (int index : clause.actions) {
    const Action &action = a.program.actions[static_cast<std::size_t>(index)];
    EvalScratch scratch;
    if (action.kind == Action::Kind::Aggregate) {
      // Constructed one by one as evaluated: the hit does not pay for
      // initialising all kMaxAggregationKeys of them.
      union Keys {
        Keys() {}
        EvalValue values[kMaxAggregationKeys];
      } slots;
      EvalValue *keys = slots.values;
      EvalValue value;
      for (std::size_t k = 0; k < action.keys.size(); ++k) {
        new (&keys[k]) EvalValue;
        if (EvalError e =
                evaluate(a.program, action.keys[k], hit, scratch, &keys[k]);
            e != EvalError::None)
          return failed(e);
      }
      if (!action.arguments.empty())
        if (EvalError e =
                evaluate(a.program, action.arguments[0], hit, scratch, &value);
            e != EvalError::None)
          return failed(e);
      a.tables->add(area, action.aggregation, keys,
                    static_cast<int>(action.keys.size()), value.number);
      continue;
    }
    // The actions that print: in the drain thread only.
    std::vector<Value> values;
    for (int e : action.arguments) {
      EvalValue v;
      if (EvalError error = evaluate(a.program, e, hit, scratch, &v);
          error != EvalError::None)
        return failed(error);
      values.push_back(to_value(v));
    }
    switch (action.kind) {
    case Action::Kind::Printf:
      a.text += format_values(action.format, values);
      break;
    case Action::Kind::Trace:
      a.text += values[0].type == Type::String
                    ? values[0].text + "\n"
                    : std::to_string(values[0].number) + "\n";
      break;
    case Action::Kind::Printa:
      print_aggregation(a, action.aggregation, action.format);
      break;
    case Action::Kind::Exit:
      a.exit_status = static_cast<int>(values[0].number);
      a.exit_asked = true;
      a.hits_stopped.store(true, std::memory_order_relaxed);
      return;
    case Action::Kind::Aggregate:
      break;
    }
  }
}

HitContext context_of(const Agent &a, const xsdt_record &record) {
  HitContext hit;
  hit.provider = record.probe->provider;
  hit.module = record.probe->module;
  hit.function = record.probe->function;
  hit.name = record.probe->name;
  hit.args = record.args;
  hit.argc = record.argc;
  hit.tid = record.tid;
  hit.pid = a.pid;
  hit.timestamp = record.timestamp_ns;
  hit.read_string = read_own_string;
  return hit;
}

// libxsdt's hit function (xsdt_handle_hit), in the hit's context: runs the
// probe's clauses of aggregations into the thread's area, and keeps the
// record only when a clause of the drain thread may want it (one whose
// predicate is true here, or fails here and is then reported there).
int on_hit(const xsdt_record *record, void *area, void *arg) {
  Agent &a = *static_cast<Agent *>(arg);
  if (a.hits_stopped.load(std::memory_order_relaxed))
    return XSDT_HIT_DISCARD;
  const ProbePlan &plan = a.plans[record->probe->index];
  const HitContext hit = context_of(a, *record);
  for (int c : plan.at_hit)
    run_clause(a, c, hit, area);
  for (int c : plan.at_drain) {
    const int predicate =
        a.program.clauses[static_cast<std::size_t>(c)].predicate;
    if (predicate < 0)
      return XSDT_HIT_RECORD;
    EvalScratch scratch;
    EvalValue v;
    if (evaluate(a.program, predicate, hit, scratch, &v) != EvalError::None ||
        v.number)
      return XSDT_HIT_RECORD;
  }
  return XSDT_HIT_DISCARD;
}

int consume(const xsdt_record *record, void *arg) {
  Agent &a = *static_cast<Agent *>(arg);
  if (a.exit_asked)
    return XSDT_CONSUME_NEXT; // exit() ends the tracing: later hits are not run
  const HitContext hit = context_of(a, *record);
  for (int c : a.plans[record->probe->index].at_drain)
    if (!a.exit_asked)
      run_clause(a, c, hit, a.own());
  return XSDT_CONSUME_NEXT;
}

void flush_text(Agent &a) {
  if (!a.text.empty())
    send(MessageKind::Output, a.text);
  a.text.clear();
}

void run_special(Agent &a, const char *which) {
  HitContext hit;
  hit.provider = "dtrace";
  hit.name = which;
  hit.pid = a.pid;
  hit.read_string = read_own_string;
  for (std::size_t c = 0; c < a.program.clauses.size(); ++c) {
    const Clause &clause = a.program.clauses[c];
    if (std::find(clause.probes.begin(), clause.probes.end(), which) !=
            clause.probes.end() &&
        !(a.exit_asked && std::strcmp(which, "BEGIN") == 0))
      run_clause(a, static_cast<int>(c), hit, a.own());
  }
}

// Stops the tracing, drains what is buffered, runs END, prints every
// aggregation not printed yet and tells the command it is done. Once.
void finish(Agent &a) {
  std::lock_guard guard(a.lock);
  if (a.finished.exchange(true))
    return;
  xsdt_stop(a.handle);
  while (xsdt_work(a.handle, consume, &a) == XSDT_WORKSTATUS_OKAY) {
  }
  bool exit_in_hit = a.exit_asked;
  a.exit_asked = false; // END runs after exit(), as in dtrace(1)
  run_special(a, "END");
  for (std::size_t i = 0; i < a.program.aggregations.size(); ++i)
    if (!a.printed[i] && !snapshot(a, static_cast<int>(i)).empty())
      print_aggregation(a, static_cast<int>(i), "");
  flush_text(a);
  for (std::size_t c = 0; c < a.program.clauses.size(); ++c)
    for (EvalError e : {EvalError::DivisionByZero, EvalError::BadAddress,
                        EvalError::TooManyStrings})
      if (std::uint64_t n = total(a, [&](const void *area) {
            return a.tables->errors(area, static_cast<int>(c), e);
          }))
        send(MessageKind::Warning,
             std::to_string(n) + " hits failed: " + eval_error_text(e) +
                 " in the clause at line " +
                 std::to_string(a.program.clauses[c].loc.line));
  for (std::size_t i = 0; i < a.program.aggregations.size(); ++i)
    if (std::uint64_t n = total(a, [&](const void *area) {
          return a.tables->drops(area, static_cast<int>(i));
        }))
      send(MessageKind::Warning,
           std::to_string(n) + " aggregation drops on @" +
               a.program.aggregations[i].name +
               " (a thread's table of it was full): raise -x aggsize=");
  if (std::uint64_t drops = xsdt_drops(a.handle))
    send(MessageKind::Warning,
         std::to_string(drops) +
             " hits dropped (their thread's buffer was full, or more threads "
             "hit than there are buffers): raise -x bufsize= or -x nthreads=");
  send(MessageKind::Done,
       std::to_string(exit_in_hit || a.exit_asked ? a.exit_status : 0) +
           (exit_in_hit || a.exit_asked ? " exit" : ""));
}

// ^C reaches the traced program too (it shares the command's terminal):
// where the program leaves SIGINT to its default, the agent finishes the
// trace first and then lets the signal end the program as it would have.
int g_wake[2] = {-1, -1};

void on_interrupt(int) {
  char byte = 0;
  ssize_t ignored = write(g_wake[1], &byte, 1);
  (void)ignored;
}

void defer_interrupt() {
  struct sigaction old {};
  if (sigaction(SIGINT, nullptr, &old) != 0 || old.sa_handler != SIG_DFL ||
      pipe2(g_wake, O_CLOEXEC) != 0)
    return;
  struct sigaction act {};
  act.sa_handler = on_interrupt;
  sigaction(SIGINT, &act, nullptr);
}

void drain_loop(Agent *a) {
  for (;;) {
    pollfd wait[2] = {{a->control_fd, POLLIN, 0}, {g_wake[0], POLLIN, 0}};
    int ready = poll(wait, 2, a->switchrate_ms);
    if (a->finished.load())
      return;
    if (ready > 0 && wait[1].revents) { // ^C: finish, then end as asked
      finish(*a);
      signal(SIGINT, SIG_DFL);
      raise(SIGINT);
      return;
    }
    if (ready > 0) { // the command asks us to stop (its ^C), or is gone
      finish(*a);
      return;
    }
    bool exit_now = false;
    {
      std::lock_guard guard(a->lock);
      if (a->finished.load())
        return;
      xsdt_work(a->handle, consume, a);
      flush_text(*a);
      exit_now = a->exit_asked;
    }
    if (exit_now) {
      finish(*a);
      return;
    }
  }
}

void at_program_exit() {
  if (Agent *a = g_agent) {
    finish(*a);
    std::lock_guard guard(a->lock);
    a->program_exiting = true;
  }
}

std::string option(const std::string &options, const std::string &name) {
  std::stringstream in(options);
  std::string item;
  while (std::getline(in, item, ','))
    if (item.starts_with(name + "="))
      return item.substr(name.size() + 1);
  return "";
}

// A session that cannot start: the preloaded start ends the program with
// it (fail), an attach tells the tracer and leaves the program running.
struct SessionError {
  std::string message;
};

[[noreturn]] void refuse(const std::string &message) {
  throw SessionError{message};
}

[[noreturn]] void fail(const std::string &message) {
  send(MessageKind::Error, message);
  // The program never starts its main(): the trace it was started for
  // cannot run.
  _exit(kAgentFailedStatus);
}

std::string listing() {
  std::string out;
  struct Lister {
    std::string *out;
    std::string module;
  } lister{&out, program_name()};
  xsdt_error err{};
  int n = xsdt_list(
      [](const xsdt_probe_info *p, void *user) {
        auto *l = static_cast<Lister *>(user);
        const char *slash = std::strrchr(p->object, '/');
        std::string module =
            *p->object ? (slash ? slash + 1 : p->object) : l->module;
        *l->out += std::string(p->provider) + "\t" + module + "\t" + p->name +
                   "\t" + p->args + "\n";
      },
      &lister, &err);
  if (n < 0)
    refuse(std::string("listing the probes: ") + err.message);
  n = xsdt_sdt_list(
      [](const xsdt_sdt_probe_info *p, void *user) {
        auto *l = static_cast<Lister *>(user);
        std::string types;
        for (int i = 0; i < p->argc; ++i)
          types += std::string(i ? ", " : "") + p->native_types[i];
        *l->out += std::string(p->provider) + "\t" + p->module + "\t" +
                   p->name + "\t" + types + "\n";
      },
      &lister, &err);
  if (n < 0)
    refuse(std::string("listing the SDT probes: ") + err.message);
  return out;
}

// The aggregation tables and what each probe's hits run (ProbePlan), set
// up before go so that the hit function finds them complete.
void prepare_hits(Agent &a, const std::string &options) {
  for (const Aggregation &agg : a.program.aggregations)
    if (agg.keys.size() > kMaxAggregationKeys)
      refuse("aggregation @" + agg.name + " (line " +
             std::to_string(agg.first_use.line) + ") has " +
             std::to_string(agg.keys.size()) + " keys, more than the " +
             std::to_string(kMaxAggregationKeys) + " xsdt-trace takes");
  std::size_t area_bytes = AggregationTables::kDefaultAreaBytes;
  if (std::string size = option(options, "aggsize"); !size.empty()) {
    // libxsdt's own reading of a byte count, as for bufsize.
    if (xsdt_setopt(a.handle, "hitarea", size.c_str()) != 0)
      refuse("-x aggsize=" + size + ": not a byte count from 0 to 256m " +
             "(digits with an optional k or m suffix)");
    area_bytes = std::strtoull(xsdt_getopt(a.handle, "hitarea"), nullptr, 10);
  }
  try {
    a.tables.emplace(a.program, area_bytes);
  } catch (const std::invalid_argument &e) {
    refuse(e.what());
  }
  a.own_area.assign((a.tables->area_bytes() + 7) / 8, 0);
  a.runs_at_hit.clear();
  for (const Clause &clause : a.program.clauses)
    a.runs_at_hit.push_back(std::all_of(
        clause.actions.begin(), clause.actions.end(), [&](int index) {
          return a.program.actions[static_cast<std::size_t>(index)].kind ==
                 Action::Kind::Aggregate;
        }));
  if (!a.any_probe)
    return;
  // A hit reads the clock only for a program that asks for the time
  // (clock_gettime through the vDSO was 17 % of a count() event).
  const bool wants_time = std::any_of(
      a.program.exprs.begin(), a.program.exprs.end(), [](const Expr &e) {
        return e.kind == Expr::Kind::Builtin && e.builtin == Builtin::Timestamp;
      });
  if (!wants_time)
    xsdt_setopt(a.handle, "timestamps", "off");
  if (xsdt_setopt(a.handle, "hitarea",
                  std::to_string(a.tables->area_bytes()).c_str()) != 0)
    refuse("-x aggsize: " +
           std::string(xsdt_errmsg(a.handle, xsdt_errno(a.handle))));
  xsdt_probe_walk(
      a.handle,
      [](const xsdt_probedesc *probe, void *arg) {
        Agent &agent = *static_cast<Agent *>(arg);
        if (probe->index >= agent.plans.size())
          agent.plans.resize(probe->index + 1);
        agent.plans[probe->index] = plan_for(agent, probe);
        return 0;
      },
      &a);
  xsdt_handle_hit(a.handle, on_hit, &a);
}

// Parses the program, enables its probes, runs BEGIN and tells the command
// it started. Throws SessionError with nothing left enabled.
Agent *start_session(const std::string &source, const std::string &options,
                     int control_fd) {
  auto *a = new Agent;
  try {
    try {
      a->program = parse_program(source, "program");
    } catch (const ProgramError &e) {
      refuse(e.what());
    }
    a->control_fd = control_fd;
    if (std::string rate = option(options, "switchrate"); !rate.empty())
      a->switchrate_ms = std::max(1, std::atoi(rate.c_str()));
    a->module = program_name();
    int error = 0;
    a->handle = xsdt_open(XSDT_VERSION, &error);
    if (!a->handle)
      refuse(std::string("xsdt_open: ") + xsdt_errmsg(nullptr, error));
    for (const char *name : {"bufsize", "nthreads"})
      if (std::string value = option(options, name); !value.empty())
        if (xsdt_setopt(a->handle, name, value.c_str()) != 0)
          refuse(std::string("-x ") + name + "=" + value + ": " +
                 xsdt_errmsg(a->handle, xsdt_errno(a->handle)));
    a->descriptions_of.resize(a->program.clauses.size());
    for (std::size_t c = 0; c < a->program.clauses.size(); ++c) {
      for (const std::string &d : a->program.clauses[c].probes) {
        if (a->program.is_special(d)) {
          a->descriptions_of[c].push_back(-1);
          continue;
        }
        xsdt::rt::ProbeDescription description;
        if (const char *why =
                xsdt::rt::parse_probe_description(d.c_str(), &description))
          refuse("probe description " + d + ": " + why);
        a->descriptions.push_back(description);
        a->descriptions_of[c].push_back(
            static_cast<int>(a->descriptions.size()) - 1);
        if (xsdt_enable_probes(a->handle, d.c_str(), XSDT_MODE_AUTO) < 0)
          refuse("probe description " + d + " (line " +
                 std::to_string(a->program.clauses[c].loc.line) +
                 "): " + xsdt_errmsg(a->handle, xsdt_errno(a->handle)));
      }
    }
    a->printed.assign(a->program.aggregations.size(), false);
    a->any_probe = !a->descriptions.empty();
    a->pid = static_cast<std::uint64_t>(getpid());
    prepare_hits(*a, options);
    if (a->any_probe && xsdt_go(a->handle) != 0)
      refuse(std::string("enabling the probes: ") +
             xsdt_errmsg(a->handle, xsdt_errno(a->handle)));
    a->areas = a->any_probe;
  } catch (const SessionError &) {
    if (a->handle)
      xsdt_close(a->handle); // disables whatever was enabled
    delete a;
    throw;
  }
  g_agent = a;
  {
    std::lock_guard guard(a->lock);
    run_special(*a, "BEGIN");
    flush_text(*a);
  }
  send(MessageKind::Started, std::to_string(getpid()));
  static std::once_flag at_exit;
  std::call_once(at_exit, [] { std::atexit(at_program_exit); });
  return a;
}

// exit() in BEGIN, or nothing to trace: done before any hit.
bool over_at_start(const Agent &a) { return a.exit_asked || !a.any_probe; }

} // namespace
} // namespace xsdt::trace

// Called by the preloaded agent's constructor (agent_start.cpp), after
// libxsdt's own initialization.
extern "C" void xsdt_trace_agent_start() {
  using namespace xsdt::trace;
  const char *out = std::getenv("XSDT_TRACE_OUT");
  if (!out)
    return; // not started by xsdt-trace: the library does nothing
  g_out_fd = std::atoi(out);
  std::string options = std::getenv("XSDT_TRACE_OPTIONS")
                            ? std::getenv("XSDT_TRACE_OPTIONS")
                            : "";
  // The program's own children (fork + exec) must not start an agent of
  // their own on the same pipe.
  unsetenv("LD_PRELOAD");
  unsetenv("XSDT_TRACE_OUT");
  int control_fd = -1;
  if (const char *control = std::getenv("XSDT_TRACE_CONTROL"))
    control_fd = std::atoi(control);
  // The program's own exec'd children must not hold the pipes open: the
  // command would wait for their end, and a child could write to it.
  for (int fd : {g_out_fd, control_fd})
    if (fd >= 0)
      fcntl(fd, F_SETFD, FD_CLOEXEC);
  Agent *a = nullptr;
  try {
    if (option(options, "list") == "1") {
      send(MessageKind::Listing, listing());
      send(MessageKind::Done, "0");
      _exit(0);
    }
    const char *path = std::getenv("XSDT_TRACE_PROGRAM");
    std::ifstream file(path ? path : "");
    if (!file)
      refuse("cannot read the program (XSDT_TRACE_PROGRAM)");
    std::stringstream source;
    source << file.rdbuf();
    a = start_session(source.str(), options, control_fd);
  } catch (const SessionError &e) {
    fail(e.message);
  }
  if (over_at_start(*a)) {
    finish(*a);
    return;
  }
  defer_interrupt();
  std::thread(drain_loop, a).detach();
}

// An attach by pid (xsdt/attach.h: libxsdt's listener loaded this library
// into a program that listens): the same session over the connection,
// which is also the control (its end stops the trace). The program runs on
// when the session ends; its probes are disabled then.
extern "C" int xsdt_trace_agent_attach(int fd) {
  using namespace xsdt::trace;
  std::string buffer;
  std::optional<Message> first;
  while (!(first = take_message(&buffer))) {
    char chunk[4096];
    ssize_t n = read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return -1; // the command went away before asking anything
    buffer.append(chunk, static_cast<std::size_t>(n));
  }
  g_out_fd = fd;
  int status = 0;
  try {
    if (first->kind != MessageKind::Program)
      refuse("the command sent no program");
    const std::string &payload = first->payload;
    const std::size_t newline = payload.find('\n');
    const std::string options = payload.substr(0, newline);
    const std::string source =
        newline == std::string::npos ? "" : payload.substr(newline + 1);
    if (option(options, "list") == "1") {
      send(MessageKind::Listing, listing());
      send(MessageKind::Done, "0");
    } else {
      Agent *a = start_session(source, options, fd);
      if (over_at_start(*a))
        finish(*a);
      else
        drain_loop(a);
      std::lock_guard guard(a->lock);
      if (!a->program_exiting) {
        g_agent = nullptr;
        xsdt_close(a->handle); // the probes are disabled again
        a->handle = nullptr;
      }
    }
  } catch (const SessionError &e) {
    send(MessageKind::Error, e.message);
    status = -1;
  }
  g_out_fd = -1;
  return status;
}
