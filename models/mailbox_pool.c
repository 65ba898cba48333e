/*
 * Mailbox model: fixed-size message records from malloc'd chunks, so a
 * send costs no malloc once the pool has grown to the traffic in flight.
 */
#include "mailbox_internal.h"

#include <stdlib.h>
#include <string.h>

void mbox_pool_init(MboxPool *p, size_t size)
{
    p->size = size;
    p->free_list = NULL;
    p->chunks = NULL;
}

void *mbox_pool_get(MboxPool *p)
{
    void *obj;

    if (p->free_list == NULL) {
        /* The header keeps the objects as aligned as malloc's result. */
        size_t header = (sizeof(void *) + 15) & ~(size_t)15;
        char *chunk = malloc(header + p->size * MBOX_POOL_CHUNK);
        size_t i;

        if (chunk == NULL) {
            abort();
        }
        memcpy(chunk, &p->chunks, sizeof(void *));
        p->chunks = chunk;
        for (i = 0; i < MBOX_POOL_CHUNK; i++) {
            obj = chunk + header + i * p->size;
            memcpy(obj, &p->free_list, sizeof(void *));
            p->free_list = obj;
        }
    }
    obj = p->free_list;
    memcpy(&p->free_list, obj, sizeof(void *));
    return obj;
}

void mbox_pool_put(MboxPool *p, void *obj)
{
    memcpy(obj, &p->free_list, sizeof(void *));
    p->free_list = obj;
}

void mbox_pool_destroy(MboxPool *p)
{
    while (p->chunks != NULL) {
        void *chunk = p->chunks;

        memcpy(&p->chunks, chunk, sizeof(void *));
        free(chunk);
    }
}
