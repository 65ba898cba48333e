# Post-link check of a firmware image: cmake -DOBJDUMP=... -DELF=... -DLISTING=... -P this.
# Writes the disassembly to LISTING and fails if the image would not run on an RV32IMF hart of
# -M tessera: a 2-byte (compressed) instruction or an A-extension instruction. (That the entry is
# the DRAM base is asserted by linker/tessera.ld.)
foreach(var OBJDUMP ELF LISTING)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_image.cmake: ${var} not set")
  endif()
endforeach()

execute_process(COMMAND ${OBJDUMP} -d -C ${ELF} OUTPUT_FILE ${LISTING} RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${OBJDUMP} -d ${ELF} failed")
endif()

# A dev board's image is for that board's ISA (boards/<board>/board.cmake): only the listing.
if(DEFINED BOARD AND NOT BOARD STREQUAL "tessera")
  return()
endif()

# Instruction lines look like "80000000:\t00002197          \tauipc\tgp,0x2".
file(STRINGS ${LISTING} compressed REGEX "^ *[0-9a-f]+:\t[0-9a-f][0-9a-f][0-9a-f][0-9a-f] ")
file(STRINGS ${LISTING} atomic
     REGEX "^ *[0-9a-f]+:\t[0-9a-f]+ +\t(amo[a-z]+|lr|sc)\\.[wd]")
if(compressed OR atomic)
  if(compressed)
    list(GET compressed 0 example)
  else()
    list(GET atomic 0 example)
  endif()
  message(FATAL_ERROR "${ELF} holds instructions the RV32IMF cores lack, e.g.\n${example}")
endif()
