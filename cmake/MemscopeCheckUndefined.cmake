# cmake -DMODULE=FILE -P MemscopeCheckUndefined.cmake: fails when the Python recorder's module
# leaves one of Memscope's own symbols undefined (a function of a file the recorder-only build
# does not compile): such a module links, and `import memscope` fails later on the user's machine.
find_program(_nm NAMES nm)
if(NOT _nm)
  return()
endif()
execute_process(COMMAND ${_nm} -D --undefined-only ${MODULE}
                OUTPUT_VARIABLE _undefined RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "Memscope: nm could not read ${MODULE}")
endif()
string(REGEX MATCHALL "[^\n]*_ZN[^\n]*8memscope[^\n]*" _ours "${_undefined}")
if(_ours)
  string(REPLACE ";" "\n" _ours "${_ours}")
  message(FATAL_ERROR "Memscope: the recorder module needs Memscope symbols it does not have:\n${_ours}")
endif()
