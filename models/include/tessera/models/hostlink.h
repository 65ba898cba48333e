/*
 * Host link codec: the framing of messages between the machine's host port
 * and the program at the other end of the link (docs/mailbox.md, "Host
 * link"). The frame layout is TESSERA_HOSTLINK_* in tessera/hw/regs.h.
 *
 * Machine to host: tessera_hostlink_encode() writes one frame. Host to
 * machine: a TesseraHostlinkParser reads the byte stream incrementally and
 * applies every rule of the link: a header with a flit count outside
 * 1..TESSERA_MAX_FLITS is dropped and the next bytes are read as a header; a
 * frame to a thread that does not exist has its payload skipped; a whole
 * frame is held until the caller has handed it to the network, and the
 * parser takes no byte meanwhile (back-pressure). The program at the host end
 * decodes frames with tessera_hostlink_decode().
 *
 * Plain C: used by the QEMU wrapper (tessera_mailbox.c), the host library
 * (host/hostlink) and the fuzz target. No allocation after
 * tessera_hostlink_parser_new.
 */
#ifndef TESSERA_MODELS_HOSTLINK_H
#define TESSERA_MODELS_HOSTLINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tessera/hw/regs.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct TesseraHostlinkHeader {
    uint32_t thread; /* source (to the host) or destination (from it) */
    uint32_t flits;  /* 1..TESSERA_MAX_FLITS in a valid frame */
    uint64_t cycle;  /* modelled cycle the message reached the host */
} TesseraHostlinkHeader;

/* True for a flit count a frame may carry. */
bool tessera_hostlink_flits_valid(uint32_t flits);

/* Bytes of a frame of `flits` flits (valid), header included. */
size_t tessera_hostlink_frame_bytes(uint32_t flits);

/* Reads the TESSERA_HOSTLINK_HEADER_BYTES bytes at `bytes`, whatever they
 * hold. */
TesseraHostlinkHeader tessera_hostlink_read_header(const uint8_t *bytes);

/* Writes the frame of a message of h->flits flits from `payload` to `out`
 * (room for TESSERA_HOSTLINK_MAX_FRAME_BYTES) and returns its length, or
 * returns 0 and writes nothing if h->flits is not valid. */
size_t tessera_hostlink_encode(const TesseraHostlinkHeader *h,
                               const uint8_t *payload, uint8_t *out);

typedef enum TesseraHostlinkDecode {
    TESSERA_HOSTLINK_PARTIAL,   /* not a whole frame yet */
    TESSERA_HOSTLINK_WHOLE,     /* a whole frame: payload after the header */
    TESSERA_HOSTLINK_BAD_FLITS, /* the header's flit count is not valid */
} TesseraHostlinkDecode;

/* Writes the control frame that says the host has finished sending to
 * `out` (room for TESSERA_HOSTLINK_HEADER_BYTES) and returns its length. */
size_t tessera_hostlink_encode_end_of_input(uint8_t *out);

/* Decodes the frame at the start of `bytes` (len bytes): *header is set
 * once the header is whole (WHOLE, BAD_FLITS, or PARTIAL with at least
 * TESSERA_HOSTLINK_HEADER_BYTES bytes). A bad header is reported as soon as
 * it is whole. */
TesseraHostlinkDecode tessera_hostlink_decode(const uint8_t *bytes, size_t len,
                                              TesseraHostlinkHeader *header);

/* What the parser found in the bytes it took. */
typedef enum TesseraHostlinkEvent {
    /* Every byte offered was taken; no frame is whole yet. */
    TESSERA_HOSTLINK_NEED_MORE,
    /* A whole frame is held (tessera_hostlink_parser_frame): hand it to the
     * network, then call tessera_hostlink_parser_release. Bytes after it
     * were not taken. */
    TESSERA_HOSTLINK_FRAME,
    /* A header with a flit count outside 1..TESSERA_MAX_FLITS: the frame's
     * length is unknown, so the header is dropped and the next bytes are
     * read as a header. */
    TESSERA_HOSTLINK_DROPPED_BAD_FLITS,
    /* A header naming a thread this machine does not have: the header is
     * dropped and its payload will be skipped. */
    TESSERA_HOSTLINK_DROPPED_NO_THREAD,
    /* The control frame TESSERA_HOSTLINK_END_OF_INPUT: the host has
     * finished sending (until it sends another frame). */
    TESSERA_HOSTLINK_END_OF_INPUT_FRAME,
} TesseraHostlinkEvent;

typedef struct TesseraHostlinkParser TesseraHostlinkParser;

/* A parser for the link into a machine of this shape (a copy is kept).
 * NULL if memory runs out. */
TesseraHostlinkParser *tessera_hostlink_parser_new(const TesseraShape *shape);
void tessera_hostlink_parser_free(TesseraHostlinkParser *p);

/* How many bytes the parser will take now: 0 while a frame is held, else
 * the bytes up to the end of the header, payload or skipped payload it is
 * reading. A push of at most that many bytes takes them all, so a reader
 * that cannot give bytes back (a chardev) offers no more than this. */
size_t tessera_hostlink_parser_room(const TesseraHostlinkParser *p);

/* Takes bytes from `bytes` (len of them) up to the first event and returns
 * it, with *used set to the bytes taken and *header (may be NULL) to the
 * header the event is about (FRAME and both DROPPED events). Takes nothing
 * and returns FRAME while a frame is held. */
TesseraHostlinkEvent
tessera_hostlink_parser_push(TesseraHostlinkParser *p, const uint8_t *bytes,
                             size_t len, size_t *used,
                             TesseraHostlinkHeader *header);

/* The held frame's payload (header->flits * TESSERA_BYTES_PER_FLIT bytes),
 * with its header in *header (may be NULL); NULL if no frame is held. */
const uint8_t *tessera_hostlink_parser_frame(const TesseraHostlinkParser *p,
                                             TesseraHostlinkHeader *header);

/* The held frame has been handed on: the parser takes bytes again. Does
 * nothing if no frame is held. */
void tessera_hostlink_parser_release(TesseraHostlinkParser *p);

/* Why a DROPPED event dropped what it did, or what END_OF_INPUT_FRAME
 * means, for the log: writes a NUL-terminated sentence (no trailing
 * newline, truncated to `size`) and returns the length snprintf would.
 * Other events describe themselves as "". */
int tessera_hostlink_describe(TesseraHostlinkEvent event,
                              const TesseraHostlinkHeader *header, char *out,
                              size_t size);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_MODELS_HOSTLINK_H */
