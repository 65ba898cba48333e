# Cross toolchain for Tessera firmware: RV32IMF harts, freestanding C++20, picolibc.
#
# Debian's riscv64-unknown-elf GCC is multilib; -march=rv32imf -mabi=ilp32f selects the
# rv32imf/ilp32f multilib of libgcc and of picolibc. Do not spell the ISA rv32imf_zicsr: GCC 12
# (ISA spec 2.2) already includes the CSR instructions in rv32imf, and the longer spelling makes
# the driver fall back to the default multilib ('.').
#
# There is no libstdc++ for this target: nothing links a C++ standard library, and firmware code
# uses the C headers (<stdint.h>, <stddef.h>) and in-house utilities instead.

set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR riscv32)

set(TESSERA_TOOLCHAIN_PREFIX riscv64-unknown-elf-)
set(TESSERA_ARCH_FLAGS "-march=rv32imf -mabi=ilp32f")
set(TESSERA_MULTILIB rv32imf/ilp32f)
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
  COMMAND ${TESSERA_RISCV_GCC} -march=rv32imf -mabi=ilp32f -print-multi-directory
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

set(CMAKE_C_COMPILER ${TESSERA_RISCV_GCC})
set(CMAKE_CXX_COMPILER ${TESSERA_RISCV_GXX})
set(CMAKE_ASM_COMPILER ${TESSERA_RISCV_GCC})
set(CMAKE_OBJDUMP ${TESSERA_RISCV_OBJDUMP})
set(CMAKE_OBJCOPY ${TESSERA_RISCV_OBJCOPY})

# Compiler checks cannot link a program before the runtime and linker script exist.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

# -ftls-model=local-exec matches how picolibc was built (its errno is thread-local); the runtime
# gives every hart its own TLS block.
set(tessera_common_flags
    "${TESSERA_ARCH_FLAGS} -ffreestanding -ffunction-sections -fdata-sections"
    " -fno-asynchronous-unwind-tables -fno-unwind-tables -ftls-model=local-exec"
    " -isystem ${TESSERA_PICOLIBC_INCLUDE}")
string(CONCAT tessera_common_flags ${tessera_common_flags})

set(CMAKE_C_FLAGS_INIT "${tessera_common_flags}")
set(CMAKE_CXX_FLAGS_INIT
    "${tessera_common_flags} -fno-exceptions -fno-rtti -fno-threadsafe-statics -fno-use-cxa-atexit")
set(CMAKE_ASM_FLAGS_INIT "${TESSERA_ARCH_FLAGS}")

# CMake's GNU defaults would append -O3 to Release; firmware is built -O2 -g in every
# configuration that optimises (the .lst listings and gdb rely on -g).
foreach(lang C CXX ASM)
  set(CMAKE_${lang}_FLAGS_RELEASE "-O2 -g -DNDEBUG" CACHE STRING "Firmware release flags")
  set(CMAKE_${lang}_FLAGS_RELWITHDEBINFO "-O2 -g -DNDEBUG" CACHE STRING "Firmware flags")
  set(CMAKE_${lang}_FLAGS_DEBUG "-Og -g" CACHE STRING "Firmware debug flags")
  set(CMAKE_${lang}_FLAGS_MINSIZEREL "-Os -g -DNDEBUG" CACHE STRING "Firmware size flags")
endforeach()

# No start files and no default libraries: the runtime provides _start; picolibc's libc and
# libm and GCC's libgcc for this multilib are linked explicitly, as a group because picolibc's
# printf needs libgcc's 64-bit division and libgcc may call back into libc.
set(CMAKE_EXE_LINKER_FLAGS_INIT
    "-nostdlib -static -Wl,--gc-sections -L${TESSERA_PICOLIBC_LIBDIR}")
foreach(lang C CXX)
  set(CMAKE_${lang}_STANDARD_LIBRARIES "-Wl,--start-group -lc -lm -lgcc -Wl,--end-group"
      CACHE STRING "Firmware libraries")
endforeach()

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
