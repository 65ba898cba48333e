/*
 * Exit model: the decode of the exit device's register.
 *
 * The encoding is that of QEMU's sifive_test, with two differences that
 * keep a failure from reading as success on any host: FAIL with code 0
 * ends the run with status 1, as does a code above what an 8-bit process
 * exit status holds (sifive_test passes such codes on, and 256 would read
 * as 0). PASS and RESET must have a zero upper half; sifive_test ignores
 * it, but a PASS that carries a code is more likely a bug than a verdict.
 */
#include "tessera/models/exit.h"

#include <stddef.h>

#include "tessera/hw/regs.h"

#define EXIT_COMMAND_MASK 0xffffu
#define EXIT_CODE_SHIFT 16

static TesseraExitAction exit_error(const char **error, const char *why)
{
    if (error != NULL) {
        *error = why;
    }
    return TESSERA_EXIT_ACTION_GUEST_ERROR;
}

static TesseraExitAction exit_end(int *exit_code, int code,
                                  const char **error, const char *why)
{
    if (exit_code != NULL) {
        *exit_code = code;
    }
    if (error != NULL) {
        *error = why;
    }
    return TESSERA_EXIT_ACTION_END;
}

TesseraExitAction tessera_exit_write(uint32_t offset, uint32_t value,
                                     int *exit_code, const char **error)
{
    uint32_t code = value >> EXIT_CODE_SHIFT;

    if (offset != 0) {
        return exit_error(error, "exit: write to an unknown register");
    }
    switch (value & EXIT_COMMAND_MASK) {
    case TESSERA_EXIT_PASS:
        if (code != 0) {
            return exit_error(error, "exit: PASS with a non-zero upper half "
                              "(only FAIL carries a code)");
        }
        return exit_end(exit_code, 0, error, NULL);
    case TESSERA_EXIT_FAIL:
        if (code == 0) {
            return exit_end(exit_code, 1, error, "exit: FAIL with code 0 "
                            "ends the run with status 1");
        }
        if (code > TESSERA_EXIT_FAIL_CODE_MAX) {
            return exit_end(exit_code, 1, error, "exit: a FAIL code too large "
                            "for an 8-bit exit status ends the run with "
                            "status 1");
        }
        return exit_end(exit_code, (int)code, error, NULL);
    case TESSERA_EXIT_RESET:
        if (code != 0) {
            return exit_error(error, "exit: RESET with a non-zero upper "
                              "half");
        }
        return TESSERA_EXIT_ACTION_RESET;
    default:
        return exit_error(error, "exit: value is neither PASS, FAIL nor "
                          "RESET");
    }
}

TesseraExitAction tessera_exit_read(uint32_t offset, uint32_t *value,
                                    const char **error)
{
    (void)offset;
    *value = 0;
    return exit_error(error, "exit: read of a write-only register");
}
