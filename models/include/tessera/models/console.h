/*
 * Console model: assembles each hart's bytes into lines so that lines of
 * different harts never interleave, and decodes the console's registers
 * (TESSERA_CONSOLE_* in tessera/hw/regs.h) and the EMIT CSR. Plain C: used
 * by the QEMU wrapper (hw/riscv/tessera_console.c) and by the host HAL
 * backend.
 */
#ifndef TESSERA_MODELS_CONSOLE_H
#define TESSERA_MODELS_CONSOLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tessera/models/access.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Receives one whole line (without its newline) of hart `hart_index`. */
typedef void (*TesseraConsoleEmitFn)(void *opaque, uint32_t hart_index,
                                     const char *line, size_t len);

typedef struct TesseraConsole TesseraConsole;

/* num_harts line buffers of TESSERA_CONSOLE_LINE_MAX bytes. NULL on OOM,
 * if num_harts is 0 or if emit is NULL. */
TesseraConsole *tessera_console_new(uint32_t num_harts,
                                    TesseraConsoleEmitFn emit, void *opaque);
void tessera_console_free(TesseraConsole *c);

/* A byte written by hart_index. '\n' ends the line; a full buffer is
 * emitted as a line of its own. Out-of-range hart_index is ignored. */
void tessera_console_put(TesseraConsole *c, uint32_t hart_index, uint8_t byte);

/* Emit hart_index's partial line, if any. */
void tessera_console_flush(TesseraConsole *c, uint32_t hart_index);

/* Emit every partial line (at machine exit). */
void tessera_console_flush_all(TesseraConsole *c);

/* Back to power-on (machine reset): every buffer empty. Partial lines are
 * emitted first, so nothing a hart wrote before the reset is lost. */
void tessera_console_reset(TesseraConsole *c);

/*
 * The register block, as hart hart_index accesses it. A write to
 * TESSERA_CONSOLE_TX puts the value's low byte; any write to
 * TESSERA_CONSOLE_FLUSH flushes the hart's line. Any other offset, or a
 * hart_index outside the machine, is a guest error that changes nothing.
 */
TesseraAccess tessera_console_write(TesseraConsole *c, uint32_t hart_index,
                                    uint32_t offset, uint32_t value);

/* The console is write-only: every read gives 0 and is a guest error. */
TesseraAccess tessera_console_read(const TesseraConsole *c, uint32_t offset);

/*
 * CSR TESSERA_CSR_EMIT (Tinsel's tinselEmit) of hart hart_index: reads as
 * 0; if the instruction writes (`write`), the hart's partial line is
 * flushed and the whole word becomes a line of its own, "emit 0x%08x", as
 * Tinsel's simulator prints it. Returns the value the CSR reads as.
 */
uint32_t tessera_console_emit_csr(TesseraConsole *c, uint32_t hart_index,
                                  bool write, uint32_t value);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_MODELS_CONSOLE_H */
