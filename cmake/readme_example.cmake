# basalt_readme_example(<readme> <output>): writes <output>, a C++ file holding the first ```cpp
# block of <readme> as written: its #include lines at the top, the rest as the body of a function
# (compiled, never run). Rewritten only when the block changes. Also usable by itself:
#   cmake -DREADME=README.md -DOUTPUT=out.cc -P cmake/readme_example.cmake
function(basalt_readme_example readme output)
  file(READ ${readme} text)
  string(FIND "${text}" "\n```cpp\n" start)
  if(start EQUAL -1)
    message(FATAL_ERROR "${readme} has no ```cpp block")
  endif()
  math(EXPR start "${start} + 8")
  string(SUBSTRING "${text}" ${start} -1 snippet)
  string(FIND "${snippet}" "\n```" end)
  string(SUBSTRING "${snippet}" 0 ${end} snippet)
  string(REGEX MATCHALL "#include [^\n]*" includes "${snippet}")
  list(JOIN includes "\n" includes)
  string(REGEX REPLACE "#include [^\n]*\n" "" body "${snippet}")
  file(WRITE ${output}.tmp
       "// Generated from ${readme}'s C++ example by cmake/readme_example.cmake: compiled, never run.\n"
       "${includes}\n\nvoid BasaltReadmeExample();\nvoid BasaltReadmeExample() {\n${body}\n}\n")
  configure_file(${output}.tmp ${output} COPYONLY)
  file(REMOVE ${output}.tmp)
endfunction()

if(CMAKE_SCRIPT_MODE_FILE AND README AND OUTPUT)
  basalt_readme_example(${README} ${OUTPUT})
endif()
