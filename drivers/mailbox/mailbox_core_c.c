/*
 * The mailbox core compiled as C (gnu11), so that it stays usable from C: Tinsel's own programs
 * are C (tinsel.h in C, issue 12). Firmware build only, an object library that no image links.
 */
#include "tessera/drivers/mailbox_core.h"

uint32_t tessera_mbox_c_check(uint32_t dest, uint32_t thread_id, int vote);

uint32_t tessera_mbox_c_check(uint32_t dest, uint32_t thread_id, int vote)
{
    const uint32_t slot = tessera_mbox_slot_address(thread_id, 4, 0);
    volatile uint32_t *words = (volatile uint32_t *)tessera_mbox_pointer(slot);
    uint32_t got;

    words[0] = tessera_mbox_slots_per_thread(4);
    if (!tessera_mbox_slot_valid(tessera_mbox_bus_address(words))) {
        return 0;
    }
    tessera_mbox_wait_until(TESSERA_WAIT_CAN_SEND);
    if (tessera_mbox_can_send()) {
        tessera_mbox_set_len(0);
        tessera_mbox_send(dest, slot);
        tessera_mbox_multicast(dest >> 2, 0, 1, slot);
    }
    if (!tessera_mbox_can_recv()) {
        return (uint32_t)tessera_mbox_idle(vote);
    }
    got = tessera_mbox_recv();
    tessera_mbox_free(got);
    return got + tessera_mbox_last_fault();
}
