// Snapshot commands, as HBase's shell: snapshot, list_snapshots, clone_snapshot,
// restore_snapshot, delete_snapshot (basalt/snapshot.h; an embedded store only: over Thrift2
// they fail with NotSupported, as the protocol has no snapshot calls). All are shared operations.

#include "shell/commands.h"
#include "shell/operations.h"

namespace basalt::shell {

std::vector<CommandSpec> SnapshotCommands() {
  return {
      ShellCommandFor(OperationNamed("snapshot")),
      ShellCommandFor(OperationNamed("list_snapshots")),
      ShellCommandFor(OperationNamed("clone_snapshot")),
      ShellCommandFor(OperationNamed("restore_snapshot")),
      ShellCommandFor(OperationNamed("delete_snapshot")),
  };
}

}  // namespace basalt::shell
