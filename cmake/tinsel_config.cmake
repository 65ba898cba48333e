# Writes Tinsel's config.h for one machine shape: the compile-time constants of Tinsel's
# generated config.h (config.py), with their names and meanings, for the -M tessera machine
# that a property set describes. Tinsel-dialect programs compile it in (tinsel.h includes it
# when TESSERA_TINSEL_CONFIG is defined) and so are built for that one shape; their image
# records the shape, and the machine refuses to boot them on another.
#
# Script mode, so that CMake builds and Makefiles share one generator:
#   cmake -DPROPS=<file.props> -DMACHINE_PARAMS=<tessera/hw/machine_params.h>
#         -DOUTPUT=<config.h> [-DOUTPUT_LD=<image_shape.ld>] -P tinsel_config.cmake
# PROPS: one key=value machine property per line, # comments (boards/tessera/*.props); a
# property it does not set has the machine's default. Bad input stops with one line.
# OUTPUT_LD: a linker script fragment that records the shape in the image header
# (firmware/runtime/start.S); link it in as an input file.
cmake_minimum_required(VERSION 3.25)

foreach(var PROPS MACHINE_PARAMS OUTPUT)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "tinsel_config.cmake: -D${var}=... is missing")
  endif()
endforeach()
foreach(file PROPS MACHINE_PARAMS)
  if(NOT EXISTS "${${file}}")
    message(FATAL_ERROR "tinsel_config.cmake: ${file} file '${${file}}' does not exist")
  endif()
endforeach()

# The machine's properties with their ranges and defaults, from the machine description.
file(READ "${MACHINE_PARAMS}" params_text)
string(REGEX MATCHALL
       "X\\([a-z_]+, \"[a-z-]+\", [^,]+, [^,]+, [01], [0-9]+,"
       entries "${params_text}")
set(known_properties)
foreach(entry IN LISTS entries)
  string(REGEX MATCH "X\\(([a-z_]+), \"([a-z-]+)\", ([^,]+), ([^,]+), ([01]), ([0-9]+),"
         _ "${entry}")
  set(name ${CMAKE_MATCH_2})
  list(APPEND known_properties ${name})
  set(value_${name} ${CMAKE_MATCH_6})
  set(pow2_${name} ${CMAKE_MATCH_5})
endforeach()
if(NOT "boards-x" IN_LIST known_properties OR NOT "threads-per-core" IN_LIST known_properties)
  message(FATAL_ERROR "tinsel_config.cmake: no machine properties found in ${MACHINE_PARAMS}")
endif()
# Properties that are not numbers: accepted and passed to the machine as they are.
set(word_properties idle-master deadlock console-ids)

# The property set.
file(STRINGS "${PROPS}" lines)
set(given)
foreach(line IN LISTS lines)
  string(REGEX REPLACE "#.*" "" line "${line}")
  string(STRIP "${line}" line)
  if(line STREQUAL "")
    continue()
  endif()
  if(NOT line MATCHES "^([a-z-]+)=([A-Za-z0-9]+)$")
    message(FATAL_ERROR "tinsel_config.cmake: ${PROPS}: '${line}' is not key=value")
  endif()
  set(name ${CMAKE_MATCH_1})
  set(value ${CMAKE_MATCH_2})
  if(name IN_LIST word_properties)
    set(value_${name} ${value})
  elseif(NOT name IN_LIST known_properties)
    message(FATAL_ERROR "tinsel_config.cmake: ${PROPS}: '${name}' is not a machine property")
  elseif(NOT value MATCHES "^[0-9]+$")
    message(FATAL_ERROR "tinsel_config.cmake: ${PROPS}: ${name}=${value} is not a number")
  else()
    set(value_${name} ${value})
  endif()
  list(APPEND given ${name})
endforeach()
if(value_partition-kib EQUAL 0)
  message(FATAL_ERROR "tinsel_config.cmake: ${PROPS}: partition-kib must not be 0")
endif()

# ceil(log2(n)), as the machine sizes thread-id fields.
function(log2_ceil n out)
  set(bits 0)
  set(reach 1)
  while(reach LESS n)
    math(EXPR bits "${bits} + 1")
    math(EXPR reach "${reach} * 2")
  endwhile()
  set(${out} ${bits} PARENT_SCOPE)
endfunction()

set(bx ${value_boards-x})
set(by ${value_boards-y})
set(tx ${value_tiles-x})
set(ty ${value_tiles-y})
set(cores ${value_cores-per-tile})
set(threads ${value_threads-per-core})
foreach(name tiles-x tiles-y cores-per-tile threads-per-core partition-kib)
  log2_ceil(${value_${name}} bits)
  math(EXPR exact "1 << ${bits}")
  if(NOT exact EQUAL value_${name})
    message(FATAL_ERROR "tinsel_config.cmake: ${PROPS}: ${name}=${value_${name}} must be a power of two")
  endif()
endforeach()
log2_ceil(${bx} mesh_x_bits)
log2_ceil(${by} mesh_y_bits)
log2_ceil(${tx} mailbox_x_bits)
log2_ceil(${ty} mailbox_y_bits)
log2_ceil(${cores} log_cores_per_mailbox)
log2_ceil(${threads} log_threads_per_core)
math(EXPR log_threads_per_mailbox "${log_threads_per_core} + ${log_cores_per_mailbox}")
math(EXPR log_mailboxes_per_board "${mailbox_x_bits} + ${mailbox_y_bits}")
math(EXPR log_cores_per_board "${log_cores_per_mailbox} + ${log_mailboxes_per_board}")
math(EXPR log_threads_per_board "${log_cores_per_board} + ${log_threads_per_core}")
# The scratchpad's 1,024 slots of 64 bytes are shared evenly by a tile's threads
# (TESSERA_SLOTS_PER_TILE, regs.h).
set(log_msgs_per_mailbox 10)
math(EXPR log_msgs_per_thread "${log_msgs_per_mailbox} - ${log_threads_per_mailbox}")
if(log_msgs_per_thread LESS 1)
  message(FATAL_ERROR "tinsel_config.cmake: ${PROPS}: ${cores}x${threads} threads per tile leave "
                      "no receive slot (at most 512 threads per tile)")
endif()
log2_ceil(${value_partition-kib} log_partition_kib)
# The partition: thread-local block and "DRAM" heap below P/2, "SRAM" heap P/2..3P/4, stack
# above (tinsel.h, tinselHeapBaseSRAM).
math(EXPR log_bytes_per_heap "${log_partition_kib} + 10 - 2")

# Every property as -M tessera takes it, for HostLink to start the machine this was built for.
set(machine_properties)
foreach(name IN LISTS known_properties word_properties)
  if(DEFINED value_${name})
    list(APPEND machine_properties "${name}=${value_${name}}")
  endif()
endforeach()
list(JOIN machine_properties "," machine_properties)
cmake_path(GET PROPS FILENAME props_name)

set(defines
  # Where this came from
  "TesseraConfigProperties \"${machine_properties}\""
  "TesseraConfigBoardsX ${bx}"
  "TesseraConfigBoardsY ${by}"
  "TesseraConfigTilesX ${tx}"
  "TesseraConfigTilesY ${ty}"
  "TesseraConfigCoresPerTile ${cores}"
  "TesseraConfigThreadsPerCore ${threads}"
  "TesseraConfigPartitionBytes (${value_partition-kib} * 1024)"
  # Threads, cores and mailboxes (a mailbox serves a tile)
  "TinselLogThreadsPerCore ${log_threads_per_core}"
  "TinselThreadsPerCore (1 << TinselLogThreadsPerCore)"
  "TinselLogCoresPerMailbox ${log_cores_per_mailbox}"
  "TinselCoresPerMailbox (1 << TinselLogCoresPerMailbox)"
  "TinselLogThreadsPerMailbox ${log_threads_per_mailbox}"
  "TinselThreadsPerMailbox (1 << TinselLogThreadsPerMailbox)"
  "TinselMailboxMeshXBits ${mailbox_x_bits}"
  "TinselMailboxMeshYBits ${mailbox_y_bits}"
  "TinselMailboxMeshXLen ${tx}"
  "TinselMailboxMeshYLen ${ty}"
  "TinselLogMailboxesPerBoard ${log_mailboxes_per_board}"
  "TinselMailboxesPerBoard (1 << TinselLogMailboxesPerBoard)"
  "TinselLogCoresPerBoard ${log_cores_per_board}"
  "TinselCoresPerBoard (1 << TinselLogCoresPerBoard)"
  "TinselLogThreadsPerBoard ${log_threads_per_board}"
  "TinselThreadsPerBoard (1 << TinselLogThreadsPerBoard)"
  # The board mesh: one box holds all of it
  "TinselMeshXBits ${mesh_x_bits}"
  "TinselMeshYBits ${mesh_y_bits}"
  "TinselMeshXLen ${bx}"
  "TinselMeshYLen ${by}"
  "TinselMeshXBitsWithinBox ${mesh_x_bits}"
  "TinselMeshYBitsWithinBox ${mesh_y_bits}"
  "TinselMeshXLenWithinBox ${bx}"
  "TinselMeshYLenWithinBox ${by}"
  "TinselBoxMeshXLen 1"
  "TinselBoxMeshYLen 1"
  "TinselMaxThreads ((1 << TinselMeshXBits) * (1 << TinselMeshYBits) * TinselThreadsPerBoard)"
  # Messages
  "TinselLogWordsPerFlit 2"
  "TinselWordsPerFlit 4"
  "TinselLogBytesPerFlit 4"
  "TinselLogMaxFlitsPerMsg 2"
  "TinselMaxFlitsPerMsg 4"
  "TinselLogWordsPerMsg 4"
  "TinselLogBytesPerMsg 6"
  "TinselLogMsgsPerMailbox ${log_msgs_per_mailbox}"
  "TinselLogMsgsPerThread ${log_msgs_per_thread}"
  "TinselMsgsPerThread (1 << TinselLogMsgsPerThread)"
  # Memory: each thread's two heaps in its partition
  "TinselLogBytesPerDRAMPartition ${log_bytes_per_heap}"
  "TinselLogBytesPerSRAMPartition ${log_bytes_per_heap}"
  # Clock and features
  "TinselClockFreq ${value_clock-mhz}"
  "TinselEnablePerfCount true"
  "TinselUseCustomAccelerator false"
)
set(text "/* Tinsel's config.h for the machine of ${props_name}, written by tinsel_config.cmake:\n")
string(APPEND text " * ${machine_properties}\n")
string(APPEND text " * Regenerated when that file changes; do not edit. docs/tinsel.md lists the names. */\n")
string(APPEND text "#ifndef TESSERA_TINSEL_CONFIG_H\n#define TESSERA_TINSEL_CONFIG_H\n\n")
foreach(define IN LISTS defines)
  string(APPEND text "#define ${define}\n")
endforeach()
string(APPEND text "\n#endif /* TESSERA_TINSEL_CONFIG_H */\n")
# Written only when it changes, so that a regeneration rebuilds nothing needlessly.
file(CONFIGURE OUTPUT "${OUTPUT}" CONTENT "${text}" @ONLY)

if(DEFINED OUTPUT_LD)
  set(ld "/* The shape of ${props_name} for the image header; written by tinsel_config.cmake. */\n")
  foreach(pair "boards_x;${bx}" "boards_y;${by}" "tiles_x;${tx}" "tiles_y;${ty}"
               "cores_per_tile;${cores}" "threads_per_core;${threads}")
    list(GET pair 0 field)
    list(GET pair 1 value)
    string(APPEND ld "__tessera_image_${field} = ${value};\n")
  endforeach()
  file(CONFIGURE OUTPUT "${OUTPUT_LD}" CONTENT "${ld}" @ONLY)
endif()
