# `cmake --install` and the Debian packages (scripts/package). Two components:
#  - headless: snapscope-convert, snapscope-term, snapscope-gen, their man pages and the docs;
#    links no GL or GLFW, for GPU nodes without a display (package snapscope-headless);
#  - viewer: snapscope, its man page, the desktop entry, icon and MIME type (package snapscope,
#    which depends on snapscope-headless).
# Nothing installed refers back to the build or source tree.
include(GNUInstallDirs)

set(SNAPSCOPE_HEADLESS_PROGRAMS snapscope-convert snapscope-term snapscope-gen)
install(TARGETS ${SNAPSCOPE_HEADLESS_PROGRAMS} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT headless)
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT headless)
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT headless)

# Man pages from each program's --help (help2man; the version is the project's), built with the
# programs. help2man comes with scripts/install-deps; without it there are no man pages.
find_program(SNAPSCOPE_HELP2MAN help2man)
if(NOT SNAPSCOPE_HELP2MAN)
  message(WARNING "help2man not found: no man pages (scripts/install-deps installs it)")
endif()
function(snapscope_man_page program component description)
  if(NOT SNAPSCOPE_HELP2MAN)
    return()
  endif()
  set(page ${CMAKE_BINARY_DIR}/man/${program}.1)
  add_custom_command(OUTPUT ${page}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/man
    COMMAND ${SNAPSCOPE_HELP2MAN} --no-info --no-discard-stderr --version-string=${PROJECT_VERSION}
      --name=${description}
      --output=${page} $<TARGET_FILE:${program}>
    DEPENDS ${program}
    COMMENT "man page ${program}.1 from --help")
  add_custom_target(man_${program} ALL DEPENDS ${page})
  install(FILES ${page} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT ${component})
endfunction()
snapscope_man_page(snapscope-convert headless "convert, report on, diff and export PyTorch CUDA memory snapshots")
snapscope_man_page(snapscope-term headless "explore a PyTorch CUDA memory snapshot in a terminal")
snapscope_man_page(snapscope-gen headless "write a synthetic PyTorch CUDA memory snapshot")

if(SNAPSCOPE_BUILD_VIEWER)
  install(TARGETS snapscope RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT viewer)
  snapscope_man_page(snapscope viewer "GPU-accelerated viewer for PyTorch CUDA memory snapshots")
  install(FILES packaging/snapscope.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications COMPONENT viewer)
  install(FILES packaging/snapscope.svg DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps
    COMPONENT viewer)
  install(FILES packaging/snapscope-mime.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages
    RENAME snapscope.xml COMPONENT viewer)
endif()

# Debian packages: one per component; Depends from the libraries actually linked (dpkg-shlibdeps).
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME snapscope)
set(CPACK_PACKAGE_VENDOR "Snapscope")
set(CPACK_PACKAGE_CONTACT "Snapscope developers <snapscope@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Viewer and tools for PyTorch CUDA memory snapshots")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_HEADLESS_PACKAGE_NAME snapscope-headless)
set(CPACK_DEBIAN_VIEWER_PACKAGE_NAME snapscope)
set(CPACK_COMPONENT_HEADLESS_DESCRIPTION
  "Snapscope without a display: snapscope-convert (reports, diffs, exports, CI gate) and\n snapscope-term (the snapshot explored in a terminal, over SSH).")
set(CPACK_COMPONENT_VIEWER_DESCRIPTION
  "Snapscope's GPU-accelerated desktop viewer for PyTorch CUDA memory snapshots.")
set(CPACK_COMPONENT_VIEWER_DEPENDS headless)
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)
if(SNAPSCOPE_BUILD_VIEWER)
  set(CPACK_COMPONENTS_ALL headless viewer)
else()
  set(CPACK_COMPONENTS_ALL headless)
endif()
include(CPack)
