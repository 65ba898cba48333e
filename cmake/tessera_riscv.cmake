# The facts of Tessera's cross toolchain, shared by cmake/riscv32-toolchain.cmake (the firmware
# build of this tree) and the SDK's CMake package (which compiles users' firmware with custom
# commands from a host project): the programs, the multilib, picolibc and the flags, as lists.
#
# Debian's riscv64-unknown-elf GCC is multilib; -march=rv32imf -mabi=ilp32f selects the
# rv32imf/ilp32f multilib of libgcc and of picolibc. Do not spell the ISA rv32imf_zicsr: GCC 12
# (ISA spec 2.2) already includes the CSR instructions in rv32imf, and the longer spelling makes
# the driver fall back to the default multilib ('.').
#
# There is no libstdc++ for this target: nothing links a C++ standard library, and firmware code
# uses the C headers (<stdint.h>, <stddef.h>) and in-house utilities instead.

set(TESSERA_TOOLCHAIN_PREFIX riscv64-unknown-elf-)
# The board the images are for (docs/boards.md): tessera, the emulated machine, unless a
# firmware-<board> preset says otherwise; each other board's ISA is in boards/<board>/board.cmake.
if(NOT TESSERA_BOARD)
  set(TESSERA_BOARD tessera)
endif()
if(TESSERA_BOARD STREQUAL "tessera")
  set(TESSERA_ARCH_FLAGS -march=rv32imf -mabi=ilp32f)
  set(TESSERA_MULTILIB rv32imf/ilp32f)
elseif(EXISTS ${CMAKE_CURRENT_LIST_DIR}/../boards/${TESSERA_BOARD}/board.cmake)
  include(${CMAKE_CURRENT_LIST_DIR}/../boards/${TESSERA_BOARD}/board.cmake)
else()
  message(FATAL_ERROR "TESSERA_BOARD=${TESSERA_BOARD}: no boards/${TESSERA_BOARD}/board.cmake")
endif()
set(TESSERA_PICOLIBC_ROOT /usr/lib/picolibc/riscv64-unknown-elf)

find_program(TESSERA_RISCV_GCC ${TESSERA_TOOLCHAIN_PREFIX}gcc)
find_program(TESSERA_RISCV_GXX ${TESSERA_TOOLCHAIN_PREFIX}g++)
if(NOT TESSERA_RISCV_GCC OR NOT TESSERA_RISCV_GXX)
  message(FATAL_ERROR
    "Tessera firmware needs ${TESSERA_TOOLCHAIN_PREFIX}gcc and ${TESSERA_TOOLCHAIN_PREFIX}g++: "
    "install the Debian package gcc-riscv64-unknown-elf")
endif()

find_program(TESSERA_RISCV_OBJDUMP ${TESSERA_TOOLCHAIN_PREFIX}objdump)
find_program(TESSERA_RISCV_OBJCOPY ${TESSERA_TOOLCHAIN_PREFIX}objcopy)
if(NOT TESSERA_RISCV_OBJDUMP OR NOT TESSERA_RISCV_OBJCOPY)
  message(FATAL_ERROR
    "Tessera firmware needs ${TESSERA_TOOLCHAIN_PREFIX}objdump and objcopy: "
    "install the Debian package binutils-riscv64-unknown-elf")
endif()

# The multilib directory is the one fact everything else depends on; check it instead of
# trusting the flags.
execute_process(
  COMMAND ${TESSERA_RISCV_GCC} ${TESSERA_ARCH_FLAGS} -print-multi-directory
  OUTPUT_VARIABLE tessera_multilib_dir
  OUTPUT_STRIP_TRAILING_WHITESPACE
  RESULT_VARIABLE tessera_multilib_result)
if(NOT tessera_multilib_result EQUAL 0 OR NOT tessera_multilib_dir STREQUAL TESSERA_MULTILIB)
  message(FATAL_ERROR
    "${TESSERA_RISCV_GCC} has no ${TESSERA_MULTILIB} multilib (answered '${tessera_multilib_dir}'): "
    "install the Debian package gcc-riscv64-unknown-elf (GCC 12)")
endif()

set(TESSERA_PICOLIBC_INCLUDE ${TESSERA_PICOLIBC_ROOT}/include)
set(TESSERA_PICOLIBC_LIBDIR ${TESSERA_PICOLIBC_ROOT}/lib/${TESSERA_MULTILIB})
if(NOT EXISTS ${TESSERA_PICOLIBC_INCLUDE}/picolibc.h OR NOT EXISTS ${TESSERA_PICOLIBC_LIBDIR}/libc.a)
  message(FATAL_ERROR
    "picolibc for ${TESSERA_MULTILIB} not found under ${TESSERA_PICOLIBC_ROOT}: "
    "install the Debian package picolibc-riscv64-unknown-elf")
endif()

# -ftls-model=local-exec matches how picolibc was built (its errno is thread-local); the runtime
# gives every hart its own TLS block.
set(TESSERA_FIRMWARE_FLAGS ${TESSERA_ARCH_FLAGS} -ffreestanding -ffunction-sections
    -fdata-sections -fno-asynchronous-unwind-tables -fno-unwind-tables -ftls-model=local-exec
    -isystem ${TESSERA_PICOLIBC_INCLUDE})
set(TESSERA_FIRMWARE_CXX_FLAGS -fno-exceptions -fno-rtti -fno-threadsafe-statics
    -fno-use-cxa-atexit)

# No start files and no default libraries: the runtime provides _start; picolibc's libc and
# libm and GCC's libgcc for this multilib are linked explicitly, as a group because picolibc's
# printf needs libgcc's 64-bit division and libgcc may call back into libc.
set(TESSERA_FIRMWARE_LINK_FLAGS -nostdlib -static -Wl,--gc-sections -L${TESSERA_PICOLIBC_LIBDIR})
set(TESSERA_FIRMWARE_LIBRARIES -Wl,--start-group -lc -lm -lgcc -Wl,--end-group)
