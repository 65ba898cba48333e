/*
 * Exit model: what a write to the exit device (TESSERA_EXIT_* in
 * tessera/hw/regs.h) asks the host to do. Plain C: used by the QEMU wrapper
 * (hw/riscv/tessera_exit.c) and by the host HAL backend.
 *
 * The device has one write-only register, at offset 0:
 *   TESSERA_EXIT_PASS               end the run with status 0;
 *   TESSERA_EXIT_FAIL | code << 16  end it with status `code`, or 1 when
 *                                   `code` is 0 or above
 *                                   TESSERA_EXIT_FAIL_CODE_MAX;
 *   TESSERA_EXIT_RESET              reset the machine.
 * Any other value, a write elsewhere in the window and every read are
 * guest errors; a read gives 0. The device holds no state, so the model is
 * a pair of functions without a context.
 */
#ifndef TESSERA_MODELS_EXIT_H
#define TESSERA_MODELS_EXIT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum TesseraExitAction {
    TESSERA_EXIT_ACTION_NONE,        /* nothing to do (a read) */
    TESSERA_EXIT_ACTION_END,         /* end the run with *exit_code */
    TESSERA_EXIT_ACTION_RESET,       /* reset the machine */
    TESSERA_EXIT_ACTION_GUEST_ERROR, /* bad access; *error says why */
} TesseraExitAction;

/*
 * A write of `value` at `offset`. With TESSERA_EXIT_ACTION_END, *error is
 * NULL unless the status differs from the FAIL code written (code 0, or a
 * code too large for an exit status), and then says so: a host may log it.
 */
TesseraExitAction tessera_exit_write(uint32_t offset, uint32_t value,
                                     int *exit_code, const char **error);

/* A read at `offset`: *value = 0, TESSERA_EXIT_ACTION_GUEST_ERROR. */
TesseraExitAction tessera_exit_read(uint32_t offset, uint32_t *value,
                                    const char **error);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_MODELS_EXIT_H */
