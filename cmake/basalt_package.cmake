# Installing `basalt` as a program and as a service: the binary and its man page (component
# Runtime), the systemd unit and /etc/basalt (component Service, for the .deb only), and CPack's
# Debian package of both (`cpack --config BUILD/CPackConfig.cmake`, package `basalt`). The
# library's install rules are in cmake/basalt_library.cmake.
if(BASALT_SANITIZE OR BASALT_FUZZ)
  return()
endif()

install(TARGETS basalt RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT Runtime)
install(FILES ${CMAKE_SOURCE_DIR}/README.md ${CMAKE_SOURCE_DIR}/docs/rest.md
              ${CMAKE_SOURCE_DIR}/docs/security.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT Runtime)

# The man page, from `basalt --help` and `basalt --version` as built, so it never goes stale. A
# few milliseconds after each link of the binary; without help2man (install-deps.sh's test set)
# there is none, and the package test says so.
find_program(HELP2MAN help2man)
if(HELP2MAN)
  set(man ${CMAKE_BINARY_DIR}/man/basalt.1)
  add_custom_command(
    OUTPUT ${man}.gz
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/man
    COMMAND ${HELP2MAN} --no-info --section 1
            --name "wide-column store with HBase's data model, embedded on RocksDB"
            --output ${man} $<TARGET_FILE:basalt>
    # -n: no time stamp in the file, so the package is the same for the same binary.
    COMMAND gzip -n -9 -f ${man}
    DEPENDS basalt
    COMMENT "Generating the man page basalt.1 with help2man"
    VERBATIM)
  add_custom_target(basalt_man_page ALL DEPENDS ${man}.gz)
  install(FILES ${man}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT Runtime)
elseif(BASALT_BUILD_TESTS)
  # Only a tree that builds the package test needs it; scripts/run.sh's (tests off) does not, and
  # installs only what serving needs.
  message(WARNING "help2man not found: no man page (scripts/install-deps.sh installs it)")
endif()

# The service: absolute destinations, as Debian places them whatever the prefix. EXCLUDE_FROM_ALL
# keeps them out of `cmake --install` (which must stay inside its prefix); CPack asks for them.
install(FILES ${CMAKE_SOURCE_DIR}/packaging/basalt.service DESTINATION /lib/systemd/system
        COMPONENT Service EXCLUDE_FROM_ALL)
install(FILES ${CMAKE_SOURCE_DIR}/packaging/basalt.json DESTINATION /etc/basalt
        COMPONENT Service EXCLUDE_FROM_ALL)

# ---- CPack: one Debian package, `basalt`, of the Runtime and Service components ----
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME basalt)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "wide-column store with HBase's data model, embedded on RocksDB")
set(CPACK_PACKAGE_DESCRIPTION
    "basalt keeps HBase's data model (namespaces, tables, column families with versions and TTL, "
    "Put/Get/Scan/Delete/Increment/CheckAndMutate) on RocksDB. This package has the `basalt` "
    "command (CLI, shell) and the basalt.service unit running `basalt serve` (HBase REST, Thrift2, "
    "a web UI) as the user basalt on /var/lib/basalt, configured in /etc/basalt/basalt.json. The "
    "service is not enabled on install: systemctl enable --now basalt.")
set(BASALT_PACKAGE_MAINTAINER
    "Seed 83b8c0a5 maintainers <maintainers@users.noreply.a-seed-83b8c0a5.example>"
    CACHE STRING "The Debian package's Maintainer field")
set(CPACK_PACKAGE_CONTACT ${BASALT_PACKAGE_MAINTAINER})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)  # as Debian ships binaries; debug information stays in the build tree
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_GROUPING ALL_COMPONENTS_IN_ONE)
set(CPACK_COMPONENTS_ALL Runtime Service)
set(CPACK_DEBIAN_PACKAGE_NAME basalt)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION database)
# The runtime libraries (RocksDB, Thrift, libsodium, RE2, jemalloc, ...) from dpkg-shlibdeps, as
# Debian's own packages get them, plus adduser for the maintainer scripts.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "adduser")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
    ${CMAKE_SOURCE_DIR}/packaging/deb/conffiles ${CMAKE_SOURCE_DIR}/packaging/deb/postinst
    ${CMAKE_SOURCE_DIR}/packaging/deb/prerm ${CMAKE_SOURCE_DIR}/packaging/deb/postrm)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)
