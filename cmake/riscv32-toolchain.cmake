# Cross toolchain for Tessera firmware: RV32IMF harts, freestanding C++20, picolibc. The facts
# (programs, multilib, flags) are in tessera_riscv.cmake, which the SDK's package shares.

set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR riscv32)

include(${CMAKE_CURRENT_LIST_DIR}/tessera_riscv.cmake)

set(CMAKE_C_COMPILER ${TESSERA_RISCV_GCC})
set(CMAKE_CXX_COMPILER ${TESSERA_RISCV_GXX})
set(CMAKE_ASM_COMPILER ${TESSERA_RISCV_GCC})
set(CMAKE_OBJDUMP ${TESSERA_RISCV_OBJDUMP})
set(CMAKE_OBJCOPY ${TESSERA_RISCV_OBJCOPY})

# Compiler checks cannot link a program before the runtime and linker script exist.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

list(JOIN TESSERA_FIRMWARE_FLAGS " " tessera_c_flags)
list(JOIN TESSERA_FIRMWARE_CXX_FLAGS " " tessera_cxx_flags)
list(JOIN TESSERA_ARCH_FLAGS " " tessera_arch_flags)
list(JOIN TESSERA_FIRMWARE_LINK_FLAGS " " tessera_link_flags)
list(JOIN TESSERA_FIRMWARE_LIBRARIES " " tessera_libraries)
set(CMAKE_C_FLAGS_INIT "${tessera_c_flags}")
set(CMAKE_CXX_FLAGS_INIT "${tessera_c_flags} ${tessera_cxx_flags}")
set(CMAKE_ASM_FLAGS_INIT "${tessera_arch_flags}")

# CMake's GNU defaults would append -O3 to Release; firmware is built -O2 -g in every
# configuration that optimises (the .lst listings and gdb rely on -g).
foreach(lang C CXX ASM)
  set(CMAKE_${lang}_FLAGS_RELEASE "-O2 -g -DNDEBUG" CACHE STRING "Firmware release flags")
  set(CMAKE_${lang}_FLAGS_RELWITHDEBINFO "-O2 -g -DNDEBUG" CACHE STRING "Firmware flags")
  set(CMAKE_${lang}_FLAGS_DEBUG "-Og -g" CACHE STRING "Firmware debug flags")
  set(CMAKE_${lang}_FLAGS_MINSIZEREL "-Os -g -DNDEBUG" CACHE STRING "Firmware size flags")
endforeach()

set(CMAKE_EXE_LINKER_FLAGS_INIT "${tessera_link_flags}")
foreach(lang C CXX)
  set(CMAKE_${lang}_STANDARD_LIBRARIES "${tessera_libraries}" CACHE STRING "Firmware libraries")
endforeach()

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
