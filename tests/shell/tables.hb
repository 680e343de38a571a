# Tables and namespaces: create, list, describe, alter, exists, enable/disable, truncate, drop.
create 't1', 'f1', 'f2'
create 'ns1:t2', {NAME => 'cf', VERSIONS => 5, TTL => 86400, MIN_VERSIONS => 1,
                  KEEP_DELETED_CELLS => true, COMPRESSION => 'SNAPPY', BLOOMFILTER => 'ROWCOL'}
create_namespace 'ns1'
create 'ns1:t2', {NAME => 'cf', VERSIONS => 5, TTL => 86400, MIN_VERSIONS => 1,
                  KEEP_DELETED_CELLS => true, COMPRESSION => 'SNAPPY', BLOOMFILTER => 'ROWCOL'}
create 't3', 'f', SPLITS => ['10', '20', '30']
list
list 'ns1:.*'
list_namespace
list_namespace_tables 'ns1'
status
whoami
describe 'ns1:t2'
desc 't3'
get_splits 't3'
get_splits 't1'
exists 't1'
exists 'nope'
alter 't1', NAME => 'f1', VERSIONS => 3
alter 't1', 'delete' => 'f2'
alter 't1', {NAME => 'f3', TTL => 60}, DURABILITY => 'ASYNC_WAL'
describe 't1'
put 't1', 'r', 'f1:q', 'v'
# Over Thrift2 these two fail: the protocol has no flush or compaction call.
flush 't1'
major_compact 't1'
count 't1'
truncate 't1'
count 't1'
drop 't3'
disable 't3'
is_disabled 't3'
get 't3', 'r'
enable 't3'
disable 't3'
drop 't3'
exists 't3'
drop_namespace 'ns1'
disable 'ns1:t2'; drop 'ns1:t2'; drop_namespace 'ns1'
list_namespace
# exit-status: 1
