# Third-party libraries, all from Debian 12 packages. libcsv and libharu ship
# no pkg-config file, so every library is found the same plain way.
function(sdperf_find_lib var header lib pkg)
  find_path(${var}_INCLUDE_DIR ${header})
  find_library(${var}_LIBRARY ${lib})
  if(NOT ${var}_INCLUDE_DIR OR NOT ${var}_LIBRARY)
    message(FATAL_ERROR "${lib} not found: install the Debian package '${pkg}' "
                        "(or run tools/setup.sh, which installs what is missing)")
  endif()
  add_library(dep::${lib} UNKNOWN IMPORTED)
  set_target_properties(dep::${lib} PROPERTIES
    IMPORTED_LOCATION "${${var}_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${${var}_INCLUDE_DIR}")
endfunction()

sdperf_find_lib(CJSON cjson/cJSON.h cjson libcjson-dev)
sdperf_find_lib(LIBCSV csv.h csv libcsv-dev)
sdperf_find_lib(LIBHPDF hpdf.h hpdf libhpdf-dev)
find_library(MATH_LIBRARY m)
sdperf_find_lib(ZLIB zlib.h z zlib1g-dev)
sdperf_find_lib(SQLITE3 sqlite3.h sqlite3 libsqlite3-dev)
set(THREADS_PREFER_PTHREAD_FLAG ON)
find_package(Threads REQUIRED)
