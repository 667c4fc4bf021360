# Installing rulebook like a Debian tool, and packaging it as a .deb
# (included from the top-level CMakeLists.txt; the binary, man page and
# completions are installed by cli/CMakeLists.txt).
#
#   cmake --install build --prefix P    P/bin/rulebook, P/share/rulebook/{rules,schemas},
#                                       P/share/doc/rulebook, P/share/man/man1/rulebook.1.gz,
#                                       bash and zsh completions
#   cd build && cpack -G DEB            rulebook_VERSION_ARCH.deb
include(GNUInstallDirs)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/rules/ DESTINATION ${CMAKE_INSTALL_DATADIR}/rulebook/rules)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/schemas/ DESTINATION ${CMAKE_INSTALL_DATADIR}/rulebook/schemas)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(CPACK_PACKAGE_NAME rulebook)
set(CPACK_PACKAGE_VENDOR "rulebook developers")
set(CPACK_PACKAGE_CONTACT "rulebook developers <rulebook@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "scriptable rules interpreter for tabletop games")
set(CPACK_PACKAGE_DESCRIPTION
  "Write a game's rules as small Lua functions and its components as YAML, try a house rule as a one-file variant, play it at the terminal, or let bots play thousands of games to see whether it is fair. Bundles Pass the Pandas, Hai Noon and Hao Hao.")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_DEBIAN_PACKAGE_NAME rulebook)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # rulebook_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION games)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# Dependencies: the shared libraries the binary links, as dpkg-shlibdeps finds them.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
include(CPack)
