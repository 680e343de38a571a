#include "cli/operation_verbs.h"

#include <charconv>
#include <iostream>
#include <memory>

#include "basalt/cell.h"
#include "cli/output.h"
#include "shell/family_options.h"
#include "util/bytes_format.h"

namespace basalt::cli {
namespace {

using shell::OperationArgs;
using shell::Parameter;
using shell::StringValue;
using shell::Value;
using Kind = Parameter::Kind;
using CliForm = Parameter::Cli;

// A word of the command line as the operation takes it: bytes with their \xHH escapes decoded,
// a family's list as the shell's hash.
Result<Value> Convert(const Parameter& p, const std::string& text) {
  switch (p.kind) {
    case Kind::kBytes:
      return StringValue(util::FromStringBinary(text));
    case Kind::kColumn: {
      ColumnName column = ParseColumnName(text);
      if (!column.qualifier) return StringValue(text);
      return StringValue(column.family + ":" + util::FromStringBinary(*column.qualifier));
    }
    case Kind::kFamily:
      return shell::FamilyHashFromList(text);
    default:
      return StringValue(text);
  }
}

// An integer option or positional is checked while parsing, a usage error as CLI11's own.
const CLI::Validator kIntegerCheck(
    [](std::string& text) -> std::string {
      int64_t v = 0;
      auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
      if (ec != std::errc() || end != text.data() + text.size()) {
        return "must be an integer, not '" + text + "'";
      }
      return "";
    },
    "");

}  // namespace

void OperationVerbs::Register(CLI::App& parent, std::string_view parent_name) {
  for (const shell::Operation& op : shell::Operations()) {
    if (op.cli_name.empty()) continue;
    const size_t space = op.cli_name.rfind(' ');
    const std::string_view under =
        space == std::string_view::npos ? std::string_view() : op.cli_name.substr(0, space);
    if (under != parent_name) continue;
    const std::string_view word =
        space == std::string_view::npos ? op.cli_name : op.cli_name.substr(space + 1);
    Verb& verb = verbs_.emplace_back();
    verb.operation = &op;
    verb.app = parent.add_subcommand(std::string(word), std::string(op.summary));
    for (const Parameter& p : op.parameters) {
      if (p.cli == CliForm::kNone) continue;
      Slot& slot = verb.slots.emplace_back();
      slot.parameter = &p;
      const std::string name(p.name);
      const std::string option = "--" + name;
      const std::string help(p.help);
      switch (p.cli) {
        case CliForm::kArgument:
          slot.option = verb.app->add_option(name, slot.one, help)->required();
          break;
        case CliForm::kOptionalArgument:
          slot.option = verb.app->add_option(name, slot.one, help);
          break;
        case CliForm::kArguments:
          slot.option = verb.app->add_option(name, slot.many, help)->required();
          break;
        case CliForm::kOptionalArguments:
          slot.option = verb.app->add_option(name, slot.many, help);
          break;
        case CliForm::kOption:
        case CliForm::kList:
          slot.option = verb.app->add_option(option, slot.one, help);
          break;
        case CliForm::kOptions:
          slot.option = verb.app->add_option(option, slot.many, help);
          break;
        case CliForm::kFlag:
          slot.option = verb.app->add_flag(option, slot.flag, help);
          break;
        case CliForm::kNone:
          break;
      }
      if (p.kind == Kind::kInteger) slot.option->check(kIntegerCheck)->type_name("INT");
      if (p.name == "time-range") slot.option->type_name("MIN,MAX");
    }
  }
}

Result<OperationArgs> OperationVerbs::ArgsOf(const Verb& verb) {
  OperationArgs args;
  for (const Parameter& p : verb.operation->parameters) {
    const Slot* slot = nullptr;
    for (const Slot& s : verb.slots) {
      if (s.parameter == &p) slot = &s;
    }
    const bool positional = p.cli == CliForm::kArgument || p.cli == CliForm::kOptionalArgument ||
                            p.cli == CliForm::kArguments || p.cli == CliForm::kOptionalArguments;
    const std::string what = positional ? std::string(p.name) : "--" + std::string(p.name);
    std::vector<std::string> words;
    if (slot != nullptr && slot->option->count() > 0) {
      if (p.cli == CliForm::kFlag) {
        Value v;
        v.kind = Value::Kind::kBoolean;
        v.boolean = slot->flag;
        args.Add(p.name, what, std::move(v));
        continue;
      }
      if (p.cli == CliForm::kList) {
        size_t pos = 0;
        while (pos < slot->one.size()) {
          size_t end = slot->one.find(',', pos);
          if (end == std::string::npos) end = slot->one.size();
          words.push_back(slot->one.substr(pos, end - pos));
          pos = end + 1;
        }
      } else if (slot->many.empty()) {
        words.push_back(slot->one);
      } else {
        words = slot->many;
      }
    } else if (!p.cli_default.empty()) {
      words.emplace_back(p.cli_default);
    }
    for (const std::string& word : words) {
      BASALT_ASSIGN_OR_RETURN(Value v, Convert(p, word));
      args.Add(p.name, what, std::move(v));
    }
  }
  return args;
}

std::optional<int> OperationVerbs::RunIfParsed(const std::string& data_dir, bool json) {
  for (const Verb& verb : verbs_) {
    if (!verb.app->parsed()) continue;
    Output out(std::cout, json);
    // The arguments before the store: a usage error opens nothing.
    Status s;
    Result<OperationArgs> args = ArgsOf(verb);
    if (!args.ok()) {
      s = args.status();
    } else if (Result<std::unique_ptr<Connection>> conn = Connection::Open(data_dir); !conn.ok()) {
      s = conn.status();
    } else {
      s = shell::RunOperation(*verb.operation, **conn, *args, out);
    }
    std::cout.flush();
    if (s.ok()) return 0;
    std::string message = s.ToString();
    for (char& c : message) {
      if (c == '\n') c = ' ';
    }
    std::cerr << "error: " << message << "\n";
    return 1;
  }
  return std::nullopt;
}

}  // namespace basalt::cli
