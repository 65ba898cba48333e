// tinselSendSlotExtra in Tinsel's dialect: an image that calls it keeps slot 1 back from
// receiving, so a thread may fill that slot while messages arrive. Threads exchange twice as
// many messages as they have slots with their partner (thread id ^ 1), so every slot hardware
// owns receives at least once, and slot 1's contents must survive. Built a second time with
// SLOT1_RECEIVES, without calling tinselSendSlotExtra: then slot 1 must receive, which shows the
// check can tell the difference.
//
// Exit status: 0 as expected; 1 slot 1 received (or, with SLOT1_RECEIVES, never did); 2 slot
// 1's contents changed; 3 a message carried the wrong payload.
#include <tinsel.h>

#define PATTERN 0x5107c0deu

int main(void)
{
    uint32_t me = tinselId();
    uint32_t partner = me ^ 1;
#ifdef SLOT1_RECEIVES
    volatile uint32_t* extra = tinselSlot(1);
#else
    volatile uint32_t* extra = tinselSendSlotExtra();
    extra[0] = PATTERN;
#endif
    uint32_t rounds = 2 * tinselMsgsPerThread();
    uint32_t sent = 0, received = 0, slot1_received = 0, bad_payload = 0;

    while (sent < rounds || received < rounds) {
        if (sent < rounds && tinselCanSend()) {
            volatile uint32_t* out = tinselSendSlot();
            out[0] = sent++;
            tinselSetLen(0);
            tinselSend(partner, out);
        } else if (received < rounds) {
            tinselWaitUntil(sent < rounds ? TINSEL_CAN_RECV | TINSEL_CAN_SEND : TINSEL_CAN_RECV);
            if (!tinselCanRecv()) continue;
            volatile uint32_t* in = tinselRecv();
            slot1_received += in == extra;
            bad_payload += in[0] != received++;
            tinselFree(in);
        }
    }

#ifdef SLOT1_RECEIVES
    if (slot1_received == 0) return 1;
    printf("extra send slot: slot 1 received %d of %d messages (no tinselSendSlotExtra)\n",
           slot1_received, rounds);
#else
    if (slot1_received != 0) return 1;
    if (extra[0] != PATTERN) return 2;
    // The extra slot sends like the other.
    tinselWaitUntil(TINSEL_CAN_SEND);
    tinselSetLen(0);
    tinselSend(partner, extra);
    tinselWaitUntil(TINSEL_CAN_RECV);
    volatile uint32_t* in = tinselRecv();
    bad_payload += in[0] != PATTERN;
    tinselFree(in);
    if (me == 0) printf("extra send slot: kept back through %d messages, then sent\n", rounds);
#endif
    return bad_payload != 0 ? 3 : 0;
}
