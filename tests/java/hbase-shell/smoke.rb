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
