/*
 * Host link codec: frames of docs/mailbox.md ("Host link") in both
 * directions, and the incremental parser of the stream into the machine.
 *
 * The parser reads one unit at a time into a buffer of one largest frame:
 * a header, then either the frame's payload or, for a dropped frame, a count
 * of payload bytes to skip. Each unit ends in at most one event, and a push
 * stops at it, so the caller sees every event in stream order.
 */
#include "tessera/models/hostlink.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct TesseraHostlinkParser {
    TesseraShape shape;
    uint32_t len;                 /* bytes of the current unit in buf */
    uint32_t skip;                /* payload bytes of a dropped frame left */
    bool held;                    /* buf holds a whole frame not yet taken */
    TesseraHostlinkHeader header; /* of the frame in buf, once len >= header */
    uint8_t buf[TESSERA_HOSTLINK_MAX_FRAME_BYTES];
};

static uint64_t hostlink_get_le(const uint8_t *p, unsigned bytes)
{
    uint64_t value = 0;

    while (bytes-- > 0) {
        value = value << 8 | p[bytes];
    }
    return value;
}

static void hostlink_put_le(uint8_t *p, uint64_t value, unsigned bytes)
{
    for (unsigned i = 0; i < bytes; i++) {
        p[i] = (uint8_t)(value >> (8 * i));
    }
}

bool tessera_hostlink_flits_valid(uint32_t flits)
{
    return flits >= 1 && flits <= TESSERA_MAX_FLITS;
}

size_t tessera_hostlink_frame_bytes(uint32_t flits)
{
    return TESSERA_HOSTLINK_HEADER_BYTES +
           (size_t)flits * TESSERA_BYTES_PER_FLIT;
}

TesseraHostlinkHeader tessera_hostlink_read_header(const uint8_t *bytes)
{
    TesseraHostlinkHeader h;

    h.thread = (uint32_t)hostlink_get_le(bytes + TESSERA_HOSTLINK_THREAD, 4);
    h.flits = (uint32_t)hostlink_get_le(bytes + TESSERA_HOSTLINK_FLITS, 4);
    h.cycle = hostlink_get_le(bytes + TESSERA_HOSTLINK_CYCLE, 8);
    return h;
}

size_t tessera_hostlink_encode(const TesseraHostlinkHeader *h,
                               const uint8_t *payload, uint8_t *out)
{
    if (!tessera_hostlink_flits_valid(h->flits)) {
        return 0;
    }
    hostlink_put_le(out + TESSERA_HOSTLINK_THREAD, h->thread, 4);
    hostlink_put_le(out + TESSERA_HOSTLINK_FLITS, h->flits, 4);
    hostlink_put_le(out + TESSERA_HOSTLINK_CYCLE, h->cycle, 8);
    memcpy(out + TESSERA_HOSTLINK_HEADER_BYTES, payload,
           (size_t)h->flits * TESSERA_BYTES_PER_FLIT);
    return tessera_hostlink_frame_bytes(h->flits);
}

size_t tessera_hostlink_encode_end_of_input(uint8_t *out)
{
    hostlink_put_le(out + TESSERA_HOSTLINK_THREAD,
                    TESSERA_HOSTLINK_END_OF_INPUT, 4);
    hostlink_put_le(out + TESSERA_HOSTLINK_FLITS, 0, 4);
    hostlink_put_le(out + TESSERA_HOSTLINK_CYCLE, 0, 8);
    return TESSERA_HOSTLINK_HEADER_BYTES;
}

TesseraHostlinkDecode tessera_hostlink_decode(const uint8_t *bytes, size_t len,
                                              TesseraHostlinkHeader *header)
{
    if (len < TESSERA_HOSTLINK_HEADER_BYTES) {
        return TESSERA_HOSTLINK_PARTIAL;
    }
    *header = tessera_hostlink_read_header(bytes);
    if (!tessera_hostlink_flits_valid(header->flits)) {
        return TESSERA_HOSTLINK_BAD_FLITS;
    }
    return len < tessera_hostlink_frame_bytes(header->flits)
               ? TESSERA_HOSTLINK_PARTIAL
               : TESSERA_HOSTLINK_WHOLE;
}

TesseraHostlinkParser *tessera_hostlink_parser_new(const TesseraShape *shape)
{
    TesseraHostlinkParser *p = calloc(1, sizeof(*p));

    if (p != NULL) {
        p->shape = *shape;
    }
    return p;
}

void tessera_hostlink_parser_free(TesseraHostlinkParser *p)
{
    free(p);
}

/* Bytes the unit being read (header or frame) has in all. */
static uint32_t hostlink_unit_bytes(const TesseraHostlinkParser *p)
{
    if (p->len < TESSERA_HOSTLINK_HEADER_BYTES) {
        return TESSERA_HOSTLINK_HEADER_BYTES;
    }
    return (uint32_t)tessera_hostlink_frame_bytes(p->header.flits);
}

size_t tessera_hostlink_parser_room(const TesseraHostlinkParser *p)
{
    if (p->held) {
        return 0;
    }
    if (p->skip > 0) {
        return p->skip;
    }
    return hostlink_unit_bytes(p) - p->len;
}

/* A header has just become whole: keep its frame, or drop it and say why. */
static TesseraHostlinkEvent hostlink_check_header(TesseraHostlinkParser *p)
{
    p->header = tessera_hostlink_read_header(p->buf);
    if (p->header.thread == TESSERA_HOSTLINK_END_OF_INPUT &&
        p->header.flits == 0) {
        p->len = 0;
        return TESSERA_HOSTLINK_END_OF_INPUT_FRAME;
    }
    if (!tessera_hostlink_flits_valid(p->header.flits)) {
        p->len = 0;
        return TESSERA_HOSTLINK_DROPPED_BAD_FLITS;
    }
    if (!tessera_thread_exists(&p->shape, p->header.thread)) {
        p->len = 0;
        p->skip = p->header.flits * TESSERA_BYTES_PER_FLIT;
        return TESSERA_HOSTLINK_DROPPED_NO_THREAD;
    }
    return TESSERA_HOSTLINK_NEED_MORE;
}

TesseraHostlinkEvent
tessera_hostlink_parser_push(TesseraHostlinkParser *p, const uint8_t *bytes,
                             size_t len, size_t *used,
                             TesseraHostlinkHeader *header)
{
    TesseraHostlinkEvent event = TESSERA_HOSTLINK_NEED_MORE;
    size_t taken = 0;

    while (!p->held && taken < len &&
           event == TESSERA_HOSTLINK_NEED_MORE) {
        uint32_t unit = hostlink_unit_bytes(p);
        size_t chunk;

        if (p->skip > 0) {
            chunk = len - taken < p->skip ? len - taken : p->skip;
            p->skip -= (uint32_t)chunk;
            taken += chunk;
            continue;
        }
        chunk = len - taken < unit - p->len ? len - taken : unit - p->len;
        memcpy(p->buf + p->len, bytes + taken, chunk);
        p->len += (uint32_t)chunk;
        taken += chunk;
        if (unit == TESSERA_HOSTLINK_HEADER_BYTES &&
            p->len == TESSERA_HOSTLINK_HEADER_BYTES) {
            event = hostlink_check_header(p);
        } else if (p->len == unit) {
            p->held = true;
        }
    }
    if (p->held) {
        event = TESSERA_HOSTLINK_FRAME;
    }
    if (header != NULL && event != TESSERA_HOSTLINK_NEED_MORE) {
        *header = p->header;
    }
    *used = taken;
    return event;
}

const uint8_t *tessera_hostlink_parser_frame(const TesseraHostlinkParser *p,
                                             TesseraHostlinkHeader *header)
{
    if (!p->held) {
        return NULL;
    }
    if (header != NULL) {
        *header = p->header;
    }
    return p->buf + TESSERA_HOSTLINK_HEADER_BYTES;
}

void tessera_hostlink_parser_release(TesseraHostlinkParser *p)
{
    if (p->held) {
        p->held = false;
        p->len = 0;
    }
}

int tessera_hostlink_describe(TesseraHostlinkEvent event,
                              const TesseraHostlinkHeader *header, char *out,
                              size_t size)
{
    switch (event) {
    case TESSERA_HOSTLINK_DROPPED_BAD_FLITS:
        /* The frame's length is unknown: the next bytes are a header. */
        return snprintf(out, size, "frame to thread 0x%x claims %u flits "
                        "(1..%u allowed); header dropped", header->thread,
                        header->flits, TESSERA_MAX_FLITS);
    case TESSERA_HOSTLINK_DROPPED_NO_THREAD:
        return snprintf(out, size, "no thread 0x%x in this machine; frame "
                        "of %u flits dropped", header->thread, header->flits);
    case TESSERA_HOSTLINK_END_OF_INPUT_FRAME:
        return snprintf(out, size, "%s", "the host has finished sending");
    default:
        return snprintf(out, size, "%s", "");
    }
}
