/*
 * Console model: assembles each hart's bytes into lines so that lines of
 * different harts never interleave. Plain C: used by the QEMU wrapper
 * (hw/riscv/tessera_console.c) and by the host HAL backend.
 */
#ifndef TESSERA_MODELS_CONSOLE_H
#define TESSERA_MODELS_CONSOLE_H

#include <stddef.h>
#include <stdint.h>

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

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_MODELS_CONSOLE_H */
