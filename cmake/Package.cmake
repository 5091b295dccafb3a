# Installing and packaging. `cmake --install BUILD [--prefix DIR]` puts
# bin/sdperf, share/man/man1/sdperf.1.gz and the bash completion
# (src/CMakeLists.txt) and the documentation (here) under the prefix;
# `cpack -G DEB` in the build tree makes sdperf_VERSION_ARCH.deb of the same
# files under /usr, reusing the build (cpack only installs and packs).
include(GNUInstallDirs)

# share/doc/sdperf: the manual the man page points to, and the schemas,
# template guide and wiki publishing guide it links.
install(FILES ${PROJECT_SOURCE_DIR}/README.md
              ${PROJECT_SOURCE_DIR}/docs/report-schema.md
              ${PROJECT_SOURCE_DIR}/docs/diff-schema.md
              ${PROJECT_SOURCE_DIR}/docs/templates.md
              ${PROJECT_SOURCE_DIR}/docs/wiki.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(SDPERF_PACKAGE_CONTACT "sdperf maintainers <sdperf-maintainers@invalid>"
    CACHE STRING "the Maintainer of the .deb (Name <address>)")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME sdperf)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT ${SDPERF_PACKAGE_CONTACT})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON) # the debug information stays in the build tree
# Directories 0755 whatever the umask of the user running cpack.
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
    OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
    WORLD_READ WORLD_EXECUTE)

# sdperf_0.1.0_amd64.deb: Debian's own naming (package_version_arch).
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# Depends: the shared libraries the binary links, with the versions
# dpkg-shlibdeps (dpkg-dev) reads from their packages' symbols files, and
# the fonts the PDF reads at run time (src/format/pdf/pdf.c), which no
# linker can see.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "fonts-dejavu-core, fonts-wqy-zenhei")
# the first line of Description (the synopsis), then the text below
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY ${PROJECT_DESCRIPTION})
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
  "sdperf reads the output of Ascend's PyTorch profiler (torch_npu.profiler)
for a diffusion model and writes a performance report: the time of the
DiT denoising loop, the VAE and the text encoder, their kernel time by
category (attention, MatMul, Conv, vector, communication), the
communication that no computation hides, per-rank figures of a multi-card
run, and the MindIE-SD tuning verdicts with their expected gains.
.
Reports are a self-contained HTML page, an A4 PDF, Markdown and JSON, in
English or Chinese. sdperf diff compares two runs; sdperf check is a gate
for continuous integration.")

include(CPack)
