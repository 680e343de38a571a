# basalt_add_layer(<target> <source>...): the static library of the src/ folder this is called
# from. The folder's headers are included as "<folder>/<file>.h", and only by the target itself and
# by the targets that link it: each layer gets an include root of its own (a directory in the
# build tree holding one link, <folder> -> src/<folder>), exported PUBLIC, instead of one global
# -I src that would let any file include any layer's internals. A layer linked PRIVATE (the engine
# under the client) is therefore invisible to whoever sits above: the compiler keeps the layers.
# A sub-layer (src/server/net) is named by its path ("server/net/<file>.h"); its root holds that
# path alone, so it sees nothing of the folder around it, while that folder's layer sees it too.
function(basalt_add_layer target)
  add_library(${target} STATIC ${ARGN})
  file(RELATIVE_PATH folder ${CMAKE_SOURCE_DIR}/src ${CMAKE_CURRENT_SOURCE_DIR})
  string(REPLACE "/" "_" root_name ${folder})
  set(root ${CMAKE_BINARY_DIR}/layer_include/${root_name})
  if(NOT EXISTS ${root}/${folder})
    get_filename_component(parent ${root}/${folder} DIRECTORY)
    file(MAKE_DIRECTORY ${parent})
    file(CREATE_LINK ${CMAKE_CURRENT_SOURCE_DIR} ${root}/${folder} SYMBOLIC)
  endif()
  target_include_directories(${target} PUBLIC ${root})
  target_link_libraries(${target} PUBLIC basalt_flags)
endfunction()
