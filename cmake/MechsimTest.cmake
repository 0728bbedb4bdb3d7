# mechsim_add_test(NAME SOURCES a.cpp b.cpp LIBS lib1 lib2 [LABELS l1] [TIMEOUT s])
# A QtTest executable registered with ctest. Tests run from the build folder with
# MECHSIM_SOURCE_DIR set, so they find mechanisms/, models/ and tests/data/.
find_package(Qt6 REQUIRED COMPONENTS Core Test)
function(mechsim_add_test name)
  cmake_parse_arguments(T "" "TIMEOUT" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE ${T_LIBS} Qt6::Test)
  target_compile_definitions(${name} PRIVATE MECHSIM_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  set_target_properties(${name} PROPERTIES AUTOMOC ON)
  add_test(NAME ${name} COMMAND ${name})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 300)
  endif()
  # The sanitizer build runs the same tests several times slower: its time limits (ctest's and
  # the tests' own waits, MECHSIM_WAIT_SCALE) are scaled by 5.
  set(scale 1)
  if(MECHSIM_SANITIZE)
    set(scale 5)
  endif()
  math(EXPR T_TIMEOUT "${T_TIMEOUT} * ${scale}")
  target_compile_definitions(${name} PRIVATE MECHSIM_WAIT_SCALE=${scale})
  # MECHSIM_CACHE_DIR=off: the tests never read or fill the user's JGS2 cache (core/io/jgs2_cache.h);
  # the cache's own tests name their folders.
  set_tests_properties(${name} PROPERTIES TIMEOUT ${T_TIMEOUT}
    ENVIRONMENT "MECHSIM_SOURCE_DIR=${PROJECT_SOURCE_DIR};MECHSIM_CACHE_DIR=off")
  if(T_LABELS)
    set_tests_properties(${name} PROPERTIES LABELS "${T_LABELS}")
  endif()
  # GUI tests share one X display (scripts/test.sh runs ctest under one xvfb-run). Two of them
  # at once take the keyboard focus from each other: a key click on a window that is no longer
  # active misses its shortcut (the D of dynamic mode, Ctrl+Z). They hold one lock,
  # so ctest -j runs them one at a time beside the other tests.
  if("gui" IN_LIST T_LABELS)
    set_tests_properties(${name} PROPERTIES RESOURCE_LOCK x-display)
  endif()
endfunction()
