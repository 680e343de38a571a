// A column family's options, parsed in one place for both front ends: `basalt shell`'s hashes
// ({NAME => 'f', VERSIONS => 3, TTL => FOREVER}) and `basalt create` / `alter`'s
// FAMILY:versions=3,ttl=FOREVER lists. Each option is read by ApplyFamilyOption, so VERSIONS,
// TTL, COMPRESSION, BLOOMFILTER, ... mean the same and refuse the same values in both.

#ifndef BASALT_SHELL_FAMILY_OPTIONS_H_
#define BASALT_SHELL_FAMILY_OPTIONS_H_

#include <string_view>
#include <vector>

#include "basalt/schema.h"
#include "basalt/status.h"
#include "shell/arguments.h"
#include "shell/parser.h"

namespace basalt::shell {

// The options basalt acts on, by HBase's shell name: VERSIONS, MIN_VERSIONS, TTL,
// KEEP_DELETED_CELLS, COMPRESSION, BLOOMFILTER, BLOCKSIZE.
const std::vector<std::string_view>& ActedOnFamilyOptions();

// HBase's other family attributes (IN_MEMORY, BLOCKCACHE, ...): kept with the schema and shown
// by describe, as REST and Thrift2 keep them, but not acted on.
const std::vector<std::string_view>& KeptFamilyAttributes();

// Sets option `name` (one of the two lists above, by HBase's name) of `f` to `value`. `what`
// names the option in error messages, as the caller's input spelled it. InvalidArgument (naming
// `what`) for a value of the wrong kind or out of range, or a name neither list holds.
Status ApplyFamilyOption(std::string_view name, std::string_view what, const Value& value,
                         FamilyDescriptor* f);

// The command line's form: "versions=N,min_versions=N,ttl=SECONDS|FOREVER,
// keep_deleted_cells=...,compression=...,bloom=...,blocksize=BYTES" (empty: nothing changes),
// each value a string given to ApplyFamilyOption. InvalidArgument for an item that is not
// NAME=VALUE or a name not in that list.
Status ApplyFamilyOptionList(std::string_view options, FamilyDescriptor* f);

// The keys of a family hash: NAME, the two lists above and METHOD (alter's).
const std::vector<std::string_view>& FamilyHashKeys();

// Applies the options of a family hash (read through `options`, whose keys are FamilyHashKeys())
// to `f`: every key but NAME and METHOD, which the caller takes first. Then rejects the keys left
// and validates `f`. The one reading of a family for both front ends: the command line's list
// arrives as a hash (FamilyHashFromList).
Status ApplyFamilyHash(Options& options, FamilyDescriptor* f);

// The command line's FAMILY[:name=value,...] as the shell writes it: 'FAMILY' alone, else
// {NAME => 'FAMILY', VERSIONS => '3', ...}. The options are checked first as
// ApplyFamilyOptionList checks them (so errors name them as the command line spells them).
Result<Value> FamilyHashFromList(std::string_view spec);

}  // namespace basalt::shell

#endif  // BASALT_SHELL_FAMILY_OPTIONS_H_
