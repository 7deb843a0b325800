# The fixture of trace_engine_cli_test: installs Chrome DevTools' trace engine (@paulirish/trace_engine) with npm into
# PREFIX, once per build directory. Without npm or the registry it says why and succeeds all the same: the tests that
# need the package then skip, naming what is missing.
#   cmake -DNPM=/usr/bin/npm -DPREFIX=build/trace_engine -DPACKAGE=@paulirish/trace_engine@0.0.65 -P this file
if(EXISTS "${PREFIX}/node_modules/@paulirish/trace_engine/package.json")
  message(STATUS "${PACKAGE}: already installed in ${PREFIX}")
  return()
endif()
if(NOT NPM)
  message(STATUS "npm not found: the tests that load a trace in Chrome DevTools' trace engine will skip")
  return()
endif()
execute_process(COMMAND "${NPM}" install --prefix "${PREFIX}" --no-audit --no-fund --no-save "${PACKAGE}"
                RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output TIMEOUT 300)
if(NOT result EQUAL 0)
  message(STATUS "npm install ${PACKAGE} failed (${result}): the tests that load a trace in Chrome DevTools' trace "
                 "engine will skip\n${output}")
endif()
