# basalt_add_layer(<target> <source>...): the static library of the src/ folder this is called
# from. The folder's headers are included as "<folder>/<file>.h", and only by the target itself and
# by the targets that link it: each layer gets an include root of its own (a directory in the
# build tree holding one link, <folder> -> src/<folder>), exported PUBLIC, instead of one global
# -I src that would let any file include any layer's internals. A layer linked PRIVATE (the engine
# under the client) is therefore invisible to whoever sits above: the compiler keeps the layers.
function(basalt_add_layer target)
  add_library(${target} STATIC ${ARGN})
  get_filename_component(folder ${CMAKE_CURRENT_SOURCE_DIR} NAME)
  set(root ${CMAKE_BINARY_DIR}/layer_include/${folder})
  if(NOT EXISTS ${root}/${folder})
    file(MAKE_DIRECTORY ${root})
    file(CREATE_LINK ${CMAKE_CURRENT_SOURCE_DIR} ${root}/${folder} SYMBOLIC)
  endif()
  target_include_directories(${target} PUBLIC ${root})
  target_link_libraries(${target} PUBLIC basalt_flags)
endfunction()
