/*
 * Preload model: checks and walks a preload file. See
 * tessera/models/preload.h.
 */
#include "tessera/models/preload.h"

#include <inttypes.h>
#include <stdio.h>

static uint32_t word_at(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static bool refuse(char *why, size_t why_size, const char *text)
{
    if (why != NULL && why_size > 0) {
        snprintf(why, why_size, "%s", text);
    }
    return false;
}

bool tessera_preload_check(const uint8_t *data, size_t size,
                           const TesseraShape *shape, uint32_t partition_size,
                           char *why, size_t why_size)
{
    char text[160];
    uint32_t count;
    size_t at = TESSERA_PRELOAD_HEADER_BYTES;

    if (size < TESSERA_PRELOAD_HEADER_BYTES ||
        word_at(data) != TESSERA_PRELOAD_MAGIC) {
        return refuse(why, why_size, "not a preload file (no TSPL magic)");
    }
    if (word_at(data + 4) != TESSERA_PRELOAD_VERSION) {
        snprintf(text, sizeof(text), "preload file version %" PRIu32
                 "; this machine reads version %" PRIu32, word_at(data + 4),
                 (uint32_t)TESSERA_PRELOAD_VERSION);
        return refuse(why, why_size, text);
    }
    count = word_at(data + 8);
    for (uint32_t r = 0; r < count; r++) {
        uint32_t id, offset, length;
        size_t padded;

        if (size - at < TESSERA_PRELOAD_RECORD_BYTES) {
            snprintf(text, sizeof(text), "record %" PRIu32 " of %" PRIu32
                     ": the file ends inside its header", r, count);
            return refuse(why, why_size, text);
        }
        id = word_at(data + at);
        offset = word_at(data + at + 4);
        length = word_at(data + at + 8);
        at += TESSERA_PRELOAD_RECORD_BYTES;
        if (!tessera_thread_exists(shape, id)) {
            snprintf(text, sizeof(text), "record %" PRIu32 ": thread 0x%" PRIx32
                     " is not in this machine", r, id);
            return refuse(why, why_size, text);
        }
        if (offset > partition_size || length > partition_size - offset) {
            snprintf(text, sizeof(text), "record %" PRIu32 ": %" PRIu32
                     " bytes at offset %" PRIu32 " do not fit thread 0x%" PRIx32
                     "'s partition of %" PRIu32 " bytes", r,
                     length, offset, id, partition_size);
            return refuse(why, why_size, text);
        }
        padded = ((size_t)length + 3) & ~(size_t)3;
        if (size - at < padded) {
            snprintf(text, sizeof(text), "record %" PRIu32 ": the file ends inside "
                     "its %" PRIu32 " bytes", r, length);
            return refuse(why, why_size, text);
        }
        at += padded;
    }
    if (at != size) {
        snprintf(text, sizeof(text), "%zu bytes after the last of %" PRIu32 " "
                 "records", size - at, count);
        return refuse(why, why_size, text);
    }
    return true;
}

bool tessera_preload_next(const uint8_t *data, size_t size, size_t *at,
                          TesseraPreloadRecord *record)
{
    if (*at == 0) {
        *at = TESSERA_PRELOAD_HEADER_BYTES;
    }
    if (*at >= size || size - *at < TESSERA_PRELOAD_RECORD_BYTES) {
        return false;
    }
    record->thread_id = word_at(data + *at);
    record->offset = word_at(data + *at + 4);
    record->length = word_at(data + *at + 8);
    record->bytes = data + *at + TESSERA_PRELOAD_RECORD_BYTES;
    *at += TESSERA_PRELOAD_RECORD_BYTES +
           (((size_t)record->length + 3) & ~(size_t)3);
    return true;
}
