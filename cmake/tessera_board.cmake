# A dev board's Tessera shape (docs/boards.md), from the facts of its boards/<board>/board.cmake
# (TESSERA_BOARD_THREADS, TESSERA_BOARD_PARTITION_BYTES): one board of one tile and one core, the
# board's threads. Shared by the board's firmware build and the host build's tests.

get_filename_component(TESSERA_BOARDS_DIR ${CMAKE_CURRENT_LIST_DIR}/../boards ABSOLUTE)

# Reads boards/<board>/board.cmake into the caller's scope.
macro(tessera_board_facts board)
  include(${TESSERA_BOARDS_DIR}/${board}/board.cmake)
endmacro()

# Writes the board's shape as a property set (the form boards/tessera/*.props and config.h
# take) to `file`. A partition that is not a whole number of KiB cannot be said in
# partition-kib: such a board has no property set, and this stops the configuration.
function(tessera_board_props board file)
  tessera_board_facts(${board})
  math(EXPR kib "${TESSERA_BOARD_PARTITION_BYTES} / 1024")
  math(EXPR rest "${TESSERA_BOARD_PARTITION_BYTES} % 1024")
  if(NOT rest EQUAL 0)
    message(FATAL_ERROR "the ${board} board's partitions of ${TESSERA_BOARD_PARTITION_BYTES} "
                        "bytes are not whole KiB: it has no shape for config.h")
  endif()
  set(text "# The ${board} board as a Tessera shape, from boards/${board}/board.cmake.\n")
  string(APPEND text "boards-x=1\nboards-y=1\ntiles-x=1\ntiles-y=1\ncores-per-tile=1\n")
  string(APPEND text "threads-per-core=${TESSERA_BOARD_THREADS}\npartition-kib=${kib}\n")
  file(CONFIGURE OUTPUT ${file} CONTENT "${text}" @ONLY)
endfunction()
