# Bytes: double quotes read \xNN and other escapes, single quotes are literal; output prints
# every non-printable byte (and the backslash) as \xNN, as HBase's Bytes.toStringBinary.
create 't', 'f'
put 't', "r\x00\x01", "f:q\xff", "\xde\xad\xbe\xef", 1
put 't', 'r\x00', 'f:q', 'single \x00 quoted', 1
put 't', "tab\there", 'f:q', "line\nbreak", 1
put 't', "caf\u00e9", 'f:q', "\101\102\103", 1
scan 't'
get 't', "r\x00\x01"
get 't', 'r\x00'
scan 't', {STARTROW => "r\x00", STOPROW => "r\x00\x02"}
scan 't', {FILTER => "RowFilter(=, 'binary:r\x00\x01')"}
