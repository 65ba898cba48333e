/*
 * Console model: one line buffer per hart, emitted whole, behind a
 * write-only register block and the EMIT CSR.
 *
 * A full buffer is emitted only when the next byte arrives (or on a flush),
 * so a line of exactly TESSERA_CONSOLE_LINE_MAX bytes followed by '\n' comes
 * out as one line instead of that line plus an empty one.
 *
 * The model does no locking: the QEMU wrapper calls it under the BQL and
 * the host backend under a mutex of its own.
 */
#include "tessera/models/console.h"

#include <stdio.h>
#include <stdlib.h>

#include "tessera/hw/regs.h"

struct TesseraConsole {
    uint32_t num_harts;
    TesseraConsoleEmitFn emit;
    void *opaque;
    uint32_t *lengths; /* bytes pending in each hart's buffer */
    char *buffers;     /* num_harts * TESSERA_CONSOLE_LINE_MAX bytes */
};

static char *console_buffer(TesseraConsole *c, uint32_t hart_index)
{
    return c->buffers + (size_t)hart_index * TESSERA_CONSOLE_LINE_MAX;
}

static void console_emit(TesseraConsole *c, uint32_t hart_index)
{
    uint32_t len = c->lengths[hart_index];

    c->lengths[hart_index] = 0;
    c->emit(c->opaque, hart_index, console_buffer(c, hart_index), len);
}

TesseraConsole *tessera_console_new(uint32_t num_harts,
                                    TesseraConsoleEmitFn emit, void *opaque)
{
    TesseraConsole *c;

    if (num_harts == 0 || emit == NULL) {
        return NULL;
    }
    c = calloc(1, sizeof(*c));
    if (c == NULL) {
        return NULL;
    }
    c->num_harts = num_harts;
    c->emit = emit;
    c->opaque = opaque;
    c->lengths = calloc(num_harts, sizeof(*c->lengths));
    c->buffers = calloc(num_harts, TESSERA_CONSOLE_LINE_MAX);
    if (c->lengths == NULL || c->buffers == NULL) {
        tessera_console_free(c);
        return NULL;
    }
    return c;
}

void tessera_console_free(TesseraConsole *c)
{
    if (c == NULL) {
        return;
    }
    free(c->lengths);
    free(c->buffers);
    free(c);
}

void tessera_console_put(TesseraConsole *c, uint32_t hart_index, uint8_t byte)
{
    if (hart_index >= c->num_harts) {
        return;
    }
    if (byte == '\n') {
        console_emit(c, hart_index);
        return;
    }
    if (c->lengths[hart_index] == TESSERA_CONSOLE_LINE_MAX) {
        console_emit(c, hart_index);
    }
    console_buffer(c, hart_index)[c->lengths[hart_index]++] = (char)byte;
}

void tessera_console_flush(TesseraConsole *c, uint32_t hart_index)
{
    if (hart_index >= c->num_harts || c->lengths[hart_index] == 0) {
        return;
    }
    console_emit(c, hart_index);
}

void tessera_console_flush_all(TesseraConsole *c)
{
    uint32_t i;

    for (i = 0; i < c->num_harts; i++) {
        tessera_console_flush(c, i);
    }
}

TesseraAccess tessera_console_write(TesseraConsole *c, uint32_t hart_index,
                                    uint32_t offset, uint32_t value)
{
    if (hart_index >= c->num_harts) {
        return tessera_access_guest_error("console: access by a hart "
                                          "outside the machine", 0);
    }
    switch (offset) {
    case TESSERA_CONSOLE_TX:
        tessera_console_put(c, hart_index, value & 0xff);
        return tessera_access_done(0, 0);
    case TESSERA_CONSOLE_FLUSH:
        tessera_console_flush(c, hart_index);
        return tessera_access_done(0, 0);
    default:
        return tessera_access_guest_error("console: write to an unknown "
                                          "register", 0);
    }
}

TesseraAccess tessera_console_read(const TesseraConsole *c, uint32_t offset)
{
    (void)c;
    (void)offset;
    return tessera_access_guest_error("console: read of a write-only "
                                      "register", 0);
}

uint32_t tessera_console_emit_csr(TesseraConsole *c, uint32_t hart_index,
                                  bool write, uint32_t value)
{
    char line[sizeof("emit 0x12345678")];
    int len;

    if (!write || hart_index >= c->num_harts) {
        return 0;
    }
    /* The hart's earlier text first: its lines stay in the order written */
    tessera_console_flush(c, hart_index);
    len = snprintf(line, sizeof(line), "emit 0x%08x", (unsigned)value);
    c->emit(c->opaque, hart_index, line, (size_t)len);
    return 0;
}

void tessera_console_reset(TesseraConsole *c)
{
    tessera_console_flush_all(c);
}
