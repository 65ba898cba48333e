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

static TesseraAccess exit_error(const char *why)
{
    return tessera_access_guest_error(why, 0);
}

/* The run ends with `code`; `why` (a guest error) explains a status that
 * differs from the code written. */
static TesseraAccess exit_end(int code, const char *why)
{
    TesseraAccess a = why ? exit_error(why) : tessera_access_done(0, 0);

    return tessera_access_with_effect(a, TESSERA_EFFECT_END_RUN, code);
}

TesseraAccess tessera_exit_write(uint32_t offset, uint32_t value)
{
    uint32_t code = value >> EXIT_CODE_SHIFT;

    if (offset != 0) {
        return exit_error("exit: write to an unknown register");
    }
    switch (value & EXIT_COMMAND_MASK) {
    case TESSERA_EXIT_PASS:
        if (code != 0) {
            return exit_error("exit: PASS with a non-zero upper half "
                              "(only FAIL carries a code)");
        }
        return exit_end(0, NULL);
    case TESSERA_EXIT_FAIL:
        if (code == 0) {
            return exit_end(1, "exit: FAIL with code 0 "
                            "ends the run with status 1");
        }
        if (code > TESSERA_EXIT_FAIL_CODE_MAX) {
            return exit_end(1, "exit: a FAIL code too large "
                            "for an 8-bit exit status ends the run with "
                            "status 1");
        }
        return exit_end((int)code, NULL);
    case TESSERA_EXIT_RESET:
        if (code != 0) {
            return exit_error("exit: RESET with a non-zero upper "
                              "half");
        }
        return tessera_access_with_effect(tessera_access_done(0, 0),
                                          TESSERA_EFFECT_RESET, 0);
    default:
        return exit_error("exit: value is neither PASS, FAIL nor "
                          "RESET");
    }
}

TesseraAccess tessera_exit_read(uint32_t offset)
{
    (void)offset;
    return exit_error("exit: read of a write-only register");
}
