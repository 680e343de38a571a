// The shared frame of every benchmark program: its command line (CLI11, with the flags common to
// every bench), turns that alternate between the sides of a comparison, the median and spread of
// repeated measurements, and the output (markdown tables on stdout and in --markdown FILE, the
// same tables as JSON in --json FILE). Benchmarks are programs, not tests (docs/benchmarks.md,
// "Method"); a failed call ends the run with a message.

#ifndef BASALT_BENCH_HARNESS_H_
#define BASALT_BENCH_HARNESS_H_

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "basalt/status.h"

namespace basalt::bench {

// Ends the program with "<program>: <what>: <status>" when `s` is not OK.
void Check(const Status& s, const std::string& what);

// Ends the program with "<program>: <message>".
[[noreturn]] void Die(const std::string& message);

template <class T>
T Check(Result<T> r, const std::string& what) {
  if (!r.ok()) Check(r.status(), what);
  return std::move(r).value();
}

// The median and spread of repeated measurements. For an empty input every field is 0.
struct Spread {
  double median = 0;
  double min = 0;
  double max = 0;
  double p25 = 0;
  double p75 = 0;
  size_t n = 0;
};
Spread Summarise(std::vector<double> values);

// The upper median of `v` (the element at size/2 once sorted), as the benches have always
// reported. REQUIRES: !v.empty().
double Median(std::vector<double> v);

// The p-quantile (0 <= p <= 1) of `v`; 0 for an empty `v`.
double Percentile(std::vector<double> v, double p);

// Runs `op` (which returns how many operations it did) again and again for about `seconds`;
// returns operations per second.
double RatePerSecond(double seconds, const std::function<int64_t()>& op);

// Runs `rounds` rounds; in each, every side's `turn` runs once, and the side that goes first
// alternates from round to round (round r starts with side r % sides), so a burst of load on the
// machine lands on every side alike. `turn(side, round)` returns the round's figure for that side.
// Returns figures[side][round].
std::vector<std::vector<double>> AlternateTurns(
    int sides, int rounds, const std::function<double(int side, int round)>& turn);

// A table of results: a title, column headers with their alignment, and rows of cells.
struct Table {
  std::string title;                 // the JSON key; may be empty for a program's one table
  std::vector<std::string> columns;  // header texts
  std::vector<bool> right_aligned;   // per column; missing entries are left-aligned
  std::vector<std::vector<std::string>> rows;

  void AddRow(std::vector<std::string> cells) { rows.push_back(std::move(cells)); }
  std::string Markdown() const;
};

// One markdown table row ("| a | b |\n"), for printing progress as rows come in.
std::string MarkdownRow(const std::vector<std::string>& cells);

// The tables of a markdown text (each run of lines starting with '|' whose second line is a
// separator); other lines are skipped.
std::vector<Table> ParseMarkdownTables(const std::string& text);

// Formats `v` with printf's "%.<digits>f".
std::string Fixed(double v, int digits);

// The program's frame. Typical use:
//
//   Harness h("basalt_x_bench", "what it compares");
//   h.app().add_option("--scale", cfg.scale, "...");   // the bench's own flags
//   h.AddRounds(&cfg.rounds, 3);                      // the common flags it takes
//   h.AddSeconds(&cfg.seconds, 1.0);
//   if (int rc = h.Parse(argc, argv); rc >= 0) return rc;
//   ... measure ...; h.Emit(table); ...
//   return h.Finish();
class Harness {
 public:
  Harness(std::string program, std::string description);

  // The bench's own flags go here.
  CLI::App& app() { return app_; }

  // The common flags. Each program adds those its measurement has; --json and --markdown are
  // always there.
  void AddRounds(int* rounds, int default_value);          // --rounds N (alias --runs, --turns)
  void AddSeconds(double* seconds, double default_value);  // --seconds S per turn
  void AddOps(int64_t* ops, int64_t default_value);        // --ops N per turn

  // Parses the command line. Returns -1 to go on, or the exit code (0 for --help, 2 for an
  // error, with the message printed).
  int Parse(int argc, char** argv);

  // Prints `table` as markdown on stdout (with a blank line after) and keeps it for --markdown
  // and --json.
  void Emit(const Table& table);
  // Keeps `table` for --markdown and --json without printing it (for a program whose stdout is
  // read by a script).
  void Keep(const Table& table);
  // Prints text as is and keeps it, in order, with the tables of --markdown.
  void Note(const std::string& text);
  // Prints markdown the program wrote itself and keeps it verbatim for --markdown; each table in
  // it (a run of lines starting with '|': header, separator, rows) also goes to --json.
  void EmitMarkdown(const std::string& text);

  // Writes --markdown and --json if asked. Returns the exit code (0, or 1 if a file cannot be
  // written).
  int Finish();

  const std::string& markdown_path() const { return markdown_path_; }

 private:
  CLI::App app_;
  std::string program_;
  std::string markdown_path_;
  std::string json_path_;
  std::string markdown_;       // what --markdown writes, in order
  std::vector<Table> tables_;  // what --json writes
};

}  // namespace basalt::bench

#endif  // BASALT_BENCH_HARNESS_H_
