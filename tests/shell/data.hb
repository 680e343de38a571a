# Data: put, get, scan with its options, delete, deleteall, incr, get_counter, count.
create 't', {NAME => 'f', VERSIONS => 3}, 'g'
put 't', 'row1', 'f:a', 'a1', 100
put 't', 'row1', 'f:a', 'a2', 200
put 't', 'row1', 'g:b', 'b1', 100
put 't', 'row2', 'f:a', 'x', 100
put 't', 'row3', 'f:c', 'y', 100
put 't', 'user1|a', 'f:a', 'u', 100
put 't', 'user1|b', 'f:a', 'v', 100
put 't', 'user2|a', 'f:a', 'w', 100
get 't', 'row1'
get 't', 'row1', 'g:b'
get 't', 'row1', ['f:a', 'g']
get 't', 'row1', {COLUMN => 'f:a', VERSIONS => 3}
get 't', 'row1', {COLUMN => 'f:a', TIMESTAMP => 100}
get 't', 'row1', {COLUMNS => 'f:a', TIMERANGE => [150, 250], VERSIONS => 3}
get 't', 'row1', {FILTER => "ValueFilter(=, 'binary:b1')"}
get 't', 'nothing'
scan 't'
scan 't', {STARTROW => 'row2', STOPROW => 'user1|b'}
scan 't', {ROWPREFIXFILTER => 'user1|', REVERSED => true}
scan 't', {STARTROW => 'row3', REVERSED => true, LIMIT => 2}
scan 't', {COLUMNS => ['g:b', 'f:c'], LIMIT => 10}
scan 't', {COLUMNS => 'f:a', VERSIONS => 3, TIMERANGE => [0, 201], LIMIT => 1}
scan 't', {FILTER => "PrefixFilter('user') AND KeyOnlyFilter()"}
scan 't', {
  ROWPREFIXFILTER => 'row',
  FILTER => "QualifierFilter(=, 'binary:a')"
}
count 't'
count 't', INTERVAL => 3, CACHE => 2
count 't', FILTER => "PrefixFilter('user')"
delete 't', 'row1', 'f:a'
get 't', 'row1', {COLUMN => 'f:a', VERSIONS => 3}
deleteall 't', 'row1', 'f:a'
get 't', 'row1'
deleteall 't', 'row1'
deleteall 't', {ROWPREFIXFILTER => 'user1|'}
scan 't'
incr 't', 'counters', 'f:hits'
incr 't', 'counters', 'f:hits', 41
incr 't', 'counters', 'f:hits', -2
get_counter 't', 'counters', 'f:hits'
get_counter 't', 'counters', 'f:misses'
get 't', 'counters'
get 't', 'counters', 'f:hits:toLong'
scan 't', {COLUMNS => ['f:hits:c(org.apache.hadoop.hbase.util.Bytes).toLong'], ROWPREFIXFILTER => 'c'}
append 't', 'log', 'f:text', 'hello'
append 't', 'log', 'f:text', ", world\x21"
get 't', 'log'
