#include "shell/session.h"

#include <algorithm>
#include <chrono>

#include "shell/arguments.h"
#include "shell/formatter.h"
#include "shell/parser.h"

namespace basalt::shell {
namespace {

constexpr std::string_view kGroups[] = {"general", "ddl", "namespace", "dml", "tools", "snapshots"};

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string OneLine(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

}  // namespace

Session::Session(Connection& conn, std::ostream& out, std::ostream& err)
    : conn_(conn), out_(out), err_(err) {
  commands_.push_back({"help", "general", "show the commands, or one command's syntax",
                       "help\nhelp 'scan'\nhelp 'ddl'", nullptr});
  commands_.push_back(
      {"exit", "general", "leave the shell (also: quit, or Ctrl-D)", "exit", nullptr});
  for (auto group :
       {GeneralCommands(), DdlCommands(), NamespaceCommands(), DmlCommands(), SnapshotCommands()}) {
    commands_.insert(commands_.end(), group.begin(), group.end());
  }
}

std::vector<std::string> Session::CommandNames() const {
  std::vector<std::string> names;
  for (const auto& c : commands_) names.emplace_back(c.name);
  names.emplace_back("quit");
  return names;
}

const CommandSpec* Session::Find(std::string_view name) const {
  if (name == "quit") name = "exit";
  for (const auto& c : commands_) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

std::string Session::Suggest(std::string_view name) const {
  std::string best;
  size_t best_distance = 3;  // suggest only close names
  for (const auto& c : commands_) {
    size_t d = EditDistance(name, c.name);
    if (d < best_distance) {
      best_distance = d;
      best = c.name;
    }
  }
  return best;
}

void Session::ReportError(const Status& status, std::string_view hint) {
  ++failures_;
  out_.flush();
  err_ << "ERROR: " << OneLine(status.ToString()) << "\n";
  if (!hint.empty()) err_ << hint << "\n";
  err_.flush();
}

void Session::ReportSyntaxError(std::string_view text, size_t offset, const Status& status) {
  size_t line_start = text.rfind('\n', offset == 0 ? 0 : offset - 1);
  line_start = (offset == 0 || line_start == std::string_view::npos) ? 0 : line_start + 1;
  size_t line_end = text.find('\n', line_start);
  if (line_end == std::string_view::npos) line_end = text.size();
  std::string line(text.substr(line_start, line_end - line_start));
  std::string caret(offset - line_start, ' ');
  for (size_t i = 0; i < caret.size() && i < line.size(); ++i) {
    if (line[i] == '\t') caret[i] = '\t';  // keep the caret under the token
  }
  ReportError(status, "  " + line + "\n  " + caret +
                          "^\nStrings go in quotes, options in a hash: scan 't1', {LIMIT => 5}");
}

void Session::RunHelp(const std::vector<Value>& args) {
  if (args.empty()) {
    out_ << "basalt shell: HBase shell commands on " << conn_.target() << "\n"
         << "Type help 'COMMAND' for a command's syntax (e.g. help 'scan'), or help 'GROUP'.\n\n"
         << "COMMAND GROUPS:\n";
    for (auto group : kGroups) {
      out_ << "  Group name: " << group << "\n  Commands: ";
      bool first = true;
      for (const auto& c : commands_) {
        if (c.group != group) continue;
        out_ << (first ? "" : ", ") << c.name;
        first = false;
      }
      out_ << "\n\n";
    }
    out_
        << "SYNTAX:\n"
        << "  Quote every name and value: 'single quotes' take bytes literally, \"double quotes\"\n"
        << "  read escapes such as \\x00 for binary bytes. Options are a hash of upper-case\n"
        << "  constants: {STARTROW => 'a', LIMIT => 10}. Separate commands with ';' or lines.\n"
        << "  Output prints bytes as HBase's Bytes.toStringBinary (\\xHH).\n";
    return;
  }
  if (args.size() != 1 || !args[0].is_string()) {
    ReportError(Status::InvalidArgument("help takes one command or group name in quotes"),
                "help 'scan'");
    return;
  }
  const std::string& topic = args[0].text;
  if (const CommandSpec* c = Find(topic)) {
    out_ << c->name << ": " << c->summary << "\n\n" << c->usage << "\n";
    return;
  }
  for (auto group : kGroups) {
    if (group != topic) continue;
    for (const auto& c : commands_) {
      if (c.group == group) out_ << "  " << c.name << ": " << c.summary << "\n";
    }
    return;
  }
  ReportError(Status::NotFound("no command or group '" + topic + "'"),
              "Type 'help' for the list of commands.");
}

Session::Next Session::Run(std::string_view text) {
  size_t error_offset = 0;
  Result<std::vector<Command>> commands = ParseCommands(text, &error_offset);
  if (!commands.ok()) {
    ReportSyntaxError(text, error_offset, commands.status());
    return Next::kContinue;
  }
  for (const Command& command : *commands) {
    // An interrupt stops the rest of the input too.
    if (&command != &commands->front() && interrupted_ != nullptr && interrupted_->load()) break;
    const CommandSpec* spec = Find(command.verb);
    if (spec == nullptr) {
      std::string suggestion = Suggest(command.verb);
      ReportError(Status::InvalidArgument("unknown command '" + command.verb + "'"),
                  (suggestion.empty() ? "" : "Did you mean '" + suggestion + "'? ") +
                      std::string("Type 'help' for the list of commands."));
      continue;
    }
    if (spec->name == "exit") {
      if (!command.args.empty()) {
        ReportError(Status::InvalidArgument("exit takes no arguments"), "");
        continue;
      }
      return Next::kExit;
    }
    if (spec->name == "help") {
      RunHelp(command.args);
      continue;
    }
    const auto start = std::chrono::steady_clock::now();
    CommandContext ctx{conn_, out_, interrupted_};
    Status status = RunShellCommand(*spec, ctx, command.args);
    if (!status.ok()) {
      ReportError(status, status.IsInvalidArgument()
                              ? "For usage try 'help \"" + std::string(spec->name) + "\"'"
                              : "");
      continue;
    }
    std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    out_ << FormatTook(took.count()) << "\n";
    out_.flush();
  }
  return Next::kContinue;
}

}  // namespace basalt::shell
