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

#include "tessera/models/access.h"

#ifdef __cplusplus
extern "C" {
#endif


/*
 * A write of `value` at `offset` (tessera/models/access.h). PASS and FAIL
 * end the run (TESSERA_EFFECT_END_RUN with the status in .code), as a guest
 * error when the status differs from the FAIL code written (code 0, or a
 * code too large for an exit status); RESET asks for TESSERA_EFFECT_RESET.
 */
TesseraAccess tessera_exit_write(uint32_t offset, uint32_t value);
/* A read at `offset`: a guest error that reads 0. */
TesseraAccess tessera_exit_read(uint32_t offset);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_MODELS_EXIT_H */
