# Errors: each prints ERROR and a hint, the shell goes on, and the exit status is 1.
create 't', 'f'
get 'nope', 'r'
gett 't', 'r'
put 't', 'r' 'f:q'
put 't', 'r', 'f:q'
put 't', 'r', 'nofamily:q', 'v'
scan 't', {LIMT => 5}
scan 't', {LIMIT => 'many'}
scan 't', {FILTER => "PrefixFilter('a'"}
scan 't', {FILTER => org.apache.hadoop.hbase.filter.KeyOnlyFilter.new()}
get t, 'r'
create 't', 'f'
create 'u', {NAME => 'f', VERSONS => 3}
alter 't', 'delete' => 'f'
drop 't'
help 'nothing'
put 't', 'still', 'f:q', 'running'; scan 't'
put 't', 'r', 'f:q', 'unterminated
exit
put 't', 'never', 'f:q', 'run'
# exit-status: 1
