# HBase's shell on a table and a namespace of its own (scripts/hbase-shell.sh runs it against
# basalt and against a real HBase; smoke.expected is its output as that script normalizes it).
# A run cut short leaves them behind: remove them first, quietly.
admin = @shell.admin; nil
['basalt_shell_ns:t2', 'basalt_shell'].each do |t|
  next unless admin.exists?(t)
  admin.disable(t) if admin.enabled?(t)
  admin.drop(t)
end; nil
admin.drop_namespace('basalt_shell_ns') if admin.list_namespace('basalt_shell_ns').any?

create 'basalt_shell', 'f1', {NAME => 'f2', VERSIONS => 3}
list 'basalt_shell.*'
exists 'basalt_shell'
describe 'basalt_shell'
put 'basalt_shell', 'r1', 'f1:a', 'v1a'
put 'basalt_shell', 'r1', 'f2:b', 'v1b'
put 'basalt_shell', 'r2', 'f1:a', 'v2a'
put 'basalt_shell', 'r3', 'f1:a', 'v3a'
put 'basalt_shell', 'r3', 'f2:c', 'v3c'
put 'basalt_shell', 'r4', 'f2:b', 'v4b'
put 'basalt_shell', 'r5', 'f1:z', 'v5z'
get 'basalt_shell', 'r1'
get 'basalt_shell', 'r3', 'f2:c'
get 'basalt_shell', 'r3', {COLUMN => 'f1'}
scan 'basalt_shell'
scan 'basalt_shell', {LIMIT => 2}
scan 'basalt_shell', {STARTROW => 'r2', STOPROW => 'r4'}
scan 'basalt_shell', {COLUMNS => ['f2']}
scan 'basalt_shell', {COLUMNS => ['f1:a'], STARTROW => 'r2'}
put 'basalt_shell', 'r1', 'f2:b', 'v1b-2'
get 'basalt_shell', 'r1', {COLUMN => 'f2:b', VERSIONS => 3}
# In f2, which keeps 3 versions: HBase shows a version beyond VERSIONS to a time range until a
# flush or compaction drops it, basalt never does.
put 'basalt_shell', 'r6', 'f2:a', 'at 1000', 1000
put 'basalt_shell', 'r6', 'f2:a', 'at 2000', 2000
get 'basalt_shell', 'r6', {COLUMN => 'f2:a', TIMERANGE => [0, 1500]}
get 'basalt_shell', 'r6', {COLUMN => 'f2:a', TIMESTAMP => 2000}
scan 'basalt_shell', {FILTER => "ValueFilter(=, 'binary:v3a')"}
scan 'basalt_shell', {FILTER => "PrefixFilter('r3') AND QualifierFilter(=, 'binary:c')"}
scan 'basalt_shell', {REVERSED => true, LIMIT => 3}
append 'basalt_shell', 'r5', 'f1:z', '+more'
get 'basalt_shell', 'r5'
# alter_async, not alter: alter then polls Admin.getClusterMetrics (MasterService's
# GetClusterStatus), which basalt does not serve. Both modify the table alike.
alter_async 'basalt_shell', {NAME => 'f3'}, {NAME => 'f1', VERSIONS => 2}
describe 'basalt_shell'
alter_async 'basalt_shell', 'delete' => 'f3'
describe 'basalt_shell'
count 'basalt_shell'
incr 'basalt_shell', 'r9', 'f1:hits', 5
incr 'basalt_shell', 'r9', 'f1:hits'
get_counter 'basalt_shell', 'r9', 'f1:hits'
delete 'basalt_shell', 'r1', 'f1:a'
deleteall 'basalt_shell', 'r2'
scan 'basalt_shell'
count 'basalt_shell'
disable 'basalt_shell'
is_disabled 'basalt_shell'
is_enabled 'basalt_shell'
enable 'basalt_shell'
is_disabled 'basalt_shell'
truncate 'basalt_shell'
count 'basalt_shell'
scan 'basalt_shell'
create_namespace 'basalt_shell_ns'
list_namespace 'basalt_shell.*'
create 'basalt_shell_ns:t2', 'f'
put 'basalt_shell_ns:t2', 'k', 'f:q', 'in a namespace'
get 'basalt_shell_ns:t2', 'k'
list_namespace_tables 'basalt_shell_ns'
disable 'basalt_shell_ns:t2'
drop 'basalt_shell_ns:t2'
drop_namespace 'basalt_shell_ns'
list_namespace 'basalt_shell.*'
disable 'basalt_shell'
drop 'basalt_shell'
exists 'basalt_shell'
list 'basalt_shell.*'
exit
