#include "support/linearizability.h"

#include <algorithm>
#include <cstddef>
#include <unordered_set>
#include <utility>

namespace basalt::testing {
namespace {

// The register's sequential specification: whether `op` may run on `state` and return what it
// returned, and the state after it.
bool Step(const RegisterOp& op, int64_t state, int64_t* next) {
  switch (op.kind) {
    case RegisterOp::Kind::kPut:
      *next = op.arg;
      return true;
    case RegisterOp::Kind::kGet:
      *next = state;
      return op.output == state;
    case RegisterOp::Kind::kIncrement:
      *next = (state == kAbsent ? 0 : state) + op.arg;
      return op.output == *next;
    case RegisterOp::Kind::kCheckAndPut: {
      const bool holds = state == op.expected;
      *next = holds ? op.arg : state;
      return op.output == (holds ? 1 : 0);
    }
  }
  return false;
}

std::string Value(int64_t v) {
  return v == kAbsent ? "absent" : std::to_string(v);
}

// The search's memo: a set of linearized operations (as a bitset) together with the state.
struct Config {
  std::vector<uint64_t> linearized;
  int64_t state;
  bool operator==(const Config&) const = default;
};
struct ConfigHash {
  size_t operator()(const Config& c) const {
    uint64_t h = static_cast<uint64_t>(c.state) * 0x9E3779B97F4A7C15ULL;
    for (uint64_t w : c.linearized) h = (h ^ w) * 0x100000001B3ULL + (h >> 29);
    return static_cast<size_t>(h);
  }
};

// The history as a doubly linked list of call and return events in time order; an operation
// is "lifted" out of the list (both its events) when the search linearizes it.
struct EventList {
  struct Event {
    size_t op;
    bool is_call;
    size_t match = 0;  // a call's return event
    size_t prev = 0, next = 0;
  };
  std::vector<Event> events;  // events[0] is the head sentinel
  static constexpr size_t kEnd = 0;

  explicit EventList(const std::vector<RegisterOp>& history) {
    struct Raw {
      int64_t time;
      bool is_call;
      size_t op;
    };
    std::vector<Raw> raw;
    for (size_t i = 0; i < history.size(); ++i) {
      raw.push_back({history[i].invoke_ns, true, i});
      raw.push_back({history[i].response_ns, false, i});
    }
    // At equal times calls come first: operations that touch at an instant count as
    // concurrent, the permissive reading of a clock's resolution.
    std::stable_sort(raw.begin(), raw.end(), [](const Raw& a, const Raw& b) {
      if (a.time != b.time) return a.time < b.time;
      return a.is_call && !b.is_call;
    });
    events.push_back({0, false});
    std::vector<size_t> call_of(history.size());
    for (const Raw& r : raw) {
      size_t index = events.size();
      events.push_back({r.op, r.is_call});
      if (r.is_call) {
        call_of[r.op] = index;
      } else {
        events[call_of[r.op]].match = index;
      }
    }
    for (size_t i = 0; i < events.size(); ++i) {
      events[i].next = i + 1 < events.size() ? i + 1 : kEnd;
      events[i].prev = i == 0 ? kEnd : i - 1;
    }
    events[0].prev = events.size() - 1;
  }

  void Unlink(size_t i) {
    events[events[i].prev].next = events[i].next;
    events[events[i].next].prev = events[i].prev;
  }
  void Relink(size_t i) {
    events[events[i].prev].next = i;
    events[events[i].next].prev = i;
  }
  void Lift(size_t call) {
    Unlink(call);
    Unlink(events[call].match);
  }
  void Unlift(size_t call) {
    Relink(events[call].match);
    Relink(call);
  }
};

}  // namespace

std::string Describe(const RegisterOp& op) {
  std::string s = "client " + std::to_string(op.client) + " ";
  switch (op.kind) {
    case RegisterOp::Kind::kPut:
      s += "put(" + Value(op.arg) + ")";
      break;
    case RegisterOp::Kind::kGet:
      s += "get() -> " + Value(op.output);
      break;
    case RegisterOp::Kind::kIncrement:
      s += "increment(" + std::to_string(op.arg) + ") -> " + Value(op.output);
      break;
    case RegisterOp::Kind::kCheckAndPut:
      s += "check_and_put(if " + Value(op.expected) + " then " + Value(op.arg) + ") -> " +
           (op.output == 1 ? "applied" : "not applied");
      break;
  }
  return s + " [" + std::to_string(op.invoke_ns) + ", " + std::to_string(op.response_ns) + "]";
}

LinearizabilityResult CheckLinearizable(const std::vector<RegisterOp>& history) {
  LinearizabilityResult result;
  EventList list(history);
  auto& ev = list.events;
  const size_t words = (history.size() + 63) / 64;
  Config config{std::vector<uint64_t>(words, 0), kAbsent};
  std::unordered_set<Config, ConfigHash> seen;
  // The calls linearized so far, with the state before each.
  std::vector<std::pair<size_t, int64_t>> stack;
  std::vector<size_t> best_order;

  size_t entry = ev[0].next;
  while (ev[0].next != EventList::kEnd) {
    if (entry != EventList::kEnd && ev[entry].is_call) {
      const size_t op = ev[entry].op;
      ++result.steps;
      int64_t next_state;
      if (Step(history[op], config.state, &next_state)) {
        Config next = config;
        next.linearized[op / 64] |= uint64_t{1} << (op % 64);
        next.state = next_state;
        if (seen.insert(next).second) {
          stack.emplace_back(entry, config.state);
          config = std::move(next);
          list.Lift(entry);
          if (stack.size() > best_order.size()) {
            best_order.clear();
            for (const auto& [call, before] : stack) best_order.push_back(ev[call].op);
          }
          entry = ev[0].next;
          continue;
        }
      }
      entry = ev[entry].next;
      continue;
    }
    // A return event (or the end): the operation it closes must have been linearized before
    // this point, and it was not. Undo the last choice and try the next candidate.
    if (stack.empty()) {
      std::string why = "no linearization; the longest legal order found:\n";
      for (size_t op : best_order) why += "  " + Describe(history[op]) + "\n";
      why += "cannot be followed by any of the operations left:\n";
      std::vector<bool> placed(history.size(), false);
      for (size_t op : best_order) placed[op] = true;
      for (size_t op = 0; op < history.size(); ++op) {
        if (!placed[op]) why += "  " + Describe(history[op]) + "\n";
      }
      result.explanation = std::move(why);
      return result;
    }
    auto [call, before] = stack.back();
    stack.pop_back();
    const size_t op = ev[call].op;
    config.linearized[op / 64] &= ~(uint64_t{1} << (op % 64));
    config.state = before;
    list.Unlift(call);
    entry = ev[call].next;
  }
  result.linearizable = true;
  return result;
}

}  // namespace basalt::testing
