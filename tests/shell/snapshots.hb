# Snapshots: take, describe, clone, restore, list, delete. Over Thrift2 every snapshot command
# fails with NotSupported (the protocol has none) and describe prints no snapshot count.
# exit-status: 1
create 't1', 'f1', 'f2'
put 't1', 'r1', 'f1:q', 'v1'
put 't1', 'r2', 'f2:q', 'v2'
snapshot 't1', 'snap'
describe 't1'
list_snapshots
# After the snapshot: none of this is in the clone or the restored table.
put 't1', 'r3', 'f1:q', 'after'
deleteall 't1', 'r1'
clone_snapshot 'snap', 't2'
scan 't2'
clone_snapshot 'snap', 't1'
snapshot 't1', 'snap'
snapshot 't1', '.bad'
restore_snapshot 'snap'
disable 't1'
restore_snapshot 'snap'
enable 't1'
scan 't1'
snapshot 't2', 'snap2'
list_snapshots 'snap2'
delete_snapshot 'snap'
delete_snapshot 'snap'
list_snapshots
describe 't2'
