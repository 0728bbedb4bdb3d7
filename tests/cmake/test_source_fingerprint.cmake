# tests/cmake/test_source_fingerprint.cmake — cmake/source_fingerprint.cmake, the code fingerprint
# that keeps the JGS2 cache from reading files made by other code (core/io/jgs2_cache.h):
# the same files give the same header; a change of one byte, a renamed file or another file set
# gives another hash; the order the files are listed in does not matter; an unchanged hash leaves
# the header untouched (so that what includes it is not rebuilt).
# Run: cmake -DSCRIPT=cmake/source_fingerprint.cmake -DWORK=DIR -P test_source_fingerprint.cmake
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/src")
file(WRITE "${WORK}/src/a.cpp" "int a() { return 1; }\n")
file(WRITE "${WORK}/src/b.h" "#pragma once\nint a();\n")

function(fingerprint out)  # fingerprint(OUT FILE...) → the header's text in ${OUT}_text
  execute_process(COMMAND ${CMAKE_COMMAND} -DOUT=${WORK}/${out}.h -DNAME=FP -DROOT=${WORK}
                          "-DFILES=${ARGN}" -P ${SCRIPT}
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "source_fingerprint.cmake failed: ${rc}")
  endif()
  file(READ ${WORK}/${out}.h text)
  string(REGEX MATCH "#define FP \"[0-9a-f]+\"" define "${text}")
  if(NOT define)
    message(FATAL_ERROR "no #define FP \"<hex>\" in: ${text}")
  endif()
  set(${out}_text "${text}" PARENT_SCOPE)
endfunction()

function(expect cond what)
  if(NOT ${cond})
    message(FATAL_ERROR "FAIL: ${what}")
  endif()
  message(STATUS "PASS: ${what}")
endfunction()

set(A ${WORK}/src/a.cpp)
set(B ${WORK}/src/b.h)
fingerprint(base ${A} ${B})
fingerprint(reordered ${B} ${A})
string(COMPARE EQUAL "${base_text}" "${reordered_text}" same)
expect(same "the order of the files does not matter")

# Unchanged hash: the header is not rewritten (its time stays).
file(TIMESTAMP ${WORK}/base.h before "%s")
execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 1.1)
fingerprint(base ${A} ${B})
file(TIMESTAMP ${WORK}/base.h after "%s")
string(COMPARE EQUAL "${before}" "${after}" untouched)
expect(untouched "an unchanged fingerprint leaves the header untouched")

file(WRITE "${A}" "int a() { return 2; }\n")
fingerprint(edited ${A} ${B})
string(COMPARE NOTEQUAL "${base_text}" "${edited_text}" differs)
expect(differs "one changed byte changes the fingerprint")

file(WRITE "${A}" "int a() { return 1; }\n")
fingerprint(restored ${A} ${B})
string(COMPARE EQUAL "${base_text}" "${restored_text}" same)
expect(same "the same contents give the same fingerprint again")

fingerprint(fewer ${A})
string(COMPARE NOTEQUAL "${base_text}" "${fewer_text}" differs)
expect(differs "another set of files changes the fingerprint")

file(RENAME "${B}" "${WORK}/src/c.h")
fingerprint(renamed ${A} ${WORK}/src/c.h)
string(COMPARE NOTEQUAL "${base_text}" "${renamed_text}" differs)
expect(differs "a renamed file changes the fingerprint")

# Rewritten when it changes: the existing header gets the new hash.
fingerprint(base ${A} ${WORK}/src/c.h)
string(COMPARE EQUAL "${base_text}" "${renamed_text}" same)
expect(same "a changed fingerprint rewrites the header")
file(REMOVE_RECURSE "${WORK}")
