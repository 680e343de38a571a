#include "hbdiff/diff_ops.h"

#include <cstdlib>
#include <optional>
#include <regex>
#include <sstream>
#include <string_view>
#include <vector>

#include "basalt/filter_language.h"

namespace basalt::hbdiff {
namespace {

std::vector<std::string> SplitWords(std::string_view text) {
  std::vector<std::string> out;
  std::istringstream in{std::string(text)};
  std::string w;
  while (in >> w) out.push_back(w);
  return out;
}

std::string Trim(std::string_view s) {
  size_t b = s.find_first_not_of(' ');
  if (b == std::string_view::npos) return "";
  size_t e = s.find_last_not_of(' ');
  return std::string(s.substr(b, e - b + 1));
}

std::vector<std::string> SplitSubs(std::string_view text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t bar = text.find('|', start);
    out.push_back(Trim(text.substr(start, bar == std::string_view::npos ? bar : bar - start)));
    if (bar == std::string_view::npos) break;
    start = bar + 1;
  }
  return out;
}

struct BadOp {
  std::string why;
};

int64_t ToInt(const std::string& s) {
  char* end = nullptr;
  long long v = std::strtoll(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0') throw BadOp{"not a number: " + s};
  return v;
}

int64_t Ts(const Clock& clock, const std::string& word) {
  if (word.empty() || word[0] != '@') throw BadOp{"not a timestamp: " + word};
  return clock.base + ToInt(word.substr(1));
}

// "F:Q" or "F:Q=REST", and an optional "@T" at the end of REST.
struct CellSpec {
  std::string family, qualifier, rest;
  std::optional<int64_t> ts;
};

CellSpec ParseCell(const Clock& clock, const std::string& word, bool with_value) {
  CellSpec c;
  size_t colon = word.find(':');
  if (colon == std::string::npos) throw BadOp{"no family:qualifier in " + word};
  c.family = word.substr(0, colon);
  std::string tail = word.substr(colon + 1);
  if (with_value) {
    size_t eq = tail.find('=');
    if (eq == std::string::npos) throw BadOp{"no value in " + word};
    c.rest = tail.substr(eq + 1);
    tail = tail.substr(0, eq);
    size_t at = c.rest.rfind('@');
    if (at != std::string::npos) {
      c.ts = Ts(clock, c.rest.substr(at));
      c.rest = c.rest.substr(0, at);
    }
  }
  c.qualifier = tail;
  return c;
}

basalt::Put BuildPut(const Clock& clock, const std::string& row,
                     const std::vector<std::string>& cells) {
  basalt::Put put(row);
  for (const auto& w : cells) {
    CellSpec c = ParseCell(clock, w, true);
    put.Add(c.family, c.qualifier, c.ts.value_or(kLatestTimestamp), c.rest);
  }
  return put;
}

// words[0] is the kind, words[1..] its arguments after the row.
basalt::Delete BuildDelete(const Clock& clock, const std::string& row,
                           const std::vector<std::string>& words) {
  const std::string& kind = words[0];
  auto ts_at = [&](size_t i) { return words.size() > i ? Ts(clock, words[i]) : kLatestTimestamp; };
  if (kind == "del") return basalt::Delete(row, ts_at(1));
  basalt::Delete del(row);
  if (words.size() < 2) throw BadOp{kind + " needs a column"};
  if (kind == "delfam") {
    del.AddFamily(words[1], ts_at(2));
  } else if (kind == "delfamver") {
    del.AddFamilyVersion(words[1], ts_at(2));
  } else if (kind == "delcol" || kind == "delcols") {
    CellSpec c = ParseCell(clock, words[1], false);
    if (kind == "delcol") {
      del.AddColumn(c.family, c.qualifier, ts_at(2));
    } else {
      del.AddColumns(c.family, c.qualifier, ts_at(2));
    }
  } else {
    throw BadOp{"unknown delete " + kind};
  }
  return del;
}

// A put or delete line without its row (inside mutate and cam).
std::variant<basalt::Put, basalt::Delete> BuildSub(const Clock& clock, const std::string& row,
                                                   const std::string& sub) {
  std::vector<std::string> words = SplitWords(sub);
  if (words.empty()) throw BadOp{"empty sub-mutation"};
  if (words[0] == "put") return BuildPut(clock, row, {words.begin() + 1, words.end()});
  return BuildDelete(clock, row, words);
}

CompareOp ParseOp(const std::string& s) {
  if (s == "<") return CompareOp::kLess;
  if (s == "<=") return CompareOp::kLessOrEqual;
  if (s == "=") return CompareOp::kEqual;
  if (s == "!=") return CompareOp::kNotEqual;
  if (s == ">=") return CompareOp::kGreaterOrEqual;
  if (s == ">") return CompareOp::kGreater;
  throw BadOp{"unknown compare op " + s};
}

std::string TsText(const Clock& clock, int64_t ts) {
  if (ts >= clock.server_floor) return "S";
  return "@" + std::to_string(ts - clock.base);
}

// Values as text, bytes outside printable ASCII as \xNN (counters are 8 binary bytes).
std::string Printable(std::string_view bytes) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    if (c >= 0x21 && c < 0x7f && c != '\\') {
      out += static_cast<char>(c);
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

void PrintCells(const Clock& clock, const RowResult& r, std::string* out) {
  *out += "[" + r.row();
  for (const Cell& c : r.cells()) {
    *out +=
        " " + c.family + ":" + c.qualifier + "=" + Printable(c.value) + TsText(clock, c.timestamp);
  }
  *out += "]";
}

// The read options common to get and scan.
struct ReadOptions {
  std::vector<std::string> cols;
  int32_t versions = 1;
  std::optional<std::pair<int64_t, int64_t>> time_range;
  int32_t mrpf = -1, ropf = 0;
  FilterPtr filter;
};

// Consumes get's and scan's shared options; returns false for a word it does not know.
bool ParseReadOption(const Clock& clock, const std::string& w, ReadOptions* o) {
  auto value = [&](std::string_view key) { return w.substr(key.size()); };
  if (w.rfind("cols=", 0) == 0) {
    std::string list = value("cols=");
    size_t start = 0;
    while (start <= list.size()) {
      size_t comma = list.find(',', start);
      o->cols.push_back(list.substr(start, comma == std::string::npos ? comma : comma - start));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  } else if (w.rfind("v=", 0) == 0) {
    o->versions = value("v=") == "all" ? INT32_MAX : static_cast<int32_t>(ToInt(value("v=")));
  } else if (w.rfind("tr=", 0) == 0) {
    std::string range = value("tr=");
    size_t comma = range.find(',');
    if (comma == std::string::npos) throw BadOp{"tr=A,B"};
    std::string hi = range.substr(comma + 1);
    o->time_range = {clock.base + ToInt(range.substr(0, comma)),
                     hi == "max" ? kLatestTimestamp : clock.base + ToInt(hi)};
  } else if (w.rfind("mrpf=", 0) == 0) {
    o->mrpf = static_cast<int32_t>(ToInt(value("mrpf=")));
  } else if (w.rfind("ropf=", 0) == 0) {
    o->ropf = static_cast<int32_t>(ToInt(value("ropf=")));
  } else {
    return false;
  }
  return true;
}

template <class R>
void ApplyReadOptions(const ReadOptions& o, R* r) {
  for (const auto& c : o.cols) {
    size_t colon = c.find(':');
    if (colon == std::string::npos) {
      r->AddFamily(c);
    } else {
      r->AddColumn(c.substr(0, colon), c.substr(colon + 1));
    }
  }
  r->ReadVersions(o.versions);
  if (o.time_range) r->SetTimeRange(o.time_range->first, o.time_range->second);
  if (o.mrpf >= 0) r->SetMaxResultsPerColumnFamily(o.mrpf);
  if (o.ropf > 0) r->SetRowOffsetPerColumnFamily(o.ropf);
  if (o.filter) r->SetFilter(o.filter);
}

// Splits off "filter=..." (the rest of the line) and parses it with @T substituted.
std::string TakeFilter(const Clock& clock, std::string line, ReadOptions* o) {
  size_t f = line.find(" filter=");
  if (f == std::string::npos) return line;
  std::string text = line.substr(f + 8);
  line.resize(f);
  std::string resolved;
  std::regex ts_re("@(-?[0-9]+)");
  std::sregex_iterator it(text.begin(), text.end(), ts_re), end;
  size_t last = 0;
  for (; it != end; ++it) {
    resolved += text.substr(last, it->position() - last);
    resolved += std::to_string(clock.base + ToInt((*it)[1].str()));
    last = it->position() + it->length();
  }
  resolved += text.substr(last);
  auto parsed = ParseFilter(resolved);
  if (!parsed.ok()) throw BadOp{"filter " + resolved + ": " + parsed.status().ToString()};
  o->filter = *parsed;
  return line;
}

// Only that it failed is compared (HBase's exceptions and basalt's Status texts differ in
// words); the message follows a tab, for the report (see SameOutcome).
std::string Error(const Status& s) {
  return "error\t" + s.ToString();
}

std::string Apply(Table& table, const Clock& clock, const std::string& line) {
  ReadOptions read;
  std::string head = TakeFilter(clock, line, &read);
  std::vector<std::string> words = SplitWords(head);
  if (words.empty()) throw BadOp{"empty line"};
  const std::string& kind = words[0];
  if (kind == "scan") {
    Scan scan;
    for (size_t i = 1; i < words.size(); ++i) {
      const std::string& w = words[i];
      if (ParseReadOption(clock, w, &read)) continue;
      if (w.rfind("start=", 0) == 0) {
        scan.WithStartRow(w.substr(6));
      } else if (w.rfind("stop=", 0) == 0) {
        scan.WithStopRow(w.substr(5));
      } else if (w == "rev") {
        scan.SetReversed(true);
      } else if (w.rfind("limit=", 0) == 0) {
        scan.SetLimit(ToInt(w.substr(6)));
      } else if (w.rfind("batch=", 0) == 0) {
        scan.SetBatch(static_cast<int32_t>(ToInt(w.substr(6))));
      } else if (w.rfind("caching=", 0) == 0) {
        scan.SetCaching(static_cast<int32_t>(ToInt(w.substr(8))));
      } else {
        throw BadOp{"unknown scan option " + w};
      }
    }
    ApplyReadOptions(read, &scan);
    auto scanner = table.GetScanner(scan);
    if (!scanner.ok()) return Error(scanner.status());
    std::string out;
    RowResult r;
    while ((*scanner)->Next(&r)) PrintCells(clock, r, &out);
    if (!(*scanner)->status().ok()) return out + " " + Error((*scanner)->status());
    return out.empty() ? "(none)" : out;
  }
  if (words.size() < 2) throw BadOp{kind + " needs a row"};
  const std::string& row = words[1];
  std::vector<std::string> args(words.begin() + 2, words.end());
  if (kind == "get") {
    Get get(row);
    for (const auto& w : args) {
      if (!ParseReadOption(clock, w, &read)) throw BadOp{"unknown get option " + w};
    }
    ApplyReadOptions(read, &get);
    auto r = table.Get(get);
    if (!r.ok()) return Error(r.status());
    std::string out;
    PrintCells(clock, *r, &out);
    return out;
  }
  if (kind == "put") {
    Status s = table.Put(BuildPut(clock, row, args));
    return s.ok() ? "ok" : Error(s);
  }
  if (kind.rfind("del", 0) == 0) {
    std::vector<std::string> del_words{kind};
    del_words.insert(del_words.end(), args.begin(), args.end());
    Status s = table.Delete(BuildDelete(clock, row, del_words));
    return s.ok() ? "ok" : Error(s);
  }
  if (kind == "incr" || kind == "append") {
    Result<RowResult> r = Status::InvalidArgument("unset");
    if (kind == "incr") {
      basalt::Increment inc(row);
      for (const auto& w : args) {
        CellSpec c = ParseCell(clock, w, true);
        inc.AddColumn(c.family, c.qualifier, ToInt(c.rest));
      }
      r = table.Increment(inc);
    } else {
      basalt::Append app(row);
      for (const auto& w : args) {
        CellSpec c = ParseCell(clock, w, true);
        app.Add(c.family, c.qualifier, c.rest);
      }
      r = table.Append(app);
    }
    if (!r.ok()) return Error(r.status());
    std::string out;
    PrintCells(clock, *r, &out);
    return out;
  }
  size_t rest_at = line.find(' ', line.find(' ') + 1);
  std::string rest = rest_at == std::string::npos ? "" : line.substr(rest_at + 1);
  if (kind == "mutate") {
    RowMutations rm(row);
    for (const auto& sub : SplitSubs(rest)) {
      std::visit([&](auto&& m) { rm.Add(std::forward<decltype(m)>(m)); },
                 BuildSub(clock, row, sub));
    }
    Status s = table.MutateRow(rm);
    return s.ok() ? "ok" : Error(s);
  }
  if (kind == "cam") {
    if (args.size() < 4) throw BadOp{"cam ROW F:Q OP VALUE then ..."};
    CellSpec c = ParseCell(clock, args[0], false);
    std::optional<std::string> expected;
    if (args[2] != "-") expected = args[2];
    basalt::CheckAndMutate cam(row);
    cam.IfMatches(c.family, c.qualifier, ParseOp(args[1]), expected);
    size_t then = rest.find(" then ");
    if (then == std::string::npos) throw BadOp{"cam without then"};
    std::vector<std::string> subs = SplitSubs(rest.substr(then + 6));
    if (subs.size() == 1) {
      std::visit([&](auto&& m) { cam.Then(std::forward<decltype(m)>(m)); },
                 BuildSub(clock, row, subs[0]));
    } else {
      RowMutations rm(row);
      for (const auto& sub : subs) {
        std::visit([&](auto&& m) { rm.Add(std::forward<decltype(m)>(m)); },
                   BuildSub(clock, row, sub));
      }
      cam.Then(std::move(rm));
    }
    auto r = table.CheckAndMutate(cam);
    if (!r.ok()) return Error(r.status());
    return *r ? "applied" : "not applied";
  }
  throw BadOp{"unknown op " + kind};
}

}  // namespace

std::string ApplyOp(Table& table, const Clock& clock, const std::string& line) {
  try {
    return Apply(table, clock, line);
  } catch (const BadOp& bad) {
    return "bad op: " + bad.why;
  }
}

bool SameOutcome(const std::string& a, const std::string& b) {
  return a.substr(0, a.find('\t')) == b.substr(0, b.find('\t'));
}

bool IsWrite(const std::string& line) {
  return line.rfind("get ", 0) != 0 && line.rfind("scan", 0) != 0;
}

}  // namespace basalt::hbdiff
