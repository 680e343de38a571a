#include "harness.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <utility>

namespace basalt::bench {
namespace {

// The program named in Die's messages; set by the Harness.
std::string& ProgramName() {
  static std::string name = "bench";
  return name;
}

}  // namespace

void Die(const std::string& message) {
  std::fprintf(stderr, "%s: %s\n", ProgramName().c_str(), message.c_str());
  std::exit(1);
}

void Check(const Status& s, const std::string& what) {
  if (!s.ok()) Die(what + ": " + s.ToString());
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))];
}

Spread Summarise(std::vector<double> values) {
  Spread s;
  s.n = values.size();
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  s.median = values[values.size() / 2];
  s.min = values.front();
  s.max = values.back();
  s.p25 = Percentile(values, 0.25);
  s.p75 = Percentile(values, 0.75);
  return s;
}

double RatePerSecond(double seconds, const std::function<int64_t()>& op) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  int64_t ops = 0;
  double elapsed = 0;
  do {
    ops += op();
    elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  } while (elapsed < seconds);
  return static_cast<double>(ops) / elapsed;
}

std::vector<std::vector<double>> AlternateTurns(
    int sides, int rounds, const std::function<double(int side, int round)>& turn) {
  std::vector<std::vector<double>> figures(sides, std::vector<double>(rounds, 0));
  for (int r = 0; r < rounds; ++r) {
    for (int k = 0; k < sides; ++k) {
      const int side = (r + k) % sides;
      figures[side][r] = turn(side, r);
    }
  }
  return figures;
}

std::string Fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.*f", digits, v);
  return buf;
}

std::string MarkdownRow(const std::vector<std::string>& cells) {
  std::string out = "|";
  for (const auto& cell : cells) out += " " + cell + " |";
  return out + "\n";
}

std::string Table::Markdown() const {
  std::string out = "|";
  for (const auto& c : columns) out += " " + c + " |";
  out += "\n|";
  for (size_t i = 0; i < columns.size(); ++i) {
    out += (i < right_aligned.size() && right_aligned[i]) ? " ---: |" : " --- |";
  }
  out += "\n";
  for (const auto& row : rows) out += MarkdownRow(row);
  return out;
}

namespace {

std::vector<std::string> SplitRow(const std::string& line) {
  std::vector<std::string> cells;
  size_t pos = line.find('|');
  while (pos != std::string::npos) {
    const size_t next = line.find('|', pos + 1);
    if (next == std::string::npos) break;
    std::string cell = line.substr(pos + 1, next - pos - 1);
    const size_t first = cell.find_first_not_of(' ');
    const size_t last = cell.find_last_not_of(' ');
    cells.push_back(first == std::string::npos ? "" : cell.substr(first, last - first + 1));
    pos = next;
  }
  return cells;
}

}  // namespace

std::vector<Table> ParseMarkdownTables(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t end = std::min(text.find('\n', start), text.size());
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  std::vector<Table> tables;
  for (size_t i = 0; i + 1 < lines.size(); ++i) {
    if (lines[i].rfind('|', 0) != 0 || lines[i + 1].rfind("| ---", 0) != 0) continue;
    Table t;
    t.columns = SplitRow(lines[i]);
    for (const std::string& sep : SplitRow(lines[i + 1])) {
      t.right_aligned.push_back(!sep.empty() && sep.back() == ':');
    }
    size_t j = i + 2;
    for (; j < lines.size() && lines[j].rfind('|', 0) == 0; ++j) t.AddRow(SplitRow(lines[j]));
    tables.push_back(std::move(t));
    i = j - 1;
  }
  return tables;
}

Harness::Harness(std::string program, std::string description)
    : app_(std::move(description), program), program_(std::move(program)) {
  ProgramName() = program_;
  app_.add_option("--markdown", markdown_path_, "also write the tables to this file");
  app_.add_option("--json", json_path_, "also write the tables to this file as JSON");
}

void Harness::AddRounds(int* rounds, int default_value) {
  *rounds = default_value;
  app_.add_option("--rounds,--runs,--turns", *rounds, "turns each side takes")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
}

void Harness::AddSeconds(double* seconds, double default_value) {
  *seconds = default_value;
  app_.add_option("--seconds", *seconds, "seconds each measurement runs")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
}

void Harness::AddOps(int64_t* ops, int64_t default_value) {
  *ops = default_value;
  app_.add_option("--ops", *ops, "operations each measurement runs")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
}

int Harness::Parse(int argc, char** argv) {
  try {
    app_.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app_.exit(e);
  }
  return -1;
}

void Harness::Emit(const Table& table) {
  std::fputs(table.Markdown().c_str(), stdout);
  std::fputs("\n", stdout);
  std::fflush(stdout);
  Keep(table);
}

void Harness::Keep(const Table& table) {
  // A blank line between blocks, whatever the previous block ended with.
  if (!markdown_.empty() && markdown_.back() != '\n') markdown_ += "\n";
  if (!markdown_.empty() && markdown_.compare(markdown_.size() - 2, 2, "\n\n") != 0) {
    markdown_ += "\n";
  }
  markdown_ += table.Markdown();
  tables_.push_back(table);
}

void Harness::Note(const std::string& text) {
  std::fputs(text.c_str(), stdout);
  std::fflush(stdout);
  markdown_ += text;
}

void Harness::EmitMarkdown(const std::string& text) {
  Note(text);
  for (Table& t : ParseMarkdownTables(text)) tables_.push_back(std::move(t));
}

int Harness::Finish() {
  int rc = 0;
  if (!markdown_path_.empty()) {
    std::ofstream out(markdown_path_);
    out << markdown_;
    if (!out) {
      std::fprintf(stderr, "%s: cannot write %s\n", program_.c_str(), markdown_path_.c_str());
      rc = 1;
    }
  }
  if (!json_path_.empty()) {
    nlohmann::json doc;
    doc["program"] = program_;
    doc["tables"] = nlohmann::json::array();
    for (const auto& t : tables_) {
      nlohmann::json rows = nlohmann::json::array();
      for (const auto& row : t.rows) {
        nlohmann::json r = nlohmann::json::object();
        for (size_t i = 0; i < row.size() && i < t.columns.size(); ++i) r[t.columns[i]] = row[i];
        rows.push_back(std::move(r));
      }
      doc["tables"].push_back({{"title", t.title}, {"columns", t.columns}, {"rows", rows}});
    }
    std::ofstream out(json_path_);
    out << doc.dump(2) << "\n";
    if (!out) {
      std::fprintf(stderr, "%s: cannot write %s\n", program_.c_str(), json_path_.c_str());
      rc = 1;
    }
  }
  return rc;
}

}  // namespace basalt::bench
