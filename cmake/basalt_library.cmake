# libbasalt: the one library users link, built from the objects the library layers already compiled
# for the tests and the binary (no second compilation), as libbasalt.a and libbasalt.so, and
# installed with the public headers, a CMake package (basaltConfig.cmake: basalt::basalt) and a
# pkg-config file (basalt.pc). The layers stay what the build and scripts/check_layers.py enforce;
# the combined library is only how they are shipped.

# The layers behind the public API (include/basalt/, recipes included): the value types, key
# codecs, filters, paging, the embedded engine, HBase's protobuf messages (for Thrift2's
# filterBytes) and their generated code, the Thrift2 codec and its generated code, and the client
# with both backends. The server, shell, app and cli layers are the `basalt` binary's.
set(BASALT_LIBRARY_LAYERS basalt_util basalt_api basalt_keys basalt_filter basalt_paging
                          basalt_engine basalt_hbase_proto_gen basalt_hbase_proto basalt_thrift2_gen
                          basalt_thrift2 basalt_client basalt_recipes)

# The same objects go into the shared library, so they are position-independent. Debian's GCC
# builds PIE by default, so this costs no compile time; -fno-semantic-interposition keeps what
# -fPIC would otherwise lose against PIE (inlining and direct calls between a file's own global
# functions, which -fPIC assumes another library may replace).
set_target_properties(${BASALT_LIBRARY_LAYERS} PROPERTIES POSITION_INDEPENDENT_CODE ON)
foreach(layer ${BASALT_LIBRARY_LAYERS})
  target_compile_options(${layer} PRIVATE -fno-semantic-interposition)
endforeach()

# A sanitized or fuzzer-instrumented libbasalt is nothing to install, and its link would need the
# sanitizers' runtime: those trees build the layers (PIC, as here) but not the combined library.
if(BASALT_SANITIZE OR BASALT_FUZZ)
  return()
endif()

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(BASALT_LIBRARY_OBJECTS)
foreach(layer ${BASALT_LIBRARY_LAYERS})
  list(APPEND BASALT_LIBRARY_OBJECTS $<TARGET_OBJECTS:${layer}>)
endforeach()
# Both are only an archive and a link of objects built anyway (a few seconds, no compilation).
add_library(basalt_static STATIC ${BASALT_LIBRARY_OBJECTS})
add_library(basalt_shared SHARED ${BASALT_LIBRARY_OBJECTS})
foreach(lib basalt_static basalt_shared)
  target_include_directories(${lib} INTERFACE $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/include>
                                              $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_compile_features(${lib} INTERFACE cxx_std_20)  # the public headers use concepts
endforeach()
set_target_properties(basalt_static basalt_shared PROPERTIES
  OUTPUT_NAME basalt
  ARCHIVE_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib)
set_target_properties(basalt_static PROPERTIES EXPORT_NAME basalt_static)
# 0.x: no ABI promise between minor versions, so the soname carries the minor version.
set_target_properties(basalt_shared PROPERTIES EXPORT_NAME basalt_shared
  VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})

# What the layers link privately, now the combined library's. The shared library carries them
# (its users link libbasalt.so alone); the static one passes them on to its users' link, as
# PkgConfig::basalt_deps, which basaltConfig.cmake creates from the same pkg-config modules.
set(BASALT_LIBRARY_PKG_MODULES rocksdb libxxhash re2 thrift libsodium protobuf)
target_link_libraries(basalt_shared PRIVATE ${ROCKSDB_LIBRARY} PkgConfig::XXHASH PkgConfig::RE2
                                            PkgConfig::THRIFT PkgConfig::SODIUM protobuf::libprotobuf
                                            Threads::Threads)
target_link_libraries(basalt_static INTERFACE
  $<BUILD_INTERFACE:${ROCKSDB_LIBRARY}>
  $<BUILD_INTERFACE:PkgConfig::XXHASH> $<BUILD_INTERFACE:PkgConfig::RE2>
  $<BUILD_INTERFACE:PkgConfig::THRIFT> $<BUILD_INTERFACE:PkgConfig::SODIUM>
  $<BUILD_INTERFACE:protobuf::libprotobuf>
  $<INSTALL_INTERFACE:PkgConfig::basalt_deps>
  Threads::Threads)
# The shared library exports every symbol of the layers, internal ones included (no visibility
# annotations yet): only the headers of include/basalt/ are the interface.
target_link_options(basalt_shared PRIVATE -Wl,--no-undefined)

# ---- Install: `cmake --install BUILD --prefix P` ----
# Components: Runtime (the binary, its man page: cmake/basalt_package.cmake), Development (these),
# and Service (the systemd unit and /etc/basalt, only for the .deb: never by a plain install,
# which must not write outside its prefix).
install(TARGETS basalt_static basalt_shared EXPORT basaltTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT Development
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT Development)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/basalt DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        COMPONENT Development FILES_MATCHING PATTERN "*.h")
set(BASALT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/basalt)
install(EXPORT basaltTargets NAMESPACE basalt:: DESTINATION ${BASALT_CMAKE_DIR}
        COMPONENT Development)
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/basaltConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/package/basaltConfig.cmake
                              INSTALL_DESTINATION ${BASALT_CMAKE_DIR})
# 0.x: a minor version may break the API, so only the same minor version is compatible.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/package/basaltConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/package/basaltConfig.cmake
              ${CMAKE_BINARY_DIR}/package/basaltConfigVersion.cmake
        DESTINATION ${BASALT_CMAKE_DIR} COMPONENT Development)

# basalt.pc, relative to its own directory (${pcfiledir}), so that the tree can move.
if(IS_ABSOLUTE ${CMAKE_INSTALL_LIBDIR})
  set(BASALT_PC_PREFIX ${CMAKE_INSTALL_PREFIX})
else()
  file(RELATIVE_PATH BASALT_PC_PREFIX /p/${CMAKE_INSTALL_LIBDIR}/pkgconfig /p)
  set(BASALT_PC_PREFIX "\${pcfiledir}/${BASALT_PC_PREFIX}")
endif()
list(JOIN BASALT_LIBRARY_PKG_MODULES " " BASALT_PC_REQUIRES_PRIVATE)
configure_file(${CMAKE_SOURCE_DIR}/cmake/basalt.pc.in ${CMAKE_BINARY_DIR}/package/basalt.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/package/basalt.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT Development)
